import { describe, expect, it } from 'vitest';
import { quotaDay, secondsToQuotaReset } from '../providers/youtube/client';
import { pacedWaitMs, secondsToDayChange, withJitter } from './poll-quota';

// Pacing of scheduled polling within a daily quota (issue 19: YouTube 10,000 units a day).

const base = { baseMs: 60_000, limit: 10_000, accounts: 1, roundUnits: 1, secondsToReset: 36_000 };

describe('poll pacing', () => {
  it('keeps the interval while the quota lasts the day at that pace', () => {
    expect(pacedWaitMs({ ...base, used: 0 })).toEqual({ ms: 60_000, paused: false });
  });

  it('waits longer as units run low, so the rest lasts until the reset', () => {
    const half = pacedWaitMs({ ...base, used: 8_800, accounts: 4 }).ms;
    expect(half).toBeGreaterThan(60_000);
    expect(pacedWaitMs({ ...base, used: 8_900, accounts: 4 }).ms).toBeGreaterThan(half);
    // Spread over what is left: 100 units for 4 accounts = 25 rounds each in 10 hours.
    expect(pacedWaitMs({ ...base, used: 8_900, accounts: 4 }).ms).toBe(36_000_000 / 25);
  });

  it('stops while only the reserve for replies is left, until the reset', () => {
    expect(pacedWaitMs({ ...base, used: 9_000 })).toEqual({ ms: 36_000_000, paused: true });
    expect(pacedWaitMs({ ...base, used: 9_950 })).toEqual({ ms: 36_000_000, paused: true });
  });

  it('jitters by at most a tenth', () => {
    expect(withJitter(60_000, () => 0)).toBe(54_000);
    expect(withJitter(60_000, () => 1)).toBe(66_000);
    expect(withJitter(60_000, () => 0.5)).toBe(60_000);
  });

  it("YouTube's day turns at midnight Pacific Time", () => {
    const now = new Date('2026-11-26T07:00:00Z'); // 23:00 PST on the 25th
    expect(quotaDay(now)).toBe('2026-11-25');
    expect(secondsToQuotaReset(now)).toBe(3_600);
    expect(Math.abs(secondsToDayChange(quotaDay, now) - 3_600)).toBeLessThanOrEqual(1);
  });
});
