import { z } from 'zod';
import { EMOTION_CATEGORIES, SENTIMENTS } from './emotions';

// The inbox's wire shapes (issue 12, point 4): comments and reviews (items), chats and their messages,
// customers (authors) and posts, as the read API answers and as socket pushes carry them. The server's
// presenters (apps/server/src/modules/inbox/read/presenter.ts) are typed to return these, its routes declare
// them as response schemas (so /v1/openapi.json documents them), and the web reads them with these types:
// a change of shape on one side is a type error on the other. Times are unix seconds.

/** docs/product/states.md: the statuses of a comment or a chat; `closed` says how in `close_reason`. */
export const INBOX_STATUSES = [
  'new',
  'inprogress',
  'open',
  'closed',
  'deleted',
  'delayed',
  'waiting',
] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];
export type SettableStatus = Exclude<InboxStatus, 'deleted'>;
export const CLOSE_REASONS = ['reply', 'noreply', 'autorule'] as const;
export type CloseReason = (typeof CLOSE_REASONS)[number];
export const ITEM_KINDS = ['comment', 'review', 'mention'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];
/** Outgoing: queued → sending → sent | failed; 'approval': held for a reviewer (docs/product/qa.md). */
export const DELIVERY_STATES = [
  'received',
  'approval',
  'queued',
  'sending',
  'sent',
  'delivered',
  'read',
  'failed',
] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];
export const ATTACHMENT_TYPES = ['image', 'video', 'audio', 'voice', 'document', 'sticker', 'link'] as const;

const unixTime = z.number().int();
const id = z.number().int();

export const attachmentSchema = z.object({
  type: z.enum(ATTACHMENT_TYPES),
  url: z.string(),
  name: z.string().optional(),
  mime: z.string().optional(),
  size: z.number().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

export const reactionSchema = z.object({
  value: z.string(),
  count: z.number().int(),
  /** Reacted by the account (us). */
  own: z.boolean().optional(),
});
export type Reaction = z.infer<typeof reactionSchema>;

const sentiment = z.enum(SENTIMENTS).nullable();
const emotion = z.enum(EMOTION_CATEGORIES).nullable();

/** A customer as every inbox answer shows them. */
export const authorWireSchema = z.object({
  id,
  provider: z.string(),
  external_id: z.string(),
  name: z.string(),
  screen_name: z.string().nullable(),
  image: z.string().nullable(),
  url: z.string().nullable(),
  /** Null when not blocked or blocked forever. */
  blocked_until: unixTime.nullable(),
  blocked_forever: z.boolean(),
  is_blocked: z.boolean(),
  labels: z.array(id),
  /** Only where the answer is about customers of a space (the customers' screens). */
  space_id: id.optional(),
});
export type AuthorWire = z.infer<typeof authorWireSchema>;

export const postWireSchema = z.object({
  id,
  external_id: z.string(),
  text: z.string(),
  url: z.string().nullable(),
  attachments: z.array(attachmentSchema),
  posted_at: unixTime.nullable(),
});
export type PostWire = z.infer<typeof postWireSchema>;

/** Where a text search found a list row: the passage, and for a chat the message it is from. */
export const searchMatchSchema = z.object({
  text: z.string(),
  message_id: id.optional(),
  is_own: z.boolean().optional(),
});
export type SearchMatch = z.infer<typeof searchMatchSchema>;

/** A comment, review or mention — or our reply to one. */
export const itemWireSchema = z.object({
  id,
  space_id: id,
  object_id: id,
  provider: z.string().optional(),
  kind: z.enum(ITEM_KINDS),
  post_id: id.nullable(),
  parent_id: id.nullable(),
  external_id: z.string().nullable(),
  author: authorWireSchema.nullable(),
  is_own: z.boolean(),
  /** Who replied (our replies). */
  user_id: id.nullable(),
  text: z.string(),
  /** docs/product/limits.md: the first 100 characters. */
  excerpt: z.string(),
  rating: z.number().int().nullable(),
  /** The classifier's reading of a received text; null for ours or when switched off. */
  sentiment,
  emotion,
  attachments: z.array(attachmentSchema),
  reactions: z.array(reactionSchema),
  url: z.string().nullable(),
  status: z.enum(INBOX_STATUSES),
  close_reason: z.enum(CLOSE_REASONS).nullable(),
  delayed_until: unixTime.nullable(),
  /** Back from `delayed` and not opened since. */
  returned_at: unixTime.nullable(),
  assigned_user_id: id.nullable(),
  is_hidden: z.boolean(),
  is_liked: z.boolean(),
  is_deleted: z.boolean(),
  delivery: z.enum(DELIVERY_STATES),
  delivery_error: z.string().nullable(),
  tags: z.array(id),
  created_at: unixTime,
  updated_at: unixTime.nullable(),
  edited_at: unixTime.nullable(),
  first_reply_at: unixTime.nullable(),
  /** Only in a list searched by text: the passage around the words found. */
  match: searchMatchSchema.optional(),
});
export type ItemWire = z.infer<typeof itemWireSchema>;

/** A private conversation with a customer. */
export const chatWireSchema = z.object({
  id,
  space_id: id,
  object_id: id,
  provider: z.string().optional(),
  external_id: z.string().nullable(),
  author: authorWireSchema.nullable(),
  status: z.enum(INBOX_STATUSES),
  close_reason: z.enum(CLOSE_REASONS).nullable(),
  delayed_until: unixTime.nullable(),
  returned_at: unixTime.nullable(),
  assigned_user_id: id.nullable(),
  last_message_at: unixTime.nullable(),
  last_message: z.string(),
  last_message_is_own: z.boolean(),
  /** The reading of the customer's latest message; null when none or switched off. */
  sentiment,
  emotion,
  unread_count: z.number().int(),
  tags: z.array(id),
  created_at: unixTime,
  updated_at: unixTime.nullable(),
  /** Only in a list searched by text: the newest message that matched, as a passage. */
  match: searchMatchSchema.nullable().optional(),
});
export type ChatWire = z.infer<typeof chatWireSchema>;

export const messageWireSchema = z.object({
  id,
  chat_id: id,
  external_id: z.string().nullable(),
  is_own: z.boolean(),
  user_id: id.nullable(),
  text: z.string(),
  sentiment,
  emotion,
  attachments: z.array(attachmentSchema),
  reactions: z.array(reactionSchema),
  delivery: z.enum(DELIVERY_STATES),
  delivery_error: z.string().nullable(),
  is_deleted: z.boolean(),
  reply_to_item_id: id.nullable(),
  created_at: unixTime,
  edited_at: unixTime.nullable(),
});
export type MessageWire = z.infer<typeof messageWireSchema>;

/** A customer in the customers' lists: with their space and how much they wrote that the caller sees. */
export const authorListEntryWireSchema = authorWireSchema.extend({
  space_id: id,
  items_count: z.number().int(),
  chats_count: z.number().int(),
});
export type AuthorListEntryWire = z.infer<typeof authorListEntryWireSchema>;

/** GET /v1/authors/{id}: the customer and what the caller sees of them. */
export const authorPageWireSchema = z.object({
  author: authorWireSchema,
  stats: z.object({
    items_count: z.number().int(),
    chats_count: z.number().int(),
    first_seen: unixTime.nullable(),
    last_seen: unixTime.nullable(),
  }),
});
export type AuthorStatsWire = z.infer<typeof authorPageWireSchema>['stats'];

/** GET /v1/items/{id}: the item with its post, parent, replies under it and author. */
export const itemDetailsWireSchema = z.object({
  item: itemWireSchema,
  post: postWireSchema.nullable(),
  parent: itemWireSchema.nullable(),
  /** Replies under the item, ours included, oldest first. */
  thread: z.array(itemWireSchema),
  author: authorWireSchema.nullable(),
});
export type ItemDetailsWire = z.infer<typeof itemDetailsWireSchema>;

/** GET /v1/chats/{id}. */
export const chatDetailsWireSchema = z.object({
  chat: chatWireSchema,
  author: authorWireSchema.nullable(),
});
export type ChatDetailsWire = z.infer<typeof chatDetailsWireSchema>;

/** GET /v1/search: comments with a longer excerpt, and messages with their chat. */
export const searchWireSchema = z.object({
  items: z.array(itemWireSchema),
  messages: z.array(z.object({ chat_id: id, message: messageWireSchema, excerpt: z.string() })),
});
export type SearchWire = z.infer<typeof searchWireSchema>;
