import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildWorker, buildWorkspace, settle } from '../../../test/inbox-actions';
import { chats, items, messages } from '../../db/schema';
import type { OutboxWorker } from '../../jobs/outbox-worker';
import { captureEvents } from '../../modules/users/testing';

// The whole loop with no network: a customer writes on the sandbox page, the item lands in the inbox,
// an operator answers, the outbox worker delivers, and the customer page shows the account's answer.

interface PageEntry {
  id: number;
  author_id: string;
  text: string;
  from_account: boolean;
  liked: boolean;
  hidden: boolean;
  deleted: boolean;
  reaction: string | null;
  replies: PageEntry[];
}
interface Page {
  account: { name: string };
  posts: Array<{ id: number; text: string; comments: PageEntry[] }>;
  reviews: PageEntry[];
  conversations: Array<{ peer: string; messages: PageEntry[] }>;
  blocked: Array<{ author_id: string; until: number | null }>;
}

let t: TestApp;
let headers: Record<string, string>;
let worker: OutboxWorker;
let token: string;
let objectId: number;
let spaceId: number;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await buildWorkspace(t);
  spaceId = admin.space.id;
  worker = buildWorker(t, { spaceIds: [spaceId] });
  headers = admin.headers;
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/objects',
    headers,
    payload: { provider: 'sandbox', name: 'Кофейня' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { id: number; sandbox_url: string; imported: number };
  objectId = body.id;
  token = body.sandbox_url.split('/sandbox/')[1]!;
});
afterAll(() => t.close());

const page = async () => (await t.app.inject({ method: 'GET', url: `/v1/sandbox/${token}` })).json() as Page;
const customer = (path: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/v1/sandbox/${token}/${path}`, payload });
const act = (method: 'POST' | 'PUT', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

async function itemOf(entryId: number) {
  const [row] = await t.deps.database.db
    .select()
    .from(items)
    .where(and(eq(items.objectId, objectId), eq(items.externalId, `sbx-${entryId}`)));
  return row!;
}

function findEntry(p: Page, id: number): PageEntry | undefined {
  const all = (list: PageEntry[]): PageEntry[] => list.flatMap((e) => [e, ...all(e.replies)]);
  return [...all(p.posts.flatMap((post) => post.comments)), ...all(p.reviews)].find((e) => e.id === id);
}

describe('connecting a sandbox', () => {
  it('seeds a welcome post, a comment and a message, and imports them into the inbox', async () => {
    const p = await page();
    expect(p.account.name).toBe('Кофейня');
    expect(p.posts).toHaveLength(1);
    expect(p.posts[0]!.comments).toHaveLength(1);
    expect(p.conversations).toHaveLength(1);
    const imported = await t.deps.database.db.select().from(items).where(eq(items.objectId, objectId));
    expect(imported).toHaveLength(1);
    const chatRows = await t.deps.database.db.select().from(chats).where(eq(chats.objectId, objectId));
    expect(chatRows).toHaveLength(1);
  });

  it('shows the page address again to administrators only', async () => {
    const res = await act('POST', `/v1/objects/${objectId}/sandbox_url`);
    expect(res.statusCode).toBe(404);
    const again = await t.app.inject({ method: 'GET', url: `/v1/objects/${objectId}/sandbox_url`, headers });
    expect(again.json().sandbox_url).toBe(`http://127.0.0.1:3000/sandbox/${token}`);
  });

  it('limits writes per address and page (60 a minute)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/objects',
      headers,
      payload: { provider: 'sandbox' },
    });
    const other = res.json().sandbox_url.split('/sandbox/')[1] as string;
    const post = () =>
      t.app.inject({ method: 'POST', url: `/v1/sandbox/${other}/posts`, payload: { text: 'Новость' } });
    for (let i = 0; i < 60; i++) expect((await post()).statusCode).toBe(200);
    const limited = await post();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.app.inject({ method: 'GET', url: `/v1/sandbox/${other}` })).statusCode).toBe(200);
  });

  it('an unknown token is 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/sandbox/${'x'.repeat(32)}` });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('Страница песочницы не найдена');
  });
});

describe('comment → reply → delivered to the customer page', () => {
  it('runs the loop', async () => {
    const events = captureEvents(t.deps.bus);
    const posted = await customer('comments', { author_name: 'Иван', text: 'Вы работаете в воскресенье?' });
    expect(posted.statusCode, posted.body).toBe(200);
    const entryId = posted.json().id as number;
    const item = await itemOf(entryId);
    expect(item).toMatchObject({ kind: 'comment', status: 'new', text: 'Вы работаете в воскресенье?' });

    const replied = await act('POST', `/v1/items/${item.id}/reply`, { text: 'Да, с 10 до 18.' });
    expect(replied.statusCode, replied.body).toBe(200);
    expect(replied.json().item).toMatchObject({ status: 'closed', close_reason: 'reply' });
    expect(replied.json().reply).toMatchObject({ is_own: true, delivery: 'queued', parent_id: item.id });

    await settle(t, worker, spaceId);
    const [reply] = await t.deps.database.db
      .select()
      .from(items)
      .where(eq(items.id, replied.json().reply.id));
    expect(reply).toMatchObject({ delivery: 'sent', externalId: expect.stringMatching(/^sbx-\d+$/) });
    const shown = findEntry(await page(), entryId)!;
    expect(shown.replies).toEqual([expect.objectContaining({ text: 'Да, с 10 до 18.', from_account: true })]);
    await events.waitFor(
      (e) =>
        e.type === 'items.updated' &&
        e.spaceId === reply!.spaceId &&
        JSON.stringify(e.payload).includes('"delivery":"sent"'),
    );
    events.stop();
  });

  it('like, hide, delete and restore show on the page', async () => {
    const entryId = (await customer('comments', { author_name: 'Ольга', text: 'Отличный кофе' })).json()
      .id as number;
    const item = await itemOf(entryId);
    for (const action of ['like', 'hide', 'delete']) {
      expect((await act('POST', `/v1/items/${item.id}/${action}`)).statusCode).toBe(200);
    }
    await settle(t, worker, spaceId);
    expect(findEntry(await page(), entryId)).toMatchObject({ liked: true, hidden: true, deleted: true });
    expect((await itemOf(entryId)).status).toBe('deleted');

    const restored = await act('POST', `/v1/items/${item.id}/restore`);
    expect(restored.json().item).toMatchObject({ is_deleted: false, status: 'new' });
    await act('POST', `/v1/items/${item.id}/unlike`);
    await settle(t, worker, spaceId);
    expect(findEntry(await page(), entryId)).toMatchObject({ liked: false, deleted: false });
  });

  it('edits our reply on the page, and reacts with one of the sandbox reactions', async () => {
    const entryId = (
      await customer('comments', { author_name: 'Пётр', text: 'Есть ли веганское меню?' })
    ).json().id as number;
    const item = await itemOf(entryId);
    const replyId = (await act('POST', `/v1/items/${item.id}/reply`, { text: 'Есть' })).json().reply
      .id as number;
    await settle(t, worker, spaceId);
    expect(
      (await act('PUT', `/v1/items/${replyId}`, { text: 'Есть, и безглютеновое тоже' })).statusCode,
    ).toBe(200);
    expect((await act('POST', `/v1/items/${item.id}/react`, { value: '👍' })).statusCode).toBe(200);
    expect((await act('POST', `/v1/items/${item.id}/react`, { value: '🦖' })).statusCode).toBe(400);
    await settle(t, worker, spaceId);
    const shown = findEntry(await page(), entryId)!;
    expect(shown.reaction).toBe('👍');
    expect(shown.replies[0]!.text).toBe('Есть, и безглютеновое тоже');
  });

  it('a customer edits and deletes their own comment; not someone else’s', async () => {
    const entryId = (await customer('comments', { author_name: 'Мария', text: 'Опечатка' })).json()
      .id as number;
    const other = await t.app.inject({
      method: 'PUT',
      url: `/v1/sandbox/${token}/entries/${entryId}`,
      payload: { author_name: 'Кто-то', text: 'Взлом' },
    });
    expect(other.statusCode).toBe(403);
    await t.app.inject({
      method: 'PUT',
      url: `/v1/sandbox/${token}/entries/${entryId}`,
      payload: { author_name: 'Мария', text: 'Исправлено' },
    });
    expect((await itemOf(entryId)).text).toBe('Исправлено');
    await t.app.inject({
      method: 'DELETE',
      url: `/v1/sandbox/${token}/entries/${entryId}?author_name=${encodeURIComponent('Мария')}`,
    });
    expect((await itemOf(entryId)).isDeleted).toBe(true);
  });

  it('reviews arrive with their rating and get answered', async () => {
    const entryId = (await customer('reviews', { author_name: 'Анна', text: 'Уютно', rating: 5 })).json()
      .id as number;
    const item = await itemOf(entryId);
    expect(item).toMatchObject({ kind: 'review', rating: 5 });
    await act('POST', `/v1/items/${item.id}/reply`, { text: 'Спасибо за отзыв!' });
    await settle(t, worker, spaceId);
    expect(findEntry(await page(), entryId)!.replies[0]).toMatchObject({
      from_account: true,
      text: 'Спасибо за отзыв!',
    });
  });
});

describe('private messages', () => {
  it('a customer writes, the operator answers in the chat and the page shows the conversation', async () => {
    const sent = await customer('messages', { author_name: 'Сергей', text: 'Можно заказать торт?' });
    const [message] = await t.deps.database.db
      .select()
      .from(messages)
      .where(eq(messages.externalId, `sbx-${sent.json().id}`));
    const res = await act('POST', `/v1/chats/${message!.chatId}/messages`, {
      text: 'Конечно! На какую дату?',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().chat).toMatchObject({
      status: 'inprogress',
      last_message_is_own: true,
      unread_count: 0,
    });
    expect(res.json().message).toMatchObject({ delivery: 'queued', is_own: true });
    expect((await act('POST', `/v1/messages/${message!.id}/react`, { value: '❤' })).statusCode).toBe(200);
    await settle(t, worker, spaceId);
    const conversation = (await page()).conversations.find((c) =>
      c.messages.some((m) => m.id === sent.json().id),
    )!;
    expect(conversation.messages.map((m) => [m.from_account, m.text])).toEqual([
      [false, 'Можно заказать торт?'],
      [true, 'Конечно! На какую дату?'],
    ]);
    expect(conversation.messages[0]!.reaction).toBe('❤');
  });

  it("'Direct' answers a commenter privately and closes the comment", async () => {
    const entryId = (await customer('comments', { author_name: 'Нина', text: 'Напишите мне в личку' })).json()
      .id as number;
    const item = await itemOf(entryId);
    const res = await act('POST', `/v1/items/${item.id}/direct`, { text: 'Написали вам' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().item).toMatchObject({ status: 'closed', close_reason: 'reply' });
    expect(res.json().message).toMatchObject({ reply_to_item_id: item.id });
    await settle(t, worker, spaceId);
    const conversation = (await page()).conversations.find((c) =>
      c.messages.some((m) => m.text === 'Написали вам'),
    );
    expect(conversation?.peer).toBe(findEntry(await page(), entryId)!.author_id);
    // The customer answers in the same conversation, and it lands in the same chat.
    await customer('messages', { author_name: 'Нина', text: 'Спасибо!' });
    const chat = await t.deps.database.db
      .select()
      .from(messages)
      .where(eq(messages.chatId, res.json().chat.id))
      .orderBy(asc(messages.id));
    expect(chat.map((m) => m.text)).toEqual(['Написали вам', 'Спасибо!']);
  });
});

describe('blocking', () => {
  it('bans the author on the sandbox until unblocked', async () => {
    const entryId = (await customer('comments', { author_name: 'Тролль', text: 'Спам' })).json().id as number;
    const item = await itemOf(entryId);
    const blocked = await act('POST', `/v1/authors/${item.authorId}/block`, { duration: 'forever' });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(blocked.json()).toMatchObject({
      author: { is_blocked: true, blocked_forever: true },
      network: 'queued',
    });
    await settle(t, worker, spaceId);
    const authorId = findEntry(await page(), entryId)!.author_id;
    expect((await page()).blocked).toEqual([{ author_id: authorId, until: null }]);
    const refused = await customer('comments', { author_name: 'Тролль', text: 'Ещё спам' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('Аккаунт заблокировал вас: писать сюда нельзя');

    const unblocked = await act('POST', `/v1/authors/${item.authorId}/unblock`);
    expect(unblocked.json().author).toMatchObject({ is_blocked: false, blocked_forever: false });
    await settle(t, worker, spaceId);
    expect((await page()).blocked).toEqual([]);
    expect((await customer('comments', { author_name: 'Тролль', text: 'Извините' })).statusCode).toBe(200);
  });
});
