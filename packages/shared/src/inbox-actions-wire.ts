import { z } from 'zod';
import { authorWireSchema, chatWireSchema, itemWireSchema, messageWireSchema } from './inbox-wire';

// What the inbox's actions answer (issue 12, point 4): replies and messages sent, undone and retried,
// moderation, statuses, tags and assignment — each answers the rows it changed, in the shapes of
// inbox-wire.ts — and the history, the refused action and the network ban of one record. The server's
// routes (apps/server/src/modules/inbox/actions/routes-*.ts, routes.ts, failures-routes.ts) declare these
// as response schemas; the web reads the answers with these types.

/** A comment changed (edited, moderated, reacted to, retried, its status, tags or assignee). */
export const itemAnswerWireSchema = z.object({ item: itemWireSchema });
export type ItemAnswerWire = z.infer<typeof itemAnswerWireSchema>;

/** PUT /v1/items/status: the comments as they are now. */
export const itemsAnswerWireSchema = z.object({ items: z.array(itemWireSchema) });
export type ItemsAnswerWire = z.infer<typeof itemsAnswerWireSchema>;

/** A chat changed (its status, tags or assignee). */
export const chatAnswerWireSchema = z.object({ chat: chatWireSchema });
export type ChatAnswerWire = z.infer<typeof chatAnswerWireSchema>;

/** PUT /v1/chats/status: the chats as they are now. */
export const chatsAnswerWireSchema = z.object({ chats: z.array(chatWireSchema) });
export type ChatsAnswerWire = z.infer<typeof chatsAnswerWireSchema>;

/** A chat message changed (reacted to, retried). */
export const messageAnswerWireSchema = z.object({ message: messageWireSchema });
export type MessageAnswerWire = z.infer<typeof messageAnswerWireSchema>;

/** POST /v1/items/{id}/reply: the comment answered (closed with reply) and our reply, `queued`. */
export const itemReplyWireSchema = z.object({ item: itemWireSchema, reply: itemWireSchema });
export type ItemReplyWire = z.infer<typeof itemReplyWireSchema>;

/** POST /v1/items/reply: the comments answered and our replies, in the same order. */
export const itemsReplyWireSchema = z.object({
  items: z.array(itemWireSchema),
  replies: z.array(itemWireSchema),
});
export type ItemsReplyWire = z.infer<typeof itemsReplyWireSchema>;

/** POST /v1/chats/{id}/messages: the chat and our message, `queued` (or held for approval). */
export const chatMessageSentWireSchema = z.object({ chat: chatWireSchema, message: messageWireSchema });
export type ChatMessageSentWire = z.infer<typeof chatMessageSentWireSchema>;

/** POST /v1/items/{id}/direct: the comment (closed with reply), the commenter's chat and our message. */
export const directSentWireSchema = z.object({
  item: itemWireSchema,
  chat: chatWireSchema,
  message: messageWireSchema,
});
export type DirectSentWire = z.infer<typeof directSentWireSchema>;

/** POST /v1/items/{id}/undo: the replied comment as it is again, and the reply's text for the composer. */
export const itemReplyUndoneWireSchema = z.object({ item: itemWireSchema, text: z.string() });
export type ItemReplyUndoneWire = z.infer<typeof itemReplyUndoneWireSchema>;

/** POST /v1/messages/{id}/undo: the chat as it is again, the message's text, and the message taken back. */
export const chatMessageUndoneWireSchema = z.object({
  chat: chatWireSchema,
  text: z.string(),
  message: messageWireSchema,
});
export type ChatMessageUndoneWire = z.infer<typeof chatMessageUndoneWireSchema>;

/** POST /v1/authors/{id}/block and …/unblock: the author, and whether the network was asked too. */
export const authorBlockWireSchema = z.object({
  author: authorWireSchema,
  network: z.enum(['queued', 'not_supported']),
});
export type AuthorBlockWire = z.infer<typeof authorBlockWireSchema>;

/** Who or what caused a recorded event. */
export const ACTIVITY_CAUSE_KINDS = ['user', 'rule', 'bot', 'system', 'customer'] as const;
export type ActivityCauseKind = (typeof ACTIVITY_CAUSE_KINDS)[number];

/** One line of an item's or chat's history (GET /v1/items/{id}/history, /v1/chats/{id}/history). */
export const historyEntryWireSchema = z.object({
  id: z.number().int(),
  /** The activity type: item.received, item.replied, chat.status, note.added… */
  type: z.string(),
  /** ISO 8601. */
  at: z.string(),
  cause_kind: z.enum(ACTIVITY_CAUSE_KINDS),
  user: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** The chat a Direct reply went to (a comment's history only). */
  chat_id: z.number().int().nullable(),
  /** Only the fields a timeline needs: statuses, tag changes, ids — never message texts. */
  data: z.record(z.string(), z.unknown()),
});
export type HistoryEntryWire = z.infer<typeof historyEntryWireSchema>;

export const historyWireSchema = z.object({ items: z.array(historyEntryWireSchema) });
export type HistoryWire = z.infer<typeof historyWireSchema>;

/** Actions on a comment whose failure sets the comment's delivery_error. */
export const ITEM_FAILURE_ACTIONS = [
  'reply',
  'edit',
  'delete',
  'restore',
  'hide',
  'unhide',
  'like',
  'unlike',
  'report',
  'react',
] as const;
export type ItemFailureAction = (typeof ITEM_FAILURE_ACTIONS)[number];

/** GET /v1/items/{id}/failure: the action the network refused on the comment; null when none. */
export const itemFailureWireSchema = z.object({
  action: z.enum(ITEM_FAILURE_ACTIONS),
  error: z.string().nullable(),
  attempts: z.number().int(),
  /** Unix seconds. */
  failed_at: z.number().int().nullable(),
});
export type ItemFailureWire = z.infer<typeof itemFailureWireSchema>;
export const itemFailureAnswerWireSchema = z.object({ failure: itemFailureWireSchema.nullable() });

/**
 * GET /v1/authors/{id}/network_ban: the latest ban or unban asked of the network — `pending` while queued
 * or retrying, `failed` with the network's text; null when the network was never asked.
 */
export const networkBanWireSchema = z.object({
  action: z.enum(['block', 'unblock']),
  /** The outbox row's state (`approval` is the outbox's state of a held reply: a ban is never held). */
  state: z.enum(['approval', 'pending', 'done', 'failed']),
  error: z.string().nullable(),
  attempts: z.number().int(),
  object_id: z.number().int(),
  /** Unix seconds. */
  created_at: z.number().int().nullable(),
  done_at: z.number().int().nullable(),
});
export type NetworkBanWire = z.infer<typeof networkBanWireSchema>;
export const networkBanAnswerWireSchema = z.object({ network_ban: networkBanWireSchema.nullable() });
