import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Ticker, YouTubeTestbed } from '../../../test/providers/youtube';
import { objects } from '../../db/schema';
import { secondsToDayChange } from '../../jobs/poll-quota';
import { openCredentials } from '../context';
import { quotaDay } from './client';

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
beforeEach(() => bed.newSpace());

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
    await bed.whilePolling(async (ticker) => {
      await ticker.untilWaits(1);
      // The next round waits the channel's interval (60 s), jitter fixed at its middle.
      expect(ticker.waits[0]).toBe(60_000);
      const item = (await bed.item(id, fresh.id))!;
      expect(item).toMatchObject({ text: 'Где купить?', isOwn: false, kind: 'comment' });

      // The reply: YouTube asks to wait once, then takes it.
      bed.emu.failNext(429, { retryAfter: 7 });
      const reply = await bed.replyThrough429(item.id, 'В мастерской', 8_000);
      const inserts = bed.emu.apiCalls('POST', '/youtube/v3/comments');
      expect(inserts).toHaveLength(2);
      expect(inserts.at(-1)!.body).toEqual({ snippet: { parentId: fresh.id, textOriginal: 'В мастерской' } });
      expect(reply.delivery).toBe('sent');
      expect(reply.externalId).toMatch(new RegExp(`^${fresh.id}\\.`));

      // The reply comes back in the next round as the channel's own comment: still one item.
      await ticker.tick();
      expect(await bed.copiesOf(id, reply.externalId!)).toHaveLength(1);

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
      const removed = await bed.inject('POST', `/v1/items/${reply.id}/delete`);
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
    });
  });

  it('comments YouTube holds back are polled and stored hidden; publishing one makes it ordinary', async () => {
    const net = bed.emu.network;
    const channel = net.addChannel('Канал с модерацией');
    // Before the connect: one comment held for review, which the import brings in hidden.
    const early = net.addComment({
      channelId: channel.id,
      text: 'Ждёт проверки',
      moderationStatus: 'heldForReview',
      at: new Date(Date.now() - 3_600_000),
    });
    net.consenting = channel;
    const connected = await bed.finish(await bed.popup());
    expect(connected.statusCode, connected.body).toBe(200);
    const id = connected.json().object.id as number;
    expect(await bed.item(id, early.id)).toMatchObject({ isHidden: true, status: 'new' });

    // After it: a published comment, a reply YouTube thinks is spam under it, and a held comment.
    const open = net.addComment({ channelId: channel.id, text: 'Обычный' });
    const spam = net.addComment({
      channelId: channel.id,
      parentId: open.id,
      text: 'Купите подписчиков',
      moderationStatus: 'likelySpam',
    });
    const held = net.addComment({
      channelId: channel.id,
      text: 'Со ссылкой',
      moderationStatus: 'heldForReview',
    });
    const before = bed.emu.apiCalls('GET', '/youtube/v3/commentThreads').length;
    await bed.whilePolling(async (ticker) => {
      await ticker.untilWaits(1);
      // One page of each list: published, heldForReview, likelySpam (3 units, counted on the account).
      const lists = bed.emu.apiCalls('GET', '/youtube/v3/commentThreads').slice(before);
      expect(lists.map((c) => c.query.moderationStatus)).toEqual([undefined, 'heldForReview', 'likelySpam']);
      expect(await bed.item(id, open.id)).toMatchObject({ isHidden: false });
      const spamRow = (await bed.item(id, spam.id))!;
      expect(spamRow).toMatchObject({ isHidden: true, text: 'Купите подписчиков' });
      expect(spamRow.parentId).toBe((await bed.item(id, open.id))!.id);
      const heldRow = (await bed.item(id, held.id))!;
      expect(heldRow.isHidden).toBe(true);
      const shown = await bed.inject('GET', `/v1/items/${heldRow.id}`);
      expect(shown.statusCode, shown.body).toBe(200);
      expect(shown.json().item.is_hidden).toBe(true);

      // The operator publishes it: YouTube publishes it, and it is an ordinary comment here.
      const res = await bed.inject('POST', `/v1/items/${heldRow.id}/unhide`);
      expect(res.statusCode, res.body).toBe(200);
      await bed.drain();
      expect(
        bed.emu.apiCalls('POST', '/youtube/v3/comments/setModerationStatus').at(-1)!.query,
      ).toMatchObject({
        id: held.id,
        moderationStatus: 'published',
      });
      expect(net.comments.get(held.id)?.moderationStatus).toBe('published');
      expect(await bed.item(id, held.id)).toMatchObject({ isHidden: false });

      // The next rounds find it among the published comments: still one item, still shown.
      await ticker.tick();
      const rows = (await bed.itemsOf(id)).filter((i) => i.externalId === held.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.isHidden).toBe(false);
      expect((await bed.itemsOf(id)).map((i) => i.externalId).sort()).toEqual(
        [early.id, open.id, spam.id, held.id].sort(),
      );
      const cursor = JSON.parse((await bed.row(id)).pollCursor!);
      expect(cursor.held.heldForReview.ids).toEqual([held.id]);
      expect(cursor.held.likelySpam.ids).toEqual([spam.id]);
    });
  });

  it('the emulator filters threads by moderationStatus as the Data API documents', async () => {
    const net = bed.emu.network;
    const channel = net.addChannel('Канал фильтров');
    const top = net.addComment({ channelId: channel.id, text: 'опубликован' });
    const reply = net.addComment({
      channelId: channel.id,
      parentId: top.id,
      text: 'ждёт',
      moderationStatus: 'heldForReview',
    });
    const spamTop = net.addComment({ channelId: channel.id, text: 'спам', moderationStatus: 'likelySpam' });
    expect(net.threadsOf(channel.id, 'published').map((c) => c.id)).toEqual([top.id]);
    // A held reply lists its thread among the held ones; the published thread does not show it.
    expect(net.threadsOf(channel.id, 'heldForReview').map((c) => c.id)).toEqual([top.id]);
    expect(net.repliesOf(top.id, 'published')).toEqual([]);
    expect(net.repliesOf(top.id, 'heldForReview').map((c) => c.id)).toEqual([reply.id]);
    expect(net.threadsOf(channel.id, 'likelySpam').map((c) => c.id)).toEqual([spamTop.id]);
    net.consenting = channel;
    const connected = await bed.finish(await bed.popup());
    expect(connected.statusCode, connected.body).toBe(200);
    const token = bed.emu.calls.filter((c) => c.path === '/youtube/v3/channels').at(-1)!.authorization!;
    const list = (query: string) =>
      fetch(
        `${bed.emu.env.YOUTUBE_API_URL}/commentThreads?part=snippet&allThreadsRelatedToChannelId=${channel.id}&${query}`,
        {
          headers: { authorization: token },
        },
      );
    expect((await list('moderationStatus=rejected')).status).toBe(400);
    expect((await list(`moderationStatus=likelySpam&id=${spamTop.id}`)).status).toBe(400);
    const spamList = (await (await list('moderationStatus=likelySpam')).json()) as {
      items: Array<{ id: string; snippet: { topLevelComment: { snippet: { moderationStatus: string } } } }>;
    };
    expect(spamList.items.map((t) => [t.id, t.snippet.topLevelComment.snippet.moderationStatus])).toEqual([
      [spamTop.id, 'likelySpam'],
    ]);
  });

  it('restart: the cursor is kept, nothing is missed or repeated', async () => {
    const { channel, id } = await bed.connectChannel('Канал для перезапуска');
    const net = bed.emu.network;
    const same = new Date(Date.now() + 1_000);
    const a = net.addComment({ channelId: channel.id, text: 'a', at: same });
    const b = net.addComment({ channelId: channel.id, text: 'b', at: same });
    const cursor = (await bed.pollRound(id)).pollCursor;
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

    await bed.whilePolling(async (ticker) => {
      await ticker.untilWaits(1);
      // A crash before the cursor was saved: the same round again finds nothing new to store.
      await bed.db().update(objects).set({ pollCursor: cursor }).where(eq(objects.id, id));
      await ticker.tick();
    }, 'another-node');

    const stored = await bed.itemsOf(id);
    const ids = stored.map((i) => i.externalId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const expected of [a, b, c, r]) expect(ids).toContain(expected.id);
    expect(stored.filter((i) => i.text.startsWith('bulk '))).toHaveLength(120);
    const replyRow = stored.find((i) => i.externalId === r.id)!;
    expect(replyRow.parentId).toBe(stored.find((i) => i.externalId === a.id)!.id);
  });

  it('a revoked grant becomes the account error and polling stops', async () => {
    const { channel, id } = await bed.connectChannel('Канал с отозванным доступом');
    bed.emu.network.revoke(channel.id);
    const row = await bed.pollUntilIdle(id);
    expect(row.error).toContain('failure.accessRevoked');
    expect(row.pollLeaseNode).toBe('paused');
    expect((await bed.listedError(id))?.error).toContain('failure.accessRevoked');
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
      const { channel } = await bed.connectChannel('Канал с короткими токенами');
      const before = bed.emu.calls.length;
      bed.emu.network.addComment({ channelId: channel.id, text: 'x' });
      await bed.whilePolling((ticker) => ticker.untilWaits(1));
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
    // Earlier tests' channels spent units today, and a round lists three moderation states (3 units):
    // forget them, so this channel starts alone with the day's units.
    await bed.db().update(objects).set({ apiQuota: null }).where(eq(objects.provider, 'youtube'));
    const { channel, id } = await bed.connectChannel('Канал на квоте');
    // The pace spreads what is left to the end of YouTube's day: the poller's clock stands an hour
    // into the next Pacific day, so how late the suite runs does not decide the waits.
    const real = new Date();
    const clock = new Date(real.getTime() + secondsToDayChange(quotaDay, real) * 1000 + 3_600_000);
    const day = quotaDay(clock);
    const ticker = new Ticker();
    const poller = bed.poller(ticker, undefined, () => clock);
    try {
      // Plenty left: the base interval.
      await poller.scan();
      await ticker.untilWaits(1);
      expect(ticker.waits[0]).toBe(60_000);
      // Other channels of the project spent most of the day's units: waits grow.
      const other = await bed.connectChannel('Соседний канал');
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
