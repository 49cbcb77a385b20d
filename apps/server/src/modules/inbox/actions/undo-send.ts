import { QA_APPROVALS_EVENT, SEND_UNDO_SECONDS } from '@otklik/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { activity, chats, items, messages, outbox, qaApprovals } from '../../../db/schema';
import { AppError } from '../../../lib/errors';
import { presentMessage } from '../read/presenter';
import { causeOf, loadItemFor, loadMessageFor, type Performer, userIdOf } from './policy';
import { type Cause, presentChats, presentItems, publishBySpace } from './present';
import { type ActionDeps, transaction } from './send';

// Undo send: a composer reply (`undoable`) is recorded at once but its outbox row is due only
// SEND_UNDO_SECONDS later. Until the worker claims it (a claim adds an attempt), its sender may take it
// back: the row, the own reply/message and the activity of the reply go, and the replied item or chat
// gets back the state it had before (kept in the row's payload). Server-side, so a closed tab changes nothing.

type ItemRow = typeof items.$inferSelect;
type ChatRow = typeof chats.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const date = (v: unknown) => (typeof v === 'string' ? new Date(v) : null);

export function itemUndoState(item: ItemRow) {
  return {
    status: item.status,
    closeReason: item.closeReason,
    closedAt: iso(item.closedAt),
    delayedUntil: iso(item.delayedUntil),
    firstReplyAt: iso(item.firstReplyAt),
  };
}

export function chatUndoState(chat: ChatRow) {
  return {
    status: chat.status,
    closeReason: chat.closeReason,
    closedAt: iso(chat.closedAt),
    delayedUntil: iso(chat.delayedUntil),
    firstReplyAt: iso(chat.firstReplyAt),
    lastMessageAt: iso(chat.lastMessageAt),
    lastMessageText: chat.lastMessageText,
    lastMessageIsOwn: chat.lastMessageIsOwn,
    unreadCount: chat.unreadCount,
  };
}

/** The outbox fields of a held send: due after the undo window, with what undo restores. */
export function heldFor(now: Date, previous: Record<string, unknown>) {
  return { runAt: new Date(now.getTime() + SEND_UNDO_SECONDS * 1000), payload: { undo: previous } };
}

/**
 * Takes the still-unclaimed held row of this sender; 409 reply.undoTooLate when it is gone or going. A
 * reply waiting for approval (state 'approval', modules/qa/approval-hold.ts) is taken back the same way:
 * the operator withdraws it, and its approval is marked withdrawn.
 */
async function takeHeldRow(tx: ActionDeps['db'], performer: Performer, where: ReturnType<typeof eq>) {
  const userId = userIdOf(performer);
  const [row] = await tx
    .delete(outbox)
    .where(
      and(
        where,
        inArray(outbox.state, ['pending', 'approval']),
        eq(outbox.attempts, 0),
        userId === null ? sql`false` : eq(outbox.userId, userId),
        sql`${outbox.payload} ? 'undo'`,
      ),
    )
    .returning();
  if (!row) throw new AppError(409, 'reply.undoTooLate', { errorType: 'too_late' });
  if (row.state === 'approval') await closeApproval(tx, row.id, 'withdrawn');
  return { previous: row.payload.undo as Record<string, unknown>, held: row.state === 'approval' };
}

/** The approval of a held outbox row is decided without a send (withdrawn by its author, or rejected). */
export async function closeApproval(
  tx: ActionDeps['db'],
  outboxId: number,
  status: 'withdrawn' | 'rejected',
  extra: { reviewerId?: number; comment?: string } = {},
) {
  return tx
    .update(qaApprovals)
    .set({ status, decidedAt: new Date(), ...extra })
    .where(and(eq(qaApprovals.outboxId, outboxId), eq(qaApprovals.status, 'pending')))
    .returning();
}

/** In the caller's transaction: the held reply goes, and the comment it answered is as it was before. */
export async function takeBackItemReply(
  tx: ActionDeps['db'],
  reply: ItemRow,
  previous: Record<string, unknown>,
) {
  const parentId = reply.parentId!;
  // The reply's own activity (item.replied and the status change it made) is taken back with it.
  await tx
    .delete(activity)
    .where(
      and(
        eq(activity.itemId, parentId),
        eq(activity.at, reply.createdAt),
        inArray(activity.type, ['item.replied', 'item.status']),
      ),
    );
  await tx.delete(items).where(eq(items.id, reply.id));
  const [item] = await tx
    .update(items)
    .set({
      status: previous.status as ItemRow['status'],
      closeReason: (previous.closeReason ?? null) as ItemRow['closeReason'],
      closedAt: date(previous.closedAt),
      delayedUntil: date(previous.delayedUntil),
      firstReplyAt: date(previous.firstReplyAt),
      updatedAt: new Date(),
    })
    .where(eq(items.id, parentId))
    .returning();
  return item!;
}

/** In the caller's transaction: the held message goes, and its chat is as it was before. */
export async function takeBackChatMessage(
  tx: ActionDeps['db'],
  chat: ChatRow,
  message: typeof messages.$inferSelect,
  previous: Record<string, unknown>,
) {
  await tx
    .delete(activity)
    .where(
      and(
        eq(activity.chatId, chat.id),
        eq(activity.at, message.createdAt),
        inArray(activity.type, ['chat.replied', 'chat.status']),
      ),
    );
  await tx.delete(messages).where(eq(messages.id, message.id));
  const [updated] = await tx
    .update(chats)
    .set({
      status: previous.status as ChatRow['status'],
      closeReason: (previous.closeReason ?? null) as ChatRow['closeReason'],
      closedAt: date(previous.closedAt),
      delayedUntil: date(previous.delayedUntil),
      firstReplyAt: date(previous.firstReplyAt),
      lastMessageAt: date(previous.lastMessageAt) ?? chat.lastMessageAt,
      lastMessageText: (previous.lastMessageText ?? null) as ChatRow['lastMessageText'],
      lastMessageIsOwn: Boolean(previous.lastMessageIsOwn),
      unreadCount: Number(previous.unreadCount ?? 0),
      updatedAt: new Date(),
    })
    .where(eq(chats.id, chat.id))
    .returning();
  return updated!;
}

/** Tells open lists a held reply went and what it answered is as before (undo, withdraw, reject). */
export async function publishItemTakenBack(
  deps: ActionDeps,
  reply: ItemRow,
  restored: ItemRow,
  cause: Cause,
) {
  await deps.bus.publish({
    type: 'items.removed',
    spaceId: reply.spaceId,
    payload: { object_id: reply.objectId, ids: [reply.id] },
    cause,
  });
  const [item] = await presentItems(deps.db, [restored]);
  await publishBySpace(deps.bus, 'items.updated', [item!], cause);
  return item!;
}

export async function publishMessageTakenBack(
  deps: ActionDeps,
  chat: ChatRow,
  messageId: number,
  restored: ChatRow,
  cause: Cause,
) {
  await deps.bus.publish({
    type: 'messages.removed',
    spaceId: chat.spaceId,
    payload: { object_id: chat.objectId, chat_id: chat.id, ids: [messageId] },
    cause,
  });
  const [presented] = await presentChats(deps.db, [restored]);
  await publishBySpace(deps.bus, 'chats.updated', [presented!], cause);
  return presented!;
}

/** Queues and conversations that show approvals refresh (modules/qa/approval.ts). */
export async function publishApprovalsChanged(deps: ActionDeps, spaceId: number, objectId: number) {
  await deps.bus.publish({ type: QA_APPROVALS_EVENT, spaceId, payload: { object_id: objectId } });
}

/** Takes back a held reply under a comment; returns the replied item as it is again and the text. */
export async function undoItemReply(deps: ActionDeps, performer: Performer, replyId: number) {
  const reply = await loadItemFor(deps.db, performer, replyId, 'items.reply');
  if (!reply.isOwn || reply.parentId === null) throw new AppError(404, 'error.notFound');
  const { restored, held } = await transaction(deps.db, async (tx) => {
    const taken = await takeHeldRow(
      tx,
      performer,
      and(eq(outbox.itemId, reply.id), eq(outbox.action, 'reply'))!,
    );
    return { restored: await takeBackItemReply(tx, reply, taken.previous), held: taken.held };
  });
  const item = await publishItemTakenBack(deps, reply, restored, causeOf(performer));
  if (held) await publishApprovalsChanged(deps, reply.spaceId, reply.objectId);
  return { item, text: reply.text ?? '' };
}

/** Takes back a held message in a chat; returns the chat as it is again and the text. */
export async function undoChatMessage(deps: ActionDeps, performer: Performer, messageId: number) {
  const { message, chat } = await loadMessageFor(deps.db, performer, messageId, 'messages.reply');
  if (!message.isOwn) throw new AppError(404, 'error.notFound');
  const { restored, held } = await transaction(deps.db, async (tx) => {
    const taken = await takeHeldRow(
      tx,
      performer,
      and(eq(outbox.messageId, message.id), eq(outbox.action, 'message'))!,
    );
    return { restored: await takeBackChatMessage(tx, chat, message, taken.previous), held: taken.held };
  });
  const presented = await publishMessageTakenBack(deps, chat, message.id, restored, causeOf(performer));
  if (held) await publishApprovalsChanged(deps, chat.spaceId, chat.objectId);
  return { chat: presented, text: message.text ?? '', message: presentMessage(message) };
}
