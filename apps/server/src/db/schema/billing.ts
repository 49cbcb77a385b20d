import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { spaces, tariffs } from './spaces';
import { users } from './users';

/**
 * A payment for a space's tariff and period (issue 14 item 3). One row per checkout; the provider's id
 * is unique so a webhook delivered twice finds the same row. State machine: pending → succeeded |
 * canceled, changed by one conditional UPDATE in the transaction that also extends the space.
 */
export const payments = pgTable(
  'payments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    /** 'stripe' | 'yookassa' */
    provider: text().notNull(),
    /** Stripe Checkout Session id or YooKassa payment id; null until the provider answered. */
    providerPaymentId: text('provider_payment_id'),
    /** Sent as YooKassa's Idempotence-Key / Stripe's Idempotency-Key: a retried create is not a second charge. */
    idempotenceKey: text('idempotence_key').notNull().unique(),
    tariffId: integer('tariff_id')
      .notNull()
      .references(() => tariffs.id),
    periodDays: integer('period_days').notNull(),
    currency: text().notNull(),
    /** In the currency's major units, as tariffs.prices holds it (after a promocode's discount). */
    amount: integer().notNull(),
    /** The promocode discount applied to this payment, percent (0: none). */
    discountPercent: integer('discount_percent').notNull().default(0),
    /** 'pending' | 'succeeded' | 'canceled' */
    state: text().notNull().default('pending'),
    failureReason: text('failure_reason'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** The space's expiry before and after this payment extended it (the report shows both). */
    expiresBefore: timestamp('expires_before', { withTimezone: true }),
    expiresAfter: timestamp('expires_after', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payments_provider_id_uq').on(t.provider, t.providerPaymentId),
    index('payments_space_idx').on(t.spaceId, t.createdAt),
  ],
);

/**
 * Expiry and deletion warnings already sent: one row per space, kind, days-before and the date warned
 * about, inserted before the mail goes out, so no node and no restart sends one twice. An extension
 * moves the date, which arms the warnings again.
 */
export const billingNotices = pgTable(
  'billing_notices',
  {
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    /** 'expiry' | 'deletion' */
    kind: text().notNull(),
    daysBefore: integer('days_before').notNull(),
    targetAt: timestamp('target_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('billing_notices_uq').on(t.spaceId, t.kind, t.daysBefore, t.targetAt)],
);

/**
 * Promocodes (issue 14 item 6): entered at signup, they give a discount on the space's first payment
 * and/or extra trial days. A partner's own code (partner_user_id) also attributes the signup to them.
 */
export const promocodes = pgTable('promocodes', {
  /** Stored upper-case; matched case-insensitively. */
  code: text().primaryKey(),
  discountPercent: integer('discount_percent').notNull().default(0),
  extraTrialDays: integer('extra_trial_days').notNull().default(0),
  partnerUserId: integer('partner_user_id').references(() => users.id, { onDelete: 'set null' }),
  maxUses: integer('max_uses'),
  uses: integer().notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A space whose signup came through a partner's link or code. */
export const referrals = pgTable(
  'referrals',
  {
    spaceId: integer('space_id')
      .primaryKey()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    partnerUserId: integer('partner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code: text().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('referrals_partner_idx').on(t.partnerUserId)],
);

/** A partner's request to be paid their share; the operator pays outside Otklik and marks it. */
export const payoutRequests = pgTable(
  'payout_requests',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    partnerUserId: integer('partner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    currency: text().notNull(),
    /** Minor units (cents, kopecks): shares are fractions of a price. */
    amountMinor: integer('amount_minor').notNull(),
    /** 'requested' | 'paid' | 'rejected' */
    state: text().notNull().default('requested'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payout_requests_partner_idx').on(t.partnerUserId)],
);
