import { and, asc, eq } from 'drizzle-orm';
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
import { activity, items, type objects, tags } from '../../../db/schema';
import { registerConnector } from '../../../providers/registry';
import { buildMember, captureEvents } from '../../users/testing';

// Bulk replies (docs/product/validation.md), statuses (docs/product/states.md), tags, assignment and edit windows (docs/product/limits.md), each
// recorded with its cause.

let t: TestApp;
let admin: Awaited<ReturnType<typeof buildWorkspace>>;
let vk: typeof objects.$inferSelect;
let sandbox: typeof objects.$inferSelect;
let undo: () => void;

beforeAll(async () => {
  t = await createTestApp();
  undo = registerConnector(fakeConnector('vk').connector);
  admin = await buildWorkspace(t);
  vk = await buildObject(t, admin.space.id, { provider: 'vk' });
  sandbox = await buildObject(t, admin.space.id, { provider: 'sandbox' });
});
afterAll(async () => {
  undo();
  await t.close();
});

const inject = (
  method: 'POST' | 'PUT',
  url: string,
  payload: Record<string, unknown>,
  headers = admin.headers,
) => t.app.inject({ method, url, headers, payload });

describe('bulk reply', () => {
  it('answers several comments of one account at once', async () => {
    const list = [await buildComment(t, vk), await buildComment(t, vk), await buildComment(t, vk)];
    const events = captureEvents(t.deps.bus);
    const res = await inject('POST', '/v1/items/reply', {
      ids: list.map((i) => i.id),
      text: 'Спасибо всем!',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items.map((i: { status: string }) => i.status)).toEqual(['closed', 'closed', 'closed']);
    expect(res.json().replies).toHaveLength(3);
    const created = await events.waitFor((e) => e.type === 'items.created' && e.spaceId === admin.space.id);
    expect(created.cause).toEqual({ kind: 'user', id: admin.user.id });
    events.stop();
  });

  it("refuses comments of different accounts ('Комментарии должны быть в одном аккаунте')", async () => {
    const res = await inject('POST', '/v1/items/reply', {
      ids: [(await buildComment(t, vk)).id, (await buildComment(t, sandbox)).id],
      text: 'Ответ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Комментарии должны быть в одном аккаунте');
  });

  it("refuses more than 50 ('Выбрано слишком много комментариев для ответа')", async () => {
    const res = await inject('POST', '/v1/items/reply', {
      ids: Array.from({ length: 51 }, (_, i) => i + 1),
      text: 'x',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Выбрано слишком много комментариев для ответа');
  });

  it('is all or nothing when one comment is not visible', async () => {
    const stranger = await buildWorkspace(t);
    const theirs = await buildComment(t, await buildObject(t, stranger.space.id, { provider: 'vk' }));
    const mine = await buildComment(t, vk);
    const res = await inject('POST', '/v1/items/reply', { ids: [mine.id, theirs.id], text: 'x' });
    expect(res.statusCode).toBe(404);
    expect((await t.deps.database.db.select().from(items).where(eq(items.id, mine.id)))[0]!.status).toBe(
      'new',
    );
  });
});

describe('statuses', () => {
  it('records a reply as the first reply and closes with reply', async () => {
    const item = await buildComment(t, vk);
    await inject('POST', `/v1/items/${item.id}/reply`, { text: 'Первый ответ' });
    const rows = await t.deps.database.db.select().from(activity).where(eq(activity.itemId, item.id));
    expect(rows.map((r) => [r.type, r.causeKind, r.userId])).toEqual(
      expect.arrayContaining([
        ['item.received', 'customer', null],
        ['item.replied', 'user', admin.user.id],
        ['item.status', 'user', admin.user.id],
      ]),
    );
    expect(rows.find((r) => r.type === 'item.replied')!.data).toMatchObject({ first: true, via: 'reply' });
  });

  it('delays until a time in the future only', async () => {
    const item = await buildComment(t, vk);
    const missing = await inject('PUT', `/v1/items/${item.id}/status`, { status: 'delayed' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ delayed_until: 'Укажите, до какого времени отложить' });
    const until = Math.floor(Date.now() / 1000) + 3600;
    const ok = await inject('PUT', `/v1/items/${item.id}/status`, {
      status: 'delayed',
      delayed_until: until,
    });
    expect(ok.json().item).toMatchObject({ status: 'delayed', delayed_until: until });
  });

  it('closing "with reply" needs a reply', async () => {
    const item = await buildComment(t, vk);
    const res = await inject('PUT', `/v1/items/${item.id}/status`, {
      status: 'closed',
      close_reason: 'reply',
    });
    expect(res.statusCode).toBe(400);
  });

  it('sets the status of several comments', async () => {
    const ids = [(await buildComment(t, vk)).id, (await buildComment(t, vk)).id];
    const res = await inject('PUT', '/v1/items/status', { ids, status: 'inprogress' });
    expect(res.json().items.map((i: { status: string }) => i.status)).toEqual(['inprogress', 'inprogress']);
  });

  it('a chat waiting for the customer stays waiting when we write again', async () => {
    const chat = await buildChat(t, vk);
    await inject('PUT', `/v1/chats/${chat.id}/status`, { status: 'waiting' });
    const res = await inject('POST', `/v1/chats/${chat.id}/messages`, { text: 'Ждём ваш ответ' });
    expect(res.json().chat).toMatchObject({ status: 'waiting', last_message_is_own: true });
    const moderator = await buildMember(t, admin.space.id, 'moderator');
    const closed = await inject(
      'PUT',
      `/v1/chats/${chat.id}/status`,
      { status: 'closed', close_reason: 'noreply' },
      moderator.headers,
    );
    expect(closed.json().chat).toMatchObject({ status: 'closed', close_reason: 'noreply' });
  });
});

describe('tags and assignment', () => {
  it('replaces tags with tags of the same space', async () => {
    const item = await buildComment(t, vk);
    const db = t.deps.database.db;
    const [tag] = await db.insert(tags).values({ spaceId: admin.space.id, name: 'Доставка' }).returning();
    const other = await buildWorkspace(t);
    const [foreign] = await db.insert(tags).values({ spaceId: other.space.id, name: 'Чужой' }).returning();
    expect((await inject('PUT', `/v1/items/${item.id}/tags`, { tag_ids: [foreign!.id] })).statusCode).toBe(
      400,
    );
    const ok = await inject('PUT', `/v1/items/${item.id}/tags`, { tag_ids: [tag!.id] });
    expect(ok.json().item.tags).toEqual([tag!.id]);
    const cleared = await inject('PUT', `/v1/items/${item.id}/tags`, { tag_ids: [] });
    expect(cleared.json().item.tags).toEqual([]);
    const recorded = await db
      .select()
      .from(activity)
      .where(and(eq(activity.itemId, item.id), eq(activity.type, 'item.tagged')))
      .orderBy(asc(activity.id));
    expect(recorded.map((r) => r.data)).toEqual([
      { added: [tag!.id], removed: [] },
      { added: [], removed: [tag!.id] },
    ]);
    const chat = await buildChat(t, vk);
    const chatTagged = await inject('PUT', `/v1/chats/${chat.id}/tags`, { tag_ids: [tag!.id] });
    expect(chatTagged.json().chat.tags).toEqual([tag!.id]);
  });

  it('assigns to members of the space only', async () => {
    const item = await buildComment(t, vk);
    const operator = await buildMember(t, admin.space.id, 'operator');
    const stranger = await buildWorkspace(t);
    expect(
      (await inject('PUT', `/v1/items/${item.id}/assign`, { user_id: stranger.user.id })).statusCode,
    ).toBe(400);
    const ok = await inject('PUT', `/v1/items/${item.id}/assign`, { user_id: operator.user.id });
    expect(ok.json().item.assigned_user_id).toBe(operator.user.id);
    const none = await inject('PUT', `/v1/items/${item.id}/assign`, { user_id: null });
    expect(none.json().item.assigned_user_id).toBeNull();
  });
});

describe('editing our reply (docs/product/limits.md edit windows)', () => {
  it('VK: editable for 43200 s after it was sent, not at the boundary', async () => {
    const item = await buildComment(t, vk);
    const replyId = (await inject('POST', `/v1/items/${item.id}/reply`, { text: 'Было' })).json().reply
      .id as number;
    await buildWorker(t, { now: () => new Date(Date.now() + 1_000), spaceIds: [admin.space.id] }).drain();
    const age = async (seconds: number) =>
      t.deps.database.db
        .update(items)
        .set({ createdAt: new Date(Date.now() - seconds * 1000) })
        .where(eq(items.id, replyId));
    await age(43_190);
    const inside = await inject('PUT', `/v1/items/${replyId}`, { text: 'Стало' });
    expect(inside.statusCode, inside.body).toBe(200);
    expect(inside.json().item).toMatchObject({ text: 'Стало' });
    await age(43_200);
    const late = await inject('PUT', `/v1/items/${replyId}`, { text: 'Поздно' });
    expect(late.statusCode).toBe(400);
    expect(late.json().error).toBe('Время на изменение ответа истекло');
  });

  it("only the account's own replies, and not on networks that cannot edit", async () => {
    const item = await buildComment(t, vk);
    expect((await inject('PUT', `/v1/items/${item.id}`, { text: 'x' })).json().error).toBe(
      'Изменить можно только ответ аккаунта',
    );
  });
});
