import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, loginTokens } from '../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../test/harness';
import { buildComment, buildObject } from '../../test/inbox-actions';
import { openSocket } from '../../test/socket';
import { userStatuses } from '../db/schema';
import { buildAdmin, buildMember } from '../modules/users/testing';
import { type BusEvent, RedisBus } from './bus';
import { type LockStore, MemoryLockStore, RedisLockStore } from './locks';
import { CLOSE_SESSION_ENDED } from './sessions';

// Redis runs on every machine of this project (CI starts it when down), so the scaled-out path is
// tested in both CI runs: two app nodes, one database, one Redis.
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

let nodeA: TestApp;
let nodeB: TestApp;
beforeAll(async () => {
  nodeA = await createTestApp({ REDIS_URL });
  nodeB = await createTestApp({ REDIS_URL });
  await nodeB.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await nodeA.close();
  await nodeB.close();
});

describe('two nodes on one database and one Redis', () => {
  it('a status change made on node A arrives at a socket connected to node B', async () => {
    expect(nodeA.deps.bus.nodeId).not.toBe(nodeB.deps.bus.nodeId);
    const me = await buildUser(nodeA);
    const tokens = await loginTokens(nodeA, me.email);
    const port = (nodeB.app.server.address() as AddressInfo).port;
    const socket = await openSocket(`ws://127.0.0.1:${port}/v1/ws?access_token=${tokens.access_token}`);
    try {
      const [pause] = await nodeA.deps.database.db
        .select()
        .from(userStatuses)
        .where(eq(userStatuses.spaceId, me.space.id))
        .orderBy(userStatuses.position)
        .offset(1)
        .limit(1);
      const res = await nodeA.app.inject({
        method: 'PUT',
        url: '/v1/me/status',
        headers: bearer(tokens.access_token),
        payload: { status: pause!.id },
      });
      expect(res.statusCode).toBe(200);
      const pushed = await socket.waitFor((m) => m.type === 'status');
      expect(pushed).toMatchObject({ status: pause!.id, user_id: me.user.id, space_id: me.space.id });
    } finally {
      await socket.close();
    }
  });

  it("logging out on node A closes the session's socket on node B at once (issue 11 item 5)", async () => {
    const me = await buildUser(nodeA);
    const tokens = await loginTokens(nodeA, me.email);
    const port = (nodeB.app.server.address() as AddressInfo).port;
    const socket = await openSocket(`ws://127.0.0.1:${port}/v1/ws?access_token=${tokens.access_token}`);
    try {
      await socket.waitFor((m) => m.type === 'hello');
      const res = await nodeA.app.inject({
        method: 'POST',
        url: '/v1/oauth2/revoke',
        headers: bearer(tokens.access_token),
      });
      expect(res.statusCode).toBe(200);
      // No timer round on node B: the sessions.ended event through Redis closes it.
      expect(await socket.waitForClose()).toEqual({ code: CLOSE_SESSION_ENDED, reason: 'session_ended' });
    } finally {
      await socket.close();
    }
  });

  it('an administrator on node B takes over a reply held on node A: the holder there is told', async () => {
    await nodeA.app.listen({ port: 0, host: '127.0.0.1' });
    const url = (node: TestApp, headers: Record<string, string>) =>
      `ws://127.0.0.1:${(node.app.server.address() as AddressInfo).port}/v1/ws?access_token=${headers.authorization!.slice(7)}`;
    const admin = await buildAdmin(nodeA, { name: 'Ольга' });
    const anna = await buildMember(nodeA, admin.space.id, 'operator', { name: 'Анна' });
    const item = await buildComment(nodeA, await buildObject(nodeA, admin.space.id, { provider: 'sandbox' }));
    const key = `item:${item.id}`;
    const a = await openSocket(url(nodeA, anna.headers));
    const o = await openSocket(url(nodeB, admin.headers));
    try {
      await Promise.all([a.waitFor((m) => m.type === 'hello'), o.waitFor((m) => m.type === 'hello')]);
      a.send({ type: 'lock', key });
      expect(await a.waitFor((m) => m.type === 'lock' && m.key === key)).toMatchObject({ acquired: true });
      o.send({ type: 'takeover', key });
      expect(await o.waitFor((m) => m.type === 'lock' && m.key === key)).toMatchObject({ acquired: true });
      expect(await a.waitFor((m) => m.type === 'lock_lost' && m.key === key)).toMatchObject({
        reason: 'taken',
        by: { id: admin.user.id, name: 'Ольга' },
      });
    } finally {
      await Promise.all([a.close(), o.close()]);
    }
  });

  it('rate limits are shared by the nodes', async () => {
    const me = await buildUser(nodeA);
    const limitedA = await createTestApp({ REDIS_URL, AUTH_RATE_LIMIT_PER_USER: '2' });
    const limitedB = await createTestApp({ REDIS_URL, AUTH_RATE_LIMIT_PER_USER: '2' });
    try {
      const attempt = (t: TestApp) =>
        t.app.inject({
          method: 'POST',
          url: '/v1/oauth2/token',
          payload: {
            grant_type: 'password',
            client_id: 'otklik-web',
            client_secret: 'otklik-web-public',
            username: me.email,
            password: 'Wrong-pass1',
          },
        });
      expect((await attempt(limitedA)).statusCode).toBe(400);
      expect((await attempt(limitedB)).statusCode).toBe(400);
      expect((await attempt(limitedA)).statusCode).toBe(429);
    } finally {
      await limitedA.close();
      await limitedB.close();
    }
  });
});

describe.each([
  ['memory', async () => ({ store: new MemoryLockStore() as LockStore, close: async () => {} })],
  [
    'redis',
    async () => {
      const redis = new Redis(REDIS_URL);
      return {
        store: new RedisLockStore(redis, `otklik:test-lock:${Date.now()}:`) as LockStore,
        close: async () => void (await redis.quit()),
      };
    },
  ],
])('%s lock store', (_name, make) => {
  it('gives a lock to one connection, reports its holder to others, and frees it on release or expiry', async () => {
    const { store, close } = await make();
    try {
      const anna = { userId: 1, name: 'Анна', connectionId: 'c1' };
      const boris = { userId: 2, name: 'Борис', connectionId: 'c2' };
      expect(await store.acquire('item:1', anna, 5_000)).toEqual({ acquired: true, holder: anna });
      expect(await store.acquire('item:1', boris, 5_000)).toEqual({ acquired: false, holder: anna });
      expect(await store.acquire('item:1', anna, 5_000)).toEqual({ acquired: true, holder: anna });
      expect(await store.release('item:1', 'c2')).toBe(false);
      expect(await store.release('item:1', 'c1')).toBe(true);
      expect((await store.acquire('item:1', boris, 150)).acquired).toBe(true);
      expect(await store.refresh('item:1', 'c1', 5_000)).toBe(false);
      await new Promise((r) => setTimeout(r, 300));
      expect(await store.get('item:1')).toBeUndefined();
      expect((await store.acquire('item:1', anna, 5_000)).acquired).toBe(true);
    } finally {
      await close();
    }
  });

  it('a take-over replaces the holder and answers who had it; only the new holder may release', async () => {
    const { store, close } = await make();
    try {
      const anna = { userId: 1, name: 'Анна', connectionId: 'c1' };
      const olga = { userId: 3, name: 'Ольга', connectionId: 'c3' };
      expect(await store.take('item:2', anna, 5_000)).toBeUndefined();
      expect(await store.take('item:2', olga, 5_000)).toEqual(anna);
      expect(await store.get('item:2')).toEqual(olga);
      expect(await store.refresh('item:2', 'c1', 5_000)).toBe(false);
      expect(await store.release('item:2', 'c1')).toBe(false);
      expect(await store.release('item:2', 'c3')).toBe(true);
    } finally {
      await close();
    }
  });
});

describe('installs sharing one Redis server (REDIS_KEY_PREFIX)', () => {
  it("a bus hears only its own install's channel", async () => {
    const publisher = new Redis(REDIS_URL);
    const unique = `${Date.now()}${Math.random().toString(36).slice(2, 6)}`;
    // Both buses publish through one connection, so Redis hands their messages on in publishing order:
    // by the time install B hears its own second event, A's event would have arrived had it crossed over.
    const installA = new RedisBus(publisher, undefined, `test-a-${unique}:events`);
    const installB = new RedisBus(publisher, undefined, `test-b-${unique}:events`);
    const heardByB: BusEvent[] = [];
    const stop = installB.subscribe((event) => heardByB.push(event));
    try {
      await installA.publish({ type: 'companies.changed', spaceId: 1, payload: { id: 1 } });
      await installB.publish({ type: 'departments.changed', spaceId: 1, payload: { id: 2 } });
      await expect.poll(() => heardByB.length).toBe(1);
      expect(heardByB[0]).toMatchObject({ type: 'departments.changed', payload: { id: 2 } });
    } finally {
      stop();
      await installA.close();
      await installB.close();
      await publisher.quit();
    }
  });
});
