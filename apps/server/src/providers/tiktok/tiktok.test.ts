import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildWorker, buildWorkspace } from '../../../test/inbox-actions';
import { items, objects } from '../../db/schema';
import { PollingManager } from '../../jobs/pollers';
import { openCredentials } from '../context';
import { TiktokEmulator } from './emulator';

// TikTok API for Business (PROVIDERS §7g) against its emulator on 127.0.0.1: the OAuth popup
// (GET v1/tiktok/auth/start → consent → POST v1/tiktok/auth), comments polled by the polling manager,
// a reply, hide/unhide and like through the outbox, 429 once then delivered, a comment listed twice
// stored once, and a revoked token shown on the account.

let t: TestApp;
let emu: TiktokEmulator;
let headers: Record<string, string> = {};
let spaceId = 0;
let clock = Date.now();

beforeAll(async () => {
  emu = await TiktokEmulator.start();
  t = await createTestApp({
    TIKTOK_API_URL: emu.url,
    TIKTOK_OAUTH_URL: `${emu.url}/oauth`,
    TIKTOK_CLIENT_ID: emu.app.clientId,
    TIKTOK_CLIENT_SECRET: emu.app.clientSecret,
    POLL_TIMEOUT_S: '0',
  });
  const admin = await buildWorkspace(t);
  headers = admin.headers;
  spaceId = admin.space.id;
});
afterAll(async () => {
  await t.close();
  await emu.close();
});

const db = () => t.deps.database.db;
const redirectUri = () => `${t.deps.config.appUrl}/callback/tiktok`;

async function until<T>(probe: () => Promise<T | undefined | null | false>): Promise<T> {
  for (let i = 0; i < 400; i += 1) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not met in time');
}

/** What the popup does: TikTok's page, and back with what it put in the address. */
async function popup() {
  const start = await t.app.inject({
    url: `/v1/tiktok/auth/start?redirect_uri=${encodeURIComponent(redirectUri())}`,
    headers,
  });
  expect(start.statusCode, start.body).toBe(200);
  const page = new URL(start.json().url as string);
  expect(page.searchParams.get('client_key')).toBe(emu.app.clientId);
  const answer = await fetch(page, { redirect: 'manual' });
  return Object.fromEntries(new URL(answer.headers.get('location')!).searchParams);
}

async function connect(username: string) {
  const account = emu.addAccount(username, `Магазин ${username}`);
  const video = emu.addVideo(account, 'Новая коллекция');
  const old = emu.addComment(video.item_id, { text: 'Давний вопрос', user: 'anna' });
  emu.consenting = account;
  const back = await popup();
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/tiktok/auth',
    headers,
    payload: { code: back.code, state: back.state, redirect_uri: redirectUri() },
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().object.id as number;
  const [row] = await db().select().from(objects).where(eq(objects.id, id));
  return { account, video, old, id, row: row!, answer: res.json() };
}

const itemOf = async (objectId: number, externalId: string) =>
  (
    await db()
      .select()
      .from(items)
      .where(and(eq(items.objectId, objectId), eq(items.externalId, externalId)))
  )[0];

const inject = (method: 'POST', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers, payload });

function drain(advanceMs?: number) {
  clock = advanceMs === undefined ? Math.max(clock, Date.now()) + 1_000 : clock + advanceMs;
  return buildWorker(t, { spaceIds: [spaceId], now: () => new Date(clock) }).drain();
}

describe('TikTok', () => {
  it('connects by OAuth, keeps the tokens sealed, imports the recent comments', async () => {
    const c = await connect('shop_one');
    expect(c.answer).toMatchObject({ status: 'ok', source: 'tiktok', object: { name: 'Магазин shop_one' } });
    expect(c.row.externalId).toBe(c.account.openId);
    expect(c.row.updatesMode).toBe('polling');
    const stored = openCredentials(t.deps.sealer, c.row);
    expect(stored).toMatchObject({ access_token: c.account.accessToken, open_id: c.account.openId });
    expect(JSON.stringify(c.answer)).not.toContain(c.account.accessToken);
    expect(await itemOf(c.id, c.old.comment_id)).toMatchObject({ text: 'Давний вопрос', kind: 'comment' });
    const grants = emu.callsTo('/tt_user/oauth2/token/').map((call) => call.body?.grant_type);
    expect(grants).toContain('authorization_code');
    // The code is spent.
    emu.consenting = null;
    const refused = await popup();
    expect(refused.error).toBe('access_denied');
    const res = await inject('POST', '/v1/tiktok/auth', {
      error: refused.error,
      state: refused.state,
      redirect_uri: redirectUri(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_type).toBe('access_denied');
  });

  it('polls new comments once (a comment listed again is one item), replies, hides, 429 once then delivered', async () => {
    const c = await connect('shop_two');
    const manager = new PollingManager({ ...t.deps, db: db() }, `tt-${Date.now()}`, { spaceIds: [spaceId] });
    try {
      const fresh = emu.addComment(c.video.item_id, { text: 'Есть размер M?', user: 'boris' });
      await manager.scan();
      const item = await until(() => itemOf(c.id, fresh.comment_id));
      expect(item).toMatchObject({ text: 'Есть размер M?', isOwn: false });
      // A later round lists the same comment again (it is still among the newest): still one item.
      const second = emu.addComment(c.video.item_id, { text: 'И цвет?', user: 'boris' });
      await until(() => itemOf(c.id, second.comment_id));
      const rows = await db()
        .select()
        .from(items)
        .where(and(eq(items.objectId, c.id), eq(items.externalId, fresh.comment_id)));
      expect(rows).toHaveLength(1);
      await manager.stop();

      emu.rateLimitNext(7, '/business/comment/reply/create/');
      const replied = await inject('POST', `/v1/items/${item.id}/reply`, { text: 'Да, есть' });
      expect(replied.statusCode, replied.body).toBe(200);
      await drain();
      const replyId = replied.json().reply.id as number;
      let reply = (await db().select().from(items).where(eq(items.id, replyId)))[0]!;
      expect(reply.delivery).not.toBe('sent');
      await drain(8_000);
      reply = (await db().select().from(items).where(eq(items.id, replyId)))[0]!;
      expect(reply.delivery).toBe('sent');
      const attempts = emu.callsTo('/business/comment/reply/create/');
      expect(attempts).toHaveLength(2);
      expect(attempts.at(-1)?.body).toMatchObject({
        business_id: c.account.openId,
        video_id: c.video.item_id,
        comment_id: fresh.comment_id,
        text: 'Да, есть',
      });
      const onNetwork = [...emu.comments.values()].find((x) => x.parent_comment_id === fresh.comment_id);
      expect(onNetwork).toMatchObject({ text: 'Да, есть', owner: true });
      expect(reply.externalId).toBe(onNetwork!.comment_id);

      expect((await inject('POST', `/v1/items/${item.id}/hide`)).statusCode).toBe(200);
      await drain();
      expect(emu.comments.get(fresh.comment_id)!.status).toBe('HIDDEN');
      expect((await inject('POST', `/v1/items/${item.id}/unhide`)).statusCode).toBe(200);
      await drain();
      expect(emu.comments.get(fresh.comment_id)!.status).toBe('PUBLIC');
      expect((await inject('POST', `/v1/items/${item.id}/like`)).statusCode).toBe(200);
      await drain();
      expect(emu.comments.get(fresh.comment_id)!.liked).toBe(true);
      // Customers' comments cannot be deleted through the API (own comments only): not offered.
      const deleted = await inject('POST', `/v1/items/${item.id}/delete`);
      expect(deleted.statusCode).toBe(400);
    } finally {
      await manager.stop();
    }
  });

  it('a revoked token stops polling and shows the error on the account', async () => {
    const c = await connect('shop_three');
    c.account.revoked = true;
    const manager = new PollingManager({ ...t.deps, db: db() }, `tt-${Date.now()}`, { spaceIds: [spaceId] });
    try {
      await manager.scan();
      const row = await until(async () => {
        const [o] = await db().select().from(objects).where(eq(objects.id, c.id));
        return o?.error ? o : null;
      });
      expect(row.error).toContain('revoked');
      const listed = await t.app.inject({ url: `/v1/objects/${c.id}`, headers });
      expect(listed.statusCode, listed.body).toBe(200);
      expect(JSON.stringify(listed.json())).toContain('revoked');
    } finally {
      await manager.stop();
    }
  });
});
