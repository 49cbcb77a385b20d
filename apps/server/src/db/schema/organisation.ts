import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { spaces } from './spaces';

/** docs/product/entities.md Companies: a space's brands/clients; accounts, groups and tags hang off them. */
export const companies = pgTable(
  'companies',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** items_assigned_to, status_open, tags_mode (docs/product/entities.md). */
    settings: jsonb().$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('companies_space_idx').on(t.spaceId)],
);

export const departments = pgTable(
  'departments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('departments_space_idx').on(t.spaceId)],
);

/** A user group sees only the companies and accounts assigned to it (docs/product/roles.md). */
export const userGroups = pgTable(
  'user_groups',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    companyIds: jsonb('company_ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    objectIds: jsonb('object_ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_groups_space_idx').on(t.spaceId)],
);

/** Connected accounts (docs/product/entities.md Object). Credentials are sealed and never presented. */
export const objects = pgTable(
  'objects',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
    provider: text().notNull(),
    externalId: text('external_id'),
    name: text().notNull(),
    screenName: text('screen_name'),
    image: text(),
    url: text(),
    domain: text(),
    /** The network's own last error text, shown in the errors dropdown; null when healthy. */
    error: text(),
    errorAt: timestamp('error_at', { withTimezone: true }),
    /** exclude, exclude_messages, chats, stickers, reactions (docs/product/screens-and-routes.md settings/accounts). */
    settings: jsonb().$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    credentials: text(),
    /** sha256 of the account's ingestion / webhook secret: generic ingestion API, sandbox page, webhooks. */
    ingestTokenDigest: text('ingest_token_digest').unique(),
    isActive: boolean('is_active').notNull().default(true),
    /** 'webhook' or 'polling' (issue #5: the network's push where possible, polling as the fallback). */
    updatesMode: text('updates_mode'),
    /** Where polling continues (Telegram offset, VK Long Poll ts, MAX marker). */
    pollCursor: text('poll_cursor'),
    /** The node polling this account and until when; another node takes over once the lease runs out. */
    pollLeaseNode: text('poll_lease_node'),
    pollLeaseUntil: timestamp('poll_lease_until', { withTimezone: true }),
    /**
     * Networks with a daily API quota (YouTube): units spent on the network's day `day` (its own calendar,
     * YYYY-MM-DD); polling is paced by it and shown on the account.
     */
    apiQuota: jsonb('api_quota').$type<{ day: string; used: number; limit: number }>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('objects_space_idx').on(t.spaceId)],
);

export const tagGroups = pgTable(
  'tag_groups',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('tag_groups_space_idx').on(t.spaceId)],
);

export const tags = pgTable(
  'tags',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
    parentId: integer('parent_id'),
    groupId: integer('group_id').references(() => tagGroups.id, { onDelete: 'set null' }),
    name: text().notNull(),
    color: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('tags_space_idx').on(t.spaceId)],
);

/** Author labels (docs/product/screens-and-routes.md settings/labels). */
export const labels = pgTable(
  'labels',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    color: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('labels_space_idx').on(t.spaceId)],
);
