import { notifications } from '@mantine/notifications';
import { NETWORK_ERROR_TOAST_MS } from '@otklik/shared';
import { currentLocale } from '../i18n';
import { translate } from '../i18n/sharedMessages';
import { safeLocalStorage } from '../lib/storage';
import { createApiClient } from './client';
import { queryKeys } from './keys';
import { setNoAccess } from './noAccess';
import { queryClient } from './queryClient';
import { emitSessionEnded } from './session';

declare global {
  interface Window {
    /** API origins, tried in turn on network errors (docs/product/api.md). Default: the page's own origin. */
    OTKLIK_API_BASES?: string[];
  }
}

function apiBases(): string[] {
  const fromWindow = window.OTKLIK_API_BASES;
  const fromEnv = (import.meta.env.VITE_API_BASES as string | undefined)?.split(',');
  const list = Array.isArray(fromWindow) && fromWindow.length > 0 ? fromWindow : (fromEnv ?? ['']);
  return list.map((base) => base.trim().replace(/\/+$/, ''));
}

/** The app's API client. */
export const api = createApiClient({
  fetch: (input, init) => window.fetch(input, init),
  storage: safeLocalStorage,
  bases: apiBases(),
  getLocale: currentLocale,
  translate,
  onLogout: (reason) => emitSessionEnded(reason),
  onNetworkError: () => {
    notifications.show({
      id: 'network-error',
      color: 'red',
      message: translate(currentLocale(), 'error.serviceUnavailable'),
      autoClose: NETWORK_ERROR_TOAST_MS,
    });
  },
  onForbidden: (message) => setNoAccess(message),
  // The gate's state changed under the open app: reload the config, and the shell shows the two-factor
  // redirect or the paid-over page (app/Shell.tsx) instead of an error.
  onAccessGate: () =>
    void queryClient.invalidateQueries({ queryKey: queryKeys.config }, { cancelRefetch: false }),
});
