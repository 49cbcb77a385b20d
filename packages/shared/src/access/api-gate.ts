import type { MessageKey } from '../messages';
import { type AccessGateInput, accessGate, paidOverMessageKey } from './gate';
import type { AccessRouteName } from './routes-used';

// docs/product/states.md access gate for API calls (issue 11 item 6). The server does not keep its own list of what
// a restricted user may call: each API operation that serves a screen reachable in a restricted state
// names that screen, and accessGate — the rules the web router runs — decides. So "otp_required
// reaches only profile and billing" and "an expired admin reaches billing, profile and my settings"
// hold for the API exactly as for the pages.

/**
 * Operations the signed-in shell needs in every state: the config (it tells the app which state it is
 * in, so the app can show the two-factor or paid-over screen) and logout.
 */
export const API_ALWAYS_ALLOWED: readonly string[] = ['GET /v1/config', 'POST /v1/oauth2/revoke'];

/**
 * The screen whose data an operation is, for the operations some restricted state allows. Keys are
 * `METHOD /v1/path` with the server's route pattern; `* /v1/billing/*` covers every method under the
 * prefix. An operation not listed is content of the main area ('stats'): closed in every restricted
 * state, so a new endpoint is gated unless it is added here on purpose.
 */
export const API_ROUTE_AREAS: Readonly<Record<string, AccessRouteName>> = {
  // Profile: the user's own record and settings, email, password, two-factor, linked social accounts.
  'GET /v1/me': 'settings-profile',
  'PUT /v1/me': 'settings-profile',
  'PUT /v1/me/email': 'settings-profile',
  'POST /v1/send_confirm_email': 'settings-profile',
  'PUT /v1/me/password': 'settings-profile',
  'POST /v1/me/otp': 'settings-profile',
  'POST /v1/me/otp/confirm': 'settings-profile',
  'DELETE /v1/me/otp': 'settings-profile',
  'GET /v1/me/social': 'settings-profile',
  'POST /v1/me/social': 'settings-profile',
  'DELETE /v1/me/social/:provider': 'settings-profile',
  // Deleting one's own data (issue 13 item 11) stays possible when the spaces are paid over.
  'GET /v1/me/deleterequest': 'settings-profile',
  'POST /v1/me/deleterequest': 'settings-profile',
  'DELETE /v1/me/deleterequest/:id': 'settings-profile',
  // Paying (tariffs, payments, the billing report).
  '* /v1/billing': 'settings-billing',
  '* /v1/billing/*': 'settings-billing',
};

/** HEAD asks for what GET answers (the server answers HEAD for every GET route). */
const httpVerb = (method: string) => (method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase());

/** The screen an API operation belongs to (see API_ROUTE_AREAS); 'stats' when it is not listed. */
export function apiRouteArea(method: string, path: string): AccessRouteName {
  const verb = httpVerb(method);
  const exact = API_ROUTE_AREAS[`${verb} ${path}`] ?? API_ROUTE_AREAS[`* ${path}`];
  if (exact) return exact;
  for (const [key, area] of Object.entries(API_ROUTE_AREAS)) {
    if (!key.endsWith('/*')) continue;
    const [keyMethod, pattern] = key.split(' ') as [string, string];
    const matchesMethod = keyMethod === '*' || keyMethod === verb;
    if (matchesMethod && path.startsWith(pattern.slice(0, -1))) return area;
  }
  return 'stats';
}

export type ApiGateResult =
  | { kind: 'ok' }
  /** 403 `otp_required`: set up two-factor authentication in the profile first. */
  | { kind: 'otp-required'; messageKey: MessageKey }
  /** 402 `paid_over`: every space's paid (or trial) period is over. */
  | { kind: 'paid-over'; trial: boolean; messageKey: MessageKey };

/** The access gate for one API operation: the page rules applied to the screen the operation serves. */
export function apiAccessGate(
  input: Omit<AccessGateInput, 'routeName'> & { method: string; path: string },
): ApiGateResult {
  const { method, path, ...state } = input;
  if (API_ALWAYS_ALLOWED.includes(`${httpVerb(method)} ${path}`)) return { kind: 'ok' };
  const result = accessGate({ ...state, routeName: apiRouteArea(method, path) });
  if (result.kind === 'ok') return result;
  if (result.kind === 'paid-over') return result;
  // The page gate sends a user who must set up two-factor to the profile, and an administrator of
  // expired spaces to billing.
  if (result.to === 'settings-profile') return { kind: 'otp-required', messageKey: 'access.otpRequired' };
  const trial = state.spaces.every((space) => space.is_trial);
  return { kind: 'paid-over', trial, messageKey: paidOverMessageKey(trial) };
}
