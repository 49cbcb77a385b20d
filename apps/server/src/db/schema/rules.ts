import type { RuleAction, RuleActionResult, RuleGroup, RuleTrigger } from '@otklik/shared';
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
import { spaces } from './spaces';

/** Auto-rules (issue 17), run in `position` order per space. */
export const rules = pgTable(
  'rules',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    position: integer().notNull().default(0),
    paused: boolean().notNull().default(false),
    stopProcessing: boolean('stop_processing').notNull().default(false),
    trigger: text().$type<RuleTrigger>().notNull(),
    /** no_reply: minutes without our reply. */
    minutes: integer(),
    /** Checked against packages/shared ruleConditionsSchema / ruleActionSchema on every write. */
    conditions: jsonb().$type<RuleGroup>().notNull(),
    actions: jsonb().$type<RuleAction[]>().notNull(),
    matchCount: integer('match_count').notNull().default(0),
    lastMatchedAt: timestamp('last_matched_at', { withTimezone: true }),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('rules_space_idx').on(t.spaceId, t.position),
    index('rules_active_trigger_idx').on(t.trigger, t.spaceId).where(sql`NOT "paused"`),
  ],
);

/**
 * One rule matching one item, once (the unique key is also the time-based trigger's "already done"),
 * with what each action did. The stats read it by (space, time).
 */
export const ruleMatches = pgTable(
  'rule_matches',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id').notNull(),
    ruleId: integer('rule_id')
      .notNull()
      .references(() => rules.id, { onDelete: 'cascade' }),
    itemId: bigint('item_id', { mode: 'number' }).notNull(),
    /** Which event of the item ('' arrival or the clock; `edit:<ms>` an edit; `deleted`): once per rule and event. */
    event: text().notNull().default(''),
    /** ok: something was done; skipped: nothing applied; failed: an action failed (nothing kept). */
    status: text().$type<'ok' | 'skipped' | 'failed'>().notNull(),
    actionsDone: integer('actions_done').notNull().default(0),
    results: jsonb().$type<RuleActionResult[]>().notNull(),
    error: text(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('rule_matches_rule_item_event_key').on(t.ruleId, t.itemId, t.event),
    index('rule_matches_space_at_idx').on(t.spaceId, t.at),
    index('rule_matches_item_idx').on(t.itemId),
  ],
);

/**
 * Items waiting for the arrival rules, written in the ingestion transaction (so nothing that arrived is
 * missed) and taken by jobs/rules-worker.ts; a row whose worker died is taken again after its lock ends.
 */
export const ruleQueue = pgTable(
  'rule_queue',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id').notNull(),
    itemId: bigint('item_id', { mode: 'number' }).notNull(),
    /** `notify`: an arrival queued for the notification watches (modules/notifications/watches.ts);
     * `bot`: a customer message (item_id is the message's id) for the chat-bot (modules/bots/runtime.ts). */
    trigger: text().$type<RuleTrigger | 'notify' | 'bot'>().notNull().default('item_created'),
    event: text().notNull().default(''),
    attempts: integer().notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    enqueuedAt: timestamp('enqueued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('rule_queue_locked_idx').on(t.lockedUntil, t.id)],
);
