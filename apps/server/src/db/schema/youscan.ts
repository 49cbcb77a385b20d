import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { spaces } from './spaces';
import { users } from './users';

/** A YouScan topic connected to a space (issue 21); the API key is sealed (lib/crypto Sealer). */
export const youscanTopics = pgTable(
  'youscan_topics',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    topicId: text('topic_id').notNull(),
    apiKeySealed: text('api_key_sealed').notNull(),
    /** The import cursor: published time of the newest mention imported; the next import starts there. */
    cursor: timestamp({ withTimezone: true }),
    /** 'ok' | 'auth' | 'unreachable' | 'topic' after the last import; null before any. */
    status: text().$type<'ok' | 'auth' | 'unreachable' | 'topic'>(),
    lastImportAt: timestamp('last_import_at', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('youscan_topics_space_idx').on(t.spaceId)],
);

/** A mention imported from a YouScan topic; (topic, YouScan's id) is unique, so re-imports add nothing. */
export const youscanMentions = pgTable(
  'youscan_mentions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    topicRef: integer('topic_ref')
      .notNull()
      .references(() => youscanTopics.id, { onDelete: 'cascade' }),
    externalId: text('external_id').notNull(),
    url: text(),
    text: text().notNull(),
    authorName: text('author_name'),
    authorUrl: text('author_url'),
    source: text(),
    sentiment: text(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('youscan_mentions_topic_external_uq').on(t.topicRef, t.externalId),
    index('youscan_mentions_topic_published_idx').on(t.topicRef, t.publishedAt),
    index('youscan_mentions_unread_idx').on(t.spaceId).where(sql`read_at IS NULL`),
  ],
);
