import type {
  QaApprovalStatus,
  QaConditions,
  QaCriterion,
  QaSampleSource,
  QaSampleStatus,
  QaScore,
} from '@otklik/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { spaces } from './spaces';

/** Quality check (issue 21): a space's scorecards; each carries its own sampling rules. */
export const qaScorecards = pgTable(
  'qa_scorecards',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** Checked against packages/shared qaCriterionSchema on every write. */
    criteria: jsonb().$type<QaCriterion[]>().notNull(),
    randomPercent: integer('random_percent').notNull().default(0),
    conditions: jsonb()
      .$type<QaConditions>()
      .notNull()
      .default(sql`'{"object_ids":[],"providers":[],"user_ids":[]}'::jsonb`),
    active: boolean().notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('qa_scorecards_space_idx').on(t.spaceId)],
);

/**
 * One operator reply picked for review (jobs/qa-sampling.ts) and its review. A reply is sampled once per
 * scorecard: the unique keys make a re-run of the job change nothing.
 */
export const qaSamples = pgTable(
  'qa_samples',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id').notNull(),
    scorecardId: integer('scorecard_id')
      .notNull()
      .references(() => qaScorecards.id, { onDelete: 'cascade' }),
    kind: text().$type<'item' | 'message'>().notNull(),
    /** The reply itself: an own item or an own message. */
    replyId: bigint('reply_id', { mode: 'number' }).notNull(),
    /** The comment the thread opens with (items) or the chat (messages). */
    itemId: bigint('item_id', { mode: 'number' }),
    chatId: bigint('chat_id', { mode: 'number' }),
    objectId: integer('object_id').notNull(),
    operatorId: integer('operator_id').notNull(),
    replyAt: timestamp('reply_at', { withTimezone: true }).notNull(),
    source: text().$type<QaSampleSource>().notNull(),
    /** Monday (UTC) of the reply's week, YYYY-MM-DD. */
    week: text().notNull(),
    status: text().$type<QaSampleStatus>().notNull().default('pending'),
    reviewerId: integer('reviewer_id'),
    scores: jsonb().$type<QaScore[]>().notNull().default(sql`'[]'::jsonb`),
    comment: text().notNull().default(''),
    total: real(),
    criticalFailed: boolean('critical_failed').notNull().default(false),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('qa_samples_reply_key').on(t.scorecardId, t.kind, t.replyId),
    index('qa_samples_queue_idx').on(t.spaceId, t.status, t.replyAt.desc()),
    index('qa_samples_operator_idx').on(t.operatorId, t.reviewedAt.desc()),
  ],
);

/**
 * A reply held for approval (issue 21 approval mode, modules/qa/approval.ts): the reply is recorded with
 * delivery 'approval' and its outbox row waits in state 'approval' until a reviewer decides. This row is
 * the queue and the record of the decision (who, when, the comment).
 */
export const qaApprovals = pgTable(
  'qa_approvals',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id').notNull(),
    objectId: integer('object_id').notNull(),
    kind: text().$type<'item' | 'message'>().notNull(),
    /** The held reply: an own item or an own message. */
    replyId: bigint('reply_id', { mode: 'number' }).notNull(),
    /** The replied comment (items) or the chat (messages). */
    itemId: bigint('item_id', { mode: 'number' }),
    chatId: bigint('chat_id', { mode: 'number' }),
    /** The held outbox row (no reference: finished rows are pruned). */
    outboxId: bigint('outbox_id', { mode: 'number' }).notNull(),
    operatorId: integer('operator_id'),
    status: text().$type<QaApprovalStatus>().notNull().default('pending'),
    /** When the network stops accepting the reply (providers/reply-window.ts); null: no window. */
    deadline: timestamp({ withTimezone: true }),
    reviewerId: integer('reviewer_id'),
    comment: text().notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('qa_approvals_queue_idx').on(t.spaceId, t.status, t.createdAt.desc()),
    index('qa_approvals_outbox_idx').on(t.outboxId),
    index('qa_approvals_operator_idx').on(t.operatorId, t.createdAt.desc()),
  ],
);
