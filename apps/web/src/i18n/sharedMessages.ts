import type { Locale } from '@otklik/shared';
import { loadChunk } from '../lib/lazyScreen';

// The messages shared with the server (packages/shared messages*.ts) are not in the first download: they
// are fetched with the interface strings before the first render (initI18n), and read here synchronously.
// Screens that import translate() from @otklik/shared share the same chunk.

type SharedMessages = typeof import('@otklik/shared/messages');

let shared: SharedMessages | undefined;

export async function loadSharedMessages(): Promise<void> {
  shared ??= await loadChunk(() => import('@otklik/shared/messages'));
}

/** translate() of @otklik/shared: a shared message key in the given locale (the key itself before loading). */
export function translate(locale: Locale, key: string, params?: Record<string, string | number>): string {
  return shared ? shared.translate(locale, key, params) : key;
}

/** failureText() of @otklik/shared: a stored network failure in the given locale. */
export function failureText(locale: Locale, stored: string, options?: { inContext?: boolean }): string {
  return shared ? shared.failureText(locale, stored, options) : stored;
}
