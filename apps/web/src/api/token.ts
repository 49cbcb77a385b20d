import { useSyncExternalStore } from 'react';
import { api } from './instance';

// Apart from me.ts, so the auth guard of the first screen does not bring the profile's queries and
// mutations (and the query observers they need) into the first download.

/** Whether a token is stored (re-renders on login, refresh, logout). */
export function useHasToken(): boolean {
  return useSyncExternalStore(api.subscribe, () => api.getToken() !== null);
}
