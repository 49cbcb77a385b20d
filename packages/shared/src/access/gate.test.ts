import { describe, expect, it } from 'vitest';
import { CONFIG_RELOAD_EXPIRED_MS, CONFIG_RELOAD_MS } from '../constants';
import {
  type AccessGateInput,
  type AccessGateResult,
  accessGate,
  configReloadMs,
  EXPIRED_ADMIN_ALLOWED_ROUTES,
  EXPIRED_MEMBER_ALLOWED_ROUTES,
  OTP_ALLOWED_ROUTES,
  paidOverMessageKey,
} from './gate';
import { ACCESS_ROUTE_NAMES, PUBLIC_ROUTE_NAMES } from './routes-used';
import { TEST_NOW } from './test-factories';

const NOW = TEST_NOW;
const active = { expires_at: NOW + 86_400, is_trial: false };
const activeTrial = { expires_at: NOW + 86_400, is_trial: true };
const expiredPaid = { expires_at: NOW, is_trial: false };
const expiredTrial = { expires_at: NOW - 1, is_trial: true };

const gate = (over: Partial<AccessGateInput>): AccessGateResult =>
  accessGate({
    spaces: [active],
    isAdmin: false,
    otpRequired: false,
    routeName: 'items',
    nowSeconds: NOW,
    ...over,
  });

const OK: AccessGateResult = { kind: 'ok' };
const toBilling: AccessGateResult = { kind: 'redirect', to: 'settings-billing' };
const toProfile: AccessGateResult = { kind: 'redirect', to: 'settings-profile' };
const trialOver: AccessGateResult = { kind: 'paid-over', trial: true, messageKey: 'access.trialOver' };
const paidOver: AccessGateResult = { kind: 'paid-over', trial: false, messageKey: 'access.paidOver' };

describe('access gate (docs/product/states.md)', () => {
  it.each<[string, Partial<AccessGateInput>, AccessGateResult]>([
    // Nothing expired
    ['member, active space', {}, OK],
    ['admin, active space', { isAdmin: true }, OK],
    ['one space expired, another active', { spaces: [expiredPaid, active] }, OK],
    ['no spaces at all', { spaces: [] }, OK],
    // All expired, admin
    ['admin, all expired, comments → billing', { isAdmin: true, spaces: [expiredPaid] }, toBilling],
    [
      'admin, all expired, stats → billing',
      { isAdmin: true, spaces: [expiredTrial], routeName: 'stats' },
      toBilling,
    ],
    [
      'admin, all expired, billing',
      { isAdmin: true, spaces: [expiredPaid], routeName: 'settings-billing' },
      OK,
    ],
    [
      'admin, all expired, billing report',
      { isAdmin: true, spaces: [expiredPaid], routeName: 'settings-billing-report' },
      OK,
    ],
    [
      'admin, all expired, profile',
      { isAdmin: true, spaces: [expiredPaid], routeName: 'settings-profile' },
      OK,
    ],
    [
      'admin, all expired, accounts',
      { isAdmin: true, spaces: [expiredPaid], routeName: 'settings-accounts' },
      toBilling,
    ],
    // All expired, member
    ['member, all trials expired', { spaces: [expiredTrial] }, trialOver],
    ['member, paid expired', { spaces: [expiredPaid] }, paidOver],
    ['member, trial and paid expired', { spaces: [expiredTrial, expiredPaid] }, paidOver],
    ['member, all expired, billing', { spaces: [expiredTrial], routeName: 'settings-billing' }, trialOver],
    ['member, all expired, profile', { spaces: [expiredPaid], routeName: 'settings-profile' }, OK],
    ['member, expiry at this very second', { spaces: [{ expires_at: NOW, is_trial: true }] }, trialOver],
    ['member, 1 s left', { spaces: [{ expires_at: NOW + 1, is_trial: true }] }, OK],
    // Two-factor required
    ['otp: comments → profile', { otpRequired: true }, toProfile],
    ['otp: settings → profile', { otpRequired: true, routeName: 'settings' }, toProfile],
    ['otp: profile', { otpRequired: true, routeName: 'settings-profile' }, OK],
    ['otp: billing', { otpRequired: true, routeName: 'settings-billing' }, OK],
    ['otp: billing report', { otpRequired: true, routeName: 'settings-billing-report' }, OK],
    ['otp: my settings → profile', { otpRequired: true, routeName: 'settings-config' }, toProfile],
    // Both
    [
      'otp + admin all expired: comments → profile first',
      { otpRequired: true, isAdmin: true, spaces: [expiredPaid] },
      toProfile,
    ],
    [
      'otp + admin all expired: billing',
      { otpRequired: true, isAdmin: true, spaces: [expiredPaid], routeName: 'settings-billing' },
      OK,
    ],
    [
      'otp + member all expired: billing shows paid-over',
      { otpRequired: true, spaces: [expiredPaid], routeName: 'settings-billing' },
      paidOver,
    ],
    [
      'otp + member all expired: profile',
      { otpRequired: true, spaces: [expiredTrial], routeName: 'settings-profile' },
      OK,
    ],
    // Public routes are never gated
    [
      'public route, otp and all expired',
      { otpRequired: true, spaces: [expiredPaid], routeName: 'login' },
      OK,
    ],
    // A route the router has but the list does not
    [
      'unknown route, all expired admin',
      { isAdmin: true, spaces: [expiredPaid], routeName: 'not-found' },
      toBilling,
    ],
  ])('%s', (_, input, expected) => {
    expect(gate(input)).toEqual(expected);
  });

  it.each(PUBLIC_ROUTE_NAMES)('public route %s is never gated', (routeName) => {
    expect(gate({ routeName, otpRequired: true, spaces: [expiredPaid] })).toEqual(OK);
    expect(gate({ routeName, isAdmin: true, spaces: [expiredPaid] })).toEqual(OK);
  });

  it('allowed lists hold known route names, and a member is allowed less than an admin', () => {
    for (const name of [
      ...OTP_ALLOWED_ROUTES,
      ...EXPIRED_ADMIN_ALLOWED_ROUTES,
      ...EXPIRED_MEMBER_ALLOWED_ROUTES,
    ]) {
      expect(ACCESS_ROUTE_NAMES).toContain(name);
    }
    for (const name of EXPIRED_MEMBER_ALLOWED_ROUTES) expect(EXPIRED_ADMIN_ALLOWED_ROUTES).toContain(name);
  });

  it('paid-over texts', () => {
    expect(paidOverMessageKey(true)).toBe('access.trialOver');
    expect(paidOverMessageKey(false)).toBe('access.paidOver');
  });
});

describe('configReloadMs (docs/product/limits.md)', () => {
  it.each([
    ['active spaces: 8 h', [active, expiredPaid], CONFIG_RELOAD_MS],
    ['active trial: 8 h', [activeTrial], CONFIG_RELOAD_MS],
    ['no spaces: 8 h', [], CONFIG_RELOAD_MS],
    ['all expired: 10 min', [expiredPaid, expiredTrial], CONFIG_RELOAD_EXPIRED_MS],
  ])('%s', (_, spaces, expected) => {
    expect(configReloadMs(spaces, NOW)).toBe(expected);
  });

  it('values', () => {
    expect(CONFIG_RELOAD_MS).toBe(8 * 3_600_000);
    expect(CONFIG_RELOAD_EXPIRED_MS).toBe(10 * 60_000);
  });
});
