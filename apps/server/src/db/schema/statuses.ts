import type { BusinessSpecialDay, BusinessWeekInterval } from '@otklik/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies } from './organisation';
import { spaces } from './spaces';
import { users } from './users';

/** docs/product/entities.md User status: per space; `offline` forces the picker, `workinghours` counts as working time. */
export const userStatuses = pgTable(
  'user_statuses',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    color: text().notNull().default('#40c057'),
    hidden: boolean().notNull().default(false),
    offline: boolean().notNull().default(false),
    workinghours: boolean().notNull().default(true),
    position: integer().notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_statuses_space_idx').on(t.spaceId)],
);

export type StatusChangeSource = 'manual' | 'schedule' | 'system';

/** Every status change with its time: statistics of statuses and working hours are queries over it. */
export const statusChanges = pgTable(
  'status_changes',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    statusId: integer('status_id').references(() => userStatuses.id, { onDelete: 'set null' }),
    previousStatusId: integer('previous_status_id'),
    source: text().$type<StatusChangeSource>().notNull(),
    performedBy: integer('performed_by'),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('status_changes_space_user_at_idx').on(t.spaceId, t.userId, t.at)],
);

/** docs/product/entities.md Working-hours item: a slot of a user's schedule with the status it switches to. */
export const workinghoursItems = pgTable(
  'workinghours_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }).notNull(),
    statusId: integer('status_id').references(() => userStatuses.id, { onDelete: 'set null' }),
    /** Set once the server has switched the user's status for this slot's start. */
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('workinghours_items_user_idx').on(t.spaceId, t.userId, t.startedAt),
    index('workinghours_items_start_idx').on(t.startedAt),
  ],
);

/** A weekly pattern applied to users' schedules: items of {weekday 1-7 (Mon=1), start, end (minutes), status_id}. */
export const workinghoursTemplates = pgTable(
  'workinghours_templates',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    items: jsonb()
      .$type<Array<{ weekday: number; start: number; end: number; status_id: number | null }>>()
      .notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('workinghours_templates_space_idx').on(t.spaceId)],
);

export const absences = pgTable(
  'absences',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }).notNull(),
    reason: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('absences_user_idx').on(t.spaceId, t.userId, t.startedAt)],
);

export const holidays = pgTable(
  'holidays',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    day: date().notNull(),
    name: text().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('holidays_space_idx').on(t.spaceId, t.day)],
);

/**
 * The business-hours schedule (settings/workinghours, docs/statistics.md "Business hours"): the space's
 * (company_id null) or a company's override. The time zone is the space's; the days off are `holidays`.
 */
export const businessHours = pgTable(
  'business_hours',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    week: jsonb().$type<BusinessWeekInterval[]>().notNull(),
    specialDays: jsonb('special_days').$type<BusinessSpecialDay[]>().notNull(),
    updatedBy: integer('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('business_hours_space_company_uq').on(t.spaceId, sql`coalesce(${t.companyId}, 0)`)],
);
