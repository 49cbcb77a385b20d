import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { commentEvent, messageEvent } from '../../../../test/inbox-helpers';
import { KeptStatements } from '../../../db/rows';
import { authors, chats, items, userGroups } from '../../../db/schema';
import { SnapshotCache, type StoredAnswer } from '../../../lib/snapshot-cache';
import { itemListQuery } from './list-params';
import { findItemsJson, itemPageSql, pageKey } from './queries';
import { ids, readKit } from './read-kit';

const page = (
  text: string,
  snapshot: string | null = 's1',
  changesAt: number | null = null,
): StoredAnswer => ({
  body: Buffer.from(text),
  snapshot,
  changesAt,
});

describe('SnapshotCache', () => {
  it('reuses a page only under the snapshot it was read in', async () => {
    const cache = new SnapshotCache({ maxBytes: 1024 });
    const load = vi.fn(async () => page('first', '10:12:'));
    expect(String(await cache.answer('k', '10:12:', load))).toBe('first');
    expect(String(await cache.answer('k', '10:12:', load))).toBe('first');
    expect(load).toHaveBeenCalledTimes(1);
    expect([cache.hits, cache.misses]).toEqual([1, 1]);

    // Any commit moves the snapshot on: the page is read again and stored under the new one.
    const reload = vi.fn(async () => page('second', '10:13:'));
    expect(String(await cache.answer('k', '10:13:', reload))).toBe('second');
    expect(String(await cache.answer('k', '10:13:', reload))).toBe('second');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(cache.peek('k')?.snapshot).toBe('10:13:');
  });

  it('keeps nothing without a snapshot, or without a caller snapshot, or with no memory', async () => {
    const cache = new SnapshotCache({ maxBytes: 1024 });
    const empty = vi.fn(async () => page('{"items":[]}', null));
    await cache.answer('k', '1:1:', empty);
    await cache.answer('k', '1:1:', empty);
    expect(empty).toHaveBeenCalledTimes(2);
    expect(cache.peek('k')).toBeUndefined();

    const load = vi.fn(async () => page('x', '1:1:'));
    await cache.answer('k', undefined, load);
    expect(cache.peek('k')).toBeUndefined();

    const off = new SnapshotCache({ maxBytes: 0 });
    await off.answer('k', '1:1:', load);
    await off.answer('k', '1:1:', load);
    expect(load).toHaveBeenCalledTimes(3);
    expect(off.peek('k')).toBeUndefined();
  });

  it('ends an entry when a block on its page ends, and after the maximum age', async () => {
    let now = 1_000_000;
    const cache = new SnapshotCache({ maxBytes: 1024, maxAgeMs: 60_000, now: () => now });
    const load = vi.fn(async () => page('blocked', 's', now + 5_000));
    await cache.answer('k', 's', load);
    now += 4_999;
    await cache.answer('k', 's', load);
    expect(load).toHaveBeenCalledTimes(1);
    now += 1;
    await cache.answer('k', 's', load);
    expect(load).toHaveBeenCalledTimes(2);

    const plain = vi.fn(async () => page('plain', 's'));
    await cache.answer('p', 's', plain);
    now += 59_999;
    await cache.answer('p', 's', plain);
    expect(plain).toHaveBeenCalledTimes(1);
    now += 1;
    await cache.answer('p', 's', plain);
    expect(plain).toHaveBeenCalledTimes(2);
  });

  it('stays within its memory, dropping the oldest pages first', async () => {
    const cache = new SnapshotCache({ maxBytes: 10 });
    await cache.answer('a', 's', async () => page('aaaa', 's'));
    await cache.answer('b', 's', async () => page('bbbb', 's'));
    await cache.answer('c', 's', async () => page('cccc', 's'));
    expect(cache.peek('a')).toBeUndefined();
    expect(String(cache.peek('b')?.body)).toBe('bbbb');
    expect(String(cache.peek('c')?.body)).toBe('cccc');
    // A page larger than the whole budget is served and not kept.
    expect(String(await cache.answer('d', 's', async () => page('dddddddddddd', 's')))).toBe('dddddddddddd');
    expect(cache.peek('d')).toBeUndefined();
  });

  it('runs one statement for concurrent misses, and hands its error to every waiter', async () => {
    const cache = new SnapshotCache({ maxBytes: 1024 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const load = vi.fn(async () => {
      await gate;
      return page('once', 's');
    });
    const both = Promise.all([cache.answer('k', 's', load), cache.answer('k', 's', load)]);
    release();
    expect((await both).map(String)).toEqual(['once', 'once']);
    expect(load).toHaveBeenCalledTimes(1);

    const failing = vi.fn(async () => {
      throw new Error('statement failed');
    });
    const results = await Promise.allSettled([
      cache.answer('f', 's', failing),
      cache.answer('f', 's', failing),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(failing).toHaveBeenCalledTimes(1);
    expect(cache.peek('f')).toBeUndefined();
  });
});

describe('list pages on the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const { db, buildTeam, buildMember, ingestEvents, get } = readKit(() => t);
  type Listed = { items: Array<{ id: number; text: string; author: { is_blocked: boolean } | null }> };

  it('shows a change made straight in the database, with no event from the app', async () => {
    const team = await buildTeam();
    const { itemIds } = await ingestEvents(team.vk, [commentEvent({ text: 'Before' })]);
    const before = await get<Listed>(team.headers, '/v1/items');
    expect(before.items.map((i) => i.text)).toEqual(['Before']);

    await db().update(items).set({ text: 'Changed in psql' }).where(eq(items.id, itemIds[0]!));
    const after = await get<Listed>(team.headers, '/v1/items');
    expect(after.items.map((i) => i.text)).toEqual(['Changed in psql']);

    await ingestEvents(team.vk, [messageEvent({ text: 'Hi' })]);
    const chatsBefore = await get<{ items: Array<{ id: number; status: string }> }>(
      team.headers,
      '/v1/chats',
    );
    expect(chatsBefore.items.map((c) => c.status)).toEqual(['new']);
    await db().update(chats).set({ status: 'closed' }).where(eq(chats.id, chatsBefore.items[0]!.id));
    expect((await get<{ items: unknown[] }>(team.headers, '/v1/chats')).items).toEqual([]);
  });

  it('serves a stored page for the same snapshot without asking the database', async () => {
    const team = await buildTeam();
    await ingestEvents(team.vk, [commentEvent({ text: 'Stored' })]);
    const scope = { spaces: new Map<number, number[] | null>([[team.space.id, null]]) };
    const params = itemListQuery.parse({});
    const cache = new SnapshotCache({ maxBytes: 1024 * 1024 });
    const first = await findItemsJson(t.deps.database, scope, params, { cache, snapshot: 'caller' });
    const entry = cache.peek(pageKey('items', scope, params));
    expect(entry?.snapshot).toMatch(/^\d+:\d+:/);

    const query = vi.spyOn(t.deps.database, 'query');
    const prepared = vi.spyOn(t.deps.database, 'queryPrepared');
    try {
      const again = await findItemsJson(t.deps.database, scope, params, { cache, snapshot: entry!.snapshot });
      expect(String(again)).toBe(String(first));
      expect(JSON.parse(String(again)).items[0].text).toBe('Stored');
      expect(query).not.toHaveBeenCalled();
      expect(prepared).not.toHaveBeenCalled();
      await findItemsJson(t.deps.database, scope, params, { cache, snapshot: `${entry!.snapshot}1` });
      expect(prepared).toHaveBeenCalledTimes(1);
    } finally {
      query.mockRestore();
      prepared.mockRestore();
    }
  });

  it('never hands one scope the page of another', async () => {
    const team = await buildTeam();
    await ingestEvents(team.vk, [commentEvent({ text: 'On VK' })]);
    await ingestEvents(team.sandbox, [commentEvent({ text: 'On the sandbox' })]);
    const [group] = await db()
      .insert(userGroups)
      .values({ spaceId: team.space.id, name: 'Sandbox desk', objectIds: [team.sandbox.id] })
      .returning();
    const limited = await buildMember(team.space.id, 'operator', { groupId: group!.id });
    expect((await get<Listed>(team.headers, '/v1/items')).items).toHaveLength(2);
    expect((await get<Listed>(limited.headers, '/v1/items')).items.map((i) => i.text)).toEqual([
      'On the sandbox',
    ]);
    expect((await get<Listed>(team.headers, '/v1/items')).items).toHaveLength(2);
  });

  it('builds a list statement once per request and never lends it to another request', async () => {
    const team = await buildTeam();
    await ingestEvents(team.vk, [commentEvent({ text: 'Kept statement' })]);
    const scope = { spaces: new Map<number, number[] | null>([[team.space.id, null]]) };
    const narrower = { spaces: new Map<number, number[] | null>([[team.space.id, [team.sandbox.id]]]) };
    const build = vi.fn(itemPageSql);
    const kept = new KeptStatements(3);
    const statementOf = (s: typeof scope, query: Record<string, string>) => {
      const p = itemListQuery.parse(query);
      return kept.get(pageKey('items', s, p), () => build(s, p));
    };

    const first = statementOf(scope, {});
    expect(statementOf(scope, {})).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
    expect(first?.name).toMatch(/^otklik_[0-9a-f]{24}$/);
    expect(Object.isFrozen(first?.params)).toBe(true);

    // Another scope, another filter or another page: built anew, with its own text.
    const limited = statementOf(narrower, {});
    const filtered = statementOf(scope, { q: 'Kept' });
    expect(build).toHaveBeenCalledTimes(3);
    expect(new Set([first?.text, limited?.text, filtered?.text]).size).toBe(3);
    // Only the last `max` are kept: the least recently used goes first.
    expect(statementOf(scope, {})).toBe(first);
    statementOf(scope, { object_id: String(team.vk.id) });
    expect(kept.size).toBe(3);
    expect(statementOf(scope, {})).toBe(first);
    expect(build).toHaveBeenCalledTimes(4);
    statementOf(narrower, {});
    expect(build).toHaveBeenCalledTimes(5);

    // Served through the kept statements: each scope still gets its own rows, read at the time asked.
    const listed = async (s: typeof scope) =>
      JSON.parse(String(await findItemsJson(t.deps.database, s, itemListQuery.parse({})))) as Listed;
    expect((await listed(scope)).items.map((i) => i.text)).toEqual(['Kept statement']);
    expect((await listed(narrower)).items).toEqual([]);
    await ingestEvents(team.sandbox, [commentEvent({ text: 'Later, on the sandbox' })]);
    expect((await listed(narrower)).items.map((i) => i.text)).toEqual(['Later, on the sandbox']);
    expect((await listed(scope)).items).toHaveLength(2);
  });

  it('ends a stored page when a block shown on it ends', async () => {
    const team = await buildTeam();
    const { itemIds } = await ingestEvents(team.vk, [commentEvent({ text: 'From a blocked author' })]);
    const [item] = await db().select().from(items).where(eq(items.id, itemIds[0]!));
    const until = new Date(Date.now() + 30_000);
    await db().update(authors).set({ blockedUntil: until }).where(eq(authors.id, item!.authorId!));
    const listed = await get<Listed>(team.headers, '/v1/items');
    expect(ids(listed)).toEqual([item!.id]);
    expect(listed.items[0]!.author?.is_blocked).toBe(true);

    const scope = { spaces: new Map<number, number[] | null>([[team.space.id, null]]) };
    const entry = t.app.listPages.peek(pageKey('items', scope, itemListQuery.parse({})));
    expect(entry).toBeDefined();
    expect(entry!.expiresAt).toBeLessThanOrEqual(until.getTime());
    expect(entry!.expiresAt).toBeGreaterThan(until.getTime() - 1_000);
  });
});
