import { z } from 'zod';

// The business-hours schedule of a space (optionally overridden per company): the weekly hours, the
// space's time zone, and the exceptions — the holiday calendar (days off) and special working days with
// their own hours. Statistics (business-hours FRT and resolution, docs/statistics.md), rules and bots
// share the math below. Instants are unix seconds; days are civil dates 'YYYY-MM-DD' of the zone;
// times of day are minutes from local midnight.

export const MINUTES_PER_DAY = 1_440;
/** At most this many intervals in one weekday or one special day. */
export const BUSINESS_INTERVALS_PER_DAY = 4;
/** At most this many special working days in one schedule. */
export const BUSINESS_SPECIAL_DAYS_MAX = 366;

/**
 * Working time of one day: from `start` to `end` minutes after its local midnight. `end` past 1 440 runs
 * into the next morning (an overnight shift 22:00–06:00 is start 1 320, end 1 800) and belongs to the day
 * it starts on: a holiday on Saturday does not cut Friday's night shift.
 */
export interface BusinessInterval {
  start: number;
  end: number;
}
export interface BusinessWeekInterval extends BusinessInterval {
  /** ISO weekday: Monday = 1 … Sunday = 7. */
  weekday: number;
}
export interface BusinessSpecialDay {
  day: string;
  intervals: BusinessInterval[];
}

/** Everything the math needs: resolved for one space (or one company of it). */
export interface BusinessSchedule {
  timezone: string;
  week: BusinessWeekInterval[];
  /** Days off (the holiday calendar): no working time unless the day is also a special working day. */
  holidays: readonly string[];
  /** Working days with their own hours; they replace that day's weekly hours (and win over a holiday). */
  special_days: BusinessSpecialDay[];
}

/** The stored part of a schedule (the time zone is the space's, holidays its calendar). */
export interface BusinessHoursSettings {
  week: BusinessWeekInterval[];
  special_days: BusinessSpecialDay[];
}

// GET /v1/workinghours/business answers BusinessHoursAnswer (workinghours-wire.ts).

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' → ms of its midnight as if UTC; undefined when it is not a real date. */
function civilMs(day: string): number | undefined {
  const match = DATE_RE.exec(day);
  if (!match) return undefined;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(ms).toISOString().slice(0, 10) === day ? ms : undefined;
}

// Zone math with Intl only (DST-correct: each wall-clock time is resolved on its own day).

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock of an instant (ms) in a zone, read back as if it were UTC (ms). */
function wallMs(instantMs: number, timeZone: string): number {
  const p: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  const hour = p.hour === 24 ? 0 : p.hour!;
  return Date.UTC(p.year!, p.month! - 1, p.day!, hour, p.minute!, p.second!);
}

/**
 * The instant (ms) a wall-clock time names in a zone: a time that happens twice (clocks go back) is its
 * first occurrence; a time skipped by clocks going forward moves forward by the gap (Temporal's
 * 'compatible'): 02:30 on Berlin's spring-forward day is 03:30 CEST.
 */
function instantMs(wall: number, timeZone: string): number {
  const before = wallMs(wall - DAY_MS, timeZone) - (wall - DAY_MS);
  const after = wallMs(wall + DAY_MS, timeZone) - (wall + DAY_MS);
  const valid = [wall - before, wall - after].filter((i) => wallMs(i, timeZone) === wall);
  return valid.length > 0 ? Math.min(...valid) : wall - before;
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The civil date (ms as if UTC, midnight) of an instant in seconds. */
function civilDayOf(seconds: number, timeZone: string): number {
  const wall = wallMs(seconds * 1000, timeZone);
  return wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
}

/** The working intervals (minutes) of one civil date under the schedule's exceptions and weekly hours. */
function dayIntervals(
  dayMs: number,
  week: Map<number, BusinessInterval[]>,
  holidays: Set<string>,
  special: Map<string, BusinessInterval[]>,
): BusinessInterval[] {
  const day = new Date(dayMs).toISOString().slice(0, 10);
  const own = special.get(day);
  if (own) return own;
  if (holidays.has(day)) return [];
  const weekday = new Date(dayMs).getUTCDay() || 7;
  return week.get(weekday) ?? [];
}

/**
 * The schedule's working time over [fromS, toS) as merged, sorted instants with running totals, so that
 * the business seconds between any two instants inside it are two binary searches (statistics measure
 * thousands of items against one timeline).
 */
export class BusinessTimeline {
  /** Merged working intervals [start, end) in seconds, sorted. */
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  /** cumulative[i] = working seconds of the intervals before i. */
  private readonly cumulative: number[] = [0];

  constructor(
    schedule: BusinessSchedule,
    readonly fromS: number,
    readonly toS: number,
  ) {
    const week = new Map<number, BusinessInterval[]>();
    for (const w of schedule.week) week.set(w.weekday, [...(week.get(w.weekday) ?? []), w]);
    const holidays = new Set(schedule.holidays);
    const special = new Map(schedule.special_days.map((d) => [d.day, d.intervals]));
    const raw: Array<[number, number]> = [];
    // An overnight interval of the day before `fromS` may still run; an interval lasts at most a day.
    const first = civilDayOf(fromS, schedule.timezone) - DAY_MS;
    const last = civilDayOf(Math.max(fromS, toS), schedule.timezone);
    for (let day = first; day <= last; day += DAY_MS) {
      for (const iv of dayIntervals(day, week, holidays, special)) {
        const s = Math.floor(instantMs(day + iv.start * 60_000, schedule.timezone) / 1000);
        const e = Math.floor(instantMs(day + iv.end * 60_000, schedule.timezone) / 1000);
        const a = Math.max(s, fromS);
        const b = Math.min(e, toS);
        if (b > a) raw.push([a, b]);
      }
    }
    raw.sort((x, y) => x[0] - y[0]);
    for (const [a, b] of raw) {
      const n = this.starts.length;
      if (n > 0 && a <= this.ends[n - 1]!) {
        if (b > this.ends[n - 1]!) {
          this.cumulative[n] = this.cumulative[n]! + (b - this.ends[n - 1]!);
          this.ends[n - 1] = b;
        }
      } else {
        this.starts.push(a);
        this.ends.push(b);
        this.cumulative.push(this.cumulative[n]! + (b - a));
      }
    }
  }

  /** Working seconds in [fromS, t) (t clamped to the timeline). */
  private upTo(t: number): number {
    // The last interval starting before t.
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return 0;
    const i = lo - 1;
    return this.cumulative[i]! + Math.min(t, this.ends[i]!) - this.starts[i]!;
  }

  /** Working seconds in [a, b); 0 when b ≤ a. Both must lie within [fromS, toS]. */
  seconds(a: number, b: number): number {
    if (b <= a) return 0;
    if (a < this.fromS || b > this.toS) throw new RangeError('instant outside the business timeline');
    return this.upTo(b) - this.upTo(a);
  }

  /** Whether the instant falls inside working time (an interval's end is outside it). */
  contains(t: number): boolean {
    return this.upTo(t + 1) - this.upTo(t) > 0;
  }

  /** Total working seconds of the timeline. */
  get total(): number {
    return this.cumulative[this.cumulative.length - 1]!;
  }
}

/** Working seconds between two instants under the schedule (0 when end ≤ start). DST-correct. */
export function businessSeconds(startS: number, endS: number, schedule: BusinessSchedule): number {
  if (endS <= startS) return 0;
  return new BusinessTimeline(schedule, startS, endS).seconds(startS, endS);
}

/** Whether an instant is within the schedule's working time. */
export function isWithinBusinessHours(atS: number, schedule: BusinessSchedule): boolean {
  return new BusinessTimeline(schedule, atS, atS + 1).contains(atS);
}

/** A schedule is empty when no weekday and no special day has working time: nothing to measure. */
export function isEmptySchedule(s: Pick<BusinessHoursSettings, 'week' | 'special_days'>): boolean {
  return s.week.length === 0 && s.special_days.every((d) => d.intervals.length === 0);
}

// Validation of a stored schedule (server request bodies; the web form uses the same messages).

const overlapping = (intervals: BusinessInterval[]) => {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  return sorted.some((iv, i) => i > 0 && iv.start < sorted[i - 1]!.end);
};

const intervalSchema = z
  .object({
    start: z
      .number()
      .int('field.invalid')
      .min(0, 'field.invalid')
      .max(MINUTES_PER_DAY - 1, 'field.invalid'),
    end: z
      .number()
      .int('field.invalid')
      .min(1, 'field.invalid')
      .max(2 * MINUTES_PER_DAY, 'field.invalid'),
  })
  .refine((iv) => iv.end > iv.start, { message: 'businessHours.endBeforeStart', path: ['end'] })
  .refine((iv) => iv.end - iv.start <= MINUTES_PER_DAY, { message: 'businessHours.tooLong', path: ['end'] });

export const businessHoursSettingsSchema = z
  .object({
    week: z
      .array(
        z.object({
          weekday: z.number().int('field.invalid').min(1, 'field.invalid').max(7, 'field.invalid'),
          start: z.number(),
          end: z.number(),
        }),
      )
      .max(7 * BUSINESS_INTERVALS_PER_DAY, 'businessHours.tooMany'),
    special_days: z
      .array(
        z.object({
          day: z.string().refine((d) => civilMs(d) !== undefined, 'field.invalid'),
          intervals: z
            .array(intervalSchema)
            .min(1, 'businessHours.dayEmpty')
            .max(BUSINESS_INTERVALS_PER_DAY, 'businessHours.tooMany'),
        }),
      )
      .max(BUSINESS_SPECIAL_DAYS_MAX, 'businessHours.tooMany'),
  })
  .superRefine((value, ctx) => {
    for (let weekday = 1; weekday <= 7; weekday += 1) {
      const intervals = value.week.filter((w) => w.weekday === weekday);
      if (intervals.length > BUSINESS_INTERVALS_PER_DAY)
        ctx.addIssue({ code: 'custom', message: 'businessHours.tooMany', path: ['week'] });
      for (const iv of intervals) {
        const parsed = intervalSchema.safeParse({ start: iv.start, end: iv.end });
        if (!parsed.success)
          ctx.addIssue({
            code: 'custom',
            message: parsed.error.issues[0]!.message,
            path: ['week', value.week.indexOf(iv), 'end'],
          });
      }
      if (overlapping(intervals))
        ctx.addIssue({ code: 'custom', message: 'businessHours.overlap', path: ['week'] });
    }
    const seen = new Set<string>();
    value.special_days.forEach((d, i) => {
      if (seen.has(d.day))
        ctx.addIssue({ code: 'custom', message: 'businessHours.dayTwice', path: ['special_days', i, 'day'] });
      seen.add(d.day);
      if (overlapping(d.intervals))
        ctx.addIssue({ code: 'custom', message: 'businessHours.overlap', path: ['special_days', i] });
    });
  });

/** 'HH:MM' of minutes from midnight; past 24:00 for the next morning of an overnight interval. */
export function formatBusinessMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** percentile_disc(p) of the values (the smallest value at least p of them do not exceed); null if none. */
export function percentileDisc(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}
