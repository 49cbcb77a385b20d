import i18next from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { inboxEn } from '../../i18n/inbox.en';
import { inboxRu } from '../../i18n/inbox.ru';

// The inbox strings (i18n/inbox.ru.ts, inbox.en.ts) join the dictionary under `inbox` when the first inbox
// or sandbox screen loads — they travel in the lazy screen chunks, not in the first download. Read them
// with useInboxT(): keys are checked against the Russian dictionary; plural keys go without their suffix
// (`list.unread` + {count}).

/** Adds the inbox strings to i18next (idempotent); runs when this module is first imported. */
export function registerInboxStrings() {
  if (!i18next.store) return;
  i18next.addResourceBundle('ru', 'translation', { inbox: inboxRu }, true, true);
  i18next.addResourceBundle('en', 'translation', { inbox: inboxEn }, true, true);
}
registerInboxStrings();

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
type WithoutPlural<K> = K extends `${infer Base}_${'one' | 'few' | 'many' | 'other'}` ? Base : K;

export type InboxKey = WithoutPlural<Leaves<typeof inboxRu>>;
export type InboxT = (key: InboxKey, options?: Record<string, unknown>) => string;

export function useInboxT(): InboxT {
  const { t } = useTranslation();
  // i18next's own key types describe the core dictionary only; these keys are checked by InboxKey.
  const translate = t as unknown as (key: string, options?: Record<string, unknown>) => string;
  return useCallback((key, options) => translate(`inbox.${key}`, options), [translate]);
}
