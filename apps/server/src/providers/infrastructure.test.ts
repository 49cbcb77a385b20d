import type { AddressInfo } from 'node:net';
import { connectFields, decodeFailure, type ProviderId } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, loginTokens } from '../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../test/harness';
import { Ticker } from '../../test/providers/testbed';
import { chats, messages, notifications, objects } from '../db/schema';
import { PollingManager } from '../jobs/pollers';
import { openCredentials } from './context';
import { registerConnector } from './registry';
import { type Connector, ConnectorError, WebhookRejected } from './types';

// The plumbing every real connector uses (issue #5): connect with typed credentials or OAuth, activate
// (webhook or polling), webhook verification and ingestion, polling with leases. A stand-in network
// (put in for STAND_IN, a credentials-kind network, over its real connector for this file only) exercises
// it over real HTTP. Typed credentials fill every connect field the network asks for with the same key, so
// the stand-in can be any credentials-kind id.

const STAND_IN: ProviderId = 'userecho';
const typed = (key: string) => ({
  ...Object.fromEntries(connectFields(STAND_IN).map((f) => [f.name, key])),
  api_key: key,
});

let t: TestApp;
let base: string;
const activations: Array<{ mode: string; webhookUrl: string; webhookSecret: string }> = [];
const pollQueue: Array<{ events: unknown[]; cursor: string } | Error> = [];

const fake: Connector = {
  id: STAND_IN,
  async verifyCredentials(_ctx, input) {
    if (input.api_key !== 'good-key') throw new ConnectorError('auth', 'Unauthorized: invalid api key');
    return { externalId: 'acc-1', name: 'UserEcho Shop', credentials: { api_key: input.api_key } };
  },
  oauth: {
    configured: () => true,
    authorizeUrl: (_config, { redirectUri, state }) =>
      `https://network.example/authorize?redirect_uri=${encodeURIComponent(redirectUri)}&state=${encodeURIComponent(state)}`,
    async exchange(_ctx, { code }) {
      if (code !== 'good-code') throw new ConnectorError('permanent', 'invalid_grant: code is spent');
      return { externalId: 'acc-oauth', name: 'OAuth Shop', credentials: { access_token: 'tok' } };
    },
  },
  async activate(_ctx, opts) {
    activations.push(opts);
  },
  async handleWebhook(ctx, request) {
    if (request.headers['x-secret'] !== ctx.credentials.webhook_secret)
      throw new WebhookRejected('bad secret');
    const body = JSON.parse(request.rawBody.toString('utf8')) as { id: string; text: string };
    return {
      body: 'ok',
      events: [
        {
          type: 'message',
          chatExternalId: 'peer-9',
          externalId: body.id,
          author: { externalId: 'peer-9', name: 'Webhook Customer' },
          text: body.text,
          createdAt: new Date(),
        },
      ],
    };
  },
  async poll(_ctx, cursor) {
    const next = pollQueue.shift();
    if (!next) {
      await new Promise((r) => setTimeout(r, 50));
      return { events: [], cursor };
    }
    if (next instanceof Error) throw next;
    return next as { events: never[]; cursor: string };
  },
  async sendReply() {
    return { externalId: null };
  },
};

let undo: () => void;
beforeAll(async () => {
  undo = registerConnector(fake);
  t = await createTestApp({ PROVIDER_UPDATES: 'webhook' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
  undo();
});

async function admin() {
  const built = await buildUser(t);
  const tokens = await loginTokens(t, built.email);
  return { ...built, headers: bearer(tokens.access_token) };
}

async function connect(headers: Record<string, string>, credentials: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/objects',
    headers,
    payload: { provider: STAND_IN, credentials },
  });
}

describe('connecting with typed credentials', () => {
  it('checks them with the network, stores them sealed, never returns them, and subscribes to updates', async () => {
    const me = await admin();
    const res = await connect(me.headers, typed('good-key'));
    expect(res.statusCode).toBe(200);
    const account = res.json();
    expect(account).toMatchObject({ provider: STAND_IN, name: 'UserEcho Shop' });
    expect(res.body).not.toContain('good-key');
    const [row] = await t.deps.database.db.select().from(objects).where(eq(objects.id, account.id));
    expect(row!.credentials).not.toContain('good-key');
    const credentials = openCredentials(t.deps.sealer, row!);
    expect(credentials.api_key).toBe('good-key');
    expect(credentials.webhook_secret).toMatch(/^[\w-]{20,}$/);
    expect(row).toMatchObject({ externalId: 'acc-1', updatesMode: 'webhook' });
    expect(activations.at(-1)).toEqual({
      mode: 'webhook',
      webhookUrl: `${t.deps.config.appUrl}/v1/webhooks/${STAND_IN}/${account.id}`,
      webhookSecret: credentials.webhook_secret,
    });
    const fetched = await t.app.inject({ url: `/v1/objects/${account.id}`, headers: me.headers });
    expect(fetched.body).not.toContain('good-key');
    expect(fetched.body).not.toContain(credentials.webhook_secret);
  });

  it("answers a wrong key with the network's own text and stores nothing", async () => {
    const me = await admin();
    const res = await connect(me.headers, typed('bad'));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('Unauthorized: invalid api key');
    const rows = await t.deps.database.db.select().from(objects).where(eq(objects.spaceId, me.space.id));
    expect(rows).toEqual([]);
  });

  it('reconnect replaces the credentials and clears the error', async () => {
    const me = await admin();
    const account = (await connect(me.headers, typed('good-key'))).json();
    await t.deps.database.db
      .update(objects)
      .set({ error: 'Token revoked', errorAt: new Date() })
      .where(eq(objects.id, account.id));
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/objects/${account.id}/reconnect`,
      headers: me.headers,
      payload: { credentials: typed('good-key') },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().error).toBeNull();
  });
});

describe('webhooks', () => {
  it('verify on the raw request, store once, answer what the network expects; a bad call stores nothing', async () => {
    const me = await admin();
    const account = (await connect(me.headers, typed('good-key'))).json();
    const [row] = await t.deps.database.db.select().from(objects).where(eq(objects.id, account.id));
    const secret = openCredentials(t.deps.sealer, row!).webhook_secret!;
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(`${base}/v1/webhooks/${STAND_IN}/${account.id}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });

    const rejected = await post(
      { 'content-type': 'application/json', 'x-secret': 'wrong' },
      { id: 'w1', text: 'Hi' },
    );
    expect(rejected.status).toBe(403);
    expect(t.logs.join('\n')).toContain('Webhook rejected');

    for (let i = 0; i < 2; i++) {
      const ok = await post(
        { 'content-type': 'application/json', 'x-secret': secret },
        { id: 'w1', text: 'Hi there' },
      );
      expect(ok.status).toBe(200);
      expect(await ok.text()).toBe('ok');
    }
    const [chat] = await t.deps.database.db.select().from(chats).where(eq(chats.objectId, account.id));
    const stored = await t.deps.database.db.select().from(messages).where(eq(messages.chatId, chat!.id));
    expect(stored.map((m) => m.text)).toEqual(['Hi there']);

    expect(
      (await fetch(`${base}/v1/webhooks/${STAND_IN}/999999999`, { method: 'POST', body: '{}' })).status,
    ).toBe(404);
  });
});

describe('polling', () => {
  it('one node polls an account, stores what it gets, keeps the cursor, and shows an auth failure on the account', async () => {
    const me = await admin();
    const account = (await connect(me.headers, typed('good-key'))).json();
    await t.deps.database.db
      .update(objects)
      .set({ updatesMode: 'polling' })
      .where(eq(objects.id, account.id));
    pollQueue.push({
      events: [
        {
          type: 'message',
          chatExternalId: 'p1',
          externalId: 'polled-1',
          author: { externalId: 'p1', name: 'Polled' },
          text: 'From polling',
          createdAt: new Date(),
        },
      ],
      cursor: 'c-1',
    });
    const only = { spaceIds: [account.space_id as number] };
    const a = new PollingManager({ ...t.deps, db: t.deps.database.db }, 'node-a', only);
    const b = new PollingManager({ ...t.deps, db: t.deps.database.db }, 'node-b', only);
    try {
      await a.scan();
      await b.scan();
      const deadline = Date.now() + 5_000;
      let row = (await t.deps.database.db.select().from(objects).where(eq(objects.id, account.id)))[0]!;
      while (row.pollCursor !== 'c-1' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        row = (await t.deps.database.db.select().from(objects).where(eq(objects.id, account.id)))[0]!;
      }
      expect(row).toMatchObject({ pollCursor: 'c-1', pollLeaseNode: 'node-a' });
      const [chat] = await t.deps.database.db.select().from(chats).where(eq(chats.objectId, account.id));
      expect(chat!.lastMessageText).toBe('From polling');

      pollQueue.push(new ConnectorError('auth', 'Unauthorized: bot was blocked'));
      while (!row.error && Date.now() < deadline + 5_000) {
        await new Promise((r) => setTimeout(r, 50));
        row = (await t.deps.database.db.select().from(objects).where(eq(objects.id, account.id)))[0]!;
      }
      expect(row.error).toBe('Unauthorized: bot was blocked');
      const errors = (await t.app.inject({ url: '/v1/errors', headers: me.headers })).json();
      expect(JSON.stringify(errors)).toContain('Unauthorized: bot was blocked');
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});

describe('a network that keeps failing', () => {
  it('is retried with backoff; after ten minutes of failures the account shows the error and admins are told once; a good round clears it', async () => {
    const me = await admin();
    const account = (await connect(me.headers, typed('good-key'))).json();
    const db = t.deps.database.db;
    await db.update(objects).set({ updatesMode: 'polling' }).where(eq(objects.id, account.id));
    const readAccount = async () => (await db.select().from(objects).where(eq(objects.id, account.id)))[0]!;
    let clock = Date.now();
    const ticker = new Ticker();
    const poller = new PollingManager({ ...t.deps, db }, 'node-failing', {
      spaceIds: [account.space_id as number],
      wait: ticker.wait,
      random: () => 0.5,
      now: () => new Date(clock),
    });
    const notified = async () =>
      (await db.select().from(notifications).where(eq(notifications.objectId, account.id))).length;
    try {
      // Failing for 8 min 20 s (six rounds): retried with growing waits, the account shows nothing yet.
      pollQueue.push(...Array.from({ length: 8 }, () => new ConnectorError('temporary', '502 Bad Gateway')));
      await poller.scan();
      await ticker.untilWaits(1);
      for (let i = 1; i < 6; i++) {
        clock += 100_000;
        await ticker.tick();
      }
      expect(ticker.waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000]);
      expect((await readAccount()).error).toBeNull();
      expect(await notified()).toBe(0);
      // Past ten minutes of failures: the account shows the failure, the administrators are told once,
      // and polling goes on.
      clock += 120_000;
      await ticker.tick();
      const failed = await readAccount();
      expect(decodeFailure(failed.error!)).toMatchObject({
        key: 'failure.network',
        detail: '502 Bad Gateway',
      });
      expect(await notified()).toBe(1);
      clock += 60_000;
      await ticker.tick();
      expect(await notified()).toBe(1);
      expect(ticker.waits.slice(-2)).toEqual([60_000, 60_000]);
      // The network answers again: the first good round clears the error.
      void ticker.tick();
      await expect.poll(async () => (await readAccount()).error, { timeout: 10_000 }).toBeNull();
    } finally {
      pollQueue.length = 0;
      await poller.stop();
    }
  });
});

describe('connecting through the network popup (OAuth)', () => {
  it('start gives the authorization address; the callback code connects the account', async () => {
    const me = await admin();
    const redirect = `${t.deps.config.appUrl}/callback/${STAND_IN}`;
    const start = await t.app.inject({
      url: `/v1/${STAND_IN}/auth/start?redirect_uri=${encodeURIComponent(redirect)}`,
      headers: me.headers,
    });
    expect(start.statusCode).toBe(200);
    const state = new URL(start.json().url).searchParams.get('state')!;
    const missing = await t.app.inject({
      method: 'POST',
      url: `/v1/${STAND_IN}/auth`,
      headers: me.headers,
      payload: { redirect_uri: redirect, state },
    });
    expect(missing.json().error).toBe('Отсутствует параметр code');
    const denied = await t.app.inject({
      method: 'POST',
      url: `/v1/${STAND_IN}/auth?locale=en`,
      headers: me.headers,
      payload: { redirect_uri: redirect, state, error: 'access_denied' },
    });
    expect(denied.json().error).toBe('You have not granted access to your account');
    const forged = await t.app.inject({
      method: 'POST',
      url: `/v1/${STAND_IN}/auth`,
      headers: me.headers,
      payload: { code: 'good-code', redirect_uri: redirect, state: 'forged' },
    });
    expect(forged.json().error_type).toBe('invalid_state');
    const ok = await t.app.inject({
      method: 'POST',
      url: `/v1/${STAND_IN}/auth`,
      headers: me.headers,
      payload: { code: 'good-code', redirect_uri: redirect, state },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'ok', source: STAND_IN, object: { name: 'OAuth Shop' } });
    const foreignRedirect = await t.app.inject({
      url: `/v1/${STAND_IN}/auth/start?redirect_uri=${encodeURIComponent(`https://evil.example/callback/${STAND_IN}`)}`,
      headers: me.headers,
    });
    expect(foreignRedirect.statusCode).toBe(400);
  });
});
