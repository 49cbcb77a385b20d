import { useSyncExternalStore } from 'react';

// docs/product/roles.md/errors.md: a 403 replaces the main screen with the No-access page (server text); cleared on route change.

let message: string | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function setNoAccess(text: string) {
  message = text;
  emit();
}

export function clearNoAccess() {
  if (message === null) return;
  message = null;
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The no-access message ('' = use the default text), or null when access is fine. */
export function useNoAccess(): string | null {
  return useSyncExternalStore(subscribe, () => message);
}
