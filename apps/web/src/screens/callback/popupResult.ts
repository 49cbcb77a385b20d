import type { MessageKey } from '@otklik/shared';
import type { ConnectedAccount } from '../../api/inboxTypes';

// Connecting an account in a popup (docs/product/screens-and-routes.md login-required callback routes, §3 "Popup result", §8 provider
// callbacks). The network sends the popup back to /callback/{provider}; that page finishes the connect and
// leaves the outcome in local storage, where the window that opened the popup picks it up (a `storage`
// event reaches every other window of the origin, even when the network's pages cut `window.opener`).
// Everything here is pure, so the rules are unit-tested without a browser.

/** The local-storage key of the popup result. */
export const POPUP_RESULT_KEY = 'otklik.popup';

/** The name the add-account screen gives its popup: the callback page knows it runs in one. */
export const POPUP_WINDOW_NAME = 'otklik-connect';

/** docs/product/entities.md "Popup result": status, user, source, error — plus the account and when it was written. */
export interface PopupResult {
  status: 'success' | 'failure';
  /** The signed-in user who connected (null when unknown). */
  user: number | null;
  /** The provider id. */
  source: string;
  /** The failure's text, already in the user's language. */
  error: string | null;
  /** The connected account (success). */
  account?: ConnectedAccount;
  /** When it was written (ms): an opener ignores results older than its own popup. */
  at: number;
}

/** The query parameters a network adds to the callback address; everything else was ours. */
const NETWORK_PARAMS = ['code', 'state', 'check', 'error', 'error_description', 'error_reason', 'error_code'];

export type CallbackOutcome =
  | { kind: 'exchange'; code: string; state: string | undefined }
  | { kind: 'failure'; message: { key: MessageKey } | { text: string } };

/**
 * What the callback page does with the query the network sent back (docs/product/errors.md): a refusal and a missing
 * code are failures decided here, without calling the server; a code is exchanged.
 */
export function callbackOutcome(query: URLSearchParams): CallbackOutcome {
  const error = query.get('error');
  if (error) {
    if (error === 'access_denied') return { kind: 'failure', message: { key: 'error.accessDenied' } };
    return { kind: 'failure', message: { text: query.get('error_description') || error } };
  }
  const code = query.get('code');
  if (!code) return { kind: 'failure', message: { key: 'error.missingCode' } };
  return { kind: 'exchange', code, state: query.get('state') ?? undefined };
}

/**
 * Pulse's sign-in sends /callback/tpulse a signed `check` (carrying our state) instead of a code: it goes
 * to POST v1/tpulse/check_auth as it is. Null when the network refused or sent none.
 */
export function pulseCheckOf(query: URLSearchParams): string | null {
  if (query.get('error')) return null;
  return query.get('check') || null;
}

/**
 * The callback address exactly as it was given to the network (`start` binds it into the state, the
 * network compares it on the code exchange): this page's address without what the network added.
 * VK's community flow carries `?group_id=` on it.
 */
export function callbackRedirectUri(href: string): string {
  const url = new URL(href);
  for (const name of NETWORK_PARAMS) url.searchParams.delete(name);
  url.hash = '';
  return url.search ? `${url.origin}${url.pathname}${url.search}` : `${url.origin}${url.pathname}`;
}

/** The callback address for a provider, with the extra parameters the network's flow needs. */
export function callbackUrlFor(origin: string, provider: string, extra: Record<string, string> = {}): string {
  const url = new URL(`/callback/${provider}`, origin);
  for (const [key, value] of Object.entries(extra)) if (value) url.searchParams.set(key, value);
  return url.toString();
}

/** The provider a callback path belongs to: '/callback/vk' → 'vk'. */
export function providerOfCallbackPath(pathname: string): string | null {
  const name = /^\/callback\/([a-z_]+)\/?$/.exec(pathname)?.[1] ?? null;
  // docs/product/screens-and-routes.md: /callback/google is Google Business Profile's too (issue 19).
  return name === 'google' ? 'gmaps' : name;
}

export function serializePopupResult(result: PopupResult): string {
  return JSON.stringify(result);
}

/** The stored value, if it is a popup result at all. */
export function parsePopupResult(raw: string | null | undefined): PopupResult | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const r = value as Record<string, unknown>;
  if (r.status !== 'success' && r.status !== 'failure') return null;
  if (typeof r.source !== 'string' || typeof r.at !== 'number') return null;
  return {
    status: r.status,
    user: typeof r.user === 'number' ? r.user : null,
    source: r.source,
    error: typeof r.error === 'string' ? r.error : null,
    account: r.account && typeof r.account === 'object' ? (r.account as ConnectedAccount) : undefined,
    at: r.at,
  };
}

export interface AwaitedPopup {
  /** The provider whose popup is open. */
  source: string;
  /** When the popup was opened (ms). */
  since: number;
  /** The signed-in user; a result another user's session wrote is not ours. */
  user: number | null;
}

/**
 * The result the opener waits for, from a stored value: the right key, the same provider and user, and
 * written after the popup was opened (an old result of an earlier attempt is ignored).
 */
export function matchPopupResult(
  key: string | null,
  raw: string | null,
  awaited: AwaitedPopup,
): PopupResult | null {
  if (key !== POPUP_RESULT_KEY) return null;
  const result = parsePopupResult(raw);
  if (!result) return null;
  if (result.source !== awaited.source || result.at < awaited.since) return null;
  if (awaited.user !== null && result.user !== null && result.user !== awaited.user) return null;
  return result;
}

/** Whether this window was opened by the add-account screen as a popup. */
export function isPopupWindow(win: { opener: unknown; name: string }): boolean {
  return Boolean(win.opener) || win.name === POPUP_WINDOW_NAME;
}

/** Popup size and position: centred over the opener, like the networks' own dialogs expect. */
export function popupFeatures(screen: { width: number; height: number; left: number; top: number }): string {
  const width = Math.min(640, screen.width);
  const height = Math.min(720, screen.height);
  const left = Math.max(0, Math.round(screen.left + (screen.width - width) / 2));
  const top = Math.max(0, Math.round(screen.top + (screen.height - height) / 2));
  return `popup=yes,width=${width},height=${height},left=${left},top=${top}`;
}
