import type { CsiLanguage, CsiSettingsBody } from '@otklik/shared';
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { chats } from './inbox';
import { objects } from './organisation';

/** CSI survey settings of one account (issue 21, settings/csi); no row = the defaults (off). */
export const csiSettings = pgTable('csi_settings', {
  objectId: integer('object_id')
    .primaryKey()
    .references(() => objects.id, { onDelete: 'cascade' }),
  spaceId: integer('space_id').notNull(),
  /** Checked against packages/shared csiSettingsBody on every write. */
  settings: jsonb().$type<CsiSettingsBody>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One survey sent to a closed chat's customer and its answer (score null until answered). The answer
 * window ends at `expires_at`; `user_id` is the operator it is counted for (who closed, else who replied
 * last, else the assignee).
 */
export const csiSurveys = pgTable(
  'csi_surveys',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id').notNull(),
    objectId: integer('object_id')
      .notNull()
      .references(() => objects.id, { onDelete: 'cascade' }),
    chatId: bigint('chat_id', { mode: 'number' })
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    userId: integer('user_id'),
    language: text().$type<CsiLanguage>().notNull(),
    /** Our question message in the chat. */
    messageId: bigint('message_id', { mode: 'number' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The chat's close before the survey, restored when an answer would reopen it. */
    closeReason: text('close_reason'),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    score: smallint(),
    comment: text(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    commentedAt: timestamp('commented_at', { withTimezone: true }),
    /** The customer messages taken as this survey's answers (not a new conversation). */
    answerMessageIds: bigint('answer_message_ids', { mode: 'number' })
      .array()
      .notNull()
      .default(sql`'{}'::bigint[]`),
  },
  (t) => [
    index('csi_surveys_chat_idx').on(t.chatId, t.sentAt.desc()),
    index('csi_surveys_space_sent_idx').on(t.spaceId, t.sentAt.desc()),
    index('csi_surveys_answered_idx').on(t.spaceId, t.answeredAt.desc()).where(sql`"score" IS NOT NULL`),
  ],
);
