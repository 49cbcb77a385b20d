import { DEFAULT_LOCALE, isLocale, type Locale, localeFromAcceptLanguage } from '@otklik/shared';
import type { FastifyRequest } from 'fastify';

/**
 * The caller's locale: `locale` query parameter, then the signed-in user's locale, then
 * Accept-Language, then Russian (docs/product/overview.md, errors.md).
 */
export function requestLocale(req: FastifyRequest): Locale {
  const query = req.query as Record<string, unknown> | undefined;
  const fromQuery = query?.locale;
  if (isLocale(fromQuery)) return fromQuery;
  const userLocale = req.auth?.user.locale;
  if (isLocale(userLocale)) return userLocale;
  return localeFromAcceptLanguage(req.headers['accept-language']) ?? DEFAULT_LOCALE;
}
