import type { Locale, MessageKey } from '@otklik/shared';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { failureText, translate } from './sharedMessages';

/** The current locale, re-rendering on change. */
export function useLocale(): Locale {
  const { i18n } = useTranslation();
  return i18n.language === 'en' ? 'en' : 'ru';
}

/** Translate a shared message key (validation messages, docs/product/errors.md errors) into the current locale. */
export function useMessage() {
  const locale = useLocale();
  return useCallback(
    (key: MessageKey | string, params?: Record<string, string | number>) => translate(locale, key, params),
    [locale],
  );
}

/**
 * A network failure as stored by the server (an encoded reason, or the network's own words) in the current
 * locale; `inContext` when the surrounding text already says that the network refused.
 */
export function useFailureText() {
  const locale = useLocale();
  return useCallback(
    (stored: string, options?: { inContext?: boolean }) => failureText(locale, stored, options),
    [locale],
  );
}
