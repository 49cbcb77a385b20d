import type { AddressInfo } from 'node:net';
import { decodeFailure } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FB_ERRORS } from '../../../emulators/facebook/emulator';
import { InstagramEmulator } from '../../../emulators/instagram/emulator';
import { LONG_LIVED_S } from '../../../emulators/instagram/emulator-login';
import { metaJson } from '../../../emulators/whatsapp/emulator';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildWorker, buildWorkspace } from '../../../test/inbox-actions';
import { chats, items, objects } from '../../db/schema';
import { TokenRefreshJob } from '../../jobs/token-refresh';
import { openCredentials } from '../context';
import { metaSignature } from '../facebook/meta';

// Issue 19, Instagram Login (Instagram API with Instagram Login, accounts without a Facebook Page):
// Instagram's window gives a code, the code a one-hour token, that token the 60-day one; calls go to
// graph.instagram.com with it, deliveries to the Instagram product's callback are signed with the
// Instagram app secret; intake and actions are the Facebook login's. The token is renewed in its last
// week by the renewal job; one Meta refuses becomes the account's error.

const VERIFY = 'fb-verify-token';
const DAY_MS = 24 * 3_600_000;
let t: TestApp;
let emu: InstagramEmulator;
let headers: Record<string, string>;
let spaceId = 0;
let base = '';
let seq = 0;

beforeAll(async () => {
  emu = await InstagramEmulator.start();
  t = await createTestApp({ PROVIDER_UPDATES: 'webhook', ...emu.env(VERIFY) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const admin = await buildWorkspace(t);
  headers = admin.headers;
  spaceId = admin.space.id;
  expect((await emu.subscribe(`${base}/v1/webhooks/instagram/app`, VERIFY)).verified).toBe(true);
});
afterAll(async () => {
  await t.close();
  await emu.close();
});

const db = () => t.deps.database.db;
const redirectUri = () => `${t.deps.config.appUrl}/callback/instagram`;

async function popup(login = 'instagram') {
  const start = await t.app.inject({
    url: `/v1/instagram/auth/start?login=${login}&redirect_uri=${encodeURIComponent(redirectUri())}`,
    headers,
  });
  expect(start.statusCode, start.body).toBe(200);
  const window = new URL(start.json().url as string);
  const answer = await fetch(window, { redirect: 'manual' });
  return { window, back: Object.fromEntries(new URL(answer.headers.get('location')!).searchParams) };
}

const finish = (back: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/instagram/auth',
    headers,
    payload: { ...back, redirect_uri: redirectUri() },
  });

async function connect() {
  seq += 1;
  const account = emu.addLoginAccount(`studio_${seq}`);
  const media = emu.addMedia(account, 'Новая коллекция');
  const res = await finish((await popup()).back);
  expect(res.statusCode, res.body).toBe(200);
  return { account, media, id: res.json().object.id as number };
}

const row = async (id: number) => (await db().select().from(objects).where(eq(objects.id, id)))[0]!;
const itemBy = async (objectId: number, externalId: string) =>
  (
    await db()
      .select()
      .from(items)
      .where(and(eq(items.objectId, objectId), eq(items.externalId, externalId)))
  )[0];

const drain = () => buildWorker(t, { spaceIds: [spaceId], now: () => new Date(Date.now() + 1_000) }).drain();
const post = (url: string, payload: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'POST', url, headers, payload });

describe('Instagram Login', () => {
  it('the add-account screen is offered both ways; an unknown way is refused', async () => {
    const list = await t.app.inject({ url: '/v1/providers/connectable', headers });
    expect(list.statusCode, list.body).toBe(200);
    const instagram = list.json().items.find((p: { id: string }) => p.id === 'instagram');
    expect(instagram).toMatchObject({ oauth: true, logins: ['facebook', 'instagram'] });
    const odd = await t.app.inject({
      url: `/v1/instagram/auth/start?login=myspace&redirect_uri=${encodeURIComponent(redirectUri())}`,
      headers,
    });
    expect(odd.statusCode).toBe(400);
  });

  it('connects: Instagram’s window, code → 60-day token kept sealed, the account subscribed, its comments imported, calls on graph.instagram.com', async () => {
    seq += 1;
    const account = emu.addLoginAccount(`atelier_${seq}`);
    const media = emu.addMedia(account, 'Платье недели');
    const old = emu.addComment(media, { from: { id: 'IGSID_a', username: 'alla' }, text: 'Какие размеры?' });
    const { window, back } = await popup();
    expect(window.pathname).toBe('/ig-www/oauth/authorize');
    expect(window.searchParams.get('client_id')).toBe(emu.login.appId);
    expect(window.searchParams.get('scope')?.split(',')).toEqual([
      'instagram_business_basic',
      'instagram_business_manage_comments',
      'instagram_business_manage_messages',
    ]);
    const res = await finish(back);
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().object.id as number;
    expect(res.json().object).toMatchObject({ provider: 'instagram', name: account.username, imported: 1 });
    const stored = await row(id);
    expect(stored.externalId).toBe(account.id);
    const credentials = openCredentials(t.deps.sealer, stored);
    expect(credentials).toMatchObject({ login: 'instagram', ig_user_id: account.id });
    expect(credentials.access_token).toMatch(/^IGAALong/);
    expect(credentials.page_token).toBeUndefined();
    const left = Date.parse(credentials.token_expires_at!) - Date.now();
    expect(Math.abs(left - LONG_LIVED_S * 1000)).toBeLessThan(60_000);
    // The one-hour token went to api.instagram.com (form POST), the exchange to graph.instagram.com.
    expect(emu.callsTo('POST', '/ig-api/oauth/access_token')).toHaveLength(1);
    expect(emu.callsTo('GET', '/ig-graph/access_token').at(-1)?.query.grant_type).toBe('ig_exchange_token');
    expect(emu.login.subscribed.get(account.id)).toEqual(['comments', 'messages']);
    expect(await itemBy(id, old.id)).toMatchObject({ text: 'Какие размеры?' });
    const comments = emu.calls.filter((c) => c.path.endsWith(`${media.id}/comments`));
    expect(comments.length).toBeGreaterThan(0);
    expect(comments.every((c) => c.path.startsWith('/ig-graph/'))).toBe(true);
  });

  it('a cancelled window and a permission left unticked are translated errors', async () => {
    emu.addLoginAccount(`nobody_${seq}`);
    emu.login.consenting = null;
    const denied = await finish((await popup()).back);
    expect(denied.statusCode).toBe(400);
    expect(denied.json().error_type).toBe('access_denied');
    emu.addLoginAccount(`partial_${seq}`);
    emu.login.granted = ['instagram_business_basic', 'instagram_business_manage_comments'];
    try {
      const partial = await finish((await popup()).back);
      expect(partial.statusCode).toBe(400);
      expect(partial.json().error_type).toBe('missing_permissions');
    } finally {
      emu.login.granted = [
        'instagram_business_basic',
        'instagram_business_manage_comments',
        'instagram_business_manage_messages',
      ];
    }
  });

  it('deliveries signed with the Instagram app secret are taken; the Meta app secret or a forged one is 401 and stores nothing; replies, hiding and Direct go to graph.instagram.com', async () => {
    const { account, media, id } = await connect();
    const sent = await emu.igComment(media, {
      from: { id: 'IGSID_1', username: 'anna' },
      text: 'Есть в чёрном?',
    });
    expect(sent.status).toBe(200);
    expect((await emu.push(sent.payload)).status).toBe(200);
    const item = (await itemBy(id, sent.comment.id))!;
    expect(item).toMatchObject({ text: 'Есть в чёрном?', kind: 'comment' });
    expect((await db().select().from(items).where(eq(items.objectId, id))).length).toBe(1);

    for (const secret of [emu.appSecret, 'forged']) {
      const other = emu.addComment(media, { from: { id: 'IGSID_2', username: 'spam' }, text: 'подделка' });
      const payload = emu.commentPayload(other);
      const bad = await emu.push(payload, { signature: metaSignature(metaJson(payload), secret) });
      expect(bad.status).toBe(401);
      expect(await itemBy(id, other.id)).toBeUndefined();
    }

    // A reply (429 once, then delivered), hidden, and a Direct answer.
    emu.failNext(FB_ERRORS.tooMany, '/replies');
    const replied = await post(`/v1/items/${item.id}/reply`, { text: 'Да, все размеры' });
    expect(replied.statusCode, replied.body).toBe(200);
    await drain();
    await buildWorker(t, { spaceIds: [spaceId], now: () => new Date(Date.now() + 120_000) }).drain();
    const replies = emu.calls.filter(
      (c) => c.method === 'POST' && c.path.endsWith(`${sent.comment.id}/replies`),
    );
    expect(replies.at(-1)?.path.startsWith('/ig-graph/')).toBe(true);
    expect(
      [...emu.comments.values()].some((c) => c.parentId === sent.comment.id && c.text === 'Да, все размеры'),
    ).toBe(true);
    const hidden = await post(`/v1/items/${item.id}/hide`);
    expect(hidden.statusCode, hidden.body).toBe(200);
    await drain();
    expect(emu.comments.get(sent.comment.id)?.hidden).toBe(true);

    const igsid = `IGSID_dm_${account.id}`;
    await emu.igMessage(account, igsid, 'Здравствуйте!');
    const [chat] = await db()
      .select()
      .from(chats)
      .where(and(eq(chats.objectId, id), eq(chats.externalId, igsid)));
    expect(chat).toBeDefined();
    const answer = await post(`/v1/chats/${chat!.id}/messages`, { text: 'Добрый день' });
    expect(answer.statusCode, answer.body).toBe(200);
    await drain();
    expect(emu.sentDirect.at(-1)).toMatchObject({
      igId: account.id,
      recipient: { id: igsid },
      text: 'Добрый день',
    });
    expect(emu.callsTo('POST', `/ig-graph/v21.0/${account.id}/messages`)).toHaveLength(1);
  });

  it('a revoked token fails the reply and becomes the account’s error', async () => {
    const { account, media, id } = await connect();
    const { comment } = await emu.igComment(media, {
      from: { id: 'IGSID_9', username: 'yan' },
      text: 'Цена?',
    });
    const item = (await itemBy(id, comment.id))!;
    emu.login.revoke(account.id);
    const res = await post(`/v1/items/${item.id}/reply`, { text: '3000 ₽' });
    expect(res.statusCode, res.body).toBe(200);
    await drain();
    expect(decodeFailure((await row(id)).error ?? '')?.key).toBe('failure.auth');
    const errors = await t.app.inject({ url: '/v1/errors', headers });
    expect(errors.json().items.map((e: { id: number }) => e.id)).toContain(id);
  });

  it('the 60-day token is renewed in its last week; a revoked one becomes the account’s error', async () => {
    // A space of its own: the job's pass over it sees only this account.
    const admin = await buildWorkspace(t);
    headers = admin.headers;
    spaceId = admin.space.id;
    const { account, id } = await connect();
    let now = Date.now();
    const job = new TokenRefreshJob({
      db: db(),
      bus: t.deps.bus,
      sealer: t.deps.sealer,
      config: t.deps.config,
      log: t.deps.log,
      now: () => new Date(now),
    });
    const renewals = () => emu.callsTo('GET', '/ig-graph/refresh_access_token').length;
    const before = renewals();
    const first = openCredentials(t.deps.sealer, await row(id));
    // Fresh: nothing to do.
    await job.tick({ spaceIds: [spaceId] });
    expect(renewals()).toBe(before);
    // 54 days on (six left): renewed, and the new token is what calls use from then on.
    now += 54 * DAY_MS;
    emu.network.clock = now;
    const pass = await job.tick({ spaceIds: [spaceId] });
    expect(pass.failed).toBe(0);
    expect(renewals()).toBe(before + 1);
    const renewed = openCredentials(t.deps.sealer, await row(id));
    expect(renewed.access_token).not.toBe(first.access_token);
    expect(Date.parse(renewed.token_expires_at!) - now).toBeGreaterThan(59 * DAY_MS);
    expect(renewed.token_renewed_at).toBe(new Date(now).toISOString());
    // The same day again: not renewed twice.
    await job.tick({ spaceIds: [spaceId] });
    expect(renewals()).toBe(before + 1);

    // The person removes the app on Instagram: the next renewal is refused, the account shows the error.
    emu.login.revoke(account.id);
    now += 54 * DAY_MS;
    emu.network.clock = now;
    const refused = await job.tick({ spaceIds: [spaceId] });
    expect(refused.failed).toBe(1);
    const broken = await row(id);
    expect(decodeFailure(broken.error ?? '')?.key).toBe('failure.auth');
    const errors = await t.app.inject({ url: '/v1/errors', headers });
    expect(errors.json().items.map((e: { id: number }) => e.id)).toContain(id);
    emu.network.clock = Date.now();
  });
});
