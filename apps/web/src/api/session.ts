import { LOCALE_STORAGE_KEY } from '../i18n/detect';
import { removeStorage } from '../lib/storage';
import type { LogoutReason } from './client';

// The API client ends sessions outside React (refresh impossible or rejected); the router-aware
// SessionEffects component listens here and navigates to /login.

type Listener = (reason: LogoutReason) => void;
const listeners = new Set<Listener>();

export function onSessionEnded(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitSessionEnded(reason: LogoutReason) {
  for (const listener of listeners) listener(reason);
}

/** Forget everything this browser kept for the user (keeps only the chosen interface language). */
export function clearAppStorage() {
  try {
    const keys: string[] = [];
    for (let i = 0; i < window.localStorage.length; i++) {
      const key = window.localStorage.key(i);
      if (key?.startsWith('otklik.') && key !== LOCALE_STORAGE_KEY) keys.push(key);
    }
    for (const key of keys) removeStorage(key);
    window.sessionStorage.clear();
  } catch {
    // Storage unavailable: nothing was kept.
  }
}

/** Where to come back after signing in: only same-site paths. */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

export function loginPath(redirect?: string | null): string {
  const target = safeRedirect(redirect);
  return target && target !== '/' ? `/login?redirect=${encodeURIComponent(target)}` : '/login';
}

// Where the auth guard sends a user who just logged out on purpose (plain /login, or with a redirect
// when asked). Without it the guard adds `redirect` back to the page being left.
let logoutTarget: string | null = null;

export function setLogoutTarget(path: string | null) {
  logoutTarget = path;
}

export function getLogoutTarget(): string | null {
  return logoutTarget;
}
