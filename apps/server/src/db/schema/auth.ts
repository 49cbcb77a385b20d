import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { oauthApps } from './oauthapps';
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
    /** Set for tokens of a third-party app (authorization-code grant): they act only in its space. */
    oauthAppId: integer('oauth_app_id').references(() => oauthApps.id, { onDelete: 'cascade' }),
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
  (t) => [
    index('auth_sessions_family_idx').on(t.familyId),
    index('auth_sessions_user_idx').on(t.userId),
    index('auth_sessions_oauth_app_idx').on(t.oauthAppId),
  ],
);

export type OneTimeTokenKind = 'confirm_email' | 'reset_password' | 'social_pending' | 'oauth_code';

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

export type DeletionRequestStatus = 'pending' | 'processing' | 'done' | 'cancelled';

/**
 * A user's request to delete their data (issue 13 item 11). The id is random and unguessable: the
 * public status page /deleterequest/{id} shows only status and dates. The row outlives the user
 * (user_id becomes null) so the page can still say "done".
 */
export const deletionRequests = pgTable(
  'deletion_requests',
  {
    id: text().primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text().$type<DeletionRequestStatus>().notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('deletion_requests_user_idx').on(t.userId)],
);
