import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    name: text().notNull(),
    /** Stored lower-cased and trimmed; unique. */
    email: text().notNull(),
    /** Below 1 = unconfirmed (docs/product/entities.md). */
    emailStatus: integer('email_status').notNull().default(0),
    passwordHash: text('password_hash'),
    locale: text().notNull().default('ru'),
    /** Id of the current user status (docs/product/entities.md). */
    status: integer(),
    settings: jsonb().$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    isPartner: boolean('is_partner').notNull().default(false),
    /** TOTP secret, encrypted with the instance key. Set while enabling, confirmed by otpEnabled. */
    otpSecret: text('otp_secret'),
    otpEnabled: boolean('otp_enabled').notNull().default(false),
    /** The last TOTP time step (unix seconds / 30) accepted: a code of that step or an earlier one is refused. */
    otpLastStep: integer('otp_last_step'),
    /** sha256 digests of unused one-time recovery codes. */
    otpRecoveryCodes: jsonb('otp_recovery_codes').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

/** Social sign-in identities (VK, Facebook, Google, Yandex). */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text().notNull(),
    providerUserId: text('provider_user_id').notNull(),
    email: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_identities_provider_key').on(t.provider, t.providerUserId),
    index('user_identities_user_idx').on(t.userId),
  ],
);
