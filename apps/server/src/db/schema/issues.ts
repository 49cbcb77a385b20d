import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { spaces } from './spaces';

/** docs/product/states.md task statuses; `closed` is the one closed state, every other status is open. */
export type IssueStatus = 'new' | 'inprogress' | 'waiting' | 'delayed' | 'closed';
export type IssuePriority = 'low' | 'normal' | 'high';
export type IssueLinkKind = 'item' | 'chat' | 'author';

/**
 * Tasks (issue 16): a piece of work about items, chats or authors, assigned to a colleague and/or a
 * department, with a due moment. `object_id`/`provider` are the first linked record's account, kept
 * so group-limited members see the tasks of their accounts and the list filters by network cheaply.
 */
export const issues = pgTable(
  'issues',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    description: text().notNull().default(''),
    status: text().$type<IssueStatus>().notNull().default('new'),
    priority: text().$type<IssuePriority>().notNull().default('normal'),
    assignedUserId: integer('assigned_user_id'),
    departmentId: integer('department_id'),
    dueAt: timestamp('due_at', { withTimezone: true }),
    /** When the due job told the assignee the task is past due; cleared when due_at moves. */
    dueNotifiedAt: timestamp('due_notified_at', { withTimezone: true }),
    objectId: integer('object_id'),
    provider: text(),
    /** item | chat | author of the first link, null for a standalone task (the `source` filter). */
    source: text().$type<IssueLinkKind>(),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    index('issues_space_status_idx').on(t.spaceId, t.status, t.createdAt.desc()),
    index('issues_assignee_open_idx')
      .on(t.spaceId, t.assignedUserId, t.dueAt)
      .where(sql`${t.status} <> 'closed'`),
    index('issues_due_idx').on(t.dueAt).where(sql`${t.status} <> 'closed' AND ${t.dueNotifiedAt} IS NULL`),
    // Auto-rules' "a task is due" (jobs/rules-no-reply.ts): a space's open tasks by due moment.
    index('issues_open_due_idx')
      .on(t.spaceId, t.dueAt)
      .where(sql`${t.status} <> 'closed' AND ${t.dueAt} IS NOT NULL`),
  ],
);

/** The items, chats and authors a task is about (many per task; a record shows its tasks). */
export const issueLinks = pgTable(
  'issue_links',
  {
    issueId: integer('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    spaceId: integer('space_id').notNull(),
    kind: text().$type<IssueLinkKind>().notNull(),
    targetId: bigint('target_id', { mode: 'number' }).notNull(),
    objectId: integer('object_id'),
  },
  (t) => [
    primaryKey({ columns: [t.issueId, t.kind, t.targetId] }),
    index('issue_links_target_idx').on(t.spaceId, t.kind, t.targetId),
  ],
);

export interface IssueAttachment {
  url: string;
  name: string;
  /** The stored name under DATA_DIR/uploads/issues/{space} (absent on entries from before files). */
  file?: string;
  mime?: string;
  size?: number;
}

/** Colleagues' comments on a task; `mentions` are the user ids @mentioned (each gets a notify). */
export const issueComments = pgTable(
  'issue_comments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    issueId: integer('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    spaceId: integer('space_id').notNull(),
    userId: integer('user_id'),
    text: text().notNull(),
    mentions: jsonb().$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    attachments: jsonb().$type<IssueAttachment[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('issue_comments_issue_idx').on(t.issueId, t.id)],
);

/** Who changed what on a task, before → after (user_id null: the system, e.g. it became overdue). */
export const issueHistory = pgTable(
  'issue_history',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    issueId: integer('issue_id')
      .notNull()
      .references(() => issues.id, { onDelete: 'cascade' }),
    spaceId: integer('space_id').notNull(),
    userId: integer('user_id'),
    field: text().notNull(),
    before: text(),
    after: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('issue_history_issue_idx').on(t.issueId, t.id)],
);
