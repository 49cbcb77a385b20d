import { WEEK_STARTS_ON } from '@otklik/shared';

// Civil dates and times in a space's time zone (schedules are laid out in it; ARCHITECTURE "Times").
// Instants are unix seconds; a civil date is 'YYYY-MM-DD'; times of day are minutes from midnight.

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
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

interface CivilParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function civilParts(seconds: number, timeZone: string): CivilParts {
  const values: Record<string, number> = {};
  for (const part of partsFormatter(timeZone).formatToParts(seconds * 1000)) {
    if (part.type !== 'literal') values[part.type] = Number(part.value);
  }
  return {
    year: values.year,
    month: values.month,
    day: values.day,
    hour: values.hour === 24 ? 0 : values.hour,
    minute: values.minute,
    second: values.second,
  };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The time zone's offset from UTC at an instant, in seconds (Moscow: +10800). */
export function zoneOffsetSeconds(seconds: number, timeZone: string): number {
  const p = civilParts(seconds, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) / 1000;
  return asUtc - Math.floor(seconds);
}

/** 'YYYY-MM-DD' of the instant in the zone. */
export function civilDateOf(seconds: number, timeZone: string): string {
  const p = civilParts(seconds, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** Minutes since local midnight of the instant in the zone. */
export function minutesOfDay(seconds: number, timeZone: string): number {
  const p = civilParts(seconds, timeZone);
  return p.hour * 60 + p.minute;
}

function parseDate(date: string): { year: number; month: number; day: number } {
  const [year, month, day] = date.split('-').map(Number);
  return { year, month, day };
}

/** The instant of `date` + `minutes` (may exceed 1440: the next day) in the zone, unix seconds. */
export function zonedToUnix(date: string, minutes: number, timeZone: string): number {
  const { year, month, day } = parseDate(date);
  const naive = Date.UTC(year, month - 1, day, 0, minutes) / 1000;
  // Two passes settle the offset, also next to a DST switch.
  let guess = naive - zoneOffsetSeconds(naive, timeZone);
  guess = naive - zoneOffsetSeconds(guess, timeZone);
  return guess;
}

export function addDays(date: string, days: number): string {
  const { year, month, day } = parseDate(date);
  const next = new Date(Date.UTC(year, month - 1, day + days));
  return `${next.getUTCFullYear()}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())}`;
}

/** ISO weekday of a civil date: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: string): number {
  const { year, month, day } = parseDate(date);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

/** The first day of the week holding `date` (docs/product/limits.md: weeks start on Monday). */
export function weekStart(date: string): string {
  return addDays(date, -((isoWeekday(date) - WEEK_STARTS_ON + 7) % 7));
}

/** The seven civil dates of the week starting at `monday`. */
export function weekDates(monday: string): string[] {
  return Array.from({ length: 7 }, (_, index) => addDays(monday, index));
}

/** 'HH:MM' of minutes from midnight (1440+ wraps to the next day's time). */
export function formatMinutes(minutes: number): string {
  const within = ((minutes % 1440) + 1440) % 1440;
  return `${pad(Math.floor(within / 60))}:${pad(within % 60)}`;
}

/** Minutes of 'HH:MM', or null when it is not a time. */
export function parseMinutes(value: string): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59) return null;
  return hours * 60 + minutes;
}

export interface DaySlot<T> {
  slot: T;
  /** Minutes from the day's midnight, clipped to the day. */
  start: number;
  end: number;
}

/**
 * Lays instants (slots, absences) out on the days of a week in the zone: a slot crossing midnight shows
 * on both days, clipped.
 */
export function slotsByDay<T extends { started_at: number; ended_at: number }>(
  slots: readonly T[],
  dates: readonly string[],
  timeZone: string,
): DaySlot<T>[][] {
  return dates.map((date) => {
    const dayStart = zonedToUnix(date, 0, timeZone);
    const dayEnd = zonedToUnix(addDays(date, 1), 0, timeZone);
    return slots
      .filter((slot) => slot.started_at < dayEnd && slot.ended_at > dayStart)
      .sort((a, b) => a.started_at - b.started_at)
      .map((slot) => ({
        slot,
        start: slot.started_at <= dayStart ? 0 : minutesOfDay(slot.started_at, timeZone),
        end: slot.ended_at >= dayEnd ? 1440 : minutesOfDay(slot.ended_at, timeZone),
      }));
  });
}
