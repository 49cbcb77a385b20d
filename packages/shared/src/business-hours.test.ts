import { describe, expect, it } from 'vitest';
import {
  type BusinessSchedule,
  BusinessTimeline,
  businessHoursSettingsSchema,
  businessSeconds,
  isWithinBusinessHours,
  percentileDisc,
} from './business-hours';

// Expected values are written out by hand as UTC instants (Date.UTC) and hour counts, not computed with
// the code under test. Berlin 2026: clocks go forward Sun 29 March 02:00 CET → 03:00 CEST, back Sun 25
// October 03:00 CEST → 02:00 CET. Moscow is UTC+3 all year.

const H = 3600;
const utc = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi) / 1000;
const weekdays = (start: number, end: number, days = [1, 2, 3, 4, 5]) =>
  days.map((weekday) => ({ weekday, start, end }));

const officeBerlin: BusinessSchedule = {
  timezone: 'Europe/Berlin',
  week: weekdays(9 * 60, 18 * 60),
  holidays: [],
  special_days: [],
};
const officeMoscow: BusinessSchedule = { ...officeBerlin, timezone: 'Europe/Moscow' };

describe('businessSeconds: weekly hours', () => {
  it('counts Mon–Fri 09:00–18:00 over a whole week (Berlin winter, UTC+1)', () => {
    // Mon 5 Jan 2026 00:00 CET = 4 Jan 23:00 UTC; the next Monday 00:00 CET = 11 Jan 23:00 UTC.
    expect(businessSeconds(utc(2026, 1, 4, 23), utc(2026, 1, 11, 23), officeBerlin)).toBe(45 * H);
  });

  it('spans a weekend: Friday 17:00 to Monday 10:00 is two working hours', () => {
    expect(businessSeconds(utc(2026, 1, 9, 16), utc(2026, 1, 12, 9), officeBerlin)).toBe(2 * H);
  });

  it('is zero over a weekend, before opening and for an empty or reversed span', () => {
    expect(businessSeconds(utc(2026, 1, 10, 8), utc(2026, 1, 11, 20), officeBerlin)).toBe(0);
    expect(businessSeconds(utc(2026, 1, 5, 5), utc(2026, 1, 5, 8), officeBerlin)).toBe(0);
    expect(businessSeconds(utc(2026, 1, 5, 12), utc(2026, 1, 5, 12), officeBerlin)).toBe(0);
    expect(businessSeconds(utc(2026, 1, 5, 12), utc(2026, 1, 5, 10), officeBerlin)).toBe(0);
  });

  it('counts seconds inside one interval exactly', () => {
    // 10:00:00 → 10:07:30 CET.
    expect(businessSeconds(utc(2026, 1, 5, 9), utc(2026, 1, 5, 9) + 450, officeBerlin)).toBe(450);
  });

  it('handles several intervals a day (lunch break)', () => {
    const split: BusinessSchedule = {
      ...officeMoscow,
      week: [...weekdays(9 * 60, 13 * 60), ...weekdays(14 * 60, 18 * 60)],
    };
    // Mon 12 Jan 2026 08:00 MSK (05:00 UTC) → 20:00 MSK (17:00 UTC): 4 h + 4 h.
    expect(businessSeconds(utc(2026, 1, 12, 5), utc(2026, 1, 12, 17), split)).toBe(8 * H);
    // 12:30 → 14:30 MSK: 30 min before lunch, 30 after.
    expect(businessSeconds(utc(2026, 1, 12, 9, 30), utc(2026, 1, 12, 11, 30), split)).toBe(H);
  });

  it('uses the time zone: the same instants give different figures in Moscow and Berlin', () => {
    // 06:00–15:00 UTC on Monday 12 Jan = 09:00–18:00 MSK = 07:00–16:00 CET.
    expect(businessSeconds(utc(2026, 1, 12, 6), utc(2026, 1, 12, 15), officeMoscow)).toBe(9 * H);
    expect(businessSeconds(utc(2026, 1, 12, 6), utc(2026, 1, 12, 15), officeBerlin)).toBe(7 * H);
  });
});

describe('businessSeconds: exceptions', () => {
  it('a holiday on a weekday has no working time', () => {
    const s = { ...officeBerlin, holidays: ['2026-01-07'] };
    expect(businessSeconds(utc(2026, 1, 4, 23), utc(2026, 1, 11, 23), s)).toBe(36 * H);
  });

  it('a special working day adds its own hours, even on a holiday, and replaces the weekday hours', () => {
    const s: BusinessSchedule = {
      ...officeBerlin,
      holidays: ['2026-01-10', '2026-01-07'],
      special_days: [
        { day: '2026-01-10', intervals: [{ start: 10 * 60, end: 14 * 60 }] }, // Saturday (also a holiday)
        { day: '2026-01-08', intervals: [{ start: 12 * 60, end: 15 * 60 }] }, // Thursday: short day
      ],
    };
    // Mon 9 + Tue 9 + Wed 0 (holiday) + Thu 3 + Fri 9 + Sat 4 = 34 h.
    expect(businessSeconds(utc(2026, 1, 4, 23), utc(2026, 1, 11, 23), s)).toBe(34 * H);
  });
});

describe('businessSeconds: overnight intervals', () => {
  const nights: BusinessSchedule = {
    timezone: 'Europe/Moscow',
    week: weekdays(22 * 60, 30 * 60), // 22:00 → 06:00 the next morning, starting Mon–Fri
    holidays: [],
    special_days: [],
  };

  it('a night shift belongs to the day it starts on', () => {
    // Mon 12 Jan 2026 22:00 MSK (19:00 UTC) → Tue 06:00 MSK (03:00 UTC).
    expect(businessSeconds(utc(2026, 1, 12, 19), utc(2026, 1, 13, 3), nights)).toBe(8 * H);
    // Friday's shift runs into Saturday morning; none starts on Saturday or Sunday.
    expect(businessSeconds(utc(2026, 1, 16, 12), utc(2026, 1, 18, 21), nights)).toBe(8 * H);
  });

  it('a holiday on the next day does not cut the night; a holiday on the start day removes it', () => {
    const s = { ...nights, holidays: ['2026-01-17'] }; // Saturday
    expect(businessSeconds(utc(2026, 1, 16, 12), utc(2026, 1, 17, 12), s)).toBe(8 * H);
    const t = { ...nights, holidays: ['2026-01-16'] }; // Friday
    expect(businessSeconds(utc(2026, 1, 16, 12), utc(2026, 1, 17, 12), t)).toBe(0);
  });

  it('a span starting mid-night counts from the start', () => {
    // Tue 13 Jan 03:00 MSK (00:00 UTC) → 12:00 MSK: 3 h of Monday's night.
    expect(businessSeconds(utc(2026, 1, 13, 0), utc(2026, 1, 13, 9), nights)).toBe(3 * H);
  });

  it('overlapping working time (a night into a special morning) is counted once', () => {
    const s: BusinessSchedule = {
      ...nights,
      special_days: [{ day: '2026-01-17', intervals: [{ start: 5 * 60, end: 10 * 60 }] }],
    };
    // Fri 22:00 → Sat 10:00 MSK, one stretch of 12 h.
    expect(businessSeconds(utc(2026, 1, 16, 12), utc(2026, 1, 17, 12), s)).toBe(12 * H);
  });
});

describe('businessSeconds: DST (Europe/Berlin)', () => {
  const allDay: BusinessSchedule = {
    timezone: 'Europe/Berlin',
    week: weekdays(0, 24 * 60, [1, 2, 3, 4, 5, 6, 7]),
    holidays: [],
    special_days: [],
  };

  it('a round-the-clock week loses an hour in spring and gains one in autumn', () => {
    // Mon 23 Mar 00:00 CET = 22 Mar 23:00 UTC; Mon 30 Mar 00:00 CEST = 29 Mar 22:00 UTC.
    const spring = businessSeconds(utc(2026, 3, 22, 23), utc(2026, 3, 29, 22), allDay);
    expect(spring).toBe(utc(2026, 3, 29, 22) - utc(2026, 3, 22, 23));
    expect(spring).toBe(7 * 24 * H - H);
    // Mon 19 Oct 00:00 CEST = 18 Oct 22:00 UTC; Mon 26 Oct 00:00 CET = 25 Oct 23:00 UTC.
    expect(businessSeconds(utc(2026, 10, 18, 22), utc(2026, 10, 25, 23), allDay)).toBe(7 * 24 * H + H);
  });

  it('a daytime interval keeps its 9 hours on the DST days', () => {
    const daily = { ...officeBerlin, week: weekdays(9 * 60, 18 * 60, [1, 2, 3, 4, 5, 6, 7]) };
    // Sun 29 Mar 09:00 CEST = 07:00 UTC … 18:00 CEST = 16:00 UTC.
    expect(businessSeconds(utc(2026, 3, 29, 0), utc(2026, 3, 30, 0), daily)).toBe(9 * H);
    expect(isWithinBusinessHours(utc(2026, 3, 29, 7), daily)).toBe(true);
    expect(isWithinBusinessHours(utc(2026, 3, 29, 7) - 1, daily)).toBe(false);
    // Sun 25 Oct 09:00 CET = 08:00 UTC.
    expect(isWithinBusinessHours(utc(2026, 10, 25, 8), daily)).toBe(true);
    expect(isWithinBusinessHours(utc(2026, 10, 25, 8) - 1, daily)).toBe(false);
    // A week across each change: 7 × 9 h.
    expect(businessSeconds(utc(2026, 3, 22, 23), utc(2026, 3, 29, 22), daily)).toBe(63 * H);
    expect(businessSeconds(utc(2026, 10, 18, 22), utc(2026, 10, 25, 23), daily)).toBe(63 * H);
  });

  it('night intervals across the change are measured in real time', () => {
    const night = { ...allDay, week: weekdays(60, 4 * 60, [7]) }; // Sundays 01:00–04:00
    // 29 Mar: 01:00 CET (00:00 UTC) → 04:00 CEST (02:00 UTC) = 2 h.
    expect(businessSeconds(utc(2026, 3, 28), utc(2026, 3, 30), night)).toBe(2 * H);
    // 25 Oct: 01:00 CEST (24 Oct 23:00 UTC) → 04:00 CET (03:00 UTC) = 4 h.
    expect(businessSeconds(utc(2026, 10, 24), utc(2026, 10, 26), night)).toBe(4 * H);
  });

  it('a start in the skipped hour moves forward by the gap', () => {
    const s = { ...allDay, week: weekdays(150, 300, [7]) }; // Sundays 02:30–05:00
    // 29 Mar: 02:30 does not exist → 03:30 CEST (01:30 UTC) … 05:00 CEST (03:00 UTC).
    expect(businessSeconds(utc(2026, 3, 28), utc(2026, 3, 30), s)).toBe(1.5 * H);
  });
});

describe('businessSeconds: long spans', () => {
  it('52 weeks of office hours in Berlin, DST changes included, minus weekday holidays', () => {
    // Mon 5 Jan 2026 00:00 CET → Mon 4 Jan 2027 00:00 CET.
    const s = { ...officeBerlin, holidays: ['2026-05-01', '2026-12-25', '2026-12-26', '2026-10-03'] };
    // 1 May is a Friday, 25 Dec a Friday; 26 Dec a Saturday, 3 Oct a Saturday: two weekday holidays.
    expect(businessSeconds(utc(2026, 1, 4, 23), utc(2027, 1, 3, 23), s)).toBe((52 * 45 - 2 * 9) * H);
  });

  it('agrees with a minute-by-minute count in Moscow (fixed UTC+3) over random spans', () => {
    const s: BusinessSchedule = {
      timezone: 'Europe/Moscow',
      week: [
        ...weekdays(9 * 60, 13 * 60),
        ...weekdays(14 * 60, 18 * 60 + 30),
        { weekday: 6, start: 22 * 60, end: 26 * 60 },
      ],
      holidays: ['2026-02-23', '2026-03-09'],
      special_days: [{ day: '2026-02-28', intervals: [{ start: 10 * 60, end: 15 * 60 }] }],
    };
    const brute = (a: number, b: number) => {
      let total = 0;
      for (let t = a; t < b; t += 60) {
        const local = new Date((t + 3 * H) * 1000);
        const minute = local.getUTCHours() * 60 + local.getUTCMinutes();
        const day = local.toISOString().slice(0, 10);
        const yesterday = new Date((t + 3 * H - 86_400) * 1000).toISOString().slice(0, 10);
        const wd = local.getUTCDay() || 7;
        const works = (d: string, w: number, m: number) => {
          if (d === '2026-02-28') return m >= 600 && m < 900;
          if (d === '2026-02-23' || d === '2026-03-09') return false;
          if (w >= 1 && w <= 5) return (m >= 540 && m < 780) || (m >= 840 && m < 1110);
          if (w === 6) return m >= 1320 && m < 1560;
          return false;
        };
        if (works(day, wd, minute) || works(yesterday, wd === 1 ? 7 : wd - 1, minute + 1440)) total += 60;
      }
      return total;
    };
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const base = utc(2026, 2, 1);
    for (let i = 0; i < 12; i += 1) {
      const a = base + Math.floor(random() * 30 * 24 * 60) * 60;
      const b = a + Math.floor(random() * 12 * 24 * 60) * 60;
      expect(businessSeconds(a, b, s)).toBe(brute(a, b));
    }
  });
});

describe('isWithinBusinessHours and the timeline', () => {
  it('opens at the start, closes at the end, respects weekends, holidays and special days', () => {
    const s: BusinessSchedule = {
      ...officeMoscow,
      holidays: ['2026-01-14'],
      special_days: [{ day: '2026-01-17', intervals: [{ start: 11 * 60, end: 12 * 60 }] }],
    };
    // Monday 12 Jan 2026, MSK = UTC+3.
    expect(isWithinBusinessHours(utc(2026, 1, 12, 6), s)).toBe(true);
    expect(isWithinBusinessHours(utc(2026, 1, 12, 6) - 1, s)).toBe(false);
    expect(isWithinBusinessHours(utc(2026, 1, 12, 15) - 1, s)).toBe(true);
    expect(isWithinBusinessHours(utc(2026, 1, 12, 15), s)).toBe(false);
    expect(isWithinBusinessHours(utc(2026, 1, 14, 9), s)).toBe(false); // holiday
    expect(isWithinBusinessHours(utc(2026, 1, 18, 9), s)).toBe(false); // Sunday
    expect(isWithinBusinessHours(utc(2026, 1, 17, 8, 30), s)).toBe(true); // special Saturday 11:30
    expect(isWithinBusinessHours(utc(2026, 1, 17, 10), s)).toBe(false);
  });

  it('one timeline answers many spans and knows its total', () => {
    const t = new BusinessTimeline(officeMoscow, utc(2026, 1, 12), utc(2026, 1, 19));
    expect(t.total).toBe(45 * H);
    expect(t.seconds(utc(2026, 1, 12, 14), utc(2026, 1, 13, 7))).toBe(2 * H);
    expect(t.seconds(utc(2026, 1, 16, 14), utc(2026, 1, 18, 0))).toBe(H);
    expect(() => t.seconds(utc(2026, 1, 11), utc(2026, 1, 12, 14))).toThrow(RangeError);
  });
});

describe('businessHoursSettingsSchema', () => {
  const messages = (value: unknown) => {
    const r = businessHoursSettingsSchema.safeParse(value);
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };

  it('accepts office hours, nights and special days', () => {
    expect(
      messages({
        week: [...weekdays(540, 1080), { weekday: 6, start: 1320, end: 1800 }],
        special_days: [{ day: '2026-01-10', intervals: [{ start: 600, end: 840 }] }],
      }),
    ).toEqual([]);
  });

  it('names what is wrong', () => {
    expect(messages({ week: [{ weekday: 1, start: 600, end: 540 }], special_days: [] })).toEqual([
      'businessHours.endBeforeStart',
    ]);
    expect(messages({ week: [{ weekday: 1, start: 600, end: 2100 }], special_days: [] })).toEqual([
      'businessHours.tooLong',
    ]);
    expect(
      messages({
        week: [
          { weekday: 2, start: 540, end: 780 },
          { weekday: 2, start: 720, end: 1080 },
        ],
        special_days: [],
      }),
    ).toEqual(['businessHours.overlap']);
    expect(messages({ week: [{ weekday: 8, start: 1, end: 2 }], special_days: [] })).toEqual([
      'field.invalid',
    ]);
    expect(
      messages({
        week: [],
        special_days: [
          { day: '2026-01-10', intervals: [{ start: 600, end: 700 }] },
          { day: '2026-01-10', intervals: [{ start: 600, end: 700 }] },
          { day: '2026-02-30', intervals: [{ start: 600, end: 700 }] },
          { day: '2026-01-11', intervals: [] },
        ],
      }),
    ).toEqual(['field.invalid', 'businessHours.dayEmpty', 'businessHours.dayTwice']);
  });
});

describe('percentileDisc', () => {
  it('is a measured value like PostgreSQL percentile_disc', () => {
    expect(percentileDisc([], 0.5)).toBeNull();
    expect(percentileDisc([7], 0.9)).toBe(7);
    expect(percentileDisc([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentileDisc([1, 2, 3, 4, 5], 0.5)).toBe(3);
    expect(percentileDisc([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
    expect(percentileDisc([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 0.9)).toBe(10);
  });
});
