import { z } from 'zod';
import type { SpaceDetailsView, TariffView } from './access/space-flags';
import { BILLING_PERIOD_DAYS } from './constants';

// Billing (issue 14 item 3): what GET /v1/billing and the payment report return, and the checkout body.

export const PAYMENT_PROVIDERS = ['stripe', 'yookassa'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];
export type PaymentState = 'pending' | 'succeeded' | 'canceled';

export interface PaymentView {
  id: number;
  space_id: number;
  provider: PaymentProvider;
  tariff: { id: number; name: string };
  period_days: number;
  currency: string;
  amount: number;
  state: PaymentState;
  created_at: number;
  completed_at: number | null;
  expires_before: number | null;
  expires_after: number | null;
}

export interface BillingView {
  space: SpaceDetailsView;
  /** expiry + 3 days (trial) / + 7 days (paid), unix seconds: when the space's data is deleted. */
  deletion_at: number;
  /** The providers this instance has keys for, with the currency each charges in. */
  providers: Array<{ id: PaymentProvider; currency: string }>;
  payments: PaymentView[];
  /** A signup promocode's discount on the space's next (first) payment, percent; 0: none. */
  discount_percent: number;
  /** The tariffs on sale (here, not only GET /v1/tariffs: an expired space reaches /v1/billing only). */
  tariffs: TariffView[];
}

export const checkoutBodySchema = z.object({
  space_id: z.number().int().positive(),
  tariff_id: z.number().int().positive(),
  period_days: z
    .number()
    .int()
    .refine((d) => (BILLING_PERIOD_DAYS as readonly number[]).includes(d), { message: 'field.invalid' }),
  provider: z.enum(PAYMENT_PROVIDERS),
});
export type CheckoutBody = z.infer<typeof checkoutBodySchema>;

export interface CheckoutView {
  payment_id: number;
  /** The provider's payment page (Stripe Checkout, YooKassa confirmation_url). */
  redirect_url: string;
}

/** GET /v1/referral: a partner's link and code, attributed signups, their payments and the share. */
export interface ReferralView {
  code: string;
  link: string;
  share_percent: number;
  signups: Array<{ space_name: string; created_at: number; paid: boolean }>;
  payments: Array<{ id: number; created_at: number; currency: string; amount: number; share: number }>;
  /** By currency, in major units (two decimals). */
  earned: Record<string, number>;
  available: Record<string, number>;
  payouts: Array<{ id: number; created_at: number; currency: string; amount: number; state: string }>;
}

export const payoutBodySchema = z.object({ currency: z.string().trim().min(3).max(3).toUpperCase() });

/** A price less a discount, in whole major units (what tariffs.prices holds), never below 1. */
export const discountedPrice = (price: number, percent: number) =>
  percent > 0 ? Math.max(1, Math.round((price * (100 - percent)) / 100)) : price;

/** Whether a space's usage fits a tariff's limits (null: unlimited): a smaller tariff is not for sale to it. */
export const fitsTariff = (
  usage: { users: number; accounts: number },
  tariff: { max_users: number | null; max_accounts: number | null },
) =>
  (tariff.max_users === null || usage.users <= tariff.max_users) &&
  (tariff.max_accounts === null || usage.accounts <= tariff.max_accounts);
