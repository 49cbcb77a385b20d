import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { spaces } from './spaces';
import { users } from './users';

/**
 * A scheduled statistics report (issue 15, docs/statistics.md "Scheduled reports"): chosen tabs with
 * filters, emailed daily, weekly (weekday) or monthly (day of month) at an hour of the space's time zone
 * to members and outside addresses. Computed with its creator's rights (`created_by`): a report whose
 * creator is gone or no longer sees the space's statistics fails and says so. `next_run_at` (null when
 * disabled) is what the job looks up.
 */
export const statsReports = pgTable(
  'stats_reports',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text().notNull(),
    tabs: jsonb().$type<string[]>().notNull(),
    frequency: text().notNull(),
    weekday: integer(),
    monthday: integer(),
    hour: integer().notNull(),
    userIds: jsonb('user_ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    emails: jsonb().$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    locale: text().notNull(),
    enabled: boolean().notNull().default(true),
    /** The stats filters: provider, object_id, kind (each a list; empty = all). */
    filters: jsonb().$type<{ provider: string[]; object_id: number[]; kind: string[] }>().notNull(),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('stats_reports_due_idx').on(t.nextRunAt).where(sql`next_run_at IS NOT NULL`),
    index('stats_reports_space_idx').on(t.spaceId, t.id),
  ],
);

/** One sending of a report (the history): when, to whom, for which local dates, and how it went. */
export const statsReportRuns = pgTable(
  'stats_report_runs',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    reportId: integer('report_id')
      .notNull()
      .references(() => statsReports.id, { onDelete: 'cascade' }),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    /** Who pressed "send now"; null for the schedule. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    manual: boolean().notNull(),
    periodFrom: text('period_from').notNull(),
    periodTo: text('period_to').notNull(),
    recipients: jsonb().$type<string[]>().notNull(),
    status: text().notNull(),
    /** A message key of packages/shared messages, or the mail server's own words. */
    error: text(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('stats_report_runs_report_idx').on(t.reportId, t.id)],
);

/**
 * A background export of raw rows (issue 15, docs/statistics.md "Exports"): items, dialogs, messages or
 * replies with inbox filters, written by jobs/stats-exports.ts to a file under DATA_DIR/exports and
 * downloadable by its creator only until `expires_at`. `filters` is the inbox list query the job parses
 * (modules/inbox/read/list-params.ts); `heartbeat_at` is the running job's lease (a node that died leaves it
 * stale and another node takes the export over).
 */
export const statsExports = pgTable(
  'stats_exports',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    format: text().notNull(),
    locale: text().notNull(),
    filters: jsonb().$type<Record<string, unknown>>().notNull(),
    periodFrom: text('period_from').notNull(),
    periodTo: text('period_to').notNull(),
    status: text().notNull().default('queued'),
    rowsDone: integer('rows_done').notNull().default(0),
    rowsTotal: integer('rows_total'),
    size: bigint({ mode: 'number' }),
    /** The file's name under DATA_DIR/exports (random, never derived from the id alone). */
    file: text(),
    error: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    index('stats_exports_user_idx').on(t.spaceId, t.userId, t.id),
    index('stats_exports_pending_idx').on(t.id).where(sql`status IN ('queued', 'running')`),
    index('stats_exports_expiry_idx').on(t.expiresAt).where(sql`status = 'done'`),
  ],
);
