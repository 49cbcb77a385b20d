import { STATS_READ_AT_HEADER } from '@otklik/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../../test/harness';
import { items } from '../../db/schema';
import { SnapshotCache } from '../../lib/snapshot-cache';
import { buildAdmin, buildMember, buildObject, buildUserGroup } from '../authors/test-helpers';
import { statsAnswerReuse } from './answer-reuse';

// Statistics answers are reused only while the database is unchanged (answer-reuse.ts). Whether two
// real requests share a snapshot depends on every other commit on the server (on PostgreSQL other test
// files write at the same time), so reuse itself is counted on pinned snapshots; the database tests
// check that what is served is never older than the data nor another caller's.

let t: TestApp;
let off: TestApp;
let windowed: TestApp;
beforeAll(async () => {
  [t, off, windowed] = await Promise.all([
    createTestApp(),
    createTestApp({ STATS_CACHE_MB: '0' }),
    createTestApp({ STATS_FRESH_S: '30' }),
  ]);
});
afterAll(async () => {
  await Promise.all([t.close(), off.close(), windowed.close()]);
});

// The period is read in the space's time zone (Europe/Moscow), whose day is not UTC's from 21:00 UTC on:
// a period from UTC's yesterday to its tomorrow holds the items made now, whatever the hour.
const utcDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

async function space(app: TestApp) {
  const admin = await buildAdmin(app);
  const a1 = await buildObject(app, admin.space.id, { provider: 'sandbox' });
  const a2 = await buildObject(app, admin.space.id, { provider: 'telegram' });
  let n = 0;
  const addItem = async (objectId: number) => {
    n += 1;
    await app.deps.database.db.insert(items).values({
      spaceId: admin.space.id,
      objectId,
      kind: 'comment',
      externalId: `reuse-${n}`,
      createdAt: new Date(),
    });
  };
  await addItem(a1.id);
  await addItem(a2.id);
  return { admin, a1, a2, addItem };
}

async function overview(
  app: TestApp,
  headers: Record<string, string | undefined>,
  spaceId: number,
  extra = '',
) {
  const res = await app.app.inject({
    url: `/v1/stats/overview?space_id=${spaceId}&from=${utcDay(-1)}&to=${utcDay(1)}${extra}`,
    headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

describe('statsAnswerReuse', () => {
  // Requests stand in for Fastify's: what the reuse reads (caller, snapshot, route, query) and a reply
  // that records what is sent.
  const request = (
    snapshot: string,
    userId = 1,
    query: Record<string, unknown> = { preset: '30d' },
    headers: Record<string, string> = {},
  ) =>
    ({
      auth: { user: { id: userId }, memberships: [{ space: { id: 7 } }], snapshot },
      routeOptions: { url: '/v1/stats/overview' },
      params: {},
      query,
      headers,
    }) as unknown as FastifyRequest;
  const reply = () => {
    const sent: { type?: string; body?: unknown; headers: Record<string, string> } = { headers: {} };
    const r = {
      type(value: string) {
        sent.type = value;
        return r;
      },
      header(name: string, value: string) {
        sent.headers[name] = value;
        return r;
      },
      send(body: unknown) {
        sent.body = body;
        return r;
      },
    };
    return { r: r as unknown as FastifyReply, sent };
  };
  const answer = z.object({ n: z.number() });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the statements once per caller, query, snapshot and minute; sends the schema-shaped bytes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-27T10:00:05Z'));
    const reused = statsAnswerReuse(new SnapshotCache({ maxBytes: 1024 }));
    let n = 0;
    const run = vi.fn(async () => ({ n: ++n, dropped: 'not in the schema' }));
    const send = async (req: FastifyRequest) => {
      const { r, sent } = reply();
      await reused(req, r, answer, run);
      expect(sent.type).toBe('application/json; charset=utf-8');
      return String(sent.body);
    };
    expect(await send(request('5:9:'))).toBe('{"n":1}');
    expect(await send(request('5:9:'))).toBe('{"n":1}');
    expect(run).toHaveBeenCalledTimes(1);
    expect(await send(request('5:10:'))).toBe('{"n":2}'); // something committed
    expect(await send(request('5:10:', 2))).toBe('{"n":3}'); // another caller
    expect(await send(request('5:10:', 1, { preset: '7d' }))).toBe('{"n":4}'); // another query
    expect(await send(request('5:10:'))).toBe('{"n":2}');
    vi.setSystemTime(new Date('2026-11-27T10:01:00Z')); // the clock alone moves the figures on
    expect(await send(request('5:10:'))).toBe('{"n":5}');
    expect(run).toHaveBeenCalledTimes(5);
  });

  it('within the freshness window the same caller gets the answer already read, with its age', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-27T10:00:00Z'));
    const reused = statsAnswerReuse(new SnapshotCache({ maxBytes: 1024 }), 30_000);
    let n = 0;
    const run = vi.fn(async () => ({ n: ++n }));
    const send = async (req: FastifyRequest) => {
      const { r, sent } = reply();
      await reused(req, r, answer, run);
      expect(sent.headers[STATS_READ_AT_HEADER]).toBe(
        new Date(Date.now() - Number(sent.headers.age) * 1000).toISOString(),
      );
      return `${String(sent.body)} age ${sent.headers.age}`;
    };
    expect(await send(request('5:9:'))).toBe('{"n":1} age 0');
    vi.setSystemTime(new Date('2026-11-27T10:00:12Z'));
    // Commits moved the snapshot, but the answer read 12 s ago is inside the window.
    expect(await send(request('6:20:'))).toBe('{"n":1} age 12');
    expect(await send(request('6:20:', 2))).toBe('{"n":2} age 0'); // never another caller's
    // Refresh (Cache-Control: no-cache) reads anew and stores what it read.
    expect(await send(request('6:20:', 1, { preset: '30d' }, { 'cache-control': 'no-cache' }))).toBe(
      '{"n":3} age 0',
    );
    vi.setSystemTime(new Date('2026-11-27T10:00:41Z'));
    expect(await send(request('7:30:'))).toBe('{"n":3} age 29');
    vi.setSystemTime(new Date('2026-11-27T10:00:42Z')); // 30 s after it was read: read again
    expect(await send(request('7:30:'))).toBe('{"n":4} age 0');
    // The clock's minute still bounds every answer (figures that move with the clock alone).
    vi.setSystemTime(new Date('2026-11-27T10:01:00Z'));
    expect(await send(request('7:30:'))).toBe('{"n":5} age 0');
    expect(run).toHaveBeenCalledTimes(5);
  });

  it('stores nothing when turned off (0 MB)', async () => {
    const reused = statsAnswerReuse(new SnapshotCache({ maxBytes: 0 }));
    const run = vi.fn(async () => ({ n: 1 }));
    await reused(request('1:1:'), reply().r, answer, run);
    await reused(request('1:1:'), reply().r, answer, run);
    expect(run).toHaveBeenCalledTimes(2);
  });
});

describe('statistics answers on the database', () => {
  it('a write makes the next answer fresh; another query is another entry', async () => {
    const s = await space(t);
    const first = await overview(t, s.admin.headers, s.admin.space.id);
    expect(first.json().current.incoming.items).toBe(2);
    // Asked again, the figures are the same whether the answer was stored or run again.
    expect((await overview(t, s.admin.headers, s.admin.space.id)).body).toBe(first.body);

    // A new item commits: every later request's snapshot differs, so it runs and counts the item.
    await s.addItem(s.a1.id);
    const after = await overview(t, s.admin.headers, s.admin.space.id);
    expect(after.json().current.incoming.items).toBe(3);
    const compared = await overview(t, s.admin.headers, s.admin.space.id, '&compare=1');
    expect(compared.json().previous).toBeTruthy();
  });

  it('never hands one caller the figures read for another (group limits differ)', async () => {
    const s = await space(t);
    const group = await buildUserGroup(t, s.admin.space.id, [s.a2.id]);
    const limited = await buildMember(t, s.admin.space.id, 'analyst', { groupId: group.id });
    // Both read under the same snapshot (nothing commits between them): the admin's answer is stored
    // first, and the limited analyst still gets only the group's account.
    const full = await overview(t, s.admin.headers, s.admin.space.id);
    const mine = await overview(t, limited.headers, s.admin.space.id);
    expect(full.json().current.incoming.items).toBe(2);
    expect(mine.json().current.incoming.items).toBe(1);
    const again = await overview(t, limited.headers, s.admin.space.id);
    expect(again.json().current.incoming.items).toBe(1);
  });

  it('STATS_FRESH_S: a write shows after the window or on Refresh, and never crosses callers', async () => {
    const s = await space(windowed);
    const spaceId = s.admin.space.id;
    const first = await overview(windowed, s.admin.headers, spaceId);
    expect(first.json().current.incoming.items).toBe(2);
    expect(Number(first.headers.age)).toBeLessThanOrEqual(1);
    await s.addItem(s.a1.id);
    const minute = Math.floor(Date.now() / 60_000);
    const within = await overview(windowed, s.admin.headers, spaceId);
    // The same minute (the key's clock part): the answer read before the write, at most 30 s old.
    if (Math.floor(Date.now() / 60_000) === minute) {
      expect(within.json().current.incoming.items).toBe(2);
      expect(Number(within.headers.age)).toBeLessThan(30);
    }
    const refreshed = await overview(windowed, { ...s.admin.headers, 'cache-control': 'no-cache' }, spaceId);
    expect(refreshed.json().current.incoming.items).toBe(3);
    expect(refreshed.headers.age).toBe('0');
    // What Refresh read is what the next request gets.
    expect((await overview(windowed, s.admin.headers, spaceId)).json().current.incoming.items).toBe(3);
    // Another member of the space reads for themselves.
    const analyst = await buildMember(windowed, spaceId, 'analyst');
    expect((await overview(windowed, analyst.headers, spaceId)).json().current.incoming.items).toBe(3);
  });

  it('the live wall is always computed; STATS_CACHE_MB=0 turns reuse off', async () => {
    const s = await space(t);
    const cache = t.app.statsAnswers;
    const { hits, misses } = cache;
    for (let i = 0; i < 2; i += 1) {
      const res = await t.app.inject({
        url: `/v1/stats/live?space_id=${s.admin.space.id}`,
        headers: s.admin.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect([cache.hits, cache.misses]).toEqual([hits, misses]);
    await overview(t, s.admin.headers, s.admin.space.id);
    expect(cache.hits + cache.misses).toBe(hits + misses + 1);

    const o = await space(off);
    await overview(off, o.admin.headers, o.admin.space.id);
    await overview(off, o.admin.headers, o.admin.space.id);
    expect(off.app.statsAnswers.hits).toBe(0);
    expect(off.app.statsAnswers.misses).toBe(0);
  });
});
