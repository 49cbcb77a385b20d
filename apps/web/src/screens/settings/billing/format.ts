import type { Locale } from '@otklik/shared';

/** 1 990 ₽ / US$29: a price in the tariffs' major units. */
export function formatMoney(amount: number, currency: string, locale: Locale): string {
  try {
    return new Intl.NumberFormat(locale === 'en' ? 'en-GB' : 'ru-RU', {
      style: 'currency',
      currency,
      maximumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

export const STATE_COLORS = { pending: 'yellow', succeeded: 'green', canceled: 'red' } as const;
