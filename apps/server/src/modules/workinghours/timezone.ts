// Civil dates and wall-clock times in a space's time zone (ARCHITECTURE "Times"), with Intl only.
// A civil date is 'YYYY-MM-DD'; weekdays are ISO (Monday = 1 … Sunday = 7, docs/product/limits.md week starts Monday).

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

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

/** The wall clock of an instant in a zone, read back as if it were UTC (ms). */
function wallClockMs(instantMs: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
    instantMs % 1000,
  );
}

/** The zone's offset from UTC at an instant, in ms (Berlin in summer: +7 200 000). */
export function offsetAt(instantMs: number, timeZone: string): number {
  return wallClockMs(instantMs, timeZone) - instantMs;
}

/**
 * The instant a wall-clock time names in a zone, disambiguated like Temporal's 'compatible': a time that
 * happens twice (clocks go back) is its first occurrence; a time skipped by clocks going forward is
 * moved forward by the gap (02:30 on Berlin's spring-forward day is 03:30 CEST).
 */
export function zonedToInstant(wallMs: number, timeZone: string): Date {
  const before = offsetAt(wallMs - DAY_MS, timeZone);
  const after = offsetAt(wallMs + DAY_MS, timeZone);
  const valid = [wallMs - before, wallMs - after].filter(
    (instant) => wallClockMs(instant, timeZone) === wallMs,
  );
  if (valid.length > 0) return new Date(Math.min(...valid));
  return new Date(wallMs - before);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' → ms of its midnight as if UTC; undefined when it is not a real date. */
export function parseCivilDate(value: string): number | undefined {
  const match = DATE_RE.exec(value);
  if (!match) return undefined;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return formatCivilDate(ms) === value ? ms : undefined;
}

export function formatCivilDate(civilMs: number): string {
  return new Date(civilMs).toISOString().slice(0, 10);
}

/** ISO weekday of a civil date: Monday = 1 … Sunday = 7. */
export function isoWeekday(civilMs: number): number {
  const day = new Date(civilMs).getUTCDay();
  return day === 0 ? 7 : day;
}

/** Every civil date from `from` to `to` inclusive (ms as if UTC). */
export function civilDaysBetween(fromMs: number, toMs: number): number[] {
  const days: number[] = [];
  for (let day = fromMs; day <= toMs; day += DAY_MS) days.push(day);
  return days;
}

/**
 * The instant of `minutes` past midnight of a civil date in a zone. Minutes beyond 1 440 run into the
 * next days' wall clock (a night shift 22:00–06:00 ends at 06:00 local the next morning, DST or not).
 */
export function instantOf(civilMs: number, minutes: number, timeZone: string): Date {
  return zonedToInstant(civilMs + minutes * MINUTE_MS, timeZone);
}

/** The civil date of an instant in a zone (ms as if UTC, midnight). */
export function civilDateOf(instant: Date, timeZone: string): number {
  const wall = wallClockMs(instant.getTime(), timeZone);
  return wall - (((wall % DAY_MS) + DAY_MS) % DAY_MS);
}

export { DAY_MS };

/** Whether `timeZone` is an IANA zone this runtime knows (Europe/Moscow, UTC). */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}
