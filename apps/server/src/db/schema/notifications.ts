import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { spaces } from './spaces';
import { users } from './users';

/**
 * What happened for a user (issue 18): one row per user and event, in the user's language at the
 * moment it happened. The notification centre lists them; unread ones are counted on a partial index.
 * item/chat/object/issue ids say what it is about: digests show only what the user may see when sent.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    event: text().notNull(),
    title: text().notNull(),
    text: text().notNull().default(''),
    objectId: integer('object_id'),
    itemId: bigint('item_id', { mode: 'number' }),
    chatId: bigint('chat_id', { mode: 'number' }),
    issueId: bigint('issue_id', { mode: 'number' }),
    payload: jsonb().$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.id),
    index('notifications_unread_idx').on(t.userId).where(sql`read_at IS NULL`),
  ],
);

/** A user's own choice for one event and channel in one space; absent = the space default. */
export const notificationSubscriptions = pgTable(
  'notification_subscriptions',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    event: text().notNull(),
    channel: text().notNull(),
    frequency: text().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.spaceId, t.event, t.channel] })],
);

/** A space's defaults for its members' subscriptions and its quiet hours (settings/notifications). */
export const notificationSpaceSettings = pgTable('notification_space_settings', {
  spaceId: integer('space_id')
    .primaryKey()
    .references(() => spaces.id, { onDelete: 'cascade' }),
  defaults: jsonb()
    .$type<Array<{ event: string; channel: string; frequency: string }>>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  quietFrom: text('quiet_from'),
  quietTo: text('quiet_to'),
  timeZone: text('time_zone').notNull().default('UTC'),
  /** settings/email: the sender of the space's notification emails; null: MAIL_FROM's. */
  emailFromName: text('email_from_name'),
  emailFromAddress: text('email_from_address'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One notification to send over one channel (email): due at once or at the end of the user's digest
 * period. Claimed with a lease like the outbox (`locked_until`), so several nodes and a restart never
 * send a row twice: a row is `sent` in the same statement that records the mail; `pending` rows whose
 * lease ran out are taken again. Unique per notification and channel, so an event enqueues once.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    notificationId: bigint('notification_id', { mode: 'number' })
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    channel: text().notNull(),
    frequency: text().notNull(),
    /** pending → sent | skipped (not visible, unsubscribed) | failed (gave up). */
    state: text().notNull().default('pending'),
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    attempts: integer().notNull().default(0),
    lastError: text('last_error'),
    /** The mail_outbox row it went out in (one digest mail carries several deliveries). */
    mailId: integer('mail_id'),
    /**
     * Slack: one message per event for all its recipients, written when the event happened (the space's
     * Slack language, whom it is for); null for the other channels.
     */
    payload: jsonb().$type<{ title: string; text: string; recipients: string[] }>(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('notification_deliveries_once_idx').on(t.notificationId, t.channel),
    index('notification_deliveries_due_idx').on(t.dueAt).where(sql`state = 'pending'`),
  ],
);

/**
 * A user's Telegram chat with the instance's notification bot (issue 18). Linking: the user asks for a
 * one-time code (kept hashed, 15 minutes), sends `/start <code>` to the bot, and the bot's poller stores
 * the chat. Per user, not per space: which spaces' events go there is the subscriptions' business.
 */
export const notificationTelegram = pgTable('notification_telegram', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  chatId: text('chat_id'),
  codeHash: text('code_hash'),
  codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
  linkedAt: timestamp('linked_at', { withTimezone: true }),
});

/**
 * What a user watches in a space (issue 18): new items in these accounts (`new_item`) and new items
 * matching these saved comments filters of theirs (`comments_filter`). The ingestion pipeline queues an
 * arrival for matching only when its space has a watch.
 */
export const notificationWatches = pgTable(
  'notification_watches',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    objectIds: jsonb('object_ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    filterIds: jsonb('filter_ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.spaceId] }),
    index('notification_watches_space_idx').on(t.spaceId),
  ],
);

/**
 * Slack in a space (issue 18): the workspace an administrator installed the instance's Slack app into
 * (OAuth v2) and the channel the space's notifications go to. The bot token is sealed with SECRET_KEY
 * like account credentials and never leaves the server. `error` is Slack's answer to the last failed
 * message (token_revoked, channel_not_found…): while `broken`, nothing more is queued for Slack.
 */
export const notificationSlack = pgTable('notification_slack', {
  spaceId: integer('space_id')
    .primaryKey()
    .references(() => spaces.id, { onDelete: 'cascade' }),
  teamId: text('team_id').notNull(),
  teamName: text('team_name').notNull(),
  botUserId: text('bot_user_id'),
  tokenSealed: text('token_sealed').notNull(),
  scope: text().notNull().default(''),
  channelId: text('channel_id'),
  channelName: text('channel_name'),
  /** The language of the channel's messages: the installing administrator's. */
  locale: text().notNull().default('ru'),
  installedBy: integer('installed_by').references(() => users.id, { onDelete: 'set null' }),
  installedAt: timestamp('installed_at', { withTimezone: true }).notNull().defaultNow(),
  error: text(),
  errorAt: timestamp('error_at', { withTimezone: true }),
  broken: boolean().notNull().default(false),
});
