import type { Locale } from '@otklik/shared';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStorage, writeStorage } from '../lib/storage';
import { detectLocale, LOCALE_STORAGE_KEY } from './detect';
import { en } from './en';
import { ru } from './ru';

export const i18n = i18next;

export function initI18n(): Locale {
  const locale = detectLocale({
    search: window.location.search,
    stored: readStorage(LOCALE_STORAGE_KEY),
    languages: navigator.languages ?? [navigator.language],
  });
  void i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: 'ru',
    supportedLngs: ['ru', 'en'],
    resources: { ru: { translation: ru }, en: { translation: en } },
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
    showSupportNotice: false,
  });
  document.documentElement.lang = locale;
  return locale;
}

export function currentLocale(): Locale {
  return i18next.language === 'en' ? 'en' : 'ru';
}

/** Switch the interface language; `remember` keeps it for the next visits. */
export function setLocale(locale: Locale, options: { remember?: boolean } = {}) {
  if (options.remember !== false) writeStorage(LOCALE_STORAGE_KEY, locale);
  if (currentLocale() === locale && i18next.language === locale) return;
  void i18next.changeLanguage(locale);
  document.documentElement.lang = locale;
}
