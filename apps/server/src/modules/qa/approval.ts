import {
  can,
  encodeFailure,
  isProviderId,
  providers,
  type QaApprovalDto,
  type QaApprovalStatus,
  type ReplyKind,
  translate,
} from '@otklik/shared';
import { and, desc, eq, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { chats, items, messages, objects, outbox, qaApprovals, users } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../audit/record';
import { assertDraftFits } from '../inbox/actions/policy';
import { presentItems } from '../inbox/actions/present';
import { type ActionDeps, transaction } from '../inbox/actions/send';
import {
  closeApproval,
  publishApprovalsChanged,
  publishItemTakenBack,
  publishMessageTakenBack,
  takeBackChatMessage,
  takeBackItemReply,
} from '../inbox/actions/undo-send';
import { presentMessage } from '../inbox/read/presenter';
import { type InboxScope, inScope, scopeCondition, scopeFor } from '../inbox/read/scope';
import { notifyReplyFailed } from '../notifications/events';
import { notify } from '../notifications/service';
import { kickOutbox } from '../outbox/queue';
import { isMember, type ServerActor } from '../spaces/actor';
import { REVIEW } from './policy';

// Approval mode, the deciding side (issue 21, docs/product/qa.md "Approval of replies"). A reviewer
// (`qa.review`, within their group's accounts, never for their own replies) approves a held reply — its
// outbox row becomes 'pending' and the worker sends it the normal way, still as the operator's — or
// rejects it with a comment (the reply goes, the operator is notified), or edits and approves. Past the
// network's reply window approving is refused with the network's failure and the reply is marked failed.
// The author may edit the held text or withdraw it (undo-send.ts) while it waits.

type ApprovalRow = typeof qaApprovals.$inferSelect;

const operator = alias(users, 'approval_operator');
const reviewer = alias(users, 'approval_reviewer');
const replyItem = alias(items, 'approval_reply_item');
const replyMessage = alias(messages, 'approval_reply_message');
const repliedItem = alias(items, 'approval_replied_item');

const columns = {
  approval: qaApprovals,
  objectName: objects.name,
  provider: objects.provider,
  operatorName: operator.name,
  reviewerName: reviewer.name,
  text: sql<string>`coalesce(${replyItem.text}, ${replyMessage.text}, '')`,
  customerText: sql<string>`coalesce(${repliedItem.text}, (
    SELECT m.text FROM messages m WHERE m.chat_id = ${qaApprovals.chatId} AND m.is_own = false
    ORDER BY m.created_at DESC, m.id DESC LIMIT 1), '')`,
};

function approvalQuery(db: Db, where: SQL | undefined) {
  return db
    .select(columns)
    .from(qaApprovals)
    .innerJoin(objects, eq(objects.id, qaApprovals.objectId))
    .leftJoin(operator, eq(operator.id, qaApprovals.operatorId))
    .leftJoin(reviewer, eq(reviewer.id, qaApprovals.reviewerId))
    .leftJoin(replyItem, and(eq(qaApprovals.kind, 'item'), eq(replyItem.id, qaApprovals.replyId)))
    .leftJoin(replyMessage, and(eq(qaApprovals.kind, 'message'), eq(replyMessage.id, qaApprovals.replyId)))
    .leftJoin(repliedItem, eq(repliedItem.id, qaApprovals.itemId))
    .where(where);
}

type ListedRow = Awaited<ReturnType<typeof approvalQuery>>[number];

export function presentApproval(r: ListedRow, canDecide: boolean): QaApprovalDto {
  const a = r.approval;
  return {
    id: a.id,
    space_id: a.spaceId,
    kind: a.kind,
    reply_id: a.replyId,
    item_id: a.itemId,
    chat_id: a.chatId,
    object_id: a.objectId,
    object_name: r.objectName,
    provider: r.provider,
    operator: a.operatorId !== null ? { id: a.operatorId, name: r.operatorName ?? '' } : null,
    customer_text: r.customerText,
    text: r.text,
    status: a.status,
    deadline: a.deadline?.toISOString() ?? null,
    reviewer: a.reviewerId !== null ? { id: a.reviewerId, name: r.reviewerName ?? '' } : null,
    comment: a.comment,
    created_at: a.createdAt.toISOString(),
    decided_at: a.decidedAt?.toISOString() ?? null,
    can_decide: canDecide && a.status === 'pending',
  };
}

export interface ApprovalFilter {
  spaceId?: number;
  status: QaApprovalStatus;
  /** The operator's own held replies instead of the reviewer's queue. */
  operatorId?: number;
  limit: number;
}

/** The queue (scope of `qa.review`, without the reviewer's own replies) or an operator's own list. */
export async function listApprovals(db: Db, scope: InboxScope | null, viewerId: number, f: ApprovalFilter) {
  const rows = await approvalQuery(
    db,
    and(
      scope ? scopeCondition(scope, qaApprovals.spaceId, qaApprovals.objectId) : undefined,
      f.spaceId !== undefined ? eq(qaApprovals.spaceId, f.spaceId) : undefined,
      eq(qaApprovals.status, f.status),
      f.operatorId !== undefined ? eq(qaApprovals.operatorId, f.operatorId) : undefined,
      scope ? ne(qaApprovals.operatorId, viewerId) : undefined,
    ),
  )
    .orderBy(
      f.status === 'pending' ? qaApprovals.createdAt : desc(qaApprovals.decidedAt),
      desc(qaApprovals.id),
    )
    .limit(f.limit);
  return rows.map((r) => presentApproval(r, scope !== null));
}

async function loadApproval(db: Db, id: number): Promise<ListedRow | undefined> {
  const [row] = await approvalQuery(db, eq(qaApprovals.id, id)).limit(1);
  return row;
}

/** A reviewer of the approval's space who sees its account; not the author. 404 outside, 403 without right. */
async function assertDecidable(db: Db, actor: ServerActor, row: ListedRow | undefined): Promise<ListedRow> {
  if (!row || !isMember(actor, row.approval.spaceId)) throw notFound();
  const a = row.approval;
  if (a.operatorId === actor.userId) {
    if (can(actor, REVIEW, a.spaceId)) throw new AppError(403, 'qa.approval.own');
    throw new AppError(403, 'error.noAccess');
  }
  if (!can(actor, REVIEW, a.spaceId)) throw new AppError(403, 'error.noAccess');
  if (!inScope(await scopeFor(db, actor, REVIEW), a.spaceId, a.objectId)) throw notFound();
  return row;
}

function assertPending(a: ApprovalRow) {
  if (a.status !== 'pending') throw new AppError(409, 'qa.approval.decided', { errorType: 'decided' });
}

export async function getApproval(db: Db, actor: ServerActor, id: number) {
  const row = await loadApproval(db, id);
  if (!row || !isMember(actor, row.approval.spaceId)) throw notFound();
  if (row.approval.operatorId === actor.userId) return presentApproval(row, false);
  return presentApproval(await assertDecidable(db, actor, row), true);
}

/** The held reply's text, checked against the network's limits like the composer's. */
function checkedText(provider: string, kind: ReplyKind, text: string, attachments: number) {
  const trimmed = text.trim();
  if (!trimmed && attachments === 0)
    throw new AppError(400, 'reply.empty', { errorType: 'validation', fields: { text: 'reply.empty' } });
  assertDraftFits(provider, kind, { text: trimmed, attachments });
  return trimmed;
}

async function replyRowOf(db: Db, a: ApprovalRow) {
  if (a.kind === 'item') {
    const [reply] = await db.select().from(items).where(eq(items.id, a.replyId));
    if (!reply) throw notFound();
    return { kind: 'item' as const, reply };
  }
  const [message] = await db.select().from(messages).where(eq(messages.id, a.replyId));
  const [chat] = message ? await db.select().from(chats).where(eq(chats.id, message.chatId)) : [];
  if (!message || !chat) throw notFound();
  return { kind: 'message' as const, message, chat };
}

/** Sets the held reply's text and delivery (and the chat's last line when it is the last message). */
async function updateReply(
  tx: Db,
  a: ApprovalRow,
  set: { text?: string; delivery?: 'queued' | 'failed'; deliveryError?: string | null },
) {
  if (a.kind === 'item') {
    await tx.update(items).set(set).where(eq(items.id, a.replyId));
    return;
  }
  await tx.update(messages).set(set).where(eq(messages.id, a.replyId));
  if (set.text !== undefined && a.chatId !== null)
    await tx
      .update(chats)
      .set({ lastMessageText: set.text })
      .where(and(eq(chats.id, a.chatId), eq(chats.lastMessageIsOwn, true)));
}

/** The reply as it is now, to open conversations ('items.updated' / 'messages.updated'). */
async function publishReply(deps: ActionDeps, a: ApprovalRow, actor: ServerActor) {
  const cause = { kind: 'user' as const, id: actor.userId };
  if (a.kind === 'item') {
    const [row] = await deps.db.select().from(items).where(eq(items.id, a.replyId));
    if (row) {
      const [presented] = await presentItems(deps.db, [row]);
      await deps.bus.publish({
        type: 'items.updated',
        spaceId: a.spaceId,
        payload: { items: [presented] },
        cause,
      });
    }
  } else {
    const [row] = await deps.db.select().from(messages).where(eq(messages.id, a.replyId));
    if (row)
      await deps.bus.publish({
        type: 'messages.updated',
        spaceId: a.spaceId,
        payload: { object_id: a.objectId, messages: [presentMessage(row)] },
        cause,
      });
  }
  await publishApprovalsChanged(deps, a.spaceId, a.objectId);
}

const attachmentsOf = (r: Awaited<ReturnType<typeof replyRowOf>>) =>
  (r.kind === 'item' ? r.reply.attachments : r.message.attachments).length;

/** The network's display name for failure texts (the id when unknown). */
const networkName = (provider: string) => (isProviderId(provider) ? providers[provider].name : provider);

const utcMinute = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Approve (optionally with the reviewer's text): the held outbox row is released to the worker once. */
export async function approve(
  deps: ActionDeps,
  actor: ServerActor,
  id: number,
  body: { text?: string },
  now: Date,
) {
  const row = await assertDecidable(deps.db, actor, await loadApproval(deps.db, id));
  const a = row.approval;
  assertPending(a);
  const reply = await replyRowOf(deps.db, a);
  const current = reply.kind === 'item' ? reply.reply.text : reply.message.text;
  const text =
    body.text === undefined
      ? undefined
      : checkedText(row.provider, a.kind === 'item' ? 'comment' : 'message', body.text, attachmentsOf(reply));
  const edited = text !== undefined && text !== current;
  if (a.deadline && now.getTime() > a.deadline.getTime()) {
    await failPastWindow(deps, actor, row, now);
    throw new AppError(409, 'qa.approval.windowPassed', {
      errorType: 'window_passed',
      params: { network: networkName(row.provider), deadline: utcMinute(a.deadline) },
    });
  }
  await transaction(deps.db, async (tx) => {
    const [decided] = await tx
      .update(qaApprovals)
      .set({ status: 'approved', reviewerId: actor.userId, decidedAt: now })
      .where(and(eq(qaApprovals.id, a.id), eq(qaApprovals.status, 'pending')))
      .returning();
    const [released] = await tx
      .update(outbox)
      .set({ state: 'pending', runAt: now })
      .where(and(eq(outbox.id, a.outboxId), eq(outbox.state, 'approval')))
      .returning();
    if (!decided || !released) throw new AppError(409, 'qa.approval.decided', { errorType: 'decided' });
    await updateReply(tx, a, { delivery: 'queued', ...(edited ? { text } : {}) });
    await audit(tx, actor, {
      spaceId: a.spaceId,
      kind: 'qa_approval.approved',
      target: { type: 'qa_approval', id: a.id, label: row.operatorName ?? '' },
      ...(edited ? { before: { text: current } } : {}),
      after: {
        text: edited ? text : current,
        edited,
        operator_id: a.operatorId,
        ...(a.kind === 'item' ? { item: a.itemId } : { chat: a.chatId }),
      },
    });
  });
  await kickOutbox(deps.bus);
  await publishReply(deps, a, actor);
  return presentApproval((await loadApproval(deps.db, id))!, true);
}

/** Past the window: the row and the reply fail with the network's own reason; the author is told. */
async function failPastWindow(deps: ActionDeps, actor: ServerActor, row: ListedRow, now: Date) {
  const a = row.approval;
  const reason = encodeFailure({
    key: 'failure.messagingWindow',
    params: { network: networkName(row.provider) },
  });
  const failed = await transaction(deps.db, async (tx) => {
    const [decided] = await tx
      .update(qaApprovals)
      .set({ status: 'failed', reviewerId: actor.userId, decidedAt: now })
      .where(and(eq(qaApprovals.id, a.id), eq(qaApprovals.status, 'pending')))
      .returning();
    if (!decided) return false;
    await tx
      .update(outbox)
      .set({ state: 'failed', lastError: reason, doneAt: now })
      .where(and(eq(outbox.id, a.outboxId), eq(outbox.state, 'approval')));
    await updateReply(tx, a, { delivery: 'failed', deliveryError: reason });
    return true;
  });
  if (!failed) throw new AppError(409, 'qa.approval.decided', { errorType: 'decided' });
  await publishReply(deps, a, actor);
  await notifyReplyFailed(
    deps,
    {
      spaceId: a.spaceId,
      objectId: a.objectId,
      itemId: a.itemId,
      chatId: a.chatId,
      userId: a.operatorId,
    },
    reason,
  );
}

/** Reject with a comment: the reply is taken back unsent and its author is notified. */
export async function reject(
  deps: ActionDeps,
  actor: ServerActor,
  id: number,
  body: { comment: string },
  now: Date,
) {
  const row = await assertDecidable(deps.db, actor, await loadApproval(deps.db, id));
  const a = row.approval;
  assertPending(a);
  const reply = await replyRowOf(deps.db, a);
  const text = reply.kind === 'item' ? reply.reply.text : reply.message.text;
  const restored = await transaction(deps.db, async (tx) => {
    const [held] = await tx
      .delete(outbox)
      .where(and(eq(outbox.id, a.outboxId), eq(outbox.state, 'approval')))
      .returning();
    const [decided] = await closeApproval(tx, a.outboxId, 'rejected', {
      reviewerId: actor.userId,
      comment: body.comment,
    });
    if (!held || !decided) throw new AppError(409, 'qa.approval.decided', { errorType: 'decided' });
    await tx.update(qaApprovals).set({ decidedAt: now }).where(eq(qaApprovals.id, a.id));
    const previous = held.payload.undo as Record<string, unknown>;
    await audit(tx, actor, {
      spaceId: a.spaceId,
      kind: 'qa_approval.rejected',
      target: { type: 'qa_approval', id: a.id, label: row.operatorName ?? '' },
      after: {
        text,
        comment: body.comment,
        operator_id: a.operatorId,
        ...(a.kind === 'item' ? { item: a.itemId } : { chat: a.chatId }),
      },
    });
    return reply.kind === 'item'
      ? { kind: 'item' as const, row: await takeBackItemReply(tx, reply.reply, previous) }
      : { kind: 'message' as const, row: await takeBackChatMessage(tx, reply.chat, reply.message, previous) };
  });
  const cause = { kind: 'user' as const, id: actor.userId };
  if (reply.kind === 'item' && restored.kind === 'item')
    await publishItemTakenBack(deps, reply.reply, restored.row, cause);
  else if (reply.kind === 'message' && restored.kind === 'message')
    await publishMessageTakenBack(deps, reply.chat, reply.message.id, restored.row, cause);
  await publishApprovalsChanged(deps, a.spaceId, a.objectId);
  if (a.operatorId !== null)
    await notify(deps, {
      spaceId: a.spaceId,
      userIds: [a.operatorId],
      event: 'reply_rejected',
      objectId: a.objectId,
      itemId: a.itemId,
      chatId: a.chatId,
      content: (locale) => ({
        title: translate(locale, 'notify.replyRejected', { name: actor.name ?? '' }),
        text: translate(locale, 'notify.replyRejectedText', {
          reply: text.slice(0, 120),
          comment: body.comment,
        }).slice(0, 300),
      }),
    });
  return presentApproval((await loadApproval(deps.db, id))!, true);
}

/** The author changes the held text while it waits (the reviewer sees the new text). */
export async function editHeld(deps: ActionDeps, actor: ServerActor, id: number, body: { text: string }) {
  const row = await loadApproval(deps.db, id);
  if (!row || !isMember(actor, row.approval.spaceId) || row.approval.operatorId !== actor.userId)
    throw notFound();
  const a = row.approval;
  assertPending(a);
  const reply = await replyRowOf(deps.db, a);
  const text = checkedText(
    row.provider,
    a.kind === 'item' ? 'comment' : 'message',
    body.text,
    attachmentsOf(reply),
  );
  await transaction(deps.db, async (tx) => {
    const [still] = await tx
      .select({ id: qaApprovals.id })
      .from(qaApprovals)
      .where(and(eq(qaApprovals.id, a.id), eq(qaApprovals.status, 'pending')))
      .for('update');
    if (!still) throw new AppError(409, 'qa.approval.decided', { errorType: 'decided' });
    await updateReply(tx, a, { text });
  });
  await publishReply(deps, a, actor);
  return presentApproval((await loadApproval(deps.db, id))!, false);
}
