import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { passwordLogin } from '../../test/auth-helpers';
import { createTestApp, STRONG_PASSWORD, type TestApp } from '../../test/harness';
import { buildWorkspace } from '../../test/inbox-actions';

// Redis going away while the app runs (issue 11 #16): what needs Redis answers 503 + Retry-After, the
// rest keeps working, /readyz says what is down, and everything recovers by itself when Redis is back.
// A Redis of our own on a free loopback port, so stopping it disturbs nobody else.
const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
    { stdio: 'ignore' },
  );
  await vi.waitFor(
    async () => {
      if (!(await accepts(port))) throw new Error(`redis-server on ${port} is not up yet`);
    },
    { timeout: 10_000, interval: 50 },
  );
  return child;
}

function stopRedis(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe.skipIf(!hasRedisServer)('when Redis goes down', () => {
  let port: number;
  let redis: ChildProcess;
  let t: TestApp;
  let headers: Record<string, string>;
  let email: string;
  let ingestToken: string;
  let spaceId: number;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    t = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${port}` });
    const admin = await buildWorkspace(t);
    headers = admin.headers;
    email = admin.email;
    spaceId = admin.space.id;
    const object = await t.app.inject({
      method: 'POST',
      url: '/v1/objects',
      headers,
      payload: { provider: 'bankiru' },
    });
    expect(object.statusCode, object.body).toBe(200);
    ingestToken = object.json().ingest_token;
  });
  afterAll(async () => {
    await t?.close();
    if (redis) await stopRedis(redis);
  });

  const ingest = (externalId: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/ingest/items?locale=en',
      headers: { authorization: `Bearer ${ingestToken}` },
      payload: {
        items: [
          {
            external_id: externalId,
            kind: 'review',
            text: 'Быстро открыли вклад',
            rating: 5,
            author: { id: 'u-77', name: 'Иван П.' },
            created_at: '2026-11-20T09:15:00+03:00',
          },
        ],
      },
    });
  const login = () => passwordLogin(t, email, STRONG_PASSWORD);

  it('answers 503 with Retry-After where Redis is needed, serves the rest, and recovers by itself', async () => {
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    expect((await ingest('before')).json()).toMatchObject({ created: 1 });

    await stopRedis(redis);
    await vi.waitFor(async () => expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(503), {
      timeout: 10_000,
      interval: 50,
    });
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.json()).toEqual({
      status: 'unavailable',
      checks: { database: 'ok', redis: 'down' },
      down: ['redis'],
    });
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(503);
    expect((await t.app.inject({ url: '/livez' })).statusCode).toBe(200);

    // Rate limits live in Redis: login and ingest cannot be checked, so they wait — never a 500.
    for (const res of [await login(), await ingest('during')]) {
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toMatchObject({ error_type: 'unavailable' });
    }
    expect((await ingest('during')).json().error).toBe(
      'The service is temporarily unavailable. Try again in 5 s',
    );

    // What needs only the database keeps working, writes included (their live events stay on this node).
    expect((await t.app.inject({ url: '/v1/me', headers })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/items', headers })).statusCode).toBe(200);
    const tag = await t.app.inject({
      method: 'POST',
      url: '/v1/tags',
      headers,
      payload: { name: 'outage', space_id: spaceId },
    });
    expect(tag.statusCode, tag.body).toBeLessThan(300);

    redis = await startRedis(port);
    await vi.waitFor(async () => expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200), {
      timeout: 15_000,
      interval: 100,
    });
    expect((await login()).statusCode).toBe(200);
    const after = await ingest('after');
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json()).toMatchObject({ created: 1 });
  });
});
