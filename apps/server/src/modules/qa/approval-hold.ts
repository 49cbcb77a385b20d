import { replyDeadline } from '@otklik/shared';
import { and, eq, max } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { items, memberships, messages, outbox, qaApprovals } from '../../db/schema';
import type { Performer } from '../inbox/actions/policy';
import type { OutboxAction } from '../outbox/queue';

// Approval mode, the holding side (issue 21, docs/product/qa.md "Approval of replies"): the send path
// (inbox/actions/send.ts) asks whether the performer's replies need approval; when they do, the reply is
// recorded as usual but with delivery 'approval', and its outbox row waits in state 'approval' (the
// worker claims only 'pending') with what undo/withdraw/reject restore. approval.ts decides.

/** Whether a user's replies in a space wait for a reviewer now (marked, and not past the end date). */
export async function needsApproval(db: Db, performer: Performer, spaceId: number, now: Date) {
  if (performer.kind !== 'user') return false;
  const [row] = await db
    .select({ required: memberships.approvalRequired, until: memberships.approvalUntil })
    .from(memberships)
    .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, performer.actor.userId)))
    .limit(1);
  return Boolean(row?.required && (row.until === null || row.until > now));
}

/** When the customer last wrote in a chat: the network's reply window counts from it. */
async function lastCustomerMessageAt(tx: Db, chatId: number): Promise<Date | null> {
  const [row] = await tx
    .select({ at: max(messages.createdAt) })
    .from(messages)
    .where(and(eq(messages.chatId, chatId), eq(messages.isOwn, false)));
  return row?.at ? new Date(row.at) : null;
}

export interface HeldReply {
  spaceId: number;
  objectId: number;
  provider: string;
  action: Extract<OutboxAction, 'reply' | 'message'>;
  userId: number;
  /** reply: the own item and the comment it answers; message: the own message and its chat. */
  replyId: number;
  itemId?: number;
  chatId?: number;
  /** What withdrawing or rejecting restores (undo-send.ts itemUndoState / chatUndoState). */
  undo: Record<string, unknown>;
  payload?: Record<string, unknown>;
}

/** In the reply's transaction, instead of enqueueOutbox: the outbox row waits for a reviewer. */
export async function holdForApproval(tx: Db, held: HeldReply, now: Date) {
  const isMessage = held.action === 'message';
  const deadline = isMessage
    ? replyDeadline(held.provider, 'message', await lastCustomerMessageAt(tx, held.chatId!))
    : replyDeadline(held.provider, 'comment', null);
  const [row] = await tx
    .insert(outbox)
    .values({
      spaceId: held.spaceId,
      objectId: held.objectId,
      action: held.action,
      itemId: isMessage ? null : held.replyId,
      chatId: isMessage ? held.chatId! : null,
      messageId: isMessage ? held.replyId : null,
      userId: held.userId,
      state: 'approval',
      runAt: now,
      payload: { ...(held.payload ?? {}), undo: held.undo },
    })
    .returning();
  if (isMessage) await tx.update(messages).set({ delivery: 'approval' }).where(eq(messages.id, held.replyId));
  else await tx.update(items).set({ delivery: 'approval' }).where(eq(items.id, held.replyId));
  await tx.insert(qaApprovals).values({
    spaceId: held.spaceId,
    objectId: held.objectId,
    kind: isMessage ? 'message' : 'item',
    replyId: held.replyId,
    itemId: held.itemId ?? null,
    chatId: held.chatId ?? null,
    outboxId: row!.id,
    operatorId: held.userId,
    deadline,
    createdAt: now,
  });
}
