import { bigint, boolean, index, integer, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { objects } from './organisation';

/**
 * The sandbox network's own side (provider `sandbox`): what a customer sees on the sandbox page. It is a
 * stand-in for a real network's servers — the connector reads and writes here the way other connectors
 * call a network's API, and ingestion into the inbox goes through the same pipeline.
 */
export const sandboxEntries = pgTable(
  'sandbox_entries',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    objectId: integer('object_id')
      .notNull()
      .references(() => objects.id, { onDelete: 'cascade' }),
    /** post | comment | review | message */
    kind: text().notNull(),
    /** The post a comment or review is under, or the comment a reply answers. */
    parentId: bigint('parent_id', { mode: 'number' }),
    /** The customer's conversation id for private messages. */
    peer: text(),
    fromAccount: boolean('from_account').notNull().default(false),
    authorName: text('author_name').notNull(),
    authorId: text('author_id').notNull(),
    text: text().notNull().default(''),
    rating: smallint(),
    reaction: text(),
    liked: boolean().notNull().default(false),
    hidden: boolean().notNull().default(false),
    deleted: boolean().notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
  },
  (t) => [index('sandbox_entries_object_idx').on(t.objectId, t.id)],
);
