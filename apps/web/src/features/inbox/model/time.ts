import type { Locale } from '@otklik/shared';

// Row times: "now" within the first minute (a little ahead too: clocks differ), "5 min ago" within the
// hour, the time today, the day this year, the full date before.

const tag = (locale: Locale) => (locale === 'en' ? 'en-GB' : 'ru-RU');

// Making an Intl formatter costs far more than using one, and a scrolled list formats a few times per
// row per frame: one formatter per locale and kind, made on first use.
const formatters = new Map<string, Intl.DateTimeFormat | Intl.RelativeTimeFormat>();
function cached<T extends Intl.DateTimeFormat | Intl.RelativeTimeFormat>(key: string, make: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    formatter = make();
    formatters.set(key, formatter);
  }
  return formatter;
}
const relative = (locale: Locale, style: 'now' | 'minutes') =>
  cached(`rel:${style}:${locale}`, () =>
    style === 'now'
      ? new Intl.RelativeTimeFormat(tag(locale), { numeric: 'auto' })
      : new Intl.RelativeTimeFormat(tag(locale), { numeric: 'always', style: 'short' }),
  );
const dates = (locale: Locale, kind: 'time' | 'day' | 'date' | 'full') =>
  cached(`date:${kind}:${locale}`, () => new Intl.DateTimeFormat(tag(locale), DATE_OPTIONS[kind]));
const DATE_OPTIONS: Record<'time' | 'day' | 'date' | 'full', Intl.DateTimeFormatOptions> = {
  time: { hour: '2-digit', minute: '2-digit' },
  day: { day: 'numeric', month: 'short' },
  date: { day: 'numeric', month: 'short', year: 'numeric' },
  full: { dateStyle: 'long', timeStyle: 'medium' },
};

export function formatWhen(seconds: number, nowSeconds: number, locale: Locale): string {
  const diff = nowSeconds - seconds;
  if (diff > -60 && diff < 60) return relative(locale, 'now').format(0, 'second');
  if (diff >= 0 && diff < 3600) return relative(locale, 'minutes').format(-Math.floor(diff / 60), 'minute');
  const date = new Date(seconds * 1000);
  const now = new Date(nowSeconds * 1000);
  const sameDay = date.toDateString() === now.toDateString();
  if (sameDay) return dates(locale, 'time').format(date);
  return dates(locale, date.getFullYear() === now.getFullYear() ? 'day' : 'date').format(date);
}

/** The exact moment, for a row time's tooltip: 21 November 2026, 14:05:09. */
export function formatExact(seconds: number, locale: Locale): string {
  return dates(locale, 'full').format(seconds * 1000);
}
