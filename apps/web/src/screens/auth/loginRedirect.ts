import { safeRedirect } from '../../api/session';

// The `redirect` of /login survives the round trip through a social provider in sessionStorage.
const KEY = 'otklik.loginRedirect';

export function rememberLoginRedirect(redirect: string | null) {
  try {
    const target = safeRedirect(redirect);
    if (target) window.sessionStorage.setItem(KEY, target);
    else window.sessionStorage.removeItem(KEY);
  } catch {
    // Not remembered: the user lands on the home screen.
  }
}

export function takeLoginRedirect(): string {
  try {
    const target = safeRedirect(window.sessionStorage.getItem(KEY));
    window.sessionStorage.removeItem(KEY);
    return target ?? '/';
  } catch {
    return '/';
  }
}
