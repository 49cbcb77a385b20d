import { useSyncExternalStore } from 'react';

// docs/product/errors.md: a network error while loading the config sets a network-error flag; the shell shows it until
// the config loads again.

let flagged = false;
const listeners = new Set<() => void>();

export function setNetworkError(value: boolean) {
  if (flagged === value) return;
  flagged = value;
  for (const listener of listeners) listener();
}

export function useNetworkError(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => flagged,
  );
}
