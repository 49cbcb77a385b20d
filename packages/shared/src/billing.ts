import { z } from 'zod';
import { spaceDetailsWireSchema, tariffWireSchema } from './access/space-flags';
import { BILLING_PERIOD_DAYS } from './constants';

// Billing (issue 14 item 3): what GET /v1/billing and the payment report return, and the checkout body.

export const PAYMENT_PROVIDERS = ['stripe', 'yookassa'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];
export const PAYMENT_STATES = ['pending', 'succeeded', 'canceled'] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** A payment (the billing screen's list, the payment report page); times in unix seconds. */
export const paymentWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  provider: z.enum(PAYMENT_PROVIDERS),
  tariff: z.object({ id: z.number().int(), name: z.string() }),
  period_days: z.number().int(),
  currency: z.string(),
  amount: z.number(),
  state: z.enum(PAYMENT_STATES),
  created_at: z.number().int(),
  completed_at: z.number().int().nullable(),
  expires_before: z.number().int().nullable(),
  expires_after: z.number().int().nullable(),
});
export type PaymentView = z.infer<typeof paymentWireSchema>;

/** GET /v1/billing. */
export const billingWireSchema = z.object({
  space: spaceDetailsWireSchema,
  /** expiry + 3 days (trial) / + 7 days (paid), unix seconds: when the space's data is deleted. */
  deletion_at: z.number().int(),
  /** The providers this instance has keys for, with the currency each charges in. */
  providers: z.array(z.object({ id: z.enum(PAYMENT_PROVIDERS), currency: z.string() })),
  payments: z.array(paymentWireSchema),
  /** A signup promocode's discount on the space's next (first) payment, percent; 0: none. */
  discount_percent: z.number(),
  /** The tariffs on sale (here, not only GET /v1/tariffs: an expired space reaches /v1/billing only). */
  tariffs: z.array(tariffWireSchema),
});
export type BillingView = z.infer<typeof billingWireSchema>;

/** GET /v1/tariffs: the tariffs on sale. */
export const tariffsListWireSchema = z.object({ items: z.array(tariffWireSchema) });

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

/** POST /v1/billing/checkout. */
export const checkoutWireSchema = z.object({
  payment_id: z.number().int(),
  /** The provider's payment page (Stripe Checkout, YooKassa confirmation_url). */
  redirect_url: z.string(),
});
export type CheckoutView = z.infer<typeof checkoutWireSchema>;

/** GET /v1/referral (and POST /v1/referral/payouts): a partner's link and code, attributed signups,
 * their payments and the share; times in unix seconds. */
export const referralWireSchema = z.object({
  code: z.string(),
  link: z.string(),
  share_percent: z.number(),
  signups: z.array(z.object({ space_name: z.string(), created_at: z.number().int(), paid: z.boolean() })),
  payments: z.array(
    z.object({
      id: z.number().int(),
      created_at: z.number().int(),
      currency: z.string(),
      amount: z.number(),
      share: z.number(),
    }),
  ),
  /** By currency, in major units (two decimals). */
  earned: z.record(z.string(), z.number()),
  available: z.record(z.string(), z.number()),
  payouts: z.array(
    z.object({
      id: z.number().int(),
      created_at: z.number().int(),
      currency: z.string(),
      amount: z.number(),
      state: z.string(),
    }),
  ),
});
export type ReferralView = z.infer<typeof referralWireSchema>;

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
