import type { Locale } from '@otklik/shared';
import { addDays, civilDateOf, weekDates, weekStart, zonedToUnix } from '../../../lib/zonedTime';

/** The week shown: ?week=YYYY-MM-DD (any day of it), or the current week in the space's zone. */
export function weekOf(param: string | null, timeZone: string, nowS: number): string {
  const day = param && /^\d{4}-\d{2}-\d{2}$/.test(param) ? param : civilDateOf(nowS, timeZone);
  return weekStart(day);
}

export function weekRange(monday: string, timeZone: string) {
  return {
    from: zonedToUnix(monday, 0, timeZone),
    to: zonedToUnix(addDays(monday, 7), 0, timeZone),
    dates: weekDates(monday),
  };
}

const tag = (locale: Locale) => (locale === 'en' ? 'en-GB' : 'ru-RU');

/** 'Mon 2' / 'пн 2' for a civil date. */
export function dayLabel(date: string, locale: Locale): { weekday: string; day: string } {
  const at = new Date(`${date}T12:00:00Z`);
  return {
    weekday: new Intl.DateTimeFormat(tag(locale), { weekday: 'short', timeZone: 'UTC' }).format(at),
    day: new Intl.DateTimeFormat(tag(locale), { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(at),
  };
}

/** '2 – 8 March 2026' */
export function weekLabel(monday: string, locale: Locale): string {
  const from = new Date(`${monday}T12:00:00Z`);
  const to = new Date(`${addDays(monday, 6)}T12:00:00Z`);
  const format = new Intl.DateTimeFormat(tag(locale), {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return format.formatRange(from, to);
}

/** Weekday names Monday-first: 'long' for selects, 'short' for summaries. */
export function weekdayNames(locale: Locale, width: 'long' | 'short' = 'long'): string[] {
  return weekDates('2026-03-02').map((date) =>
    new Intl.DateTimeFormat(tag(locale), { weekday: width, timeZone: 'UTC' }).format(
      new Date(`${date}T12:00:00Z`),
    ),
  );
}
