import type { Locale } from '@otklik/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { loadChunk } from '../lib/lazyScreen';
import { readStorage, writeStorage } from '../lib/storage';
import { detectLocale, LOCALE_STORAGE_KEY } from './detect';
import type { Resources } from './ru';
import { loadSharedMessages } from './sharedMessages';

export const i18n = i18next;

// Only the interface language's own strings are downloaded: each language's core dictionary (ru.ts, en.ts
// with the titles) is a chunk of its own, fetched before the first render and on a switch of language.
const coreResources: Record<Locale, () => Promise<Resources>> = {
  ru: () => loadChunk(() => import('./ru')).then((module) => module.ru),
  en: () => loadChunk(() => import('./en')).then((module) => module.en),
};
const loaded = new Map<Locale, Promise<void>>();

function loadLocale(locale: Locale): Promise<void> {
  let loading = loaded.get(locale);
  if (!loading) {
    loading = coreResources[locale]().then((resources) => {
      // Deep and without overwriting: area strings added earlier (shell, inbox) stay.
      i18next.addResourceBundle(locale, 'translation', resources, true, false);
    });
    loading.catch(() => loaded.delete(locale));
    loaded.set(locale, loading);
  }
  return loading;
}

/** Detects the interface language and loads its strings; the app renders once this resolves. */
export async function initI18n(): Promise<Locale> {
  const locale = detectLocale({
    search: window.location.search,
    stored: readStorage(LOCALE_STORAGE_KEY),
    languages: navigator.languages ?? [navigator.language],
  });
  await i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: 'ru',
    supportedLngs: ['ru', 'en'],
    resources: {},
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
    showSupportNotice: false,
  });
  await Promise.all([loadLocale(locale), loadSharedMessages()]);
  document.documentElement.lang = locale;
  return locale;
}

export function currentLocale(): Locale {
  return i18next.language === 'en' ? 'en' : 'ru';
}

/** The language the last setLocale asked for: a slower load of an earlier choice does not win. */
let requested: Locale | undefined;

/** Switch the interface language (once its strings are loaded); `remember` keeps it for the next visits. */
export function setLocale(locale: Locale, options: { remember?: boolean } = {}) {
  if (options.remember !== false) writeStorage(LOCALE_STORAGE_KEY, locale);
  requested = locale;
  if (currentLocale() === locale && i18next.language === locale) return;
  loadLocale(locale).then(
    () => {
      if (requested !== locale) return;
      void i18next.changeLanguage(locale);
      document.documentElement.lang = locale;
    },
    (error: unknown) => console.error(error), // the language stays as it was
  );
}
