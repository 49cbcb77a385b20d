import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TwitterEmulator } from '../../../emulators/twitter/emulator';
import { ProviderTestbed, Ticker, until } from '../../../test/providers/testbed';
import { chats, items, messages, objects } from '../../db/schema';
import { openCredentials, sealCredentials } from '../context';
import { pkceChallenge } from './client';
import { pace, planOf } from './polling';

// X API v2 (PROVIDERS §7f) against its emulator on 127.0.0.1: the OAuth 2.0 popup with PKCE (GET
// v1/twitter/auth/start → consent → POST v1/twitter/auth), mentions polled with since_id by the polling
// manager (the cursor kept, a redelivery after a lost cursor stored once), reply / hide / like through the
// outbox, 429 with x-rate-limit-reset then delivered, DMs on a plan that has them, the tier on the account,
// and a revoked token shown on the account.

let emu: TwitterEmulator;
const bed = new ProviderTestbed({
  provider: 'twitter',
  env: () => ({
    TWITTER_API_URL: emu.url,
    TWITTER_OAUTH_URL: `${emu.url}/i/oauth2/authorize`,
    TWITTER_CLIENT_ID: emu.app.clientId,
    TWITTER_CLIENT_SECRET: emu.app.clientSecret,
  }),
});

beforeAll(async () => {
  emu = await TwitterEmulator.start();
  bed.onClose(() => emu.close());
  await bed.start();
});
afterAll(() => bed.close());

/** The popup, with the authorization page it opened (PKCE parameters). */
async function popup() {
  let page!: URL;
  const back = await bed.popup((url) => {
    page = url;
  });
  return { page, back };
}

async function connect(username: string) {
  const brand = emu.addUser(username, `Бренд ${username}`);
  const customer = emu.addUser(`${username}_fan`, 'Анна');
  const own = emu.post(brand, 'Наша новая коллекция');
  const old = emu.post(customer, 'Давний вопрос', { replyTo: own.id });
  emu.consenting = brand;
  const { back } = await popup();
  const res = await bed.finish({ code: back.code!, state: back.state! });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().object.id as number;
  return { brand, customer, own, old, id, answer: res.json() };
}

const post = (url: string, payload?: Record<string, unknown>) => bed.inject('POST', url, payload);

describe('X (Twitter)', () => {
  it('connects by OAuth 2.0 with PKCE, keeps the tokens sealed, imports the recent mentions', async () => {
    emu.tier = 'basic';
    const c = await connect('shop_one');
    expect(c.answer).toMatchObject({ status: 'ok', source: 'twitter', object: { name: 'Бренд shop_one' } });
    const stored = await bed.row(c.id);
    expect(stored.externalId).toBe(c.brand.id);
    expect(stored.updatesMode).toBe('polling');
    expect(openCredentials(bed.t.deps.sealer, stored)).toMatchObject({
      access_token: c.brand.accessToken,
      user_id: c.brand.id,
    });
    expect(JSON.stringify(c.answer)).not.toContain(c.brand.accessToken);
    expect(await bed.item(c.id, c.old.id)).toMatchObject({ text: 'Давний вопрос', kind: 'comment' });
    // The verifier sent to the token endpoint is the one whose S256 challenge the consent page got.
    const authorize = emu.callsTo('GET', '/i/oauth2/authorize').at(-1)!;
    const exchange = emu.callsTo('POST', '/2/oauth2/token').at(-1)!;
    expect(authorize.query.code_challenge_method).toBe('S256');
    expect(pkceChallenge(String(exchange.body?.code_verifier))).toBe(authorize.query.code_challenge);
    expect(exchange.body?.grant_type).toBe('authorization_code');

    // A code with another attempt's state has the wrong verifier: X refuses it, nothing is connected.
    emu.consenting = c.brand;
    const first = await popup();
    const second = await popup();
    const mixed = await bed.finish({ code: first.back.code!, state: second.back.state! });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.body).not.toContain(c.brand.accessToken);
  });

  it('polls mentions with since_id, keeps the cursor, stores a redelivery once; shows the tier', async () => {
    emu.tier = 'basic';
    const c = await connect('shop_two');
    const ticker = new Ticker();
    const manager = bed.poller(ticker);
    const fresh = emu.post(c.customer, '@shop_two есть размер M?', { mention: c.brand });
    try {
      await manager.scan();
      expect(await until(() => bed.item(c.id, fresh.id))).toMatchObject({
        text: '@shop_two есть размер M?',
        kind: 'mention',
      });
      const after = await until(async () => {
        const r = await bed.row(c.id);
        return r.pollCursor ? r : null;
      });
      expect(JSON.parse(after.pollCursor!).m).toBe(fresh.id);
      // Basic: mentions in a 10-a-window, no DMs (403 client-not-enrolled) — on the account.
      expect(after.settings).toMatchObject({
        api_plan: { tier: 'basic', mentions: true, dms: false, per_15min: 10 },
      });
      const shown = await bed.t.app.inject({ url: `/v1/objects/${c.id}`, headers: bed.headers });
      expect(JSON.stringify(shown.json())).toContain('"tier":"basic"');
      // The pace spreads the window's reads left over what is left of it: never under the interval.
      await ticker.untilWaits(1);
      expect(Math.min(...ticker.waits)).toBeGreaterThanOrEqual(
        bed.t.deps.config.TWITTER_POLL_INTERVAL_S * 500,
      );
    } finally {
      await manager.stop();
    }
    // A restart that lost the cursor (a crash before it was saved): X sends the mention again.
    await bed.db().update(objects).set({ pollCursor: null }).where(eq(objects.id, c.id));
    const reply = emu.post(c.customer, 'И цвет?', { replyTo: c.own.id });
    const ticker2 = new Ticker();
    const restarted = bed.poller(ticker2);
    try {
      await restarted.scan();
      expect(await until(() => bed.item(c.id, reply.id))).toMatchObject({ kind: 'comment', text: 'И цвет?' });
      const copies = await bed
        .db()
        .select()
        .from(items)
        .where(and(eq(items.objectId, c.id), eq(items.externalId, fresh.id)));
      expect(copies).toHaveLength(1);
      // The next round asks only for what is newer.
      await until(async () => JSON.parse((await bed.row(c.id)).pollCursor ?? '{}').m === reply.id);
      await ticker2.tick();
      const asked = await until(async () =>
        emu.callsTo('GET', `/2/users/${c.brand.id}/mentions`).find((x) => x.query.since_id === reply.id),
      );
      expect(asked.query.since_id).toBe(reply.id);
    } finally {
      await restarted.stop();
    }
  });

  it('replies (429 with x-rate-limit-reset, then delivered), hides, likes; our reply is deleted, customers’ posts are not', async () => {
    emu.tier = 'basic';
    const c = await connect('shop_three');
    const item = (await bed.item(c.id, c.old.id))!;
    emu.rateLimitNext(7, '/2/tweets');
    const replied = await post(`/v1/items/${item.id}/reply`, { text: 'Да, есть' });
    expect(replied.statusCode, replied.body).toBe(200);
    const replyId = replied.json().reply.id as number;
    await bed.drain();
    let reply = (await bed.db().select().from(items).where(eq(items.id, replyId)))[0]!;
    expect(reply.delivery).not.toBe('sent');
    await bed.drain(8_000);
    reply = (await bed.db().select().from(items).where(eq(items.id, replyId)))[0]!;
    expect(reply.delivery).toBe('sent');
    const posts = emu.callsTo('POST', '/2/tweets');
    expect(posts.at(-1)?.body).toEqual({ text: 'Да, есть', reply: { in_reply_to_tweet_id: c.old.id } });
    const onNetwork = [...emu.tweets.values()].find(
      (x) => x.replyTo === c.old.id && x.author_id === c.brand.id,
    );
    expect(onNetwork?.text).toBe('Да, есть');
    expect(reply.externalId).toBe(onNetwork!.id);

    expect((await post(`/v1/items/${item.id}/hide`)).statusCode).toBe(200);
    await bed.drain();
    expect(emu.tweets.get(c.old.id)!.hidden).toBe(true);
    expect((await post(`/v1/items/${item.id}/unhide`)).statusCode).toBe(200);
    await bed.drain();
    expect(emu.tweets.get(c.old.id)!.hidden).toBe(false);
    expect((await post(`/v1/items/${item.id}/like`)).statusCode).toBe(200);
    await bed.drain();
    expect(emu.tweets.get(c.old.id)!.likedBy.has(c.brand.id)).toBe(true);
    const refused = await post(`/v1/items/${item.id}/delete`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error_type).toBe('not_supported');
    expect(emu.tweets.has(c.old.id)).toBe(true);
    // Our own reply is deleted on X (DELETE /2/tweets/:id).
    expect((await post(`/v1/items/${replyId}/delete`)).statusCode).toBe(200);
    await bed.drain();
    expect(emu.callsTo('DELETE', `/2/tweets/${reply.externalId}`)).toHaveLength(1);
    expect(emu.tweets.has(reply.externalId!)).toBe(false);
  });

  it('a plan with DMs: messages come in as chats, the answer goes back; the tier says pro', async () => {
    emu.tier = 'pro';
    const c = await connect('shop_four');
    const dm = emu.dm(c.customer, c.brand, 'Здравствуйте, где мой заказ?');
    const ticker = new Ticker();
    const manager = bed.poller(ticker);
    try {
      await manager.scan();
      const chat = await until(
        async () =>
          (
            await bed
              .db()
              .select()
              .from(chats)
              .where(and(eq(chats.objectId, c.id), eq(chats.externalId, dm.dm_conversation_id)))
          )[0],
      );
      expect(chat.objectId).toBe(c.id);
      await until(async () => (await bed.row(c.id)).settings.api_plan);
    } finally {
      await manager.stop();
    }
    const [message] = await bed.db().select().from(messages).where(eq(messages.externalId, dm.id));
    expect(message).toMatchObject({ text: 'Здравствуйте, где мой заказ?', isOwn: false });
    expect((await bed.row(c.id)).settings).toMatchObject({
      api_plan: { tier: 'pro', dms: true, per_15min: 300 },
    });
    const chatRow = (
      await bed.db().select().from(chats).where(eq(chats.externalId, dm.dm_conversation_id))
    )[0]!;
    const answer = await post(`/v1/chats/${chatRow.id}/messages`, { text: 'Заказ уже в пути' });
    expect(answer.statusCode, answer.body).toBe(200);
    await bed.drain();
    expect(emu.callsTo('POST', `/2/dm_conversations/${dm.dm_conversation_id}/messages`).at(-1)?.body).toEqual(
      {
        text: 'Заказ уже в пути',
      },
    );
    expect(emu.dms.at(-1)).toMatchObject({ sender_id: c.brand.id, text: 'Заказ уже в пути' });
  });

  it('a 429 on mentions waits for x-rate-limit-reset; the pace spreads the reads left over the window', async () => {
    emu.tier = 'basic';
    const c = await connect('shop_six');
    emu.rateLimitNext(7, `/2/users/${c.brand.id}/mentions`);
    const ticker = new Ticker();
    const manager = bed.poller(ticker);
    try {
      await manager.scan();
      await until(async () => ticker.waits.some((w) => w >= 6_000 && w <= 7_000));
      expect((await bed.row(c.id)).error).toBeNull();
    } finally {
      await manager.stop();
    }
    // A round pages through what is new since the cursor (120 mentions: two pages of 100).
    await bed
      .db()
      .update(objects)
      .set({ pollCursor: JSON.stringify({ m: c.old.id }) })
      .where(eq(objects.id, c.id));
    const burst = Array.from({ length: 120 }, (_, i) =>
      emu.post(c.customer, `@shop_six #${i}`, { mention: c.brand }),
    );
    const ticker2 = new Ticker();
    const again = bed.poller(ticker2);
    try {
      await again.scan();
      await until(() => bed.item(c.id, burst[0]!.id));
      await until(() => bed.item(c.id, burst.at(-1)!.id));
    } finally {
      await again.stop();
    }
    const pages = emu
      .callsTo('GET', `/2/users/${c.brand.id}/mentions`)
      .filter((x) => x.query.pagination_token);
    expect(pages.length).toBeGreaterThan(0);
    const now = new Date(1_800_000_000_000);
    const at = (s: number) => 1_800_000_000 + s;
    expect(pace({ limit: 10, remaining: 0, reset: at(600) }, 60, now)).toBe(600);
    expect(pace({ limit: 10, remaining: 4, reset: at(600) }, 60, now)).toBe(150);
    expect(pace({ limit: 300, remaining: 290, reset: at(600) }, 60, now)).toBe(60);
    expect(pace(null, 60, now)).toBe(60);
    expect(planOf(false, false, null)).toEqual({
      tier: 'free',
      mentions: false,
      dms: false,
      per_15min: null,
    });
    expect(planOf(true, true, { limit: 300, remaining: 1, reset: 0 }).tier).toBe('pro');
  });

  it('an expired access token is refreshed; the rotated refresh token is stored with the account', async () => {
    emu.tier = 'basic';
    const c = await connect('shop_seven');
    const before = openCredentials(bed.t.deps.sealer, await bed.row(c.id));
    const expired = { ...before, expires_at: String(Date.now() - 3_600_000) };
    await bed
      .db()
      .update(objects)
      .set({ credentials: sealCredentials(bed.t.deps.sealer, expired) })
      .where(eq(objects.id, c.id));
    const item = (await bed.item(c.id, c.old.id))!;
    const liked = await post(`/v1/items/${item.id}/like`);
    expect(liked.statusCode, liked.body).toBe(200);
    await bed.drain();
    expect(emu.tweets.get(c.old.id)!.likedBy.has(c.brand.id)).toBe(true);
    const after = openCredentials(bed.t.deps.sealer, await bed.row(c.id));
    expect(after.refresh_token).toBe(c.brand.refreshToken);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.access_token).toBe(c.brand.accessToken);
    expect(Number(after.expires_at)).toBeGreaterThan(Date.now());
    const grants = emu.callsTo('POST', '/2/oauth2/token').map((x) => x.body?.grant_type);
    expect(grants).toContain('refresh_token');
  });

  it('on the Free tier (403 client-not-enrolled) the account says what the plan lacks, without an error', async () => {
    emu.tier = 'free';
    const c = await connect('shop_eight');
    const ticker = new Ticker();
    const manager = bed.poller(ticker);
    try {
      await manager.scan();
      const plan = await until(async () => (await bed.row(c.id)).settings.api_plan);
      expect(plan).toEqual({ tier: 'free', mentions: false, dms: false, per_15min: null });
      // Nothing the plan allows to read: the next round is an hour away.
      await until(async () => ticker.waits.includes(3_600_000));
    } finally {
      await manager.stop();
    }
    expect((await bed.row(c.id)).error).toBeNull();
    emu.tier = 'basic';
  });

  it('a revoked token stops polling and shows the error on the account', async () => {
    emu.tier = 'basic';
    const c = await connect('shop_five');
    c.brand.revoked = true;
    const ticker = new Ticker();
    const manager = bed.poller(ticker);
    try {
      await manager.scan();
      await until(async () => (await bed.row(c.id)).error);
    } finally {
      await manager.stop();
    }
    const after = await bed.row(c.id);
    expect(after.error).toContain('failure.reconnect');
    const listed = await bed.t.app.inject({ url: `/v1/objects/${c.id}`, headers: bed.headers });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().error).toBe(after.error);
  });
});
