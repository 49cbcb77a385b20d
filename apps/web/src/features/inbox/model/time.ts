import type { Locale } from '@otklik/shared';

// Row times: "now" within the first minute (a little ahead too: clocks differ), "5 min ago" within the
// hour, the time today, the day this year, the full date before.

const tag = (locale: Locale) => (locale === 'en' ? 'en-GB' : 'ru-RU');

export function formatWhen(seconds: number, nowSeconds: number, locale: Locale): string {
  const diff = nowSeconds - seconds;
  if (diff > -60 && diff < 60)
    return new Intl.RelativeTimeFormat(tag(locale), { numeric: 'auto' }).format(0, 'second');
  if (diff >= 0 && diff < 3600) {
    const minutes = Math.floor(diff / 60);
    return new Intl.RelativeTimeFormat(tag(locale), { numeric: 'always', style: 'short' }).format(
      -minutes,
      'minute',
    );
  }
  const date = new Date(seconds * 1000);
  const now = new Date(nowSeconds * 1000);
  const sameDay = date.toDateString() === now.toDateString();
  if (sameDay)
    return new Intl.DateTimeFormat(tag(locale), { hour: '2-digit', minute: '2-digit' }).format(date);
  const options: Intl.DateTimeFormatOptions =
    date.getFullYear() === now.getFullYear()
      ? { day: 'numeric', month: 'short' }
      : { day: 'numeric', month: 'short', year: 'numeric' };
  return new Intl.DateTimeFormat(tag(locale), options).format(date);
}
