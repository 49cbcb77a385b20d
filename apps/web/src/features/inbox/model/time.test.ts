import { describe, expect, it } from 'vitest';
import { formatExact, formatWhen } from './time';

describe('row times', () => {
  const now = Math.floor(new Date(2026, 4, 20, 15, 0).getTime() / 1000);
  it('says now within the first minute, minutes ago within the hour, the time today, the day this year', () => {
    expect(formatWhen(now - 20, now, 'ru')).toBe('сейчас');
    expect(formatWhen(now, now, 'en')).toBe('now');
    // A message stamped a few seconds ahead of this browser's clock is also "now".
    expect(formatWhen(now + 5, now, 'en')).toBe('now');
    expect(formatWhen(now - 60, now, 'ru')).toMatch(/1 мин/);
    expect(formatWhen(now - 300, now, 'en')).toMatch(/5 min/);
    expect(formatWhen(now - 3 * 3600, now, 'en')).toBe('12:00');
    expect(formatWhen(now - 40 * 86400, now, 'en')).toMatch(/Apr/);
    expect(formatWhen(now - 400 * 86400, now, 'en')).toMatch(/2025/);
  });

  it('keeps giving each locale its own words once formatters are reused', () => {
    expect(formatWhen(now - 300, now, 'en')).toMatch(/5 min/);
    expect(formatWhen(now - 300, now, 'ru')).toMatch(/5 мин/);
    expect(formatWhen(now - 300, now, 'en')).toMatch(/5 min/);
  });

  it('gives the exact moment for the tooltip in the interface language', () => {
    expect(formatExact(now, 'en')).toMatch(/20 May 2026.*15:00:00/);
    expect(formatExact(now, 'ru')).toMatch(/20 мая 2026.*15:00:00/);
  });
});
