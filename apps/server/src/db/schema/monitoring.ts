import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { items } from './inbox';
import { objects } from './organisation';
import { spaces } from './spaces';

/** Monitoring keyword queries (issue 21), per space; `query` is checked by packages/shared parseMonitoringQuery. */
export const monitoringQueries = pgTable(
  'monitoring_queries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    query: text().notNull(),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('monitoring_queries_space_idx').on(t.spaceId)],
);

/** A mention: public content (an item) a query matched when it arrived. read_at null = unread. */
export const monitoringMentions = pgTable(
  'monitoring_mentions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    queryId: integer('query_id')
      .notNull()
      .references(() => monitoringQueries.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    objectId: integer('object_id')
      .notNull()
      .references(() => objects.id, { onDelete: 'cascade' }),
    matchedAt: timestamp('matched_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('monitoring_mentions_query_item_uq').on(t.queryId, t.itemId),
    index('monitoring_mentions_query_matched_idx').on(t.queryId, t.matchedAt),
    index('monitoring_mentions_unread_idx').on(t.spaceId, t.objectId).where(sql`read_at IS NULL`),
  ],
);
