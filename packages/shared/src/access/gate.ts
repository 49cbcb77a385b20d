import { CONFIG_RELOAD_EXPIRED_MS, CONFIG_RELOAD_MS } from '../constants';
import type { MessageKey } from '../messages';
import { areAllExpired } from './billing';
import { type AccessRouteName, isPublicRouteName } from './routes-used';
import type { SpaceLike } from './types';

// docs/product/states.md access gate: which screen a signed-in user gets for a route, given their spaces' expiry and
// the two-factor requirement. Pure: the web router runs it before every navigation, and the server can
// use it to decide what to serve.

type GateSpace = Pick<SpaceLike, 'expires_at' | 'is_trial'>;

export interface AccessGateInput {
  spaces: readonly GateSpace[];
  /** Administrator (settings role) of at least one space — see isAdminAnywhere. */
  isAdmin: boolean;
  /** Config otp_required: the user must set up two-factor authentication first. */
  otpRequired: boolean;
  /** Name of the route being opened (a name the router has, usually one of ACCESS_ROUTE_NAMES). */
  routeName: string;
  /** Unix seconds. */
  nowSeconds: number;
}

export type AccessGateResult =
  | { kind: 'ok' }
  | { kind: 'redirect'; to: AccessRouteName }
  | { kind: 'paid-over'; trial: boolean; messageKey: MessageKey };

/**
 * docs/product/states.md: with otp_required only profile and billing pages are reachable. Billing includes its
 * report page, which is part of paying.
 */
export const OTP_ALLOWED_ROUTES = [
  'settings-profile',
  'settings-billing',
  'settings-billing-report',
] as const;

/**
 * Pages an administrator still opens when every space is expired (docs/product/states.md "allowed list"): paying
 * (billing and its report), and the user's own account — profile (password, two-factor, which an
 * otp_required user must reach), my settings (language, interface), and the referral program, whose
 * partner payouts do not depend on the partner's own subscription.
 */
export const EXPIRED_ADMIN_ALLOWED_ROUTES = [
  'settings-billing',
  'settings-billing-report',
  'settings-profile',
  'settings-config',
  'settings-referral',
] as const;

/**
 * A non-administrator cannot pay, so every page shows paid-over — except their own account pages,
 * which hold no space data (and where an otp_required user sets up two-factor).
 */
export const EXPIRED_MEMBER_ALLOWED_ROUTES = ['settings-profile', 'settings-config'] as const;

const includes = (list: readonly string[], name: string) => list.includes(name);

/**
 * Order: public routes always pass; then two-factor (security comes before paying: the user is sent
 * to the profile to set it up); then expiry. "All spaces expired" needs at least one space — a user
 * without spaces is not shown paid-over (docs/product/roles.md menus simply stay empty).
 */
export function accessGate(input: AccessGateInput): AccessGateResult {
  const { routeName } = input;
  if (isPublicRouteName(routeName)) return { kind: 'ok' };

  if (input.otpRequired && !includes(OTP_ALLOWED_ROUTES, routeName)) {
    return { kind: 'redirect', to: 'settings-profile' };
  }

  if (areAllExpired(input.spaces, input.nowSeconds)) {
    if (input.isAdmin) {
      return includes(EXPIRED_ADMIN_ALLOWED_ROUTES, routeName)
        ? { kind: 'ok' }
        : { kind: 'redirect', to: 'settings-billing' };
    }
    if (includes(EXPIRED_MEMBER_ALLOWED_ROUTES, routeName)) return { kind: 'ok' };
    // Every space is expired here, so "all trials" decides which text the user reads.
    const trial = input.spaces.every((space) => space.is_trial);
    return { kind: 'paid-over', trial, messageKey: paidOverMessageKey(trial) };
  }

  return { kind: 'ok' };
}

/** 'Тестовый период закончился' for trials, 'Оплаченный период закончился' otherwise (docs/product/states.md). */
export function paidOverMessageKey(trial: boolean): MessageKey {
  return trial ? 'access.trialOver' : 'access.paidOver';
}

/** docs/product/limits.md: reload the config after 8 hours, or after 10 minutes while every space is expired. */
export function configReloadMs(spaces: readonly GateSpace[], nowSeconds: number): number {
  return areAllExpired(spaces, nowSeconds) ? CONFIG_RELOAD_EXPIRED_MS : CONFIG_RELOAD_MS;
}
