import { type Locale, type MessageKey, translate } from '@otklik/shared';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** The current locale, re-rendering on change. */
export function useLocale(): Locale {
  const { i18n } = useTranslation();
  return i18n.language === 'en' ? 'en' : 'ru';
}

/** Translate a shared message key (validation messages, SPEC §8 errors) into the current locale. */
export function useMessage() {
  const locale = useLocale();
  return useCallback(
    (key: MessageKey | string, params?: Record<string, string | number>) => translate(locale, key, params),
    [locale],
  );
}
