import { describe, expect, it } from 'vitest';
import {
  civilDateOf,
  civilDaysBetween,
  formatCivilDate,
  instantOf,
  isoWeekday,
  parseCivilDate,
} from './timezone';

const day = (value: string) => parseCivilDate(value)!;
const iso = (date: Date) => date.toISOString();

describe('time zone arithmetic (Intl only)', () => {
  it('parses civil dates strictly', () => {
    expect(formatCivilDate(day('2026-03-29'))).toBe('2026-03-29');
    expect(parseCivilDate('2026-02-30')).toBeUndefined();
    expect(parseCivilDate('2026-3-1')).toBeUndefined();
  });

  it('numbers weekdays from Monday = 1 to Sunday = 7', () => {
    expect(isoWeekday(day('2026-03-23'))).toBe(1);
    expect(isoWeekday(day('2026-03-28'))).toBe(6);
    expect(isoWeekday(day('2026-03-29'))).toBe(7);
    expect(civilDaysBetween(day('2026-03-28'), day('2026-03-30')).map(formatCivilDate)).toEqual([
      '2026-03-28',
      '2026-03-29',
      '2026-03-30',
    ]);
  });

  it('turns Berlin wall-clock times into UTC on both sides of spring-forward (2026-03-29)', () => {
    const zone = 'Europe/Berlin';
    expect(iso(instantOf(day('2026-03-28'), 9 * 60, zone))).toBe('2026-03-28T08:00:00.000Z');
    expect(iso(instantOf(day('2026-03-29'), 9 * 60, zone))).toBe('2026-03-29T07:00:00.000Z');
    expect(iso(instantOf(day('2026-03-29'), 0, zone))).toBe('2026-03-28T23:00:00.000Z');
    // 02:30 does not exist that night: it is read as 03:30 CEST.
    expect(iso(instantOf(day('2026-03-29'), 2 * 60 + 30, zone))).toBe('2026-03-29T01:30:00.000Z');
    // A night shift Saturday 22:00 → Sunday 06:00 is 7 real hours.
    expect(iso(instantOf(day('2026-03-28'), 22 * 60, zone))).toBe('2026-03-28T21:00:00.000Z');
    expect(iso(instantOf(day('2026-03-28'), 30 * 60, zone))).toBe('2026-03-29T04:00:00.000Z');
  });

  it('takes the first 02:30 when clocks go back (2026-10-25) and keeps other zones right', () => {
    expect(iso(instantOf(day('2026-10-25'), 2 * 60 + 30, 'Europe/Berlin'))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(instantOf(day('2026-10-25'), 9 * 60, 'Europe/Berlin'))).toBe('2026-10-25T08:00:00.000Z');
    expect(iso(instantOf(day('2026-03-29'), 9 * 60, 'Europe/Moscow'))).toBe('2026-03-29T06:00:00.000Z');
    expect(iso(instantOf(day('2026-03-08'), 9 * 60, 'America/New_York'))).toBe('2026-03-08T13:00:00.000Z');
    expect(iso(instantOf(day('2026-06-01'), 0, 'Asia/Kolkata'))).toBe('2026-05-31T18:30:00.000Z');
  });

  it('reads the civil date of an instant in a zone', () => {
    expect(formatCivilDate(civilDateOf(new Date('2026-03-28T23:30:00Z'), 'Europe/Berlin'))).toBe(
      '2026-03-29',
    );
    expect(formatCivilDate(civilDateOf(new Date('2026-03-28T23:30:00Z'), 'UTC'))).toBe('2026-03-28');
  });
});
