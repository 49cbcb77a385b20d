import {
  BILLING_BLUE_DAYS,
  BILLING_RED_DAYS,
  BILLING_YELLOW_DAYS,
  DELETION_AFTER_EXPIRY_PAID_S,
  DELETION_AFTER_EXPIRY_TRIAL_S,
} from '../constants';
import type { MessageKey } from '../messages';
import type { SpaceLike } from './types';

// docs/product/states.md billing state of a space by its expiry, and its deletion date. All times are unix seconds.

export const DAY_S = 86_400;

export const BILLING_STATES = ['red', 'yellow', 'blue', 'white'] as const;
export type BillingState = (typeof BILLING_STATES)[number];

type Expiring = Pick<SpaceLike, 'expires_at'>;

/** A space is expired from its expires_at second on (at exactly expires_at nothing remains). */
export function isExpired(space: Expiring, nowSeconds: number): boolean {
  return space.expires_at <= nowSeconds;
}

/**
 * Days that remain, counting a started day as a whole one: ceil(remaining seconds / 86400), and 0 once
 * expired. So "3 days or less remain" means at most 259200 s remain: 3 days + 1 s is 4 days.
 */
export function daysRemaining(space: Expiring, nowSeconds: number): number {
  const remaining = space.expires_at - nowSeconds;
  return remaining <= 0 ? 0 : Math.ceil(remaining / DAY_S);
}

/**
 * docs/product/states.md: red if expired; yellow if 3 days or less remain; blue for 4 to 7 days, or for a trial with
 * more than 7 days; otherwise white.
 */
export function billingState(
  space: Pick<SpaceLike, 'expires_at' | 'is_trial'>,
  nowSeconds: number,
): BillingState {
  const days = daysRemaining(space, nowSeconds);
  if (days <= BILLING_RED_DAYS) return 'red';
  if (days <= BILLING_YELLOW_DAYS) return 'yellow';
  if (days <= BILLING_BLUE_DAYS || space.is_trial) return 'blue';
  return 'white';
}

/** docs/product/states.md: the date the space's data is deleted: expiry + 3 days (trial) or + 7 days (paid), unix s. */
export function deletionDate(space: Pick<SpaceLike, 'expires_at' | 'is_trial'>): number {
  return space.expires_at + (space.is_trial ? DELETION_AFTER_EXPIRY_TRIAL_S : DELETION_AFTER_EXPIRY_PAID_S);
}

/** docs/product/states.md: an expired space shows 'Блокировка' / 'Need Payment' in the tariff dropdown. */
export function billingBadgeKey(space: Expiring, nowSeconds: number): MessageKey | null {
  return isExpired(space, nowSeconds) ? 'billing.needPayment' : null;
}

/** True when the user has spaces and every one of them is expired (docs/product/states.md access gate, §9 reload). */
export function areAllExpired(spaces: readonly Expiring[], nowSeconds: number): boolean {
  return spaces.length > 0 && spaces.every((space) => isExpired(space, nowSeconds));
}
