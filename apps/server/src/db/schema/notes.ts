import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { spaces } from './spaces';
import { users } from './users';

/** One earlier text of an edited note, kept (issue 13: edits keep the history). */
export interface NoteRevision {
  text: string;
  mentions: number[];
  /** When this text was replaced, ISO. */
  replaced_at: string;
}

/**
 * Internal notes on an item or a chat (issue 13): seen only by colleagues of the space who may see the
 * record, never sent to a network. The text stores mentions as `<@user id>`; `mentions` lists those ids.
 * Deleting keeps the row (deleted_at) so the history still shows it was there.
 */
export const notes = pgTable(
  'notes',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    objectId: integer('object_id').notNull(),
    itemId: bigint('item_id', { mode: 'number' }),
    chatId: bigint('chat_id', { mode: 'number' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    text: text().notNull(),
    mentions: jsonb().$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    revisions: jsonb().$type<NoteRevision[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('notes_item_idx').on(t.itemId), index('notes_chat_idx').on(t.chatId)],
);

/**
 * Who was @mentioned where and has not seen it yet (the inbox view "Mentions of me" and its count).
 * Small by construction: one row per mentioned colleague and note; the partial index holds only the
 * unseen ones, so the view and its count read a user's few rows, never the items table.
 */
export const noteMentions = pgTable(
  'note_mentions',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    noteId: bigint('note_id', { mode: 'number' })
      .notNull()
      .references(() => notes.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    spaceId: integer('space_id').notNull(),
    objectId: integer('object_id').notNull(),
    itemId: bigint('item_id', { mode: 'number' }),
    chatId: bigint('chat_id', { mode: 'number' }),
    byUserId: integer('by_user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    seenAt: timestamp('seen_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('note_mentions_note_user_idx').on(t.noteId, t.userId),
    index('note_mentions_unseen_idx').on(t.userId, t.createdAt).where(sql`seen_at IS NULL`),
  ],
);
