import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * One row per issued token pair. Refresh rotates: the old row gets `rotatedAt`, a new row joins the
 * same `familyId`. Presenting a rotated refresh token again revokes the whole family (reuse detection).
 * Tokens are opaque random strings; only their sha256 digests are stored.
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    clientId: text('client_id').notNull(),
    accessDigest: text('access_digest').notNull().unique(),
    refreshDigest: text('refresh_digest').notNull().unique(),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }).notNull(),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text(),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_sessions_family_idx').on(t.familyId), index('auth_sessions_user_idx').on(t.userId)],
);

export type OneTimeTokenKind = 'confirm_email' | 'reset_password' | 'social_pending';

/** Single-use link tokens (email confirmation, password reset, pending social sign-in). */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    kind: text().$type<OneTimeTokenKind>().notNull(),
    digest: text().notNull().unique(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    email: text(),
    payload: jsonb().$type<Record<string, unknown>>(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('one_time_tokens_user_idx').on(t.userId, t.kind)],
);
