import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import {
  buildChat,
  buildComment,
  buildObject,
  buildWorker,
  buildWorkspace,
  fakeConnector,
} from '../../../../test/inbox-actions';
import { activity, chats, items, messages, type objects, outbox } from '../../../db/schema';
import { registerConnector } from '../../../providers/registry';
import { buildMember } from '../../users/testing';

// Undo send: a composer reply is held 5 s server-side (outbox run_at), undo within that time takes it
// back and restores the replied record; after it the worker sends it and undo answers 409. Clocks move,
// nothing sleeps.

let t: TestApp;
let admin: Awaited<ReturnType<typeof buildWorkspace>>;
let vk: typeof objects.$inferSelect;
let fake: ReturnType<typeof fakeConnector>;
let unregister: () => void;

beforeAll(async () => {
  t = await createTestApp();
  fake = fakeConnector('vk');
  unregister = registerConnector(fake.connector);
  admin = await buildWorkspace(t);
  vk = await buildObject(t, admin.space.id, { provider: 'vk' });
});
afterAll(async () => {
  unregister();
  await t.close();
});

const db = () => t.deps.database.db;
const post = (url: string, payload?: Record<string, unknown>, headers = admin.headers) =>
  t.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
const worker = (at: number) => buildWorker(t, { spaceIds: [admin.space.id], now: () => new Date(at) });

describe('undo send of a reply under a comment', () => {
  it('within 5 s: nothing goes to the network, the reply goes and the comment is as before', async () => {
    const item = await buildComment(t, vk);
    const sentAt = Date.now();
    const res = await post(`/v1/items/${item.id}/reply`, { text: 'Держите ответ', undoable: true });
    expect(res.statusCode, res.body).toBe(200);
    const replyId = res.json().reply.id as number;
    expect(res.json().item.status).toBe('closed');

    // 4 s later the worker finds nothing due.
    const calls = fake.calls.length;
    expect(await worker(sentAt + 4_000).drain()).toBe(0);

    const undone = await post(`/v1/items/${replyId}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toMatchObject({ text: 'Держите ответ', item: { id: item.id, status: 'new' } });
    expect(await db().select().from(items).where(eq(items.id, replyId))).toEqual([]);
    expect(await db().select().from(outbox).where(eq(outbox.itemId, replyId))).toEqual([]);
    const [row] = await db().select().from(items).where(eq(items.id, item.id));
    expect(row).toMatchObject({ status: 'new', closeReason: null, closedAt: null, firstReplyAt: null });
    const left = await db().select().from(activity).where(eq(activity.itemId, item.id));
    expect(left.map((a) => a.type)).not.toContain('item.replied');

    // Later nothing is sent either.
    expect(await worker(sentAt + 60_000).drain()).toBe(0);
    expect(fake.calls.length).toBe(calls);
  });

  it('after 5 s the worker sends it and undo is too late', async () => {
    const item = await buildComment(t, vk);
    const sentAt = Date.now();
    const res = await post(`/v1/items/${item.id}/reply`, { text: 'Уходит', undoable: true });
    const replyId = res.json().reply.id as number;
    expect(await worker(sentAt + 6_000).drain()).toBe(1);
    expect(fake.calls.at(-1)?.method).toBe('sendReply');
    const [reply] = await db().select().from(items).where(eq(items.id, replyId));
    expect(reply?.delivery).toBe('sent');

    const undone = await post(`/v1/items/${replyId}/undo`);
    expect(undone.statusCode).toBe(409);
    expect(undone.json()).toMatchObject({ error_type: 'too_late' });
  });

  it('a reply without `undoable` is due at once and cannot be undone', async () => {
    const item = await buildComment(t, vk);
    const res = await post(`/v1/items/${item.id}/reply`, { text: 'Сразу' });
    const replyId = res.json().reply.id as number;
    expect((await post(`/v1/items/${replyId}/undo`)).statusCode).toBe(409);
    expect(await worker(Date.now() + 1_000).drain()).toBe(1);
  });

  it('only the sender may undo; another space does not see the reply', async () => {
    const item = await buildComment(t, vk);
    const res = await post(`/v1/items/${item.id}/reply`, { text: 'Моё', undoable: true });
    const replyId = res.json().reply.id as number;
    const colleague = await buildMember(t, admin.space.id, 'administrator');
    const byColleague = await post(`/v1/items/${replyId}/undo`, undefined, colleague.headers);
    expect(byColleague.statusCode).toBe(409);
    expect(await db().select().from(outbox).where(eq(outbox.itemId, replyId))).toHaveLength(1);
    const stranger = await buildWorkspace(t);
    expect((await post(`/v1/items/${replyId}/undo`, undefined, stranger.headers)).statusCode).toBe(404);
    expect((await post(`/v1/items/${replyId}/undo`)).statusCode).toBe(200);
  });
});

describe('undo send of a chat message', () => {
  it('within 5 s restores the chat; after 5 s it goes', async () => {
    const chat = await buildChat(t, vk);
    const sentAt = Date.now();
    const res = await post(`/v1/chats/${chat.id}/messages`, { text: 'Здравствуйте', undoable: true });
    expect(res.statusCode, res.body).toBe(200);
    const messageId = res.json().message.id as number;
    expect(await worker(sentAt + 4_000).drain()).toBe(0);
    const undone = await post(`/v1/messages/${messageId}/undo`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json()).toMatchObject({ text: 'Здравствуйте', chat: { id: chat.id, status: chat.status } });
    expect(await db().select().from(messages).where(eq(messages.id, messageId))).toEqual([]);
    const [row] = await db().select().from(chats).where(eq(chats.id, chat.id));
    expect(row).toMatchObject({
      status: chat.status,
      lastMessageText: chat.lastMessageText,
      lastMessageIsOwn: false,
      unreadCount: chat.unreadCount,
    });

    const again = await post(`/v1/chats/${chat.id}/messages`, { text: 'Второй раз', undoable: true });
    const againId = again.json().message.id as number;
    await worker(sentAt + 60_000).drain();
    const [sent] = await db().select().from(messages).where(eq(messages.id, againId));
    expect(sent?.delivery).toBe('sent');
    expect((await post(`/v1/messages/${againId}/undo`)).statusCode).toBe(409);
  });
});

describe('send, or send and close (issue 13)', () => {
  it('a comment answered without closing is in progress, not closed; by default it closes', async () => {
    const open = await buildComment(t, vk);
    const res = await post(`/v1/items/${open.id}/reply`, { text: 'Уточню и вернусь', close: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().item).toMatchObject({ status: 'inprogress', close_reason: null });
    const [row] = await db().select().from(items).where(eq(items.id, open.id));
    expect(row?.firstReplyAt).not.toBeNull();
    const kinds = await db().select().from(activity).where(eq(activity.itemId, open.id));
    expect(kinds.map((a) => a.type).sort()).toEqual(['item.received', 'item.replied', 'item.status']);

    const closing = await buildComment(t, vk);
    const closed = await post(`/v1/items/${closing.id}/reply`, { text: 'Готово' });
    expect(closed.json().item).toMatchObject({ status: 'closed', close_reason: 'reply' });
  });

  it('a chat closes with reply only when asked', async () => {
    const chat = await buildChat(t, vk);
    const kept = await post(`/v1/chats/${chat.id}/messages`, { text: 'Сейчас посмотрю' });
    expect(kept.json().chat.status).toBe('inprogress');
    const closed = await post(`/v1/chats/${chat.id}/messages`, { text: 'Всего доброго', close: true });
    expect(closed.json().chat).toMatchObject({ status: 'closed', close_reason: 'reply' });
  });

  it('remembers the default in my settings', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/me',
      headers: admin.headers,
      payload: { settings: { reply_and_close: false } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const me = await t.app.inject({ url: '/v1/me', headers: admin.headers });
    expect(me.json().settings).toMatchObject({ reply_and_close: false });
  });
});
