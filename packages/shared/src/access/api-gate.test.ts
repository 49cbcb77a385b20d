import { describe, expect, it } from 'vitest';
import { type ApiGateResult, apiAccessGate, apiRouteArea } from './api-gate';
import type { AccessGateInput } from './gate';
import { TEST_NOW } from './test-factories';

const NOW = TEST_NOW;
const active = { expires_at: NOW + 86_400, is_trial: false };
const expiredPaid = { expires_at: NOW - 1, is_trial: false };
const expiredTrial = { expires_at: NOW - 1, is_trial: true };

const gate = (call: string, over: Partial<Omit<AccessGateInput, 'routeName'>> = {}): ApiGateResult => {
  const [method, path] = call.split(' ') as [string, string];
  return apiAccessGate({
    spaces: [active],
    isAdmin: false,
    otpRequired: false,
    nowSeconds: NOW,
    method,
    path,
    ...over,
  });
};

const OK: ApiGateResult = { kind: 'ok' };
const OTP: ApiGateResult = { kind: 'otp-required', messageKey: 'access.otpRequired' };
const TRIAL_OVER: ApiGateResult = { kind: 'paid-over', trial: true, messageKey: 'access.trialOver' };
const PAID_OVER: ApiGateResult = { kind: 'paid-over', trial: false, messageKey: 'access.paidOver' };

describe('API operations by screen', () => {
  it.each([
    ['GET', '/v1/me', 'settings-profile'],
    ['POST', '/v1/me/otp/confirm', 'settings-profile'],
    ['DELETE', '/v1/me/social/:provider', 'settings-profile'],
    ['GET', '/v1/billing', 'settings-billing'],
    ['POST', '/v1/billing/payments/:id', 'settings-billing'],
    ['get', '/v1/me', 'settings-profile'],
    ['HEAD', '/v1/me', 'settings-profile'],
    ['GET', '/v1/items', 'stats'],
    ['PUT', '/v1/me/status', 'stats'],
    ['GET', '/v1/billingsomething', 'stats'],
    ['GET', '/v1/ws', 'stats'],
  ])('%s %s → %s', (method, path, area) => {
    expect(apiRouteArea(method, path)).toBe(area);
  });
});

describe('access gate for API calls (docs/product/states.md, same rules as the pages)', () => {
  it.each<[string, string, Partial<Omit<AccessGateInput, 'routeName'>>, ApiGateResult]>([
    ['nothing restricted', 'GET /v1/items', {}, OK],
    ['otp: content', 'GET /v1/items', { otpRequired: true }, OTP],
    ['otp: the socket', 'GET /v1/ws', { otpRequired: true }, OTP],
    ['otp: own status', 'PUT /v1/me/status', { otpRequired: true }, OTP],
    ['otp: profile', 'PUT /v1/me', { otpRequired: true }, OK],
    ['otp: two-factor setup', 'POST /v1/me/otp', { otpRequired: true }, OK],
    ['otp: billing', 'GET /v1/billing/tariffs', { otpRequired: true }, OK],
    ['otp: config', 'GET /v1/config', { otpRequired: true }, OK],
    ['otp: logout', 'POST /v1/oauth2/revoke', { otpRequired: true }, OK],
    ['member, trial over: content', 'GET /v1/chats', { spaces: [expiredTrial] }, TRIAL_OVER],
    ['member, paid over: content', 'GET /v1/chats', { spaces: [expiredTrial, expiredPaid] }, PAID_OVER],
    ['member, expired: billing (cannot pay)', 'GET /v1/billing', { spaces: [expiredPaid] }, PAID_OVER],
    ['member, expired: profile', 'GET /v1/me', { spaces: [expiredPaid] }, OK],
    ['admin, expired: content', 'GET /v1/users', { spaces: [expiredPaid], isAdmin: true }, PAID_OVER],
    ['admin, trial expired: content', 'GET /v1/users', { spaces: [expiredTrial], isAdmin: true }, TRIAL_OVER],
    ['admin, expired: billing', 'POST /v1/billing/pay', { spaces: [expiredPaid], isAdmin: true }, OK],
    ['admin, expired: config', 'GET /v1/config', { spaces: [expiredPaid], isAdmin: true }, OK],
    ['one of two spaces expired', 'GET /v1/items', { spaces: [expiredPaid, active] }, OK],
    ['no spaces (removed from every one)', 'GET /v1/items', { spaces: [] }, OK],
    [
      'otp first, then expiry',
      'GET /v1/items',
      { otpRequired: true, spaces: [expiredPaid], isAdmin: true },
      OTP,
    ],
  ])('%s: %s', (_, call, over, expected) => {
    expect(gate(call, over)).toEqual(expected);
  });
});
