import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildWorker, buildWorkspace } from '../../../test/inbox-actions';
import { Ticker } from '../../../test/providers/youtube';
import { items, objects } from '../../db/schema';
import { PollingManager } from '../../jobs/pollers';
import { openCredentials, sealCredentials } from '../context';
import { ThreadsEmulator } from './emulator';

// Issue 19, Threads: a profile connects through the Threads authorization window (long-lived token
// kept), replies to its posts are polled by the one polling manager (cursor kept across restarts),
// answered (429 once, then delivered) and hidden; a revoked token becomes the account's error.

const APP_ID = '990602627938098';
const APP_SECRET = 'threads-secret';
let t: TestApp;
let emu: ThreadsEmulator;
let headers: Record<string, string> = {};
let spaceId = 0;
let clock = Date.now();

beforeAll(async () => {
  emu = await ThreadsEmulator.start();
  emu.apps.set(APP_ID, APP_SECRET);
  t = await createTestApp({
    ...emu.env,
    THREADS_APP_ID: APP_ID,
    THREADS_APP_SECRET: APP_SECRET,
    PROVIDER_UPDATES: 'polling',
  });
});
afterAll(async () => {
  await t.close();
  await emu.close();
});
beforeEach(async () => {
  const admin = await buildWorkspace(t);
  headers = admin.headers;
  spaceId = admin.space.id;
});

const db = () => t.deps.database.db;
const redirectUri = () => `${t.deps.config.appUrl}/callback/threads`;
const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers, payload });

async function popup() {
  const start = await inject(
    'GET',
    `/v1/threads/auth/start?redirect_uri=${encodeURIComponent(redirectUri())}`,
  );
  expect(start.statusCode, start.body).toBe(200);
  const answer = await fetch(start.json().url as string, { redirect: 'manual' });
  return Object.fromEntries(new URL(answer.headers.get('location')!).searchParams);
}

const finish = (back: Record<string, string>) =>
  inject('POST', '/v1/threads/auth', { ...back, redirect_uri: redirectUri() });

async function connect(username: string) {
  const profile = emu.addProfile(username);
  const post = emu.addMedia({
    owner: profile,
    text: 'Новая коллекция',
    at: new Date(Date.now() - 7_200_000),
  });
  emu.addMedia({
    owner: profile,
    replyTo: post.id,
    username: 'old_fan',
    text: 'Старый ответ',
    at: new Date(Date.now() - 3_600_000),
  });
  emu.consenting = profile;
  const res = await finish(await popup());
  expect(res.statusCode, res.body).toBe(200);
  return { profile, post, id: res.json().object.id as number, object: res.json().object };
}

const row = async (id: number) => (await db().select().from(objects).where(eq(objects.id, id)))[0]!;
const itemsOf = (id: number) => db().select().from(items).where(eq(items.objectId, id)).orderBy(items.id);
const item = async (id: number, externalId: string) =>
  (
    await db()
      .select()
      .from(items)
      .where(and(eq(items.objectId, id), eq(items.externalId, externalId)))
  )[0];

function poller(ticker: Ticker, node = `threads-${process.pid}-${Math.random()}`) {
  const { bus, sealer, config, log } = t.deps;
  return new PollingManager({ db: db(), bus, sealer, config, log }, node, {
    spaceIds: [spaceId],
    wait: ticker.wait,
    random: () => 0.5,
  });
}

function drain(advanceMs?: number) {
  clock = advanceMs === undefined ? Math.max(clock, Date.now()) + 1_000 : clock + advanceMs;
  return buildWorker(t, { spaceIds: [spaceId], now: () => new Date(clock) }).drain();
}

describe('Threads', () => {
  it('connect → import → poll → reply (429 once) → delivered → hide and show', async () => {
    const { profile, post, id, object } = await connect('masterskaya');
    expect(object).toMatchObject({ provider: 'threads', name: 'Profile masterskaya', imported: 1 });
    const stored = openCredentials(t.deps.sealer, await row(id));
    expect(Object.keys(stored).sort()).toEqual(
      expect.arrayContaining(['access_token', 'expires_at', 'user_id', 'username']),
    );
    // The long-lived token is kept, not the one-hour one.
    expect(emu.apiCalls('GET', '/access_token').at(-1)!.params.grant_type).toBe('th_exchange_token');
    expect(Number(stored.expires_at)).toBeGreaterThan(Date.now() + 50 * 86_400_000);

    const fresh = emu.addMedia({ owner: profile, replyTo: post.id, username: 'anna', text: 'Где купить?' });
    const nested = emu.addMedia({
      owner: profile,
      replyTo: fresh.id,
      username: 'boris',
      text: 'Тоже интересно',
    });
    const ticker = new Ticker();
    const manager = poller(ticker);
    try {
      await manager.scan();
      await ticker.untilWaits(1);
      // The next round waits THREADS_POLL_S (300 s), jitter fixed at its middle.
      expect(ticker.waits[0]).toBe(300_000);
      const anna = (await item(id, fresh.id))!;
      expect(anna).toMatchObject({ text: 'Где купить?', isOwn: false, kind: 'comment' });
      const boris = (await item(id, nested.id))!;
      expect(boris.parentId).toBe(anna.id);

      emu.failNext(429, { retryAfter: 7 });
      const replied = await inject('POST', `/v1/items/${anna.id}/reply`, { text: 'В мастерской на Ленина' });
      expect(replied.statusCode, replied.body).toBe(200);
      await drain();
      const replyId = replied.json().reply.id as number;
      expect((await itemsOf(id)).find((i) => i.id === replyId)?.delivery).not.toBe('sent');
      await drain(8_000);
      const container = emu.apiCalls('POST', '/v1.0/me/threads').at(-1)!;
      expect(container.params).toMatchObject({
        media_type: 'TEXT',
        reply_to_id: fresh.id,
        text: 'В мастерской на Ленина',
      });
      expect(emu.apiCalls('POST', '/v1.0/me/threads_publish')).toHaveLength(1);
      const reply = (await itemsOf(id)).find((i) => i.id === replyId)!;
      expect(reply.delivery).toBe('sent');
      expect(emu.media.get(reply.externalId!)?.repliedToId).toBe(fresh.id);

      // Our reply comes back in the next round as our own: still one item.
      await ticker.tick();
      const ours = (await itemsOf(id)).filter((i) => i.externalId === reply.externalId);
      expect(ours).toHaveLength(1);

      for (const [action, hidden] of [
        ['hide', true],
        ['unhide', false],
      ] as const) {
        const res = await inject('POST', `/v1/items/${anna.id}/${action}`);
        expect(res.statusCode, res.body).toBe(200);
        await drain();
        expect(emu.apiCalls('POST', `/v1.0/${fresh.id}/manage_reply`).at(-1)!.params.hide).toBe(
          String(hidden),
        );
        expect(emu.media.get(fresh.id)?.hidden).toBe(hidden);
      }
    } finally {
      await manager.stop();
    }
  });

  it('restart: the cursor is kept, nothing is missed or repeated; a 429 on a poll waits its Retry-After', async () => {
    const { profile, post, id } = await connect('restart_profile');
    const same = new Date(Date.now() + 1_000);
    const a = emu.addMedia({ owner: profile, replyTo: post.id, username: 'a', text: 'a', at: same });
    const b = emu.addMedia({ owner: profile, replyTo: post.id, username: 'b', text: 'b', at: same });
    const t1 = new Ticker();
    const first = poller(t1);
    await first.scan();
    await t1.untilWaits(1);
    await first.stop();
    const cursor = (await row(id)).pollCursor;
    expect(JSON.parse(cursor!).ids.sort()).toEqual([a.id, b.id].sort());

    // While no node polls: one more at the same instant, and 150 replies (two conversation pages).
    const c = emu.addMedia({ owner: profile, replyTo: post.id, username: 'c', text: 'c', at: same });
    for (let i = 0; i < 150; i += 1)
      emu.addMedia({
        owner: profile,
        replyTo: post.id,
        username: `u${i}`,
        text: `bulk ${i}`,
        at: new Date(Date.now() + 3_000 + i * 1000),
      });

    const t2 = new Ticker();
    const second = poller(t2, 'another-threads-node');
    emu.failNext(429, { retryAfter: 42 });
    await second.scan();
    await t2.untilWaits(1);
    expect(t2.waits[0]).toBe(42_000);
    await t2.tick();
    // A crash before the cursor was saved: the same round again stores nothing twice.
    await db().update(objects).set({ pollCursor: cursor }).where(eq(objects.id, id));
    await t2.tick();
    await second.stop();
    expect((await row(id)).error).toBeNull();

    const ids = (await itemsOf(id)).map((i) => i.externalId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const expected of [a, b, c]) expect(ids).toContain(expected.id);
    expect((await itemsOf(id)).filter((i) => i.text.startsWith('bulk '))).toHaveLength(150);
  });

  it('a revoked token becomes the account error and polling stops', async () => {
    const { profile, id } = await connect('revoked_profile');
    emu.revoke(profile.id);
    const ticker = new Ticker();
    const manager = poller(ticker);
    try {
      await manager.scan();
      await manager.idle();
      const stored = await row(id);
      expect(stored.error).toContain('failure.accessRevoked');
      expect(stored.pollLeaseNode).toBe('paused');
      const errors = await inject('GET', '/v1/errors');
      expect(errors.json().items.find((e: { id: number }) => e.id === id)?.error).toContain(
        'failure.accessRevoked',
      );
    } finally {
      await manager.stop();
    }
  });

  it('a token close to expiry is refreshed and the new one stored', async () => {
    const { id } = await connect('expiring_profile');
    const before = openCredentials(t.deps.sealer, await row(id));
    const soon = String(Date.now() + 86_400_000);
    await db()
      .update(objects)
      .set({ credentials: sealCredentials(t.deps.sealer, { ...before, expires_at: soon }) })
      .where(eq(objects.id, id));
    const ticker = new Ticker();
    const manager = poller(ticker);
    try {
      await manager.scan();
      await ticker.untilWaits(1);
    } finally {
      await manager.stop();
    }
    expect(emu.apiCalls('GET', '/refresh_access_token').at(-1)!.params).toMatchObject({
      grant_type: 'th_refresh_token',
      access_token: before.access_token,
    });
    const after = openCredentials(t.deps.sealer, await row(id));
    expect(after.access_token).not.toBe(before.access_token);
    expect(Number(after.expires_at)).toBeGreaterThan(Date.now() + 50 * 86_400_000);
    expect(after.username).toBe('expiring_profile');
    expect((await row(id)).error).toBeNull();
  });

  it('a refused consent is a translated error', async () => {
    emu.consenting = null;
    const back = await popup();
    expect(back.error).toBe('access_denied');
    const res = await finish(back);
    expect(res.statusCode).toBe(400);
    expect(res.json().error_type).toBe('access_denied');
  });
});
