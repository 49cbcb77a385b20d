import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { buildChat, buildComment, buildObject, buildWorkspace } from '../../test/inbox-actions';
import { activity, chats, items, type objects } from '../db/schema';
import { captureEvents } from '../modules/users/testing';
import { DelayedReturns } from './delayed';

// docs/product/states.md delayed: put off until a moment, a comment or chat comes back to the queue by itself when the
// moment passes — with its activity, badge counters and list events, as a manual status change.

let t: TestApp;
let admin: Awaited<ReturnType<typeof buildWorkspace>>;
let vk: typeof objects.$inferSelect;
let job: DelayedReturns;

beforeAll(async () => {
  t = await createTestApp();
  admin = await buildWorkspace(t);
  vk = await buildObject(t, admin.space.id, { provider: 'vk' });
  job = new DelayedReturns({
    db: t.deps.database.db,
    bus: t.deps.bus,
    log: t.deps.log,
    spaceIds: [admin.space.id],
  });
});
afterAll(() => t.close());

const db = () => t.deps.database.db;
const inHours = (hours: number) => Math.floor(Date.now() / 1000) + hours * 3600;
const counts = async () =>
  (await t.app.inject({ url: '/v1/counts', headers: admin.headers })).json() as {
    items_count: number;
    chats_count: number;
  };

async function delay(kind: 'items' | 'chats', id: number, until: number) {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/v1/${kind}/${id}/status`,
    headers: admin.headers,
    payload: { status: 'delayed', delayed_until: until },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** The API only takes a moment in the future; time passing is played by moving it back. */
const moveIntoPast = (table: typeof items | typeof chats, id: number) =>
  db()
    .update(table)
    .set({ delayedUntil: new Date(Date.now() - 60_000) })
    .where(eq(table.id, id));

describe('delayed work comes back', () => {
  it('returns a due comment to new (and an assigned one to inprogress); a future one stays', async () => {
    const due = await buildComment(t, vk);
    const taken = await buildComment(t, vk);
    const later = await buildComment(t, vk);
    const assigned = await t.app.inject({
      method: 'PUT',
      url: `/v1/items/${taken.id}/assign`,
      headers: admin.headers,
      payload: { user_id: admin.user.id },
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const before = await counts();
    for (const item of [due, taken, later]) await delay('items', item.id, inHours(2));
    expect((await counts()).items_count).toBe(before.items_count - 3);
    await moveIntoPast(items, due.id);
    await moveIntoPast(items, taken.id);

    const events = captureEvents(t.deps.bus);
    expect(await job.tick()).toMatchObject({ items: 2 });

    const row = async (id: number) => (await db().select().from(items).where(eq(items.id, id)))[0]!;
    expect(await row(due.id)).toMatchObject({ status: 'new', delayedUntil: null });
    expect(await row(taken.id)).toMatchObject({ status: 'inprogress', delayedUntil: null });
    expect(await row(later.id)).toMatchObject({ status: 'delayed' });
    expect((await counts()).items_count).toBe(before.items_count - 1);

    const [recorded] = await db()
      .select()
      .from(activity)
      .where(
        and(eq(activity.itemId, due.id), eq(activity.type, 'item.status'), eq(activity.causeKind, 'system')),
      );
    expect(recorded?.data).toMatchObject({ from: 'delayed', to: 'new' });
    const pushed = await events.waitFor((e) => e.type === 'items.updated' && e.spaceId === admin.space.id);
    events.stop();
    expect(pushed.cause).toEqual({ kind: 'system' });
    expect(pushed.payload.object_id).toBe(vk.id);
    expect(
      (pushed.payload.items as Array<{ id: number; status: string }>).map((i) => [i.id, i.status]),
    ).toEqual(
      expect.arrayContaining([
        [due.id, 'new'],
        [taken.id, 'inprogress'],
      ]),
    );

    // Nothing more is due: the next tick changes nothing and the future one still waits.
    expect(await job.tick()).toEqual({ items: 0, chats: 0 });
    expect(await row(later.id)).toMatchObject({ status: 'delayed' });
  });

  it('returns a due chat and counts it again', async () => {
    const chat = await buildChat(t, vk);
    const waiting = await buildChat(t, vk);
    const before = await counts();
    await delay('chats', chat.id, inHours(1));
    await delay('chats', waiting.id, inHours(1));
    expect((await counts()).chats_count).toBe(before.chats_count - 2);
    await moveIntoPast(chats, chat.id);

    const events = captureEvents(t.deps.bus);
    expect(await job.tick()).toMatchObject({ chats: 1 });
    const [back] = await db().select().from(chats).where(eq(chats.id, chat.id));
    expect(back).toMatchObject({ status: 'new', delayedUntil: null });
    const [still] = await db().select().from(chats).where(eq(chats.id, waiting.id));
    expect(still?.status).toBe('delayed');
    expect((await counts()).chats_count).toBe(before.chats_count - 1);
    const [recorded] = await db()
      .select()
      .from(activity)
      .where(
        and(eq(activity.chatId, chat.id), eq(activity.type, 'chat.status'), eq(activity.causeKind, 'system')),
      );
    expect(recorded?.data).toMatchObject({ from: 'delayed', to: 'new' });
    await events.waitFor(
      (e) =>
        e.type === 'chats.updated' &&
        e.spaceId === admin.space.id &&
        JSON.stringify(e.payload).includes(`"id":${chat.id},`),
    );
    events.stop();
  });

  it('two nodes ticking at once return each row once', async () => {
    const list = [await buildComment(t, vk), await buildComment(t, vk), await buildComment(t, vk)];
    for (const item of list) {
      await delay('items', item.id, inHours(1));
      await moveIntoPast(items, item.id);
    }
    const other = new DelayedReturns({
      db: t.deps.database.db,
      bus: t.deps.bus,
      log: t.deps.log,
      spaceIds: [admin.space.id],
    });
    const [a, b] = await Promise.all([job.tick(), other.tick()]);
    expect(a.items + b.items).toBe(3);
    const records = await db()
      .select()
      .from(activity)
      .where(and(eq(activity.type, 'item.status'), eq(activity.causeKind, 'system')));
    for (const item of list) expect(records.filter((r) => r.itemId === item.id)).toHaveLength(1);
  });
});

describe('"returned from snooze" (issue 13)', () => {
  it('marks what comes back in the lists until someone opens it', async () => {
    const item = await buildComment(t, vk);
    const chat = await buildChat(t, vk);
    await delay('items', item.id, inHours(1));
    await delay('chats', chat.id, inHours(1));
    // An hour and a minute later, by the job's clock.
    const back = new Date(Date.now() + 61 * 60_000);
    await job.tick(back);

    const list = (await t.app.inject({ url: '/v1/items', headers: admin.headers })).json() as {
      items: Array<{ id: number; returned_at: number | null }>;
    };
    expect(list.items.find((i) => i.id === item.id)?.returned_at).toBe(Math.floor(back.getTime() / 1000));
    const chatList = (await t.app.inject({ url: '/v1/chats', headers: admin.headers })).json() as {
      items: Array<{ id: number; returned_at: number | null }>;
    };
    expect(chatList.items.find((c) => c.id === chat.id)?.returned_at).toBe(Math.floor(back.getTime() / 1000));

    // Opening it ends the mark, and open lists hear it.
    const events = captureEvents(t.deps.bus);
    const opened = await t.app.inject({ url: `/v1/items/${item.id}`, headers: admin.headers });
    expect(opened.json().item.returned_at).toBeNull();
    await events.waitFor((e) => e.type === 'items.updated' && e.spaceId === admin.space.id);
    events.stop();
    expect((await db().select().from(items).where(eq(items.id, item.id)))[0]?.returnedAt).toBeNull();
    const openedChat = await t.app.inject({ url: `/v1/chats/${chat.id}`, headers: admin.headers });
    expect(openedChat.json().chat.returned_at).toBeNull();
    expect((await db().select().from(chats).where(eq(chats.id, chat.id)))[0]?.returnedAt).toBeNull();
  });

  it('setting a status ends the mark too', async () => {
    const item = await buildComment(t, vk);
    await delay('items', item.id, inHours(1));
    await job.tick(new Date(Date.now() + 61 * 60_000));
    expect((await db().select().from(items).where(eq(items.id, item.id)))[0]?.returnedAt).not.toBeNull();
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/items/${item.id}/status`,
      headers: admin.headers,
      payload: { status: 'inprogress' },
    });
    expect(res.json().item.returned_at).toBeNull();
  });
});
