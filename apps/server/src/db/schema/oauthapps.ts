import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { spaces } from './spaces';
import { users } from './users';

/**
 * Third-party OAuth2 clients of a space (issue 14 item 8). The secret is random and only its sha256
 * digest is kept: it is shown once, at creation or regeneration. Tokens issued to an app are ordinary
 * auth_sessions rows carrying `oauth_app_id` (deleting the app deletes them).
 */
export const oauthApps = pgTable(
  'oauth_apps',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull().unique(),
    secretDigest: text('secret_digest').notNull(),
    name: text().notNull(),
    redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('oauth_apps_space_idx').on(t.spaceId)],
);
