import { type AccessGateInput, type ApiGateResult, apiAccessGate } from '@otklik/shared';
import { AppError } from '../lib/errors';
import type { MembershipRow, UserRow } from './actor';

// docs/product/states.md access gate on the server (issue 11 item 6): the rules of packages/shared/src/access
// (apiAccessGate → accessGate) applied to every authenticated call and to the socket, from the
// memberships the session lookup already read — no extra query per request.

export type GateState = Omit<AccessGateInput, 'routeName' | 'nowSeconds'>;

/**
 * What the gate reads of a user: the expiry of each space, whether they administer any, and
 * otp_required — set when any of their spaces requires two-factor and they have not turned it on (as
 * GET /v1/config reports it).
 */
export function gateState(user: Pick<UserRow, 'otpEnabled'>, rows: readonly MembershipRow[]): GateState {
  return {
    spaces: rows.map(({ space }) => ({
      expires_at: Math.floor(space.expiresAt.getTime() / 1000),
      is_trial: space.isTrial,
    })),
    isAdmin: rows.some(({ membership }) => membership.roles.settings === true),
    otpRequired: !user.otpEnabled && rows.some(({ space }) => space.settings.otp_required === true),
  };
}

/** The gate's answer for one operation (`method` + the route pattern, e.g. `GET /v1/items/:id`). */
export function gateFor(state: GateState, method: string, path: string): ApiGateResult {
  return apiAccessGate({ ...state, method, path, nowSeconds: Math.floor(Date.now() / 1000) });
}

/**
 * The refusal as an API error: 403 `otp_required`, or 402 `paid_over` with SPEC's 'Тестовый период
 * закончился' / 'Оплаченный период закончился' (and `trial` so a client can tell them apart).
 */
export function gateError(result: Exclude<ApiGateResult, { kind: 'ok' }>): AppError {
  if (result.kind === 'otp-required')
    return new AppError(403, result.messageKey, { errorType: 'otp_required' });
  return new AppError(402, result.messageKey, { errorType: 'paid_over', body: { trial: result.trial } });
}
