import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import {
  buildChat,
  buildComment,
  buildObject,
  buildWorker,
  buildWorkspace,
  fakeConnector,
} from '../../test/inbox-actions';
import { commentEvent, messageEvent } from '../../test/inbox-helpers';
import { items, messages, type objects, outbox } from '../db/schema';
import { ingest } from '../modules/inbox/ingest/ingest';
import { BACKOFF_SECONDS, MAX_ATTEMPTS } from '../modules/outbox/queue';
import { captureEvents } from '../modules/users/testing';
import { registerConnector } from '../providers/registry';
import { ConnectorError } from '../providers/types';

// What happens when a network says no, or not now: failures stay visible (delivery 'failed' with the
// network's text, account errors), waits follow the network (rate limits) or back off, and a failed send
// can be sent again.

let t: TestApp;
let headers: Record<string, string>;
let spaceId: number;
let undo: (() => void) | undefined;
let clock = Date.now();
const now = () => new Date(clock);

beforeAll(async () => {
  t = await createTestApp();
  const admin = await buildWorkspace(t);
  headers = admin.headers;
  spaceId = admin.space.id;
});
afterEach(() => undo?.());
afterAll(() => t.close());

/** A VK account whose network fails as `fail` says (a fresh account each time, so errors don't mix). */
async function vkAccount(fail: (call: number) => Error | undefined = () => undefined) {
  let calls = 0;
  const fake = fakeConnector('vk', { fail: () => fail(++calls) });
  undo = registerConnector(fake.connector);
  const object = await buildObject(t, spaceId, { provider: 'vk' });
  return { object, calls: fake.calls };
}

async function reply(object: typeof objects.$inferSelect, text = 'Ответ') {
  const item = await buildComment(t, object);
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/items/${item.id}/reply`,
    headers,
    payload: { text },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { item, replyId: res.json().reply.id as number };
}

const itemRow = async (id: number) =>
  (await t.deps.database.db.select().from(items).where(eq(items.id, id)))[0]!;
const outboxOf = async (itemId: number) =>
  (await t.deps.database.db.select().from(outbox).where(eq(outbox.itemId, itemId)))[0]!;

describe('a revoked token', () => {
  it('fails the reply with the network text and shows an account error', async () => {
    const text = 'User authorization failed: access_token has expired.';
    const { object } = await vkAccount(() => new ConnectorError('auth', text));
    const events = captureEvents(t.deps.bus);
    const { replyId } = await reply(object);
    clock = Date.now() + 1_000;
    await buildWorker(t, { now, spaceIds: [spaceId] }).drain();

    expect(await itemRow(replyId)).toMatchObject({ delivery: 'failed', deliveryError: text });
    expect(await outboxOf(replyId)).toMatchObject({ state: 'failed', lastError: text, attempts: 1 });
    // Whoever wrote the reply is notified (issue 18): their notification centre has it.
    const mine = await t.app.inject({ method: 'GET', url: '/v1/notifications', headers });
    expect(mine.json().items).toContainEqual(
      expect.objectContaining({ event: 'reply_failed', item_id: replyId, title: 'Ответ не отправлен', text }),
    );
    const errors = await t.app.inject({ method: 'GET', url: '/v1/errors', headers });
    expect(errors.json().items).toContainEqual(
      expect.objectContaining({ id: object.id, error: text, provider: 'vk' }),
    );
    await events.waitFor((e) => e.type === 'objects.updated' && e.spaceId === spaceId);
    await events.waitFor(
      (e) =>
        e.type === 'items.updated' &&
        e.spaceId === spaceId &&
        JSON.stringify(e.payload).includes(`"id":${replyId},`),
    );
    events.stop();

    const cleared = await t.app.inject({
      method: 'POST',
      url: `/v1/objects/${object.id}/clear_error`,
      headers,
    });
    expect(cleared.json()).toMatchObject({ error: null });
    const after = await t.app.inject({ method: 'GET', url: '/v1/errors', headers });
    expect(after.json().items.map((o: { id: number }) => o.id)).not.toContain(object.id);
  });

  it('a failed reply is sent again with POST /items/:id/retry', async () => {
    let broken = true;
    const { object } = await vkAccount(() =>
      broken ? new ConnectorError('permanent', 'Access denied') : undefined,
    );
    const { replyId } = await reply(object);
    clock = Date.now() + 1_000;
    const worker = buildWorker(t, { now, spaceIds: [spaceId] });
    await worker.drain();
    expect((await itemRow(replyId)).delivery).toBe('failed');
    broken = false;
    const res = await t.app.inject({ method: 'POST', url: `/v1/items/${replyId}/retry`, headers });
    expect(res.json().item).toMatchObject({ delivery: 'queued', delivery_error: null });
    clock = Date.now() + 1_000;
    await worker.drain();
    expect(await itemRow(replyId)).toMatchObject({
      delivery: 'sent',
      externalId: expect.stringMatching(/^vk-/),
    });
    const again = await t.app.inject({ method: 'POST', url: `/v1/items/${replyId}/retry`, headers });
    expect(again.statusCode).toBe(400);
  });
});

describe('rate limits and temporary failures', () => {
  it('waits as long as the network asks, then delivers', async () => {
    const { object, calls } = await vkAccount((n) =>
      n === 1
        ? new ConnectorError('rate_limited', 'Too many requests', { retryAfterSeconds: 30 })
        : undefined,
    );
    const { replyId } = await reply(object);
    clock = Date.now() + 1_000;
    const worker = buildWorker(t, { now, spaceIds: [spaceId] });
    await worker.drain();
    const waiting = await outboxOf(replyId);
    expect(waiting).toMatchObject({ state: 'pending', attempts: 0, lastError: 'Too many requests' });
    expect(waiting.runAt.getTime()).toBe(clock + 30_000);
    expect((await itemRow(replyId)).delivery).toBe('queued');

    expect(await worker.drain()).toBe(0);
    clock += 30_000;
    expect(await worker.drain()).toBe(1);
    expect(calls).toHaveLength(2);
    expect(await itemRow(replyId)).toMatchObject({ delivery: 'sent' });
    expect(await outboxOf(replyId)).toMatchObject({ state: 'done' });
  });

  it('backs off 5 s, 30 s, … and gives up after the last attempt', async () => {
    const { object, calls } = await vkAccount(() => new ConnectorError('temporary', 'Internal server error'));
    const { replyId } = await reply(object);
    clock = Date.now() + 1_000;
    const worker = buildWorker(t, { now, spaceIds: [spaceId] });
    await worker.drain();
    expect((await outboxOf(replyId)).runAt.getTime()).toBe(clock + BACKOFF_SECONDS[0] * 1000);
    clock += BACKOFF_SECONDS[0] * 1000;
    await worker.drain();
    expect((await outboxOf(replyId)).runAt.getTime()).toBe(clock + BACKOFF_SECONDS[1] * 1000);
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      clock += 3_600_000;
      await worker.drain();
    }
    expect(calls).toHaveLength(MAX_ATTEMPTS);
    expect(await outboxOf(replyId)).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS });
    expect(await itemRow(replyId)).toMatchObject({
      delivery: 'failed',
      deliveryError: 'Internal server error',
    });
  });

  it("keeps a chat's messages in order while an earlier one waits", async () => {
    const { object, calls } = await vkAccount((n) =>
      n === 1 ? new ConnectorError('rate_limited', 'Slow down', { retryAfterSeconds: 10 }) : undefined,
    );
    const chat = await buildChat(t, object);
    for (const text of ['первое', 'второе']) {
      await t.app.inject({
        method: 'POST',
        url: `/v1/chats/${chat.id}/messages`,
        headers,
        payload: { text },
      });
    }
    clock = Date.now() + 1_000;
    const worker = buildWorker(t, { now, spaceIds: [spaceId] });
    await worker.drain();
    expect(calls).toHaveLength(1);
    clock += 10_000;
    await worker.drain();
    const texts = calls.map((c) => (c.args[1] as { text: string }).text);
    expect(texts).toEqual(['первое', 'первое', 'второе']);
  });
});

describe("the network's echo of our reply arriving before the answer", () => {
  // A webhook with our own reply can beat the send call's answer: the echo is stored first, and then
  // the worker learns the same id. The reply keeps its author and takes the id; the echo goes.
  const echoWhileSending = (object: typeof objects.$inferSelect, event: () => Record<string, unknown>) =>
    fakeConnector('vk', {
      slow: async () => {
        await ingest({ db: t.deps.database.db, bus: t.deps.bus }, object, [event()]);
      },
    });

  it('a comment reply adopts its echo: one row, ours, with the network id', async () => {
    const object = await buildObject(t, spaceId, { provider: 'vk' });
    const item = await buildComment(t, object);
    const fake = echoWhileSending(object, () =>
      commentEvent({
        externalId: 'vk-1',
        parentExternalId: item.externalId,
        isOwn: true,
        text: 'Ответ',
        author: { externalId: 'community', name: 'Our community' },
      }),
    );
    undo = registerConnector(fake.connector);
    const events = captureEvents(t.deps.bus);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/items/${item.id}/reply`,
      headers,
      payload: { text: 'Ответ' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const replyId = res.json().reply.id as number;
    await buildWorker(t, { now, spaceIds: [spaceId] }).drain();

    const own = await t.deps.database.db.select().from(items).where(eq(items.objectId, object.id));
    expect(own.filter((i) => i.isOwn)).toEqual([
      expect.objectContaining({ id: replyId, externalId: 'vk-1', delivery: 'sent', parentId: item.id }),
    ]);
    const removed = await events.waitFor((e) => e.type === 'items.removed' && e.spaceId === spaceId);
    expect(removed.payload.ids).toHaveLength(1);
    expect(removed.payload.ids).not.toContain(replyId);
  });

  it('a chat message adopts its echo too', async () => {
    const object = await buildObject(t, spaceId, { provider: 'vk' });
    const chat = await buildChat(t, object);
    const fake = echoWhileSending(object, () =>
      messageEvent({
        chatExternalId: chat.externalId,
        externalId: 'vk-1',
        isOwn: true,
        text: 'Здравствуйте',
        author: { externalId: 'community', name: 'Our community' },
      }),
    );
    undo = registerConnector(fake.connector);
    const events = captureEvents(t.deps.bus);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/chats/${chat.id}/messages`,
      headers,
      payload: { text: 'Здравствуйте' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await buildWorker(t, { now, spaceIds: [spaceId] }).drain();

    const rows = await t.deps.database.db.select().from(messages).where(eq(messages.chatId, chat.id));
    expect(rows.filter((m) => m.isOwn)).toEqual([
      expect.objectContaining({ externalId: 'vk-1', delivery: 'sent', text: 'Здравствуйте' }),
    ]);
    expect(rows.find((m) => m.isOwn)!.userId).not.toBeNull();
    const removed = await events.waitFor((e) => e.type === 'messages.removed' && e.spaceId === spaceId);
    expect(removed.payload).toMatchObject({ chat_id: chat.id });
  });
});

describe('claiming', () => {
  it('two workers draining together make each call once', async () => {
    const { object, calls } = await vkAccount();
    for (let i = 0; i < 6; i++) await reply(object, `ответ ${i}`);
    clock = Date.now() + 1_000;
    const [a, b] = await Promise.all([
      buildWorker(t, { now, spaceIds: [spaceId] }).drain(),
      buildWorker(t, { now, spaceIds: [spaceId] }).drain(),
    ]);
    expect(a + b).toBe(6);
    expect(calls).toHaveLength(6);
  });

  it('a call the network made is written down once the database takes it again — never made twice', async () => {
    const { object, calls } = await vkAccount();
    const { replyId } = await reply(object, 'ответ, пока база недоступна');
    // The database refuses the first two attempts to mark this account's rows done (as while it restarts).
    const name = `test_outbox_away_${object.id}`;
    const { db } = t.deps.database;
    await db.execute(sql.raw(`CREATE SEQUENCE ${name}`));
    await db.execute(
      sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.state = 'done' AND NEW.object_id = ${object.id} AND nextval('${name}') <= 2 THEN
            RAISE EXCEPTION 'the database is away';
          END IF;
          RETURN NEW;
        END $$`),
    );
    await db.execute(
      sql.raw(`CREATE TRIGGER ${name} BEFORE UPDATE ON outbox FOR EACH ROW EXECUTE FUNCTION ${name}()`),
    );
    try {
      clock = Date.now() + 1_000;
      await buildWorker(t, { now, spaceIds: [spaceId], persistForMs: 30_000 }).drain();
      expect(calls).toHaveLength(1);
      expect(await outboxOf(replyId)).toMatchObject({ state: 'done', attempts: 1 });
      expect(await itemRow(replyId)).toMatchObject({ delivery: 'sent' });
      // Long after the lease: nothing is due, nothing is sent again.
      clock = Date.now() + 3_600_000;
      await buildWorker(t, { now, spaceIds: [spaceId] }).drain();
      expect(calls).toHaveLength(1);
    } finally {
      await db.execute(sql.raw(`DROP TRIGGER ${name} ON outbox`));
      await db.execute(sql.raw(`DROP FUNCTION ${name}()`));
      await db.execute(sql.raw(`DROP SEQUENCE ${name}`));
    }
  });

  it('a refused moderation is undone and shows the network text', async () => {
    const { object } = await vkAccount(() => new ConnectorError('permanent', 'Access to comment denied'));
    const item = await buildComment(t, object);
    const res = await t.app.inject({ method: 'POST', url: `/v1/items/${item.id}/delete`, headers });
    expect(res.json().item).toMatchObject({ is_deleted: true, status: 'deleted' });
    clock = Date.now() + 1_000;
    await buildWorker(t, { now, spaceIds: [spaceId] }).drain();
    expect(await itemRow(item.id)).toMatchObject({
      isDeleted: false,
      status: 'new',
      deliveryError: 'Access to comment denied',
    });
  });

  it('a slow network never holds up the request: the started worker delivers in the background', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fake = fakeConnector('vk', { slow: () => gate });
    undo = registerConnector(fake.connector);
    const object = await buildObject(t, spaceId, { provider: 'vk' });
    const worker = buildWorker(t, { spaceIds: [spaceId] });
    worker.start(50);
    try {
      const started = Date.now();
      const { replyId } = await reply(object);
      expect(Date.now() - started).toBeLessThan(2_000);
      for (let i = 0; i < 100 && fake.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(fake.calls).toHaveLength(1);
      expect((await itemRow(replyId)).delivery).toBe('queued');
      release();
      for (let i = 0; i < 100 && (await itemRow(replyId)).delivery !== 'sent'; i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect((await itemRow(replyId)).delivery).toBe('sent');
    } finally {
      release();
      await worker.stop();
    }
  });
});
