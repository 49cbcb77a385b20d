import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { objects } from '../../db/schema';
import { buildWorkspace } from '../../modules/inbox/actions/test-helpers';
import { openCredentials } from '../context';
import { quotaDay } from './client';
import { Ticker, YouTubeTestbed } from './testing';

// Issue 19, YouTube (PROVIDERS §5): a channel connects through Google OAuth, its comments are polled
// by the one polling manager (cursor kept across restarts, paced by the day's quota), replies and
// moderation go through the outbox, and a revoked grant becomes the account's error.

const bed = new YouTubeTestbed();
// The day's quota is counted over every YouTube account of the database (one API project). With
// DATABASE_URL the database outlives a run, and no other test file spends YouTube units: forget what
// earlier runs spent, so the base interval below is the project's real starting point.
beforeAll(async () => {
  await bed.start();
  await bed.db().update(objects).set({ apiQuota: null }).where(eq(objects.provider, 'youtube'));
});
afterAll(() => bed.close());
// Each test gets its own space, so its polling manager sees only its own channels.
beforeEach(async () => {
  const admin = await buildWorkspace(bed.t);
  bed.headers = admin.headers;
  bed.spaceId = admin.space.id;
});

describe('YouTube', () => {
  it('connect → import → poll → reply (429 once) → delivered → moderation → own reply deleted', async () => {
    const { channel, id, object } = await bed.connectWithHistory();
    expect(object).toMatchObject({ provider: 'youtube', name: 'Канал мастерской', imported: 1 });
    const row = await bed.row(id);
    expect(row.updatesMode).toBe('polling');
    expect(row.externalId).toBe(channel.id);
    const stored = openCredentials(bed.t.deps.sealer, row);
    expect(Object.keys(stored).sort()).toEqual(['channel_id', 'refresh_token', 'webhook_secret']);
    const tokenCalls = bed.emu.calls.filter((c) => c.path === '/token').map((c) => c.body?.grant_type);
    expect(tokenCalls).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));

    // A viewer comments after the connect: the manager's first round brings it in.
    const viewer = { channelId: 'UCviewerAnna', name: '@anna' };
    const fresh = bed.emu.network.addComment({ channelId: channel.id, author: viewer, text: 'Где купить?' });
    const ticker = new Ticker();
    const poller = bed.poller(ticker);
    try {
      await poller.scan();
      await ticker.untilWaits(1);
      // The next round waits the channel's interval (60 s), jitter fixed at its middle.
      expect(ticker.waits[0]).toBe(60_000);
      const item = (await bed.item(id, fresh.id))!;
      expect(item).toMatchObject({ text: 'Где купить?', isOwn: false, kind: 'comment' });

      // The reply: YouTube asks to wait once, then takes it.
      bed.emu.failNext(429, { retryAfter: 7 });
      const replied = await bed.inject('POST', `/v1/items/${item.id}/reply`, { text: 'В мастерской' });
      expect(replied.statusCode, replied.body).toBe(200);
      await bed.drain();
      const replyId = replied.json().reply.id as number;
      const [held] = await bed.itemsOf(id).then((r) => r.filter((i) => i.id === replyId));
      expect(held?.delivery).not.toBe('sent');
      await bed.drain(8_000);
      const inserts = bed.emu.apiCalls('POST', '/youtube/v3/comments');
      expect(inserts).toHaveLength(2);
      expect(inserts.at(-1)!.body).toEqual({ snippet: { parentId: fresh.id, textOriginal: 'В мастерской' } });
      const reply = (await bed.itemsOf(id)).find((i) => i.id === replyId)!;
      expect(reply.delivery).toBe('sent');
      expect(reply.externalId).toMatch(new RegExp(`^${fresh.id}\\.`));

      // The reply comes back in the next round as the channel's own comment: still one item.
      await ticker.tick();
      expect((await bed.itemsOf(id)).filter((i) => i.externalId === reply.externalId)).toHaveLength(1);

      // Moderation: hold, publish, reject the viewer's comment.
      for (const [action, status] of [
        ['hide', 'heldForReview'],
        ['unhide', 'published'],
        ['delete', 'rejected'],
      ] as const) {
        const res = await bed.inject('POST', `/v1/items/${item.id}/${action}`);
        expect(res.statusCode, res.body).toBe(200);
        await bed.drain();
        expect(
          bed.emu.apiCalls('POST', '/youtube/v3/comments/setModerationStatus').at(-1)!.query,
        ).toMatchObject({
          id: fresh.id,
          moderationStatus: status,
        });
        expect(bed.emu.network.comments.get(fresh.id)?.moderationStatus).toBe(status);
      }
      // Our own reply is deleted (comments.delete: only its author may).
      const removed = await bed.inject('POST', `/v1/items/${replyId}/delete`);
      expect(removed.statusCode, removed.body).toBe(200);
      await bed.drain();
      expect(bed.emu.apiCalls('DELETE', '/youtube/v3/comments').at(-1)!.query.id).toBe(reply.externalId);
      expect(bed.emu.network.comments.has(reply.externalId!)).toBe(false);

      // The quota: polls (1 unit a page) and writes (50 each) are counted on the account and shown.
      const shown = await bed.inject('GET', `/v1/objects/${id}`);
      const quota = shown.json().api_quota;
      expect(quota.day).toBe(quotaDay(new Date()));
      expect(quota.limit).toBe(10_000);
      // 2 reply attempts + 3 moderation calls + 1 delete = 6 writes, and at least 2 poll pages.
      expect(quota.used).toBeGreaterThanOrEqual(6 * 50 + 2);
    } finally {
      await poller.stop();
    }
  });

  it('restart: the cursor is kept, nothing is missed or repeated', async () => {
    const { channel, id } = await bed.connect('Канал для перезапуска');
    const net = bed.emu.network;
    const same = new Date(Date.now() + 1_000);
    const a = net.addComment({ channelId: channel.id, text: 'a', at: same });
    const b = net.addComment({ channelId: channel.id, text: 'b', at: same });
    const t1 = new Ticker();
    const first = bed.poller(t1);
    await first.scan();
    await t1.untilWaits(1);
    await first.stop();
    const cursor = (await bed.row(id)).pollCursor;
    expect(JSON.parse(cursor!)).toMatchObject({ at: same.toISOString() });

    // While no node polls: one more at the same instant, a reply to an old thread, and 120 threads
    // (more than one page of 100).
    const c = net.addComment({ channelId: channel.id, text: 'c', at: same });
    const r = net.addComment({
      channelId: channel.id,
      parentId: a.id,
      text: 'reply to a',
      at: new Date(Date.now() + 2_000),
    });
    for (let i = 0; i < 120; i += 1)
      net.addComment({ channelId: channel.id, text: `bulk ${i}`, at: new Date(Date.now() + 3_000 + i) });

    const t2 = new Ticker();
    const second = bed.poller(t2, 'another-node');
    await second.scan();
    await t2.untilWaits(1);
    // A crash before the cursor was saved: the same round again finds nothing new to store.
    await bed.db().update(objects).set({ pollCursor: cursor }).where(eq(objects.id, id));
    await t2.tick();
    await second.stop();

    const stored = await bed.itemsOf(id);
    const ids = stored.map((i) => i.externalId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const expected of [a, b, c, r]) expect(ids).toContain(expected.id);
    expect(stored.filter((i) => i.text.startsWith('bulk '))).toHaveLength(120);
    const replyRow = stored.find((i) => i.externalId === r.id)!;
    expect(replyRow.parentId).toBe(stored.find((i) => i.externalId === a.id)!.id);
  });

  it('a revoked grant becomes the account error and polling stops', async () => {
    const { channel, id } = await bed.connect('Канал с отозванным доступом');
    bed.emu.network.revoke(channel.id);
    const ticker = new Ticker();
    const poller = bed.poller(ticker);
    try {
      await poller.scan();
      await poller.idle();
      const row = await bed.row(id);
      expect(row.error).toContain('failure.accessRevoked');
      expect(row.pollLeaseNode).toBe('paused');
      const errors = await bed.inject('GET', '/v1/errors');
      expect(errors.statusCode, errors.body).toBe(200);
      expect(errors.json().items.find((e: { id: number }) => e.id === id)?.error).toContain(
        'failure.accessRevoked',
      );
    } finally {
      await poller.stop();
    }
  });

  it('a spent or refused consent is a translated error', async () => {
    bed.emu.network.consenting = null;
    const back = await bed.popup();
    expect(back.error).toBe('access_denied');
    const res = await bed.finish(back);
    expect(res.statusCode).toBe(400);
    expect(res.json().error_type).toBe('access_denied');
  });

  it('access tokens are taken again before they expire', async () => {
    bed.emu.network.accessTokenTtlS = 300; // within the 5-minute margin: each call refreshes first
    try {
      const { channel } = await bed.connect('Канал с короткими токенами');
      const before = bed.emu.calls.length;
      bed.emu.network.addComment({ channelId: channel.id, text: 'x' });
      const ticker = new Ticker();
      const poller = bed.poller(ticker);
      await poller.scan();
      await ticker.untilWaits(1);
      await poller.stop();
      const later = bed.emu.calls.slice(before);
      // Every API call went with a token taken just before it, none was refused first.
      const api = later.filter((c) => c.path.startsWith('/youtube/v3'));
      expect(api.length).toBeGreaterThan(0);
      expect(later.filter((c) => c.path === '/token').length).toBe(api.length);
    } finally {
      bed.emu.network.accessTokenTtlS = 3_600;
    }
  });

  it('polling slows as the quota is used, stops before it runs out, and waits out quotaExceeded', async () => {
    const { channel, id } = await bed.connect('Канал на квоте');
    const day = quotaDay(new Date());
    const ticker = new Ticker();
    const poller = bed.poller(ticker);
    try {
      // Plenty left: the base interval.
      await poller.scan();
      await ticker.untilWaits(1);
      expect(ticker.waits[0]).toBe(60_000);
      // Other channels of the project spent most of the day's units: waits grow.
      const other = await bed.connect('Соседний канал');
      await bed
        .db()
        .update(objects)
        .set({ apiQuota: { day, used: 8_000, limit: 10_000 } })
        .where(eq(objects.id, other.id));
      await ticker.tick();
      const slowed = ticker.waits.at(-1)!;
      expect(slowed).toBeGreaterThan(60_000);
      // Only the reserve for replies is left: no more polls until the quota resets.
      await bed
        .db()
        .update(objects)
        .set({ apiQuota: { day, used: 9_000, limit: 10_000 } })
        .where(eq(objects.id, other.id));
      await ticker.tick();
      expect(ticker.waits.at(-1)!).toBeGreaterThan(slowed);
      // YouTube itself refuses with quotaExceeded: the wait lasts until its day turns.
      bed.emu.network.dailyLimit = bed.emu.network.unitsUsed;
      await ticker.tick();
      expect(ticker.waits.at(-1)!).toBeGreaterThan(60_000);
      expect((await bed.row(id)).error).toBeNull();
      bed.emu.network.addComment({ channelId: channel.id, text: 'x' });
    } finally {
      bed.emu.network.dailyLimit = 10_000;
      await poller.stop();
      // The neighbour's spent units would slow every later YouTube test on a shared database.
      await bed.db().update(objects).set({ apiQuota: null }).where(eq(objects.provider, 'youtube'));
    }
  });
});
