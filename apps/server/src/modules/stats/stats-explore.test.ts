import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { activity, chats, items, itemTags, messages, spaces, tags } from '../../db/schema';
import { buildAdmin, buildMember, buildObject } from '../authors/test-helpers';

// The operator filter, /analytics (GET /v1/stats/explore), the comparison on the team, closings, team
// time, tags and hours tabs, and business-hours FRT on the dashboard and the wall (docs/statistics.md
// "Filters", "Analytics", "Comparison", "Business hours"). Every expectation is counted by hand from the
// seed below. The space is in UTC: the period is Nov 10..11 2026, the previous one Nov 8..9.
//
//   x1 sandbox comment Nov 10 10:00, assigned Anna, first reply 10:10 by Anna (600 s), B replies 10:20,
//      closed with reply by Anna 11:00, tagged Delivery
//   x2 sandbox review  Nov 10 12:00, assigned Boris, first reply 12:30 by Boris (1800 s)
//   x3 telegram comment Nov 11 09:00, assigned Anna, no reply
//   x4 telegram comment Nov 11 10:00, unassigned, first reply 11:00 by Anna (3600 s), closed by a rule 12:00
//   c1 sandbox dialog, first customer message Nov 11 08:00, assigned Boris, no reply
//   p1 sandbox comment Nov 9 10:00 (Monday), assigned Anna, first reply 10:05 by Anna (300 s), Delivery

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const Z = (iso: string) => new Date(iso);
const PERIOD = 'from=2026-11-10&to=2026-11-11';

async function seed() {
  const db = t.deps.database.db;
  const admin = await buildAdmin(t, { labels: true, analytics: true });
  const spaceId = admin.space.id;
  await db.update(spaces).set({ timezone: 'UTC' }).where(eq(spaces.id, spaceId));
  const a1 = await buildObject(t, spaceId, { provider: 'sandbox' });
  const a2 = await buildObject(t, spaceId, { provider: 'telegram' });
  const anna = await buildMember(t, spaceId, 'operator', { name: 'Anna' });
  const boris = await buildMember(t, spaceId, 'operator', { name: 'Boris' });
  const A = anna.user.id;
  const B = boris.user.id;
  const [delivery] = await db.insert(tags).values({ spaceId, name: 'Delivery' }).returning();
  let n = 0;
  const item = async (object: typeof a1, values: Partial<typeof items.$inferInsert>) => {
    n += 1;
    const [row] = await db
      .insert(items)
      .values({
        spaceId,
        objectId: object.id,
        kind: 'comment',
        externalId: `e-${n}`,
        ...values,
      } as typeof items.$inferInsert)
      .returning();
    return row!;
  };
  const act = (
    row: { id: number; objectId: number },
    type: 'item.replied' | 'item.status',
    by: number | null,
    at: string,
    data: Record<string, unknown>,
  ) => ({
    spaceId,
    type,
    userId: by,
    causeKind: by === null ? ('rule' as const) : ('user' as const),
    causeId: by,
    itemId: row.id,
    objectId: row.objectId,
    at: Z(at),
    data,
  });
  const x1 = await item(a1, {
    createdAt: Z('2026-11-10T10:00:00Z'),
    assignedUserId: A,
    firstReplyAt: Z('2026-11-10T10:10:00Z'),
    status: 'closed',
    closeReason: 'reply',
    closedAt: Z('2026-11-10T11:00:00Z'),
  });
  const x2 = await item(a1, {
    kind: 'review',
    createdAt: Z('2026-11-10T12:00:00Z'),
    assignedUserId: B,
    firstReplyAt: Z('2026-11-10T12:30:00Z'),
  });
  await item(a2, { createdAt: Z('2026-11-11T09:00:00Z'), assignedUserId: A });
  const x4 = await item(a2, {
    createdAt: Z('2026-11-11T10:00:00Z'),
    firstReplyAt: Z('2026-11-11T11:00:00Z'),
    status: 'closed',
    closeReason: 'autorule',
    closedAt: Z('2026-11-11T12:00:00Z'),
  });
  const p1 = await item(a1, {
    createdAt: Z('2026-11-09T10:00:00Z'),
    assignedUserId: A,
    firstReplyAt: Z('2026-11-09T10:05:00Z'),
  });
  const [c1] = await db
    .insert(chats)
    .values({
      spaceId,
      objectId: a1.id,
      externalId: 'ec-1',
      status: 'new',
      assignedUserId: B,
      lastMessageAt: Z('2026-11-11T08:00:00Z'),
    })
    .returning();
  await db.insert(messages).values({
    spaceId,
    chatId: c1!.id,
    isOwn: false,
    createdAt: Z('2026-11-11T08:00:00Z'),
    externalId: 'em-1',
  });
  await db.insert(itemTags).values([
    { itemId: x1.id, tagId: delivery!.id, spaceId },
    { itemId: p1.id, tagId: delivery!.id, spaceId },
  ]);
  await db
    .insert(activity)
    .values([
      act(x1, 'item.replied', A, '2026-11-10T10:10:00Z', { first: true }),
      act(x1, 'item.replied', B, '2026-11-10T10:20:00Z', { first: false }),
      act(x1, 'item.status', A, '2026-11-10T11:00:00Z', { to: 'closed', close_reason: 'reply' }),
      act(x2, 'item.replied', B, '2026-11-10T12:30:00Z', { first: true }),
      act(x4, 'item.replied', A, '2026-11-11T11:00:00Z', { first: true }),
      act(x4, 'item.status', null, '2026-11-11T12:00:00Z', { to: 'closed', close_reason: 'autorule' }),
      act(p1, 'item.replied', A, '2026-11-09T10:05:00Z', { first: true }),
    ]);
  return { admin, spaceId, A, B, anna, delivery: delivery! };
}

let s: Awaited<ReturnType<typeof seed>>;
beforeAll(async () => {
  s = await seed();
});

async function get(path: string, query: string, headers = s.admin.headers) {
  return t.app.inject({ url: `/v1/stats/${path}?space_id=${s.spaceId}&${query}`, headers });
}
async function ok(path: string, query: string) {
  const res = await get(path, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('stats — the operator filter', () => {
  it('unit figures count the items and dialogs assigned to the operator now', async () => {
    const anna = await ok('overview', `${PERIOD}&operator_id=${s.A}`);
    // x1 and x3; x1 replied in 600 s and closed with reply. x4 (unassigned, answered by Anna) is not hers.
    expect(anna.current.incoming).toEqual({ items: 2, chats: 0, messages: 0 });
    expect(anna.current.replied).toBe(1);
    expect(anna.current.first_response).toEqual({ count: 1, median: 600, p90: 600 });
    expect(anna.current.closed).toEqual({ reply: 1, noreply: 0, autorule: 0 });
    // Open and hers now: x3 and p1.
    expect(anna.backlog).toMatchObject({ items: 2, chats: 0 });
    const boris = await ok('overview', `${PERIOD}&operator_id=${s.B}`);
    expect(boris.current.incoming).toEqual({ items: 1, chats: 1, messages: 1 });
    const both = await ok('overview', `${PERIOD}&operator_id=${s.A}&operator_id=${s.B}`);
    expect(both.current.incoming).toEqual({ items: 3, chats: 1, messages: 1 });
    const all = await ok('overview', PERIOD);
    expect(all.current.incoming).toEqual({ items: 4, chats: 1, messages: 1 });
  });

  it("people figures keep the operator's own rows and actions, whoever the item is assigned to", async () => {
    const all = await ok('operators', PERIOD);
    expect(all.rows.map((r: { name: string }) => r.name)).toEqual(['Anna', 'Boris']);
    const anna = await ok('operators', `${PERIOD}&operator_id=${s.A}`);
    // Replies x1 and x4 (x4 is not assigned to her), closed x1, first replies x1 600 s and x4 3600 s.
    expect(anna.rows).toEqual([
      expect.objectContaining({ name: 'Anna', replies: 2, closed: 1, first_replies: 2, frt_median: 600 }),
    ]);
    expect(anna.rows[0]).toEqual(all.rows[0]);
    const closed = await ok('closed', `${PERIOD}&operator_id=${s.A}`);
    // The rule's closing of x4 is nobody's: it leaves under an operator filter.
    expect(closed.rows).toEqual([
      { user_id: s.A, name: 'Anna', reply: 1, noreply: 0, autorule: 0, total: 1 },
    ]);
    expect((await ok('closed', PERIOD)).rows).toHaveLength(2);
    const times = await ok('operator-times', `${PERIOD}&operator_id=${s.B}`);
    expect(times.rows).toEqual([
      expect.objectContaining({ name: 'Boris', first_replies: { count: 1, median: 1800, p90: 1800 } }),
    ]);
    const live = await ok('live', `operator_id=${s.A}`);
    const people = live.statuses.flatMap((x: { users: { name: string }[] }) => x.users.map((u) => u.name));
    expect(people).toEqual(['Anna']);
  });

  it('an operator id outside the space counts nothing and a bad one is refused', async () => {
    const other = await buildAdmin(t);
    const none = await ok('overview', `${PERIOD}&operator_id=${other.user.id}`);
    expect(none.current.incoming).toEqual({ items: 0, chats: 0, messages: 0 });
    expect((await get('overview', `${PERIOD}&operator_id=x`)).statusCode).toBe(400);
  });
});

describe('stats — comparison on the team, closings, team time, tags and hours', () => {
  it('each carries the previous period counted by the same query', async () => {
    const ops = await ok('operators', `${PERIOD}&compare=1`);
    expect(ops.previous.period).toMatchObject({ from: '2026-11-08', to: '2026-11-09' });
    expect(ops.previous.rows).toEqual([
      expect.objectContaining({ name: 'Anna', replies: 1, closed: 0, first_replies: 1, frt_median: 300 }),
    ]);
    const times = await ok('operator-times', `${PERIOD}&compare=1`);
    expect(times.previous.rows).toEqual([
      expect.objectContaining({ name: 'Anna', first_replies: { count: 1, median: 300, p90: 300 } }),
    ]);
    expect((await ok('closed', `${PERIOD}&compare=1`)).previous.rows).toEqual([]);
    const tagStats = await ok('tags', `${PERIOD}&compare=1`);
    expect(tagStats.tags).toEqual([{ tag_id: s.delivery.id, name: 'Delivery', count: 1 }]);
    expect(tagStats.previous.tags).toEqual([{ tag_id: s.delivery.id, name: 'Delivery', count: 1 }]);
    expect(tagStats.previous.rows).toEqual([{ day: '2026-11-09', tag_id: s.delivery.id, count: 1 }]);
    const hours = await ok('hours', `${PERIOD}&compare=1`);
    // Nov 9 2026 is a Monday: p1 at 10:00.
    expect(hours.previous.cells).toEqual([{ weekday: 1, hour: 10, count: 1 }]);
    expect((await ok('hours', PERIOD)).previous).toBeNull();
  });
});

describe('analytics (stats/explore)', () => {
  type Row = { key: string; name: string | null; figures: { incoming: { items: number; chats: number } } };
  const byKey = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.key, r]));

  it('by network: each row is the overview with that network, the total the whole; compare by key', async () => {
    const body = await ok('explore', `${PERIOD}&by=provider&compare=1`);
    const rows = byKey(body.rows);
    expect(Object.keys(rows).sort()).toEqual(['sandbox', 'telegram']);
    expect(rows.sandbox!.figures.incoming).toEqual({ items: 2, chats: 1, messages: 1 });
    expect(rows.telegram!.figures.incoming).toEqual({ items: 2, chats: 0, messages: 0 });
    expect(body.total.figures.incoming).toEqual({ items: 4, chats: 1, messages: 1 });
    // Resolution: x1 3600 s (sandbox), x4 7200 s (telegram).
    expect(rows.sandbox).toMatchObject({ resolution: { count: 1, median: 3600, p90: 3600 }, business: null });
    expect(rows.telegram).toMatchObject({ resolution: { count: 1, median: 7200, p90: 7200 } });
    const previous = byKey(body.previous.rows);
    expect(previous.sandbox!.figures.incoming).toEqual({ items: 1, chats: 0, messages: 0 });
    expect(previous.telegram!.figures.incoming).toEqual({ items: 0, chats: 0, messages: 0 });
  });

  it('by operator (assigned now) and by day, within the filters', async () => {
    const ops = byKey((await ok('explore', `${PERIOD}&by=operator`)).rows);
    expect(ops[String(s.A)]).toMatchObject({
      name: 'Anna',
      figures: { incoming: { items: 2, chats: 0 }, replied: 1, first_response: { median: 600 } },
    });
    expect(ops[String(s.B)]).toMatchObject({
      name: 'Boris',
      figures: { incoming: { items: 1, chats: 1 }, first_response: { median: 1800 } },
    });
    expect(ops[String(s.admin.user.id)]!.figures.incoming).toEqual({ items: 0, chats: 0, messages: 0 });
    const days = await ok('explore', `${PERIOD}&by=day&provider=telegram`);
    expect(days.rows.map((r: Row) => [r.key, r.figures.incoming.items])).toEqual([
      ['2026-11-10', 0],
      ['2026-11-11', 2],
    ]);
    expect(days.rows[1]).toMatchObject({
      start: Date.parse('2026-11-11T00:00:00Z') / 1000,
      end: Date.parse('2026-11-12T00:00:00Z') / 1000,
    });
    const weeks = await ok('explore', 'from=2026-11-01&to=2026-11-11&by=week');
    // Sunday Nov 1 alone, then the weeks from Monday Nov 2 and Nov 9.
    expect(weeks.rows.map((r: Row) => [r.key, r.figures.incoming.items])).toEqual([
      ['2026-11-01', 0],
      ['2026-11-02', 0],
      ['2026-11-09', 5],
    ]);
  });

  it('refuses more than 60 rows, and needs analytics in the space', async () => {
    const long = await get('explore', 'from=2026-08-01&to=2026-11-11&by=day');
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toContain('60');
    expect((await get('explore', 'from=2026-08-01&to=2026-11-11&by=week')).statusCode).toBe(200);
    const plain = await buildAdmin(t);
    const denied = await t.app.inject({
      url: `/v1/stats/explore?space_id=${plain.space.id}&${PERIOD}`,
      headers: plain.headers,
    });
    expect(denied.statusCode).toBe(403);
    // Another space's figures are not reachable with this space's admin either.
    const cross = await t.app.inject({
      url: `/v1/stats/explore?space_id=${plain.space.id}&${PERIOD}`,
      headers: s.admin.headers,
    });
    expect(cross.statusCode).toBe(403);
  });
});

describe('business-hours FRT on the dashboard and the wall', () => {
  it('is null without a schedule and measured with one', async () => {
    const admin = await buildAdmin(t);
    const spaceId = admin.space.id;
    const db = t.deps.database.db;
    await db.update(spaces).set({ timezone: 'UTC' }).where(eq(spaces.id, spaceId));
    const a = await buildObject(t, spaceId, { provider: 'sandbox' });
    // Arrived 20 s ago, answered 10 s ago: 10 s, in calendar and — around the clock — in business time.
    const now = Date.now();
    await db.insert(items).values({
      spaceId,
      objectId: a.id,
      kind: 'comment',
      externalId: 'bh-1',
      createdAt: new Date(now - 20_000),
      firstReplyAt: new Date(now - 10_000),
    });
    const read = async (path: string) => {
      const res = await t.app.inject({
        url: `/v1/stats/${path}?space_id=${spaceId}`,
        headers: admin.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect((await read('dashboard')).business).toBeNull();
    expect((await read('live')).business).toBeNull();
    const put = await t.app.inject({
      method: 'PUT',
      url: '/v1/workinghours/business',
      headers: admin.headers,
      payload: {
        space_id: spaceId,
        special_days: [],
        week: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: 0, end: 1440 })),
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    const dashboard = await read('dashboard');
    expect(dashboard.business.today).toEqual({ count: 1, median: 10, p90: 10 });
    expect(dashboard.business.week).toEqual({ count: 1, median: 10, p90: 10 });
    expect(dashboard.figures.today.first_response.median).toBe(10);
    expect((await read('live')).business).toEqual({ count: 1, median: 10, p90: 10 });
  });
});
