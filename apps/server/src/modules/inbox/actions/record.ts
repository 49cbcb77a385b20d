import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { type Attachment, activity, type authors, chats, items, messages } from '../../../db/schema';
import { activityCause, type Performer, userIdOf } from './policy';

// What a reply changes in our records, written inside the send path's transaction: the own reply or
// message, the replied item's or chat's status, and the activity record statistics will read.

type ItemRow = typeof items.$inferSelect;
type ChatRow = typeof chats.$inferSelect;
export interface Draft {
  text: string;
  attachments: Attachment[];
}

/**
 * docs/product/states.md: replying closes a comment "with reply"; the first reply time is kept for statistics. A reply
 * sent "without closing" (issue 13: the operator's choice) starts work on it instead, as a chat message does.
 */
export async function closeRepliedItem(
  db: Db,
  performer: Performer,
  item: ItemRow,
  now: Date,
  data: Record<string, unknown>,
  close = true,
) {
  const status = close ? 'closed' : statusAfterReply(item.status);
  const changed = close
    ? !(item.status === 'closed' && item.closeReason === 'reply')
    : status !== item.status;
  const [updated] = await db
    .update(items)
    .set({
      status,
      closeReason: close ? 'reply' : status === item.status ? item.closeReason : null,
      closedAt: close ? now : status === item.status ? item.closedAt : null,
      delayedUntil: close || status !== item.status ? null : item.delayedUntil,
      firstReplyAt: sql`coalesce(${items.firstReplyAt}, ${now})`,
      updatedAt: now,
    })
    .where(eq(items.id, item.id))
    .returning();
  const base = {
    spaceId: item.spaceId,
    objectId: item.objectId,
    itemId: item.id,
    ...activityCause(performer),
    at: now,
  };
  await db.insert(activity).values([
    { ...base, type: 'item.replied', data: { ...data, first: item.firstReplyAt === null } },
    ...(changed
      ? [
          {
            ...base,
            type: 'item.status' as const,
            data: { from: item.status, to: status, close_reason: close ? 'reply' : null },
          },
        ]
      : []),
  ]);
  return updated!;
}

/** Our reply under a comment or review: an own item, queued until the network accepts it. */
export async function recordItemReply(
  db: Db,
  performer: Performer,
  item: ItemRow,
  draft: Draft,
  now: Date,
  close = true,
) {
  const [reply] = await db
    .insert(items)
    .values({
      spaceId: item.spaceId,
      objectId: item.objectId,
      postId: item.postId,
      parentId: item.id,
      parentExternalId: item.externalId,
      kind: 'comment',
      isOwn: true,
      userId: userIdOf(performer),
      text: draft.text,
      attachments: draft.attachments,
      status: 'closed',
      delivery: 'queued',
      createdAt: now,
    })
    .returning();
  const updated = await closeRepliedItem(
    db,
    performer,
    item,
    now,
    { reply_id: reply!.id, via: 'reply' },
    close,
  );
  return { reply: reply!, item: updated };
}

/**
 * Status after an operator writes in a chat (or answers a comment without closing it): work has started
 * (`inprogress`), from new, open, delayed or closed alike; one already marked as waiting for the customer
 * stays so until they answer (ingestion then moves it to inprogress).
 */
export function statusAfterReply(status: ChatRow['status']): ChatRow['status'] {
  return status === 'waiting' || status === 'inprogress' ? status : 'inprogress';
}

export async function recordChatMessage(
  db: Db,
  performer: Performer,
  chat: ChatRow,
  draft: Draft,
  now: Date,
  extra: { replyToItemId?: number } = {},
  /** "Send and close" (issue 13): the chat is closed with reply. */
  close = false,
) {
  const [message] = await db
    .insert(messages)
    .values({
      spaceId: chat.spaceId,
      chatId: chat.id,
      isOwn: true,
      userId: userIdOf(performer),
      text: draft.text,
      attachments: draft.attachments,
      delivery: 'queued',
      replyToItemId: extra.replyToItemId ?? null,
      createdAt: now,
    })
    .returning();
  // A chat-bot's message (modules/bots) leaves the chat's status and first reply to the operators.
  const bot = performer.kind === 'bot';
  const status = close ? 'closed' : bot ? chat.status : statusAfterReply(chat.status);
  const same = status === chat.status && (!close || chat.closeReason === 'reply');
  const [updated] = await db
    .update(chats)
    .set({
      lastMessageAt: sql`greatest(${chats.lastMessageAt}, ${now})`,
      lastMessageText: draft.text,
      lastMessageIsOwn: true,
      status,
      closeReason: close ? 'reply' : same ? chat.closeReason : null,
      closedAt: close ? now : same ? chat.closedAt : null,
      delayedUntil: same ? chat.delayedUntil : null,
      firstReplyAt: bot ? chats.firstReplyAt : sql`coalesce(${chats.firstReplyAt}, ${now})`,
      unreadCount: bot ? chats.unreadCount : 0,
      updatedAt: now,
    })
    .where(eq(chats.id, chat.id))
    .returning();
  const base = {
    spaceId: chat.spaceId,
    objectId: chat.objectId,
    chatId: chat.id,
    ...activityCause(performer),
    at: now,
  };
  await db.insert(activity).values([
    {
      ...base,
      type: 'chat.replied',
      data: {
        message_id: message!.id,
        first: chat.firstReplyAt === null,
        ...(extra.replyToItemId ? { item_id: extra.replyToItemId } : {}),
      },
    },
    ...(same
      ? []
      : [
          {
            ...base,
            type: 'chat.status' as const,
            data: { from: chat.status, to: status, ...(close ? { close_reason: 'reply' } : {}) },
          },
        ]),
  ]);
  return { message: message!, chat: updated! };
}

/** The private conversation with a commenter ('Direct', docs/product/limits.md): continued if it exists, else started. */
export async function findOrCreateDirectChat(
  db: Db,
  item: ItemRow,
  author: typeof authors.$inferSelect,
  now: Date,
) {
  // The network's conversation id with a person is their user id (VK, Telegram, the sandbox).
  await db
    .insert(chats)
    .values({
      spaceId: item.spaceId,
      objectId: item.objectId,
      externalId: author.externalId,
      authorId: author.id,
      lastMessageAt: now,
    })
    .onConflictDoNothing({ target: [chats.objectId, chats.externalId] });
  const [chat] = await db
    .select()
    .from(chats)
    .where(and(eq(chats.objectId, item.objectId), eq(chats.externalId, author.externalId)))
    .limit(1);
  return chat!;
}
