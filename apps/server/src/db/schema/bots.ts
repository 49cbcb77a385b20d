import type { BotSessionState, BotStep } from '@otklik/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { chats } from './inbox';
import { objects } from './organisation';
import { spaces } from './spaces';

/** Chat-bots (issue 17): at most one per messenger account. Steps are checked by botFormSchema on write. */
export const bots = pgTable(
  'bots',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    objectId: integer('object_id')
      .notNull()
      .references(() => objects.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    enabled: boolean().notNull().default(true),
    steps: jsonb().$type<BotStep[]>().notNull(),
    offHoursSteps: jsonb('off_hours_steps').$type<BotStep[]>().notNull().default(sql`'[]'::jsonb`),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('bots_object_key').on(t.objectId), index('bots_space_idx').on(t.spaceId)],
);

/** One bot conversation in one chat: where it stands and what the customer gave (modules/bots/runtime.ts). */
export const botSessions = pgTable(
  'bot_sessions',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id').notNull(),
    botId: integer('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    chatId: bigint('chat_id', { mode: 'number' })
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    flow: text().$type<'main' | 'off_hours'>().notNull().default('main'),
    state: text().$type<BotSessionState>().notNull().default('active'),
    /** The step it waits at (or ended at). */
    stepId: text('step_id').notNull(),
    /** Every step reached, in order (the funnel counts them). */
    path: jsonb().$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    fields: jsonb().$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    retries: integer().notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('bot_sessions_chat_idx').on(t.chatId, t.id.desc()),
    uniqueIndex('bot_sessions_active_key').on(t.chatId).where(sql`"state" = 'active'`),
    index('bot_sessions_bot_started_idx').on(t.botId, t.startedAt),
  ],
);
