import { describe, expect, it } from 'vitest';
import { fromZonedInput, snoozePresetTimes, toZonedInput } from './snooze';

const at = (iso: string) => Date.parse(iso) / 1000;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

// Snooze presets are wall-clock times in the space's zone, whatever the clock of the machine.

describe('snooze presets in the space time zone', () => {
  it('Moscow (UTC+3): tomorrow 9:00 and next Monday 9:00 are 06:00 UTC', () => {
    // Wednesday 25 Nov 2026, 23:30 in Moscow (20:30 UTC).
    const now = at('2026-11-25T20:30:00Z');
    const times = snoozePresetTimes(now, 'Europe/Moscow');
    expect(iso(times.hour)).toBe('2026-11-25T21:30:00.000Z');
    expect(iso(times.tomorrow)).toBe('2026-11-26T06:00:00.000Z');
    expect(iso(times.monday)).toBe('2026-11-30T06:00:00.000Z');
  });

  it('the space’s date, not UTC’s: 01:00 Thursday in Vladivostok is still Wednesday in UTC', () => {
    const now = at('2026-11-25T15:00:00Z'); // Thu 26 Nov, 01:00 in Vladivostok (UTC+10)
    const times = snoozePresetTimes(now, 'Asia/Vladivostok');
    expect(iso(times.tomorrow)).toBe('2026-11-26T23:00:00.000Z'); // Fri 27 Nov 09:00 local
    expect(iso(times.monday)).toBe('2026-11-29T23:00:00.000Z'); // Mon 30 Nov 09:00 local
  });

  it('on a Monday "next Monday" is a week later; on a Sunday it is the next day', () => {
    const monday = snoozePresetTimes(at('2026-11-30T10:00:00Z'), 'UTC');
    expect(iso(monday.monday)).toBe('2026-12-07T09:00:00.000Z');
    const sunday = snoozePresetTimes(at('2026-11-29T10:00:00Z'), 'UTC');
    expect(iso(sunday.monday)).toBe('2026-11-30T09:00:00.000Z');
    expect(iso(sunday.tomorrow)).toBe('2026-11-30T09:00:00.000Z');
  });

  it('across a month and a year end', () => {
    const times = snoozePresetTimes(at('2026-12-31T12:00:00Z'), 'Europe/Moscow'); // Thursday
    expect(iso(times.tomorrow)).toBe('2027-01-01T06:00:00.000Z');
    expect(iso(times.monday)).toBe('2027-01-04T06:00:00.000Z');
  });

  it('across a daylight-saving change (Berlin: 9:00 is UTC+1 in winter, UTC+2 in summer)', () => {
    // Saturday 28 Mar 2026, 12:00 in Berlin; the clocks go forward on Sunday 29 Mar.
    const times = snoozePresetTimes(at('2026-03-28T11:00:00Z'), 'Europe/Berlin');
    expect(iso(times.tomorrow)).toBe('2026-03-29T07:00:00.000Z');
    expect(iso(times.monday)).toBe('2026-03-30T07:00:00.000Z');
    const winter = snoozePresetTimes(at('2026-01-14T12:00:00Z'), 'Europe/Berlin');
    expect(iso(winter.tomorrow)).toBe('2026-01-15T08:00:00.000Z');
  });

  it('a custom date and time is read on the space’s wall clock', () => {
    expect(iso(fromZonedInput('2026-11-26T09:30', 'Europe/Moscow')!)).toBe('2026-11-26T06:30:00.000Z');
    expect(toZonedInput(at('2026-11-26T06:30:00Z'), 'Europe/Moscow')).toBe('2026-11-26T09:30');
    expect(fromZonedInput('tomorrow', 'Europe/Moscow')).toBeNull();
  });
});
