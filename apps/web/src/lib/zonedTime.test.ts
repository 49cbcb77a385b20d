import { describe, expect, it } from 'vitest';
import {
  addDays,
  civilDateOf,
  formatMinutes,
  isoWeekday,
  minutesOfDay,
  parseMinutes,
  slotsByDay,
  weekDates,
  weekStart,
  zonedToUnix,
} from './zonedTime';

describe('zoned time', () => {
  it('converts a civil time in Moscow (UTC+3) to an instant and back', () => {
    const nine = zonedToUnix('2026-03-02', 9 * 60, 'Europe/Moscow');
    expect(new Date(nine * 1000).toISOString()).toBe('2026-03-02T06:00:00.000Z');
    expect(civilDateOf(nine, 'Europe/Moscow')).toBe('2026-03-02');
    expect(minutesOfDay(nine, 'Europe/Moscow')).toBe(540);
  });

  it('handles daylight saving time (Berlin, last Sunday of March)', () => {
    expect(new Date(zonedToUnix('2026-03-28', 12 * 60, 'Europe/Berlin') * 1000).toISOString()).toBe(
      '2026-03-28T11:00:00.000Z',
    );
    expect(new Date(zonedToUnix('2026-03-30', 12 * 60, 'Europe/Berlin') * 1000).toISOString()).toBe(
      '2026-03-30T10:00:00.000Z',
    );
  });

  it('weeks start on Monday', () => {
    expect(isoWeekday('2026-03-01')).toBe(7);
    expect(weekStart('2026-03-01')).toBe('2026-02-23');
    expect(weekStart('2026-03-02')).toBe('2026-03-02');
    expect(weekDates('2026-03-02')).toEqual([
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
    ]);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('parses and formats times of day', () => {
    expect(parseMinutes('9:05')).toBe(545);
    expect(parseMinutes('24:00')).toBeNull();
    expect(formatMinutes(545)).toBe('09:05');
    expect(formatMinutes(1440 + 60)).toBe('01:00');
  });

  it('lays a night shift out on both days, clipped at midnight', () => {
    const tz = 'Europe/Moscow';
    const slot = {
      id: 1,
      started_at: zonedToUnix('2026-03-02', 22 * 60, tz),
      ended_at: zonedToUnix('2026-03-03', 6 * 60, tz),
    };
    const days = slotsByDay([slot], weekDates('2026-03-02'), tz);
    expect(days[0].map((d) => [d.start, d.end])).toEqual([[1320, 1440]]);
    expect(days[1].map((d) => [d.start, d.end])).toEqual([[0, 360]]);
    expect(days[2]).toEqual([]);
  });
});
