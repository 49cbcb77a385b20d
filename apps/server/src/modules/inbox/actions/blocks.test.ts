import { BLOCK_DURATION_SECONDS, BLOCK_DURATIONS, type BlockDuration } from '@otklik/shared';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import {
  buildChat,
  buildComment,
  buildObject,
  buildWorkspace,
  fakeConnector,
} from '../../../../test/inbox-actions';
import { authors, type objects, outbox } from '../../../db/schema';
import { registerConnector } from '../../../providers/registry';

// docs/product/limits.md block durations — hour, week, month, 3 months, year, forever — through the API on the real
// database: each sets authors.blocked_until to the moment of blocking plus the shared constant (forever:
// no end, blocked_forever), the API shows it, and the network ban is queued with the same end.

let t: TestApp;
let headers: Record<string, string>;
let account: typeof objects.$inferSelect;
let undo: () => void;

beforeAll(async () => {
  t = await createTestApp();
  // VK bans on the network too (catalogue `block`); a stand-in connector, as nothing is sent here.
  undo = registerConnector(fakeConnector('vk').connector);
  const admin = await buildWorkspace(t);
  headers = admin.headers;
  account = await buildObject(t, admin.space.id, { provider: 'vk' });
});
afterAll(async () => {
  undo();
  await t.close();
});

async function block(authorId: number, duration: string) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/authors/${authorId}/block`,
    headers,
    payload: { duration },
  });
}

async function authorRow(id: number) {
  const [row] = await t.deps.database.db.select().from(authors).where(eq(authors.id, id));
  return row!;
}

async function lastBan(authorId: number) {
  const [row] = await t.deps.database.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.objectId, account.id), eq(outbox.action, 'block')))
    .orderBy(desc(outbox.id))
    .limit(1);
  const author = await authorRow(authorId);
  expect(row!.payload.authorExternalId).toBe(author.externalId);
  return row!;
}

describe('block durations (docs/product/limits.md)', () => {
  it('offers exactly the six durations of the spec', () => {
    expect([...BLOCK_DURATIONS]).toEqual(['hour', 'week', 'month', '3months', 'year', 'forever']);
  });

  it.each(BLOCK_DURATIONS.filter((d) => d !== 'forever'))(
    '%s: blocked until now + its seconds',
    async (duration: BlockDuration) => {
      const seconds = BLOCK_DURATION_SECONDS[duration]!;
      const { authorId } = await buildComment(t, account);
      const before = Date.now();
      const res = await block(authorId!, duration);
      const after = Date.now();
      expect(res.statusCode, res.body).toBe(200);

      const row = await authorRow(authorId!);
      expect(row.blockedForever).toBe(false);
      const until = row.blockedUntil!.getTime();
      expect(until).toBeGreaterThanOrEqual(before + seconds * 1000);
      expect(until).toBeLessThanOrEqual(after + seconds * 1000);

      const { author, network } = res.json();
      expect(author).toMatchObject({
        id: authorId,
        blocked_until: Math.floor(until / 1000),
        blocked_forever: false,
        is_blocked: true,
      });
      expect(network).toBe('queued');
      expect((await lastBan(authorId!)).payload.until).toBe(row.blockedUntil!.toISOString());
    },
  );

  it('forever: no end date, blocked_forever', async () => {
    const { authorId } = await buildComment(t, account);
    const res = await block(authorId!, 'forever');
    expect(res.statusCode, res.body).toBe(200);
    expect(await authorRow(authorId!)).toMatchObject({ blockedUntil: null, blockedForever: true });
    expect(res.json().author).toMatchObject({ blocked_until: null, blocked_forever: true, is_blocked: true });
    expect((await lastBan(authorId!)).payload.until).toBeNull();
  });

  it('a new block replaces the previous one, and unblocking clears it', async () => {
    const { authorId } = await buildComment(t, account);
    await block(authorId!, 'forever');
    const shorter = await block(authorId!, 'hour');
    expect(shorter.json().author).toMatchObject({ blocked_forever: false, is_blocked: true });
    const row = await authorRow(authorId!);
    expect(row.blockedForever).toBe(false);
    expect(row.blockedUntil!.getTime() - Date.now()).toBeLessThanOrEqual(3_600_000);
    const unblocked = await t.app.inject({ method: 'POST', url: `/v1/authors/${authorId}/unblock`, headers });
    expect(unblocked.statusCode).toBe(200);
    expect(unblocked.json().author).toMatchObject({
      blocked_until: null,
      blocked_forever: false,
      is_blocked: false,
    });
    expect(await authorRow(authorId!)).toMatchObject({ blockedUntil: null, blockedForever: false });
  });

  it('refuses a duration the spec does not list', async () => {
    const { authorId } = await buildComment(t, account);
    for (const duration of ['day', '2weeks', '', 'FOREVER']) {
      const res = await block(authorId!, duration);
      expect(res.statusCode, duration).toBe(400);
    }
    expect(await authorRow(authorId!)).toMatchObject({ blockedUntil: null, blockedForever: false });
  });
});

describe('networks whose API cannot ban (issue 13 #15)', () => {
  it('refuses the block with a translated reason, in ru and en, and stores nothing', async () => {
    const viber = await buildObject(t, account.spaceId, { provider: 'viber' });
    const chat = await buildChat(t, viber);
    const ru = await block(chat.authorId!, 'week');
    expect(ru.statusCode).toBe(400);
    expect(ru.json().error).toBe('API Viber не позволяет заблокировать автора');
    // The answer speaks the user's language.
    const me = (locale: string) =>
      t.app.inject({ method: 'PUT', url: '/v1/me', headers, payload: { locale } });
    expect((await me('en')).statusCode).toBe(200);
    const en = await block(chat.authorId!, 'week');
    expect((await me('ru')).statusCode).toBe(200);
    expect(en.statusCode).toBe(400);
    expect(en.json().error).toBe("Viber's API does not allow blocking an author");
    expect(await authorRow(chat.authorId!)).toMatchObject({ blockedUntil: null, blockedForever: false });
    const queued = await t.deps.database.db.select().from(outbox).where(eq(outbox.objectId, viber.id));
    expect(queued).toHaveLength(0);
  });
});
