import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_TOKEN_TOUCH_S, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_SECONDS } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { apiTokens, auditLog, memberships, webhookDeliveries, webhookEndpoints } from '../../db/schema';
import { WebhookWorker } from '../../jobs/webhook-worker';
import { sha256 } from '../../lib/crypto';
import { authenticateApiToken } from '../api-tokens/service';
import { buildAdmin, buildMember, buildObject, writeAsCustomer } from '../authors/test-helpers';
import { recordAccountError } from '../objects/account-error';
import { assertEndpointUrl } from './service';

// Issue 14 item 9: API tokens act through the same auth hook and permission rules as a login, narrowed
// to their space and role; webhooks are signed per Standard Webhooks, retried on the backoff schedule
// with a moved clock, logged, redelivered, and switched off after failures in a row.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOKS_ALLOW_PRIVATE: 'true' });
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const db = () => t.deps.database.db;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function createToken(headers: Headers, payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/api_tokens', headers, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { token: { id: number; hint: string }; secret: string };
}

describe('API tokens', () => {
  it('a personal token calls the API as its owner; only its hash is stored; revoked → 401', async () => {
    const admin = await buildAdmin(t);
    const { token, secret } = await createToken(admin.headers, { kind: 'personal', name: 'Скрипт' });
    expect(secret).toMatch(/^otk_[A-Za-z0-9_-]{40,}$/);
    expect(token.hint).toBe(`${secret.slice(0, 8)}…`);

    const config = await t.app.inject({ url: '/v1/config', headers: bearer(secret) });
    expect(config.statusCode, config.body).toBe(200);
    const items = await t.app.inject({
      url: `/v1/items?space_id=${admin.space.id}`,
      headers: bearer(secret),
    });
    expect(items.statusCode, items.body).toBe(200);

    // At rest: the digest, never the secret.
    const [row] = await db().select().from(apiTokens).where(eq(apiTokens.id, token.id));
    expect(row!.tokenDigest).toBe(sha256(secret));
    expect(JSON.stringify(row)).not.toContain(secret.slice(4));
    const list = await t.app.inject({ url: '/v1/api_tokens', headers: admin.headers });
    expect(list.body).not.toContain(secret.slice(4));
    expect(list.json().items.map((x: { id: number }) => x.id)).toContain(token.id);

    // A token cannot mint tokens, nor reach the login's own security endpoints.
    const minted = await t.app.inject({
      method: 'POST',
      url: '/v1/api_tokens',
      headers: bearer(secret),
      payload: { kind: 'personal', name: 'x' },
    });
    expect(minted.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/v1/me', headers: bearer(secret) })).statusCode).toBe(401);

    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/v1/api_tokens/${token.id}`,
      headers: admin.headers,
    });
    expect(revoked.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/config', headers: bearer(secret) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/v1/config', headers: bearer(`${secret}x`) })).statusCode).toBe(401);
  });

  it('an expired token → 401', async () => {
    const admin = await buildAdmin(t);
    const { token, secret } = await createToken(admin.headers, {
      kind: 'personal',
      name: 'Ненадолго',
      expires_at: Math.floor(Date.now() / 1000) + 3600,
    });
    expect((await t.app.inject({ url: '/v1/config', headers: bearer(secret) })).statusCode).toBe(200);
    await db()
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, token.id));
    expect((await t.app.inject({ url: '/v1/config', headers: bearer(secret) })).statusCode).toBe(401);
  });

  it('last_used_at is written on use, at most once a minute', async () => {
    const admin = await buildAdmin(t);
    const { token, secret } = await createToken(admin.headers, { kind: 'personal', name: 'Учёт' });
    const lastUsed = async () =>
      (await db().select().from(apiTokens).where(eq(apiTokens.id, token.id)))[0]!.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    const start = new Date('2030-01-01T00:00:00Z');
    await authenticateApiToken(db(), secret, start);
    expect((await lastUsed())?.toISOString()).toBe(start.toISOString());
    await authenticateApiToken(db(), secret, new Date(start.getTime() + 30_000));
    expect((await lastUsed())?.toISOString()).toBe(start.toISOString());
    const later = new Date(start.getTime() + (API_TOKEN_TOUCH_S + 1) * 1000);
    await authenticateApiToken(db(), secret, later);
    expect((await lastUsed())?.toISOString()).toBe(later.toISOString());
  });

  it('a role limits a personal token below its owner; a role above the owner is refused', async () => {
    const admin = await buildAdmin(t);
    const readOnly = await createToken(admin.headers, {
      kind: 'personal',
      name: 'Чтение',
      role: 'read-only',
      space_id: admin.space.id,
    });
    const asAdmin = await t.app.inject({
      url: `/v1/webhooks?space_id=${admin.space.id}`,
      headers: admin.headers,
    });
    expect(asAdmin.statusCode).toBe(200);
    const limited = await t.app.inject({
      url: `/v1/webhooks?space_id=${admin.space.id}`,
      headers: bearer(readOnly.secret),
    });
    expect(limited.statusCode).toBe(403);
    // A write's actor is narrowed the same way (req.actor): the cap holds there too.
    const write = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: bearer(readOnly.secret),
      payload: {
        space_id: admin.space.id,
        url: 'https://93.184.216.34/hook',
        description: '',
        events: ['item.created'],
        is_enabled: true,
      },
    });
    expect(write.statusCode).toBe(403);
    expect(
      (await t.app.inject({ url: `/v1/items?space_id=${admin.space.id}`, headers: bearer(readOnly.secret) }))
        .statusCode,
    ).toBe(200);

    const operator = await buildMember(t, admin.space.id, 'operator');
    const above = await t.app.inject({
      method: 'POST',
      url: '/v1/api_tokens',
      headers: operator.headers,
      payload: { kind: 'personal', name: 'Выше', role: 'administrator', space_id: admin.space.id },
    });
    expect(above.statusCode).toBe(400);
    // A space token is for administrators.
    const spaceToken = await t.app.inject({
      method: 'POST',
      url: '/v1/api_tokens',
      headers: operator.headers,
      payload: { kind: 'space', name: 'Нет', role: 'read-only', space_id: admin.space.id },
    });
    expect(spaceToken.statusCode).toBe(403);
  });

  it('tokens stay in their space: a space token and a one-space personal token see no other space', async () => {
    const a = await buildAdmin(t);
    const b = await buildAdmin(t);
    // a also administers b's space.
    await db()
      .insert(memberships)
      .values({ spaceId: b.space.id, userId: a.user.id, roles: { settings: true } });
    const objectB = await buildObject(t, b.space.id);
    await writeAsCustomer(t, objectB, { externalId: 'cust-b', name: 'Клиент Б' }, { comments: 1 });

    const personalA = await createToken(a.headers, {
      kind: 'personal',
      name: 'Только А',
      space_id: a.space.id,
    });
    const spaceA = await createToken(a.headers, {
      kind: 'space',
      name: 'Пространство А',
      space_id: a.space.id,
      role: 'operator',
    });
    // Both are in space A's action log, by their maker, without the secret.
    const logged = await db().select().from(auditLog).where(eq(auditLog.spaceId, a.space.id));
    const made = logged.filter((e) => e.kind === 'api_token.created');
    expect(made.map((e) => e.targetId).sort()).toEqual(
      [String(personalA.token.id), String(spaceA.token.id)].sort(),
    );
    expect(made.every((e) => e.actorId === a.user.id)).toBe(true);
    expect(JSON.stringify(made)).not.toContain(spaceA.secret.slice(4));
    for (const secret of [personalA.secret, spaceA.secret]) {
      const cross = await t.app.inject({ url: `/v1/items?space_id=${b.space.id}`, headers: bearer(secret) });
      // Asking for the other space answers nothing of it (an empty scope or a refusal).
      expect(cross.statusCode === 200 ? JSON.stringify(cross.json()) : 'refused').not.toContain('Клиент Б');
      const all = await t.app.inject({ url: '/v1/items', headers: bearer(secret) });
      expect(all.statusCode, all.body).toBe(200);
      expect(JSON.stringify(all.json())).not.toContain('Клиент Б');
      const config = (await t.app.inject({ url: '/v1/config', headers: bearer(secret) })).json();
      expect(config.spaces.map((space: { id: number }) => space.id)).toEqual([a.space.id]);
    }
    // The session of the same user sees both.
    const both = await t.app.inject({ url: `/v1/items?space_id=${b.space.id}`, headers: a.headers });
    expect(both.statusCode).toBe(200);
    // The space token's role is its own (operator), not its creator's (administrator).
    expect(
      (await t.app.inject({ url: `/v1/webhooks?space_id=${a.space.id}`, headers: bearer(spaceA.secret) }))
        .statusCode,
    ).toBe(403);
    // Another space's administrator cannot see or revoke it.
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/api_tokens/${spaceA.token.id}`, headers: b.headers }))
        .statusCode,
    ).toBe(404);
    const listB = (await t.app.inject({ url: '/v1/api_tokens', headers: b.headers })).json();
    expect(listB.items.map((x: { id: number }) => x.id)).not.toContain(spaceA.token.id);
  });
});

// ---- webhooks ----

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** An endpoint on 127.0.0.1 that records requests and answers with `status()`. */
async function startReceiver() {
  const received: Received[] = [];
  let status = 200;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    setStatus: (s: number) => {
      status = s;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Standard Webhooks verification written from the specification, independent of the server's code:
 * HMAC-SHA256 keyed with base64-decoded secret (after `whsec_`) over `id.timestamp.body`, any of the
 * space-separated `v1,` signatures matching, timestamp within tolerance.
 */
function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string, nowS: number) {
  const id = String(headers['webhook-id']);
  const timestamp = Number(headers['webhook-timestamp']);
  if (!Number.isFinite(timestamp) || Math.abs(nowS - timestamp) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return String(headers['webhook-signature'])
    .split(' ')
    .some((part) => {
      const [version, signature] = part.split(',');
      if (version !== 'v1' || !signature) return false;
      const given = Buffer.from(signature, 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

async function createWebhook(headers: Headers, payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { webhook: { id: number }; secret: string };
}

/** An enabled endpoint of the member's space that wants `item.created` only. */
function itemCreatedWebhook(member: { headers: Headers; space: { id: number } }, url: string) {
  return createWebhook(member.headers, {
    space_id: member.space.id,
    url,
    description: '',
    events: ['item.created'],
    is_enabled: true,
  });
}

/** The delivery worker over these spaces' rows, on the test's movable clock. */
function webhookWorker(spaceIds: number[], clock: () => number, opts: { disableAfter?: number } = {}) {
  return new WebhookWorker({
    db: db(),
    bus: t.deps.bus,
    sealer: t.deps.sealer,
    log: t.deps.log,
    allowPrivate: true,
    now: () => new Date(clock()),
    spaceIds,
    ...opts,
  });
}

async function deliveriesOf(endpointId: number) {
  return db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
}

describe('webhooks', () => {
  it('item events are signed per Standard Webhooks and verifiable; other spaces get nothing', async () => {
    const receiver = await startReceiver();
    const other = await startReceiver();
    try {
      const admin = await buildAdmin(t);
      const stranger = await buildAdmin(t);
      const { webhook, secret } = await createWebhook(admin.headers, {
        space_id: admin.space.id,
        url: receiver.url,
        description: 'CRM',
        events: ['item.created', 'item.replied', 'item.closed', 'chat.message', 'account.error'],
        is_enabled: true,
      });
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
      const foreign = await itemCreatedWebhook(stranger, other.url);
      // The secret is never shown again.
      const shown = await t.app.inject({ url: `/v1/webhooks/${webhook.id}`, headers: admin.headers });
      expect(shown.body).not.toContain(secret.slice(6));
      const [stored] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, webhook.id));
      expect(stored!.secretSealed).not.toContain(secret.slice(6));

      const object = await buildObject(t, admin.space.id);
      const written = await writeAsCustomer(
        t,
        object,
        { externalId: 'c1', name: 'Анна' },
        { comments: 1, messages: 1 },
      );
      await vi.waitFor(async () => expect((await deliveriesOf(webhook.id)).length).toBe(2));

      let clock = Date.now();
      const worker = webhookWorker([admin.space.id, stranger.space.id], () => clock);
      expect(await worker.drain()).toBe(2);
      expect(receiver.received).toHaveLength(2);
      expect(other.received).toHaveLength(0);
      for (const request of receiver.received) {
        expect(verifyStandardWebhook(secret, request.headers, request.body, Math.floor(clock / 1000))).toBe(
          true,
        );
        expect(
          verifyStandardWebhook(foreign.secret, request.headers, request.body, Math.floor(clock / 1000)),
        ).toBe(false);
        expect(
          verifyStandardWebhook(secret, request.headers, `${request.body} `, Math.floor(clock / 1000)),
        ).toBe(false);
      }
      const bodies = receiver.received.map((r) => JSON.parse(r.body));
      expect(bodies.map((b) => b.type).sort()).toEqual(['chat.message', 'item.created']);
      const created = bodies.find((b) => b.type === 'item.created');
      expect(created.data.item.id).toBe(written.itemIds[0]);

      // A reply: item.replied for the reply, item.closed for the item closed with it.
      const replied = await t.app.inject({
        method: 'POST',
        url: `/v1/items/${written.itemIds[0]}/reply`,
        headers: admin.headers,
        payload: { text: 'Спасибо!' },
      });
      expect(replied.statusCode, replied.body).toBe(200);
      await recordAccountError({ db: db(), bus: t.deps.bus }, object.id, 'Токен отозван');
      await vi.waitFor(async () => expect((await deliveriesOf(webhook.id)).length).toBe(5));
      // The same change published again is not delivered twice.
      const closedItem = (
        await t.app.inject({ url: `/v1/items/${written.itemIds[0]}`, headers: admin.headers })
      ).json();
      await t.deps.bus.publish({
        type: 'items.updated',
        spaceId: admin.space.id,
        payload: { items: [closedItem.item ?? closedItem] },
      });
      clock = Date.now();
      await worker.drain();
      expect(await deliveriesOf(webhook.id)).toHaveLength(5);
      const types = receiver.received.map((r) => JSON.parse(r.body).type);
      expect(types).toEqual(expect.arrayContaining(['item.replied', 'item.closed', 'account.error']));
      const log = await t.app.inject({
        url: `/v1/webhooks/${webhook.id}/deliveries`,
        headers: admin.headers,
      });
      expect(log.statusCode).toBe(200);
      expect(
        log
          .json()
          .items.every(
            (d: { state: string; response_status: number }) =>
              d.state === 'done' && d.response_status === 200,
          ),
      ).toBe(true);

      // Another space's administrator sees neither the endpoint nor its log.
      expect(
        (await t.app.inject({ url: `/v1/webhooks/${webhook.id}`, headers: stranger.headers })).statusCode,
      ).toBe(404);
      expect(
        (await t.app.inject({ url: `/v1/webhooks/${webhook.id}/deliveries`, headers: stranger.headers }))
          .statusCode,
      ).toBe(404);
    } finally {
      await receiver.close();
      await other.close();
    }
  });

  it('failures are retried on the backoff schedule (moved clock), logged, redelivered with the same id', async () => {
    const receiver = await startReceiver();
    try {
      const admin = await buildAdmin(t);
      const { webhook, secret } = await itemCreatedWebhook(admin, receiver.url);
      const object = await buildObject(t, admin.space.id);
      await writeAsCustomer(t, object, { externalId: 'c2', name: 'Борис' }, { comments: 1 });
      await vi.waitFor(async () => expect((await deliveriesOf(webhook.id)).length).toBe(1));

      let clock = Date.now();
      const worker = webhookWorker([admin.space.id], () => clock, { disableAfter: 100 });
      receiver.setStatus(500);
      for (let attempt = 1; attempt <= WEBHOOK_MAX_ATTEMPTS; attempt++) {
        expect(await worker.drain()).toBe(1);
        const [row] = await deliveriesOf(webhook.id);
        expect(row!.attempts).toBe(attempt);
        expect(row!.responseStatus).toBe(500);
        expect(row!.lastError).toContain('HTTP 500');
        if (attempt === WEBHOOK_MAX_ATTEMPTS) {
          expect(row!.state).toBe('failed');
          break;
        }
        const delay = WEBHOOK_RETRY_SECONDS[attempt - 1]! * 1000;
        expect(row!.state).toBe('pending');
        expect(row!.runAt.getTime()).toBe(clock + delay);
        // Not due a moment before its time.
        clock += delay - 1000;
        expect(await worker.drain()).toBe(0);
        clock += 1000;
      }
      expect(receiver.received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
      expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);

      const log = (
        await t.app.inject({ url: `/v1/webhooks/${webhook.id}/deliveries`, headers: admin.headers })
      ).json();
      expect(log.items[0]).toMatchObject({
        state: 'failed',
        attempts: WEBHOOK_MAX_ATTEMPTS,
        response_status: 500,
        next_attempt_at: null,
      });
      expect(log.items[0].duration_ms).toBeGreaterThanOrEqual(0);

      receiver.setStatus(200);
      const redo = await t.app.inject({
        method: 'POST',
        url: `/v1/webhooks/deliveries/${log.items[0].id}/redeliver`,
        headers: admin.headers,
      });
      expect(redo.statusCode, redo.body).toBe(200);
      expect(redo.json()).toMatchObject({ state: 'pending', attempts: 0 });
      await worker.drain();
      const last = receiver.received.at(-1)!;
      expect(last.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
      expect(verifyStandardWebhook(secret, last.headers, last.body, Math.floor(clock / 1000))).toBe(true);
      const [row] = await deliveriesOf(webhook.id);
      expect(row).toMatchObject({ state: 'done', attempts: 1, responseStatus: 200 });
    } finally {
      await receiver.close();
    }
  });

  it('an endpoint failing many times in a row is switched off with its reason; switching on resumes', async () => {
    const receiver = await startReceiver();
    try {
      const admin = await buildAdmin(t);
      const { webhook } = await itemCreatedWebhook(admin, receiver.url);
      const object = await buildObject(t, admin.space.id);
      await writeAsCustomer(t, object, { externalId: 'c3', name: 'Вера' }, { comments: 3 });
      await vi.waitFor(async () => expect((await deliveriesOf(webhook.id)).length).toBe(3));
      const clock = Date.now();
      const worker = webhookWorker([admin.space.id], () => clock, { disableAfter: 3 });
      receiver.setStatus(503);
      await worker.drain();
      const shown = (
        await t.app.inject({ url: `/v1/webhooks/${webhook.id}`, headers: admin.headers })
      ).json();
      expect(shown).toMatchObject({ is_enabled: false, disabled_reason: 'failures', failure_count: 3 });

      // New events are not queued for a switched-off endpoint; switching on clears the reason.
      receiver.setStatus(200);
      const on = await t.app.inject({
        method: 'PUT',
        url: `/v1/webhooks/${webhook.id}`,
        headers: admin.headers,
        payload: { is_enabled: true },
      });
      expect(on.json()).toMatchObject({ is_enabled: true, disabled_reason: null, failure_count: 0 });
    } finally {
      await receiver.close();
    }
  });

  it('addresses: https at a public address only, unless the operator opens their own network', async () => {
    const closed = { allowPrivate: false };
    await expect(assertEndpointUrl('http://93.184.216.34/hook', closed)).rejects.toMatchObject({
      key: 'webhooks.url.notHttps',
    });
    await expect(assertEndpointUrl('https://127.0.0.1/hook', closed)).rejects.toMatchObject({
      key: 'webhooks.url.private',
    });
    await expect(assertEndpointUrl('https://10.0.0.5/hook', closed)).rejects.toMatchObject({
      key: 'webhooks.url.private',
    });
    await expect(
      assertEndpointUrl('https://169.254.169.254/latest', { allowPrivate: true }),
    ).rejects.toMatchObject({ key: 'webhooks.url.private' });
    await expect(assertEndpointUrl('https://93.184.216.34/hook', closed)).resolves.toBeUndefined();
    await expect(
      assertEndpointUrl('http://127.0.0.1:9/hook', { allowPrivate: true }),
    ).resolves.toBeUndefined();

    const admin = await buildAdmin(t);
    const member = await buildMember(t, admin.space.id, 'operator');
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: member.headers,
      payload: {
        space_id: admin.space.id,
        url: 'https://93.184.216.34/',
        description: '',
        events: ['item.created'],
        is_enabled: true,
      },
    });
    expect(refused.statusCode).toBe(403);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: admin.headers,
      payload: {
        space_id: admin.space.id,
        url: 'https://93.184.216.34/',
        description: '',
        events: [],
        is_enabled: true,
      },
    });
    expect(empty.statusCode).toBe(400);
  });
});
