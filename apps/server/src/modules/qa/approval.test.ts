import { decodeFailure, presetFor } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildChat, buildComment, buildObject, buildWorker, settle } from '../../../test/inbox-actions';
import { auditLog, messages, notifications, outbox, qaApprovals, sandboxEntries } from '../../db/schema';
import { buildAdmin, buildMember } from '../authors/test-helpers';

// Approval mode (issue 21) on the real database with the sandbox network as the far side: a marked
// operator's reply is held (nothing reaches the network), a reviewer approves it (it reaches the network
// exactly once, still the operator's), rejects it (nothing sent, the operator notified), edits and
// approves it; past the network's reply window approving is refused and the reply marked failed.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 240_000);
afterAll(() => t?.close());

const db = () => t.deps.database.db;
const ON = { qa: true };
const HOUR = 3_600_000;

async function scene() {
  const admin = await buildAdmin(t, ON);
  const spaceId = admin.space.id;
  const sandbox = await buildObject(t, spaceId);
  const reviewer = await buildMember(t, spaceId, { ...presetFor('operator'), qa: true }, { name: 'Rita' });
  const alice = await buildMember(t, spaceId, 'operator', { name: 'Alice' });
  const worker = buildWorker(t, { spaceIds: [spaceId] });
  return { admin, spaceId, sandbox, reviewer, alice, worker };
}

type Scene = Awaited<ReturnType<typeof scene>>;

const call = (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

async function markForApproval(s: Scene, userId = s.alice.user.id, body: object = { required: true }) {
  const res = await call('PUT', `/v1/qa/approval-members/${userId}`, s.admin.headers, {
    space_id: s.spaceId,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function sentToSandbox(objectId: number) {
  return db()
    .select()
    .from(sandboxEntries)
    .where(and(eq(sandboxEntries.objectId, objectId), eq(sandboxEntries.fromAccount, true)));
}

async function aliceWrites(s: Scene, chatId: number, text: string) {
  const res = await call('POST', `/v1/chats/${chatId}/messages`, s.alice.headers, { text });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().message as { id: number; delivery: string };
}

async function approvalOf(messageId: number) {
  const [row] = await db()
    .select()
    .from(qaApprovals)
    .where(and(eq(qaApprovals.kind, 'message'), eq(qaApprovals.replyId, messageId)));
  return row!;
}

describe('approval mode', { timeout: 120_000 }, () => {
  it('holds the reply, and an approval sends it exactly once as the operator’s', async () => {
    const s = await scene();
    // Only managers and reviewers switch it on; an operator may not.
    const denied = await call('PUT', `/v1/qa/approval-members/${s.alice.user.id}`, s.alice.headers, {
      space_id: s.spaceId,
      required: true,
    });
    expect(denied.statusCode).toBe(403);
    const marked = await markForApproval(s, s.alice.user.id, { required: true, days: 14 });
    expect(marked).toMatchObject({ user_id: s.alice.user.id, required: true, active: true });
    const members = await call('GET', `/v1/qa/approval-members?space_id=${s.spaceId}`, s.admin.headers);
    expect(members.statusCode, members.body).toBe(200);
    expect(members.json().items).toContainEqual(marked);

    const chat = await buildChat(t, s.sandbox, { text: 'Где мой заказ?' });
    const message = await aliceWrites(s, chat.id, 'Заказ в пути');
    expect(message.delivery).toBe('approval');
    await settle(t, s.worker, s.spaceId);
    expect(await sentToSandbox(s.sandbox.id)).toEqual([]);

    // The queue shows it to the reviewer (no window on the sandbox), not to the author.
    const queue = await call('GET', `/v1/qa/approvals?space_id=${s.spaceId}`, s.reviewer.headers);
    expect(queue.statusCode, queue.body).toBe(200);
    expect(queue.json().items).toEqual([
      expect.objectContaining({
        reply_id: message.id,
        text: 'Заказ в пути',
        customer_text: 'Где мой заказ?',
        operator: { id: s.alice.user.id, name: 'Alice' },
        deadline: null,
        can_decide: true,
      }),
    ]);
    expect((await call('GET', '/v1/qa/approvals', s.alice.headers)).statusCode).toBe(403);
    const mine = await call('GET', '/v1/qa/approvals?view=mine', s.alice.headers);
    expect(mine.json().items.map((a: { reply_id: number }) => a.reply_id)).toEqual([message.id]);

    const id = queue.json().items[0].id as number;
    const one = await call('GET', `/v1/qa/approvals/${id}`, s.reviewer.headers);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual(queue.json().items[0]);
    expect((await call('POST', `/v1/qa/approvals/${id}/approve`, s.alice.headers, {})).statusCode).toBe(403);
    // A reviewer of another space does not see it at all.
    const stranger = await buildAdmin(t, ON);
    expect((await call('POST', `/v1/qa/approvals/${id}/approve`, stranger.headers, {})).statusCode).toBe(404);

    const approved = await call('POST', `/v1/qa/approvals/${id}/approve`, s.reviewer.headers, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved', reviewer: { id: s.reviewer.user.id } });
    const again = await call('POST', `/v1/qa/approvals/${id}/approve`, s.reviewer.headers, {});
    expect(again.statusCode).toBe(409);
    await settle(t, s.worker, s.spaceId);
    await settle(t, s.worker, s.spaceId);

    const sent = await sentToSandbox(s.sandbox.id);
    expect(sent.map((e) => e.text)).toEqual(['Заказ в пути']);
    const [row] = await db().select().from(messages).where(eq(messages.id, message.id));
    expect(row).toMatchObject({ delivery: 'sent', userId: s.alice.user.id });
    const logged = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.spaceId, s.spaceId), eq(auditLog.kind, 'qa_approval.approved')));
    expect(logged).toHaveLength(1);
    expect(logged[0]!.actorId).toBe(s.reviewer.user.id);
  });

  it('reject: nothing is sent, the reply is taken back and the operator is notified with the comment', async () => {
    const s = await scene();
    await markForApproval(s);
    const chat = await buildChat(t, s.sandbox);
    const message = await aliceWrites(s, chat.id, 'Грубый ответ');
    const approval = await approvalOf(message.id);
    const res = await call('POST', `/v1/qa/approvals/${approval.id}/reject`, s.reviewer.headers, {
      comment: 'Поздоровайтесь и извинитесь',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'rejected', comment: 'Поздоровайтесь и извинитесь' });
    await settle(t, s.worker, s.spaceId);
    expect(await sentToSandbox(s.sandbox.id)).toEqual([]);
    expect(await db().select().from(messages).where(eq(messages.id, message.id))).toEqual([]);
    expect(await db().select().from(outbox).where(eq(outbox.id, approval.outboxId))).toEqual([]);
    const told = await db()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, s.alice.user.id), eq(notifications.event, 'reply_rejected')));
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain('Поздоровайтесь и извинитесь');
    expect(told[0]!.chatId).toBe(chat.id);
    const logged = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.spaceId, s.spaceId), eq(auditLog.kind, 'qa_approval.rejected')));
    expect(logged).toHaveLength(1);
    // Decided is decided.
    const late = await call('POST', `/v1/qa/approvals/${approval.id}/approve`, s.reviewer.headers, {});
    expect(late.statusCode).toBe(409);
  });

  it('edit and approve sends the reviewer’s text; the author may edit or withdraw while it waits', async () => {
    const s = await scene();
    await markForApproval(s);
    const chat = await buildChat(t, s.sandbox);
    const first = await aliceWrites(s, chat.id, 'Первый вариант');
    const a1 = await approvalOf(first.id);
    const edited = await call('PUT', `/v1/qa/approvals/${a1.id}`, s.alice.headers, {
      text: 'Второй вариант',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().text).toBe('Второй вариант');
    // Only the author edits this way.
    expect(
      (await call('PUT', `/v1/qa/approvals/${a1.id}`, s.reviewer.headers, { text: 'x' })).statusCode,
    ).toBe(404);
    const approved = await call('POST', `/v1/qa/approvals/${a1.id}/approve`, s.reviewer.headers, {
      text: 'Здравствуйте! Второй вариант',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    await settle(t, s.worker, s.spaceId);
    expect((await sentToSandbox(s.sandbox.id)).map((e) => e.text)).toEqual(['Здравствуйте! Второй вариант']);

    const second = await aliceWrites(s, chat.id, 'Передумала');
    const withdrawn = await call('POST', `/v1/messages/${second.id}/undo`, s.alice.headers);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect((await approvalOf(second.id)).status).toBe('withdrawn');
    await settle(t, s.worker, s.spaceId);
    expect(await sentToSandbox(s.sandbox.id)).toHaveLength(1);
  });

  it('a reply under a comment is held too; switched off, replies go out at once', async () => {
    const s = await scene();
    await markForApproval(s);
    const comment = await buildComment(t, s.sandbox);
    const res = await call('POST', `/v1/items/${comment.id}/reply`, s.alice.headers, { text: 'Спасибо!' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().reply.delivery).toBe('approval');
    const direct = await call('POST', `/v1/items/${comment.id}/direct`, s.alice.headers, { text: 'Лично' });
    expect(direct.statusCode).toBe(403);
    await markForApproval(s, s.alice.user.id, { required: false });
    const chat = await buildChat(t, s.sandbox);
    const free = await aliceWrites(s, chat.id, 'Сразу');
    expect(free.delivery).toBe('queued');
  });

  it('past the network’s reply window approving is refused and the reply is marked failed', async () => {
    const s = await scene();
    const facebook = await buildObject(t, s.spaceId, { provider: 'facebook' });
    await markForApproval(s);
    const wroteAt = new Date(Date.now() - 25 * HOUR);
    const chat = await buildChat(t, facebook, { createdAt: wroteAt });
    const message = await aliceWrites(s, chat.id, 'Поздно');
    const approval = await approvalOf(message.id);
    expect(approval.deadline?.getTime()).toBe(wroteAt.getTime() + 24 * HOUR);

    const res = await call('POST', `/v1/qa/approvals/${approval.id}/approve`, s.reviewer.headers, {});
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error_type).toBe('window_passed');
    expect(res.json().error).toContain('Facebook');
    const [row] = await db().select().from(messages).where(eq(messages.id, message.id));
    expect(row!.delivery).toBe('failed');
    expect(decodeFailure(row!.deliveryError ?? '')?.key).toBe('failure.messagingWindow');
    const [held] = await db().select().from(outbox).where(eq(outbox.id, approval.outboxId));
    expect(held!.state).toBe('failed');
    expect((await approvalOf(message.id)).status).toBe('failed');
    expect(await s.worker.drain()).toBe(0);
  });
});
