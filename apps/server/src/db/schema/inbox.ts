import type {
  Attachment,
  CloseReason,
  DeliveryState,
  EmotionCategory,
  InboxStatus,
  ItemKind,
  Reaction,
  Sentiment,
} from '@otklik/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { objects } from './organisation';
import { spaces } from './spaces';
import { users } from './users';

// The inbox: what networks send us (posts, items, chats, messages, authors) and what operators do with
// it. Every row carries space_id; list indexes lead with it (ARCHITECTURE "Multi-tenancy").

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

// The wire's enumerations and attachment/reaction shapes are the columns' types too (packages/shared
// inbox-wire.ts): what is stored is what the API may answer.
export type { Attachment, CloseReason, DeliveryState, InboxStatus, ItemKind, Reaction } from '@otklik/shared';

export const authors = pgTable(
  'authors',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    provider: text().notNull(),
    externalId: text('external_id').notNull(),
    name: text().notNull(),
    screenName: text('screen_name'),
    image: text(),
    url: text(),
    /** Blocked until this time; `blockedForever` for the "forever" duration (docs/product/limits.md). */
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
    blockedForever: boolean('blocked_forever').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('authors_identity_key').on(t.spaceId, t.provider, t.externalId),
    // Trigram indexes (pg_trgm) serve the authors list's name / screen name search (ILIKE '%…%').
    index('authors_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('authors_screen_name_trgm_idx').using('gin', t.screenName.op('gin_trgm_ops')),
  ],
);

export const authorLabels = pgTable(
  'author_labels',
  {
    authorId: bigint('author_id', { mode: 'number' })
      .notNull()
      .references(() => authors.id, { onDelete: 'cascade' }),
    labelId: integer('label_id').notNull(),
    spaceId: integer('space_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.authorId, t.labelId] }), index('author_labels_label_idx').on(t.labelId)],
);

/** The post (or review page, or mention source) items hang under. */
export const posts = pgTable(
  'posts',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id').notNull(),
    objectId: integer('object_id')
      .notNull()
      .references(() => objects.id, { onDelete: 'cascade' }),
    externalId: text('external_id').notNull(),
    text: text().notNull().default(''),
    url: text(),
    attachments: jsonb().$type<Attachment[]>().notNull().default(sql`'[]'::jsonb`),
    postedAt: timestamp('posted_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('posts_external_key').on(t.objectId, t.externalId)],
);

/**
 * presenter.ts `excerpt()` in SQL, kept as a stored column so list pages (inbox/read/list-json.ts) read it
 * instead of running a regular expression per row: whitespace runs (JavaScript's \s set) become one
 * space, trimmed, then the first 100 code points (docs/product/limits.md EXCERPT_SHORT) and an ellipsis when longer.
 * inbox/read/list-json.test.ts checks it against the JavaScript one.
 */
function excerptOf(column: string) {
  const squeezed = `btrim(regexp_replace(${column}, '[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+', ' ', 'g'), ' ')`;
  return sql.raw(
    `CASE WHEN char_length(${squeezed}) <= 100 THEN ${squeezed} ELSE left(${squeezed}, 100) || '…' END`,
  );
}

/**
 * Comments, reviews and mentions — and our own replies to them (`isOwn`), so a thread reads in order.
 * Unique by (object, external id): a redelivered event finds its row and changes nothing.
 */
export const items = pgTable(
  'items',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id').notNull(),
    objectId: integer('object_id')
      .notNull()
      .references(() => objects.id, { onDelete: 'cascade' }),
    postId: bigint('post_id', { mode: 'number' }),
    parentId: bigint('parent_id', { mode: 'number' }),
    /** The network's id of the parent, kept so a reply that arrives before its parent links up later. */
    parentExternalId: text('parent_external_id'),
    kind: text().$type<ItemKind>().notNull(),
    /** Network id; null only for our own replies not yet accepted by the network. */
    externalId: text('external_id'),
    authorId: bigint('author_id', { mode: 'number' }),
    isOwn: boolean('is_own').notNull().default(false),
    userId: integer('user_id'),
    text: text().notNull().default(''),
    rating: smallint(),
    /** The classifier's reading of a received text (modules/emotions); null: ours, or switched off. */
    sentiment: text().$type<Sentiment>(),
    /** A category on top of a negative sentiment: 'anger'. */
    emotion: text().$type<EmotionCategory>(),
    attachments: jsonb().$type<Attachment[]>().notNull().default(sql`'[]'::jsonb`),
    reactions: jsonb().$type<Reaction[]>().notNull().default(sql`'[]'::jsonb`),
    url: text(),
    status: text().$type<InboxStatus>().notNull().default('new'),
    closeReason: text('close_reason').$type<CloseReason>(),
    delayedUntil: timestamp('delayed_until', { withTimezone: true }),
    /** Came back from `delayed` at (jobs/delayed.ts); the lists mark it until someone opens it. */
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    assignedUserId: integer('assigned_user_id'),
    isHidden: boolean('is_hidden').notNull().default(false),
    isLiked: boolean('is_liked').notNull().default(false),
    /** Deleted on the network (by us or by the author). */
    isDeleted: boolean('is_deleted').notNull().default(false),
    /** Outgoing: queued → sending → sent | failed, with the network's error text. */
    delivery: text().$type<DeliveryState>().notNull().default('received'),
    deliveryError: text('delivery_error'),
    /** When the network says it was written. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    firstReplyAt: timestamp('first_reply_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    search: tsvector().generatedAlwaysAs(
      sql`to_tsvector('russian', coalesce("text", '')) || to_tsvector('english', coalesce("text", ''))`,
    ),
    excerpt: text().generatedAlwaysAs(excerptOf('"text"')),
  },
  (t) => [
    uniqueIndex('items_external_key').on(t.objectId, t.externalId),
    // The queue: per status, newest first (lists merge a few statuses, see inbox/read/queries.ts).
    index('items_queue_idx')
      .on(t.spaceId, t.status, t.createdAt.desc(), t.id.desc())
      .where(sql`NOT "is_own"`),
    // Filtered lists by account: per (account, status) in queue order (inbox/read/queries.ts splits by both).
    index('items_object_queue_idx')
      .on(t.spaceId, t.objectId, t.status, t.createdAt.desc(), t.id.desc())
      .where(sql`NOT "is_own"`),
    index('items_space_created_idx').on(t.spaceId, t.createdAt.desc(), t.id.desc()).where(sql`NOT "is_own"`),
    index('items_parent_idx').on(t.parentId),
    // Delayed items whose time has come (jobs/delayed.ts), across spaces.
    index('items_delayed_due_idx').on(t.delayedUntil).where(sql`"status" = 'delayed'`),
    index('items_author_idx').on(t.authorId),
    index('items_search_idx').using('gin', t.search),
    // The Mine / Unassigned view counters (inbox/read/views.ts): assigned work waiting, per space and user.
    // Auto-rules' "no reply for N minutes" (jobs/rules-no-reply.ts): unanswered open work by arrival.
    index('items_unreplied_idx')
      .on(t.spaceId, t.receivedAt)
      .where(sql`NOT "is_own" AND "first_reply_at" IS NULL AND "status" IN ('new', 'inprogress', 'open')`),
    // Statistics (stats/queries.ts): first response times of the items that came in during a period, and
    // the backlog (waiting now) with its oldest — both read from the index alone (docs/statistics.md "Rollups").
    index('items_stats_arrival_idx')
      .on(t.spaceId, t.createdAt, t.kind, t.objectId, t.firstReplyAt)
      .where(sql`NOT "is_own"`),
    index('items_stats_backlog_idx')
      .on(t.spaceId, t.createdAt, t.kind, t.objectId, t.assignedUserId)
      .where(sql`NOT "is_own" AND "status" IN ('new', 'inprogress', 'open')`),
    index('items_assigned_open_idx')
      .on(t.spaceId, t.assignedUserId, t.objectId)
      .where(sql`NOT "is_own" AND "assigned_user_id" IS NOT NULL AND "status" IN ('new', 'inprogress')`),
  ],
);

export const itemTags = pgTable(
  'item_tags',
  {
    itemId: bigint('item_id', { mode: 'number' })
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id').notNull(),
    spaceId: integer('space_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.tagId] }), index('item_tags_tag_idx').on(t.tagId, t.itemId)],
);

/** A private conversation with one customer on one account. */
export const chats = pgTable(
  'chats',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id').notNull(),
    objectId: integer('object_id')
      .notNull()
      .references(() => objects.id, { onDelete: 'cascade' }),
    externalId: text('external_id').notNull(),
    authorId: bigint('author_id', { mode: 'number' }),
    status: text().$type<InboxStatus>().notNull().default('new'),
    closeReason: text('close_reason').$type<CloseReason>(),
    delayedUntil: timestamp('delayed_until', { withTimezone: true }),
    /** Came back from `delayed` at (jobs/delayed.ts); the lists mark it until someone opens it. */
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    assignedUserId: integer('assigned_user_id'),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull(),
    lastMessageText: text('last_message_text').notNull().default(''),
    lastMessageExcerpt: text('last_message_excerpt').generatedAlwaysAs(excerptOf('"last_message_text"')),
    lastMessageIsOwn: boolean('last_message_is_own').notNull().default(false),
    /**
     * The chat's emotion (issue 21): the reading of the customer's latest message (messages.sentiment /
     * emotion), kept by ingestion; the chat list filters on it and shows it (docs/product/emotions.md).
     */
    lastSentiment: text('last_sentiment').$type<Sentiment>(),
    lastEmotion: text('last_emotion').$type<EmotionCategory>(),
    unreadCount: integer('unread_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    firstReplyAt: timestamp('first_reply_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /**
     * The dialog's arrival for statistics: its first customer message's created_at (null while it has
     * none), kept by a trigger on messages (migration "stats_hourly", docs/statistics.md "Rollups").
     */
    arrivedAt: timestamp('arrived_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('chats_external_key').on(t.objectId, t.externalId),
    index('chats_queue_idx').on(t.spaceId, t.status, t.lastMessageAt.desc(), t.id.desc()),
    index('chats_object_queue_idx').on(t.spaceId, t.objectId, t.status, t.lastMessageAt.desc(), t.id.desc()),
    index('chats_space_last_idx').on(t.spaceId, t.lastMessageAt.desc(), t.id.desc()),
    // Statistics: the dialogs that came in during a period (stats/queries.ts unitsCte).
    index('chats_space_arrived_idx')
      .on(t.spaceId, t.arrivedAt, t.objectId, t.firstReplyAt)
      .where(sql`"arrived_at" IS NOT NULL`),
    // The author page and author lists find a customer's chats (authors/queries.ts).
    index('chats_author_idx').on(t.authorId),
    // Delayed chats whose time has come (jobs/delayed.ts), across spaces.
    index('chats_delayed_due_idx').on(t.delayedUntil).where(sql`"status" = 'delayed'`),
    // The Mine / Unassigned view counters (inbox/read/views.ts): assigned chats waiting, per space and user.
    index('chats_assigned_open_idx')
      .on(t.spaceId, t.assignedUserId, t.objectId)
      .where(sql`"assigned_user_id" IS NOT NULL AND "status" IN ('new', 'inprogress', 'open')`),
  ],
);

export const chatTags = pgTable(
  'chat_tags',
  {
    chatId: bigint('chat_id', { mode: 'number' })
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id').notNull(),
    spaceId: integer('space_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.chatId, t.tagId] }), index('chat_tags_tag_idx').on(t.tagId, t.chatId)],
);

export const messages = pgTable(
  'messages',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id').notNull(),
    chatId: bigint('chat_id', { mode: 'number' })
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    externalId: text('external_id'),
    isOwn: boolean('is_own').notNull(),
    userId: integer('user_id'),
    text: text().notNull().default(''),
    /** As items.sentiment / items.emotion, for the customer's messages. */
    sentiment: text().$type<Sentiment>(),
    emotion: text().$type<EmotionCategory>(),
    attachments: jsonb().$type<Attachment[]>().notNull().default(sql`'[]'::jsonb`),
    reactions: jsonb().$type<Reaction[]>().notNull().default(sql`'[]'::jsonb`),
    delivery: text().$type<DeliveryState>().notNull().default('received'),
    deliveryError: text('delivery_error'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    /** A 'Direct' reply to a comment starts or continues a chat; this points at the comment. */
    replyToItemId: bigint('reply_to_item_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    search: tsvector().generatedAlwaysAs(
      sql`to_tsvector('russian', coalesce("text", '')) || to_tsvector('english', coalesce("text", ''))`,
    ),
  },
  (t) => [
    uniqueIndex('messages_external_key').on(t.chatId, t.externalId),
    index('messages_chat_idx').on(t.chatId, t.createdAt, t.id),
    // Message search walks newest first within a space.
    index('messages_space_created_idx').on(t.spaceId, t.createdAt.desc(), t.id.desc()),
    index('messages_search_idx').using('gin', t.search),
  ],
);

/**
 * Badge counters per account, kind and status, maintained by statement-level triggers on items and
 * chats (migration 0005), so GET /v1/counts sums a handful of rows instead of counting millions.
 */
export const inboxCounters = pgTable(
  'inbox_counters',
  {
    objectId: integer('object_id').notNull(),
    spaceId: integer('space_id').notNull(),
    kind: text().$type<'items' | 'chats'>().notNull(),
    status: text().$type<InboxStatus>().notNull(),
    count: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.objectId, t.kind, t.status] }),
    index('inbox_counters_space_idx').on(t.spaceId),
  ],
);

export type ActivityType =
  | 'item.received'
  | 'item.replied'
  | 'item.status'
  | 'item.assigned'
  | 'item.tagged'
  | 'item.moderated'
  | 'chat.received'
  | 'chat.replied'
  | 'chat.status'
  | 'chat.assigned'
  | 'chat.tagged'
  | 'message.moderated'
  | 'author.blocked'
  | 'lock.held'
  | 'item.viewed'
  | 'chat.viewed'
  | 'note.added'
  | 'note.edited'
  | 'note.deleted'
  // An auto-rule ran on the item (modules/rules/engine.ts): its name, status and each action's outcome.
  | 'item.rule'
  // A chat-bot's step failed (modules/bots: a webhook that failed every try): the bot, the step, why.
  | 'chat.bot';

/** Append-only record of what happened (ARCHITECTURE "Record what happened"): statistics and QA read it. */
export const activity = pgTable(
  'activity',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id').notNull(),
    type: text().$type<ActivityType>().notNull(),
    objectId: integer('object_id'),
    itemId: bigint('item_id', { mode: 'number' }),
    chatId: bigint('chat_id', { mode: 'number' }),
    userId: integer('user_id'),
    causeKind: text('cause_kind').$type<'user' | 'rule' | 'bot' | 'system' | 'customer'>().notNull(),
    causeId: integer('cause_id'),
    data: jsonb().$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('activity_space_at_idx').on(t.spaceId, t.at),
    index('activity_item_idx').on(t.itemId),
    // A chat's history (inbox/read/history.ts).
    index('activity_chat_idx').on(t.chatId),
  ],
);

/** Outgoing network calls (replies, moderation) waiting, retrying or failed: never lost silently. */
export const outbox = pgTable(
  'outbox',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id').notNull(),
    objectId: integer('object_id').notNull(),
    action: text().notNull(),
    itemId: bigint('item_id', { mode: 'number' }),
    messageId: bigint('message_id', { mode: 'number' }),
    chatId: bigint('chat_id', { mode: 'number' }),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    /** 'approval': a reply held for a reviewer; the worker claims only 'pending' (modules/qa/approval.ts). */
    state: text()
      .$type<'approval' | 'pending' | 'running' | 'done' | 'failed'>()
      .notNull()
      .default('pending'),
    attempts: integer().notNull().default(0),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
    /** A failure someone acknowledged on settings/errors: off the lists and counts (failures.ts). */
    dismissedAt: timestamp('dismissed_at', { withTimezone: true }),
    dismissedBy: integer('dismissed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('outbox_due_idx').on(t.runAt).where(sql`"state" = 'pending'`),
    index('outbox_object_idx').on(t.objectId),
    // Pruning carried-out rows by age (jobs/outbox-prune.ts).
    index('outbox_done_idx').on(t.doneAt).where(sql`"state" = 'done'`),
    // settings/errors: a space's failed actions, newest first (modules/inbox/failures/failures.ts).
    index('outbox_failed_idx').on(t.spaceId, t.id.desc()).where(sql`"state" = 'failed'`),
    // An item's latest outgoing action (failures.ts, actions/retry.ts).
    index('outbox_item_idx').on(t.itemId, t.id.desc()).where(sql`"item_id" IS NOT NULL`),
    // An author's latest network ban or unban on an account (failures.ts).
    index('outbox_ban_idx')
      .on(t.objectId, sql`("payload"->>'authorExternalId')`, t.id.desc())
      .where(sql`"action" IN ('block', 'unblock')`),
  ],
);
