import type { BulkResponse, BulkResult } from '@otklik/shared';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { buildChat, buildComment, buildObject, buildWorkspace } from '../../../../test/inbox-actions';
import { chats, items, itemTags, type objects, tags } from '../../../db/schema';
import { buildMember, captureEvents } from '../../users/testing';

// Bulk close / tag / assign / snooze (issue 13): per-id answers through the single actions' checks,
// nothing of another space touched, and undo that restores only what nobody changed since.

let t: TestApp;
let admin: Awaited<ReturnType<typeof buildWorkspace>>;
let stranger: Awaited<ReturnType<typeof buildWorkspace>>;
let vk: typeof objects.$inferSelect;
let foreignObject: typeof objects.$inferSelect;

beforeAll(async () => {
  t = await createTestApp();
  admin = await buildWorkspace(t);
  stranger = await buildWorkspace(t);
  vk = await buildObject(t, admin.space.id, { provider: 'vk' });
  foreignObject = await buildObject(t, stranger.space.id, { provider: 'vk' });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.deps.database.db;
const post = (url: string, payload: Record<string, unknown>, headers = admin.headers) =>
  t.app.inject({ method: 'POST', url, headers, payload });
const byId = (results: BulkResult[]) => Object.fromEntries(results.map((r) => [r.id, r]));
const itemRow = async (id: number) => (await db().select().from(items).where(eq(items.id, id)))[0]!;
const tagIdsOf = async (id: number) =>
  (await db().select().from(itemTags).where(eq(itemTags.itemId, id))).map((r) => r.tagId).sort();
/** A comment already answered: an operator may close it (docs/product/roles.md). */
async function repliedComment() {
  const item = await buildComment(t, vk);
  await db().update(items).set({ firstReplyAt: new Date() }).where(eq(items.id, item.id));
  return item;
}

describe('bulk close', () => {
  it('answers per id: done, no access by role, not found for another space and for nothing at all', async () => {
    const operator = await buildMember(t, admin.space.id, 'operator');
    const replied = await repliedComment();
    const unreplied = await buildComment(t, vk);
    const foreign = await buildComment(t, foreignObject);
    const events = captureEvents(t.deps.bus);
    const res = await post(
      '/v1/items/bulk',
      { ids: [replied.id, unreplied.id, foreign.id, 2_000_000_000], action: { kind: 'close' } },
      operator.headers,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as BulkResponse;
    expect(byId(body.results)).toEqual({
      [replied.id]: { id: replied.id, result: 'ok' },
      // Closing without a reply is a moderator's (docs/product/roles.md): the operator's role may not.
      [unreplied.id]: { id: unreplied.id, result: 'no_access' },
      [foreign.id]: { id: foreign.id, result: 'not_found' },
      2000000000: { id: 2_000_000_000, result: 'not_found' },
    });
    expect(body.undo_token).toEqual(expect.any(String));
    expect((await itemRow(replied.id)).status).toBe('closed');
    expect((await itemRow(unreplied.id)).status).toBe('new');
    expect(await itemRow(foreign.id)).toEqual(foreign);
    // Other screens hear it like a single close.
    const updated = await events.waitFor(
      (e) => e.type === 'items.updated' && JSON.stringify(e).includes(`"id":${replied.id}`),
    );
    expect(updated.cause).toEqual({ kind: 'user', id: operator.user.id });
    events.stop();
  });

  it('says "unchanged" for what is closed already, and refuses more than the limit', async () => {
    const item = await buildComment(t, vk);
    await post('/v1/items/bulk', { ids: [item.id], action: { kind: 'close' } });
    const again = await post('/v1/items/bulk', { ids: [item.id], action: { kind: 'close' } });
    expect(again.json()).toEqual({
      results: [{ id: item.id, result: 'unchanged' }],
      undo_token: null,
      undo_expires_at: null,
    });
    const tooMany = await post('/v1/items/bulk', {
      ids: Array.from({ length: 501 }, (_, i) => i + 1),
      action: { kind: 'close' },
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error).not.toMatch(/Too big|expected/i);
  });

  it('undo reopens what is still closed and reports what a colleague changed since', async () => {
    const list = [await buildComment(t, vk), await buildComment(t, vk), await buildComment(t, vk)];
    await db().update(items).set({ status: 'inprogress' }).where(eq(items.id, list[1]!.id));
    const res = await post('/v1/items/bulk', { ids: list.map((i) => i.id), action: { kind: 'close' } });
    const { undo_token } = res.json() as BulkResponse;
    // A colleague reopens the third meanwhile.
    await t.app.inject({
      method: 'PUT',
      url: `/v1/items/${list[2]!.id}/status`,
      headers: admin.headers,
      payload: { status: 'waiting' },
    });
    const undo = await post('/v1/items/bulk/undo', { token: undo_token });
    expect(undo.statusCode, undo.body).toBe(200);
    expect(byId(undo.json().results)).toEqual({
      [list[0]!.id]: { id: list[0]!.id, result: 'ok' },
      [list[1]!.id]: { id: list[1]!.id, result: 'ok' },
      [list[2]!.id]: { id: list[2]!.id, result: 'changed' },
    });
    const rows = await db()
      .select()
      .from(items)
      .where(
        inArray(
          items.id,
          list.map((i) => i.id),
        ),
      );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
      [list[0]!.id]: 'new',
      [list[1]!.id]: 'inprogress',
      [list[2]!.id]: 'waiting',
    });
  });

  it("undo takes only the caller's own, unexpired, untampered token of the same kind", async () => {
    const item = await buildComment(t, vk);
    const { undo_token } = (
      await post('/v1/items/bulk', { ids: [item.id], action: { kind: 'close' } })
    ).json() as BulkResponse;
    const colleague = await buildMember(t, admin.space.id, 'administrator');
    for (const [url, token, headers] of [
      ['/v1/items/bulk/undo', undo_token, colleague.headers],
      ['/v1/chats/bulk/undo', undo_token, admin.headers],
      ['/v1/items/bulk/undo', `${undo_token!.slice(0, -2)}xx`, admin.headers],
    ] as const) {
      const res = await post(url, { token }, headers);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Отменить уже нельзя: время вышло');
    }
    expect((await itemRow(item.id)).status).toBe('closed');
  });
});

describe('bulk tag, assign, snooze', () => {
  it('adds tags keeping the ones there, leaves another space alone, and undo takes back only ours', async () => {
    const [delivery, price] = await db()
      .insert(tags)
      .values([
        { spaceId: admin.space.id, name: 'Доставка' },
        { spaceId: admin.space.id, name: 'Цена' },
      ])
      .returning();
    const tagged = await buildComment(t, vk);
    await db().insert(itemTags).values({ itemId: tagged.id, tagId: price!.id, spaceId: admin.space.id });
    const plain = await buildComment(t, vk);
    const later = await buildComment(t, vk);
    const foreign = await buildComment(t, foreignObject);
    const res = await post('/v1/items/bulk', {
      ids: [tagged.id, plain.id, later.id, foreign.id],
      action: { kind: 'tag', tag_ids: [delivery!.id] },
    });
    expect(byId(res.json().results)[foreign.id]).toEqual({ id: foreign.id, result: 'not_found' });
    expect(await tagIdsOf(tagged.id)).toEqual([delivery!.id, price!.id].sort());
    expect(await tagIdsOf(plain.id)).toEqual([delivery!.id]);
    expect(await tagIdsOf(foreign.id)).toEqual([]);
    // Someone retags one of them before the undo.
    await t.app.inject({
      method: 'PUT',
      url: `/v1/items/${later.id}/tags`,
      headers: admin.headers,
      payload: { tag_ids: [price!.id] },
    });
    const undo = await post('/v1/items/bulk/undo', { token: res.json().undo_token });
    expect(byId(undo.json().results)[later.id]!.result).toBe('changed');
    expect(await tagIdsOf(tagged.id)).toEqual([price!.id]);
    expect(await tagIdsOf(plain.id)).toEqual([]);
    expect(await tagIdsOf(later.id)).toEqual([price!.id]);
  });

  it('a tag of another space fails per id with a message in the caller language', async () => {
    const [theirs] = await db()
      .insert(tags)
      .values({ spaceId: stranger.space.id, name: 'Чужой' })
      .returning();
    const item = await buildComment(t, vk);
    const res = await post('/v1/items/bulk', {
      ids: [item.id],
      action: { kind: 'tag', tag_ids: [theirs!.id] },
    });
    expect(res.json().results).toEqual([{ id: item.id, result: 'failed', error: 'Некорректное значение' }]);
    expect(await tagIdsOf(item.id)).toEqual([]);
  });

  it('assigns to me where the role allows, and undo gives them back', async () => {
    const moderator = await buildMember(t, admin.space.id, 'moderator');
    const list = [await buildComment(t, vk), await buildComment(t, vk)];
    await db().update(items).set({ assignedUserId: moderator.user.id }).where(eq(items.id, list[1]!.id));
    const refused = await post(
      '/v1/items/bulk',
      { ids: list.map((i) => i.id), action: { kind: 'assign', user_id: moderator.user.id } },
      moderator.headers,
    );
    // Assigning is an operator's (docs/product/roles.md); what is assigned already is answered as it is.
    expect(refused.json().results).toEqual([
      { id: list[0]!.id, result: 'no_access' },
      { id: list[1]!.id, result: 'unchanged' },
    ]);
    const res = await post('/v1/items/bulk', {
      ids: list.map((i) => i.id),
      action: { kind: 'assign', user_id: admin.user.id },
    });
    expect(res.json().results.map((r: BulkResult) => r.result)).toEqual(['ok', 'ok']);
    expect((await itemRow(list[0]!.id)).assignedUserId).toBe(admin.user.id);
    await post('/v1/items/bulk/undo', { token: res.json().undo_token });
    expect((await itemRow(list[0]!.id)).assignedUserId).toBeNull();
    expect((await itemRow(list[1]!.id)).assignedUserId).toBe(moderator.user.id);
    const stranger = await post('/v1/items/bulk', {
      ids: [list[0]!.id],
      action: { kind: 'assign', user_id: 2_000_000_000 },
    });
    expect(stranger.json().results).toEqual([
      { id: list[0]!.id, result: 'failed', error: 'Некорректное значение' },
    ]);
  });

  it('snoozes until a future time only, and undo brings the previous status back', async () => {
    const item = await buildComment(t, vk);
    const past = await post('/v1/items/bulk', {
      ids: [item.id],
      action: { kind: 'snooze', until: Math.floor(Date.now() / 1000) - 10 },
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toBe('Укажите, до какого времени отложить');
    const until = Math.floor(Date.now() / 1000) + 3_600;
    const res = await post('/v1/items/bulk', { ids: [item.id], action: { kind: 'snooze', until } });
    const row = await itemRow(item.id);
    expect(row.status).toBe('delayed');
    expect(row.delayedUntil!.getTime()).toBe(until * 1000);
    await post('/v1/items/bulk/undo', { token: res.json().undo_token });
    expect(await itemRow(item.id)).toMatchObject({ status: 'new', delayedUntil: null });
  });

  it('chats: close with undo, the English message for an English caller', async () => {
    const chat = await buildChat(t, vk);
    const foreignChat = await buildChat(t, foreignObject);
    const res = await post('/v1/chats/bulk', { ids: [chat.id, foreignChat.id], action: { kind: 'close' } });
    expect(res.json().results).toEqual([
      { id: chat.id, result: 'ok' },
      { id: foreignChat.id, result: 'not_found' },
    ]);
    const chatRow = async (id: number) => (await db().select().from(chats).where(eq(chats.id, id)))[0]!;
    expect((await chatRow(chat.id)).status).toBe('closed');
    expect((await chatRow(foreignChat.id)).status).toBe('new');
    await post('/v1/chats/bulk/undo', { token: res.json().undo_token });
    expect((await chatRow(chat.id)).status).toBe('new');
    const late = await t.app.inject({
      method: 'POST',
      url: '/v1/chats/bulk/undo?locale=en',
      headers: admin.headers,
      payload: { token: 'v1.a.b.c' },
    });
    expect(late.json().error).toBe('It is too late to undo');
  });
});
