import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/** Tariffs are data: per-tariff limits. Ids 1, 2, 10 are standard; others special (docs/product/limits.md). */
export const tariffs = pgTable('tariffs', {
  id: integer().primaryKey(),
  name: text().notNull(),
  maxUsers: integer('max_users'),
  maxAccounts: integer('max_accounts'),
  /** Price of one period by currency and length in days: `{ "RUB": { "30": 2990, "180": 15990 } }`. */
  prices: jsonb().$type<Record<string, Record<string, number>>>().notNull().default(sql`'{}'::jsonb`),
  /** Space feature flags (docs/product/entities.md settings) an administrator may switch on under this tariff. */
  features: jsonb().$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  /** Offered on the billing screen; a hidden tariff is set only by the instance operator. */
  isPublic: boolean('is_public').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const spaces = pgTable('spaces', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  name: text().notNull(),
  tariffId: integer('tariff_id')
    .notNull()
    .references(() => tariffs.id),
  isTrial: boolean('is_trial').notNull().default(true),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** docs/product/entities.md space settings flags (issues, analytics, qa, otp_required, ...). */
  settings: jsonb().$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  timezone: text().notNull().default('Europe/Moscow'),
  promocode: text(),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A user's membership in a space, with the role flags of docs/product/roles.md. */
export const memberships = pgTable(
  'memberships',
  {
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roles: jsonb().$type<Record<string, boolean>>().notNull(),
    /** User group limiting what the member sees (docs/product/roles.md); null = everything in the space. */
    groupId: integer('group_id'),
    departmentIds: jsonb('department_ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    /** Current user status in this space (docs/product/entities.md User status) and when/how it last changed. */
    statusId: integer('status_id'),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }),
    statusManualAt: timestamp('status_manual_at', { withTimezone: true }),
    /** Approval mode (issue 21, docs/product/qa.md): the member's replies wait for a reviewer. */
    approvalRequired: boolean('approval_required').notNull().default(false),
    /** When approval mode ends by itself ("new operator: first N days"); null: until switched off. */
    approvalUntil: timestamp('approval_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.spaceId, t.userId] }), index('memberships_user_idx').on(t.userId)],
);

export const invitations = pgTable(
  'invitations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    /** sha256 of the link's hash; the link itself is only in the mail. */
    hashDigest: text('hash_digest').notNull().unique(),
    roles: jsonb().$type<Record<string, boolean>>().notNull(),
    /** Where the newcomer lands: user group and departments, applied when they sign up. */
    groupId: integer('group_id'),
    departmentIds: jsonb('department_ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('invitations_space_idx').on(t.spaceId)],
);
