import { DEFAULT_LOCALE, isLocale, type Locale } from '@otklik/shared';

export const LOCALE_QUERY_PARAM = 'locale';
export const LOCALE_STORAGE_KEY = 'otklik.locale';

/** `?locale=en|ru` in a query string, if present and supported. */
export function localeFromSearch(search: string): Locale | undefined {
  const value = new URLSearchParams(search).get(LOCALE_QUERY_PARAM);
  return isLocale(value) ? value : undefined;
}

/** Browsers that prefer Russian get Russian; any other language list gets English (docs/product/errors.md). */
export function localeFromNavigator(languages: readonly string[]): Locale {
  if (languages.length === 0) return DEFAULT_LOCALE;
  return languages.some((lang) => lang.toLowerCase().startsWith('ru')) ? 'ru' : 'en';
}

/**
 * The locale to start with: the query parameter, then the remembered choice (set by ?locale= and by
 * the signed-in user's own locale), then the browser's languages.
 */
export function detectLocale(input: {
  search: string;
  stored: string | null;
  languages: readonly string[];
}): Locale {
  return (
    localeFromSearch(input.search) ??
    (isLocale(input.stored) ? input.stored : localeFromNavigator(input.languages))
  );
}
