import { describe, expect, it } from 'vitest';
import {
  areAllExpired,
  type BillingState,
  billingBadgeKey,
  billingState,
  DAY_S,
  daysRemaining,
  deletionDate,
  isExpired,
} from './billing';
import { TEST_NOW } from './test-factories';

const NOW = TEST_NOW;
const space = (remainingSeconds: number, isTrial: boolean) => ({
  expires_at: NOW + remainingSeconds,
  is_trial: isTrial,
});

// [what, seconds remaining, days remaining, state if paid, state if trial]
const BOUNDARIES: [string, number, number, BillingState, BillingState][] = [
  ['a year ago', -365 * DAY_S, 0, 'red', 'red'],
  ['1 s ago', -1, 0, 'red', 'red'],
  ['exactly at expiry', 0, 0, 'red', 'red'],
  ['1 s before expiry', 1, 1, 'yellow', 'yellow'],
  ['1 day', DAY_S, 1, 'yellow', 'yellow'],
  ['1 day + 1 s', DAY_S + 1, 2, 'yellow', 'yellow'],
  ['3 days - 1 s', 3 * DAY_S - 1, 3, 'yellow', 'yellow'],
  ['3 days', 3 * DAY_S, 3, 'yellow', 'yellow'],
  ['3 days + 1 s', 3 * DAY_S + 1, 4, 'blue', 'blue'],
  ['4 days', 4 * DAY_S, 4, 'blue', 'blue'],
  ['7 days - 1 s', 7 * DAY_S - 1, 7, 'blue', 'blue'],
  ['7 days', 7 * DAY_S, 7, 'blue', 'blue'],
  ['7 days + 1 s', 7 * DAY_S + 1, 8, 'white', 'blue'],
  ['14 days', 14 * DAY_S, 14, 'white', 'blue'],
  ['a year', 365 * DAY_S, 365, 'white', 'blue'],
];

describe('billing state (docs/product/states.md)', () => {
  it.each(BOUNDARIES)('%s: %i s remain → %i days, paid %s, trial %s', (_, remaining, days, paid, trial) => {
    expect(daysRemaining(space(remaining, false), NOW)).toBe(days);
    expect(billingState(space(remaining, false), NOW)).toBe(paid);
    expect(billingState(space(remaining, true), NOW)).toBe(trial);
    expect(isExpired(space(remaining, false), NOW)).toBe(remaining <= 0);
  });

  it('an expired space shows the need-payment badge', () => {
    expect(billingBadgeKey(space(0, false), NOW)).toBe('billing.needPayment');
    expect(billingBadgeKey(space(1, false), NOW)).toBeNull();
  });
});

describe('deletion date (docs/product/states.md, limits.md)', () => {
  it.each([
    ['trial: expiry + 3 days', true, NOW + 259_200],
    ['paid: expiry + 7 days', false, NOW + 604_800],
  ])('%s', (_, isTrial, expected) => {
    expect(deletionDate({ expires_at: NOW, is_trial: isTrial })).toBe(expected);
  });
});

describe('areAllExpired', () => {
  it.each([
    ['no spaces', [], false],
    ['one expired', [space(0, false)], true],
    ['all expired', [space(-1, true), space(-DAY_S, false)], true],
    ['one still paid', [space(-1, true), space(1, false)], false],
  ])('%s → %s', (_, spaces, expected) => {
    expect(areAllExpired(spaces, NOW)).toBe(expected);
  });
});
