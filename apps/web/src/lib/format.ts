import type { Locale } from '@otklik/shared';

// Dates and times for people, in the interface language (and a space's time zone when given).

function format(seconds: number, locale: Locale, options: Intl.DateTimeFormatOptions, timeZone?: string) {
  const tag = locale === 'en' ? 'en-GB' : 'ru-RU';
  try {
    return new Intl.DateTimeFormat(tag, { ...options, timeZone }).format(seconds * 1000);
  } catch {
    return new Intl.DateTimeFormat(tag, options).format(seconds * 1000);
  }
}

/** 21 November 2026 */
export const formatDate = (seconds: number, locale: Locale, timeZone?: string) =>
  format(seconds, locale, { day: 'numeric', month: 'long', year: 'numeric' }, timeZone);

/** 21 Nov 2026, 14:05 */
export const formatDateTime = (seconds: number, locale: Locale, timeZone?: string) =>
  format(
    seconds,
    locale,
    { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' },
    timeZone,
  );

/** 14:05 */
export const formatTime = (seconds: number, locale: Locale, timeZone?: string) =>
  format(seconds, locale, { hour: '2-digit', minute: '2-digit' }, timeZone);
