import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { activity, companies, items, objects, spaces } from '../../db/schema';
import { buildAdmin, buildMember, buildObject } from '../authors/test-helpers';

// Business-hours FRT and resolution over seeded items whose business seconds are worked out by hand
// below (not by the shared math). Europe/Berlin; clocks go forward on Sunday 29 March 2026 (CET = UTC+1
// before, CEST = UTC+2 after). The space works Mon–Fri 09:00–18:00, Wednesday 25 March is a holiday,
// Saturday 28 March a special working day 10:00–14:00. Company "Shop" (account a2) works every day
// 08:00–20:00.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const Z = (iso: string) => new Date(iso);
const H = 3600;
const PERIOD = 'from=2026-03-23&to=2026-03-31';
const office = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: 540, end: 1080 }));

async function seed() {
  const db = t.deps.database.db;
  const admin = await buildAdmin(t);
  const spaceId = admin.space.id;
  await db.update(spaces).set({ timezone: 'Europe/Berlin' }).where(eq(spaces.id, spaceId));
  const a1 = await buildObject(t, spaceId, { provider: 'sandbox' });
  const a2 = await buildObject(t, spaceId, { provider: 'telegram' });
  const [shop] = await db.insert(companies).values({ spaceId, name: 'Shop' }).returning();
  await db.update(objects).set({ companyId: shop!.id }).where(eq(objects.id, a2.id));
  const op1 = await buildMember(t, spaceId, 'operator', { name: 'Anna' });
  const op2 = await buildMember(t, spaceId, 'operator', { name: 'Boris' });

  let n = 0;
  async function item(
    object: typeof a1,
    at: string,
    replied: string | null,
    by: number | null,
    closed?: string,
  ) {
    n += 1;
    const [row] = await db
      .insert(items)
      .values({
        spaceId,
        objectId: object.id,
        kind: 'comment',
        externalId: `b-${n}`,
        createdAt: Z(at),
        firstReplyAt: replied ? Z(replied) : null,
        ...(closed ? { status: 'closed' as const, closeReason: 'reply' as const, closedAt: Z(closed) } : {}),
      })
      .returning();
    if (replied && by)
      await db.insert(activity).values({
        spaceId,
        type: 'item.replied',
        userId: by,
        causeKind: 'user',
        causeId: by,
        at: Z(replied),
        data: { first: true },
        itemId: row!.id,
        objectId: object.id,
      });
  }
  const U1 = op1.user.id;
  const U2 = op2.user.id;
  // A: Mon 23 Mar 17:00 CET → replied Tue 10:00 CET: 1 h + 1 h; closed Tue 12:00 CET: 1 h + 3 h.
  await item(a1, '2026-03-23T16:00:00Z', '2026-03-24T09:00:00Z', U1, '2026-03-24T11:00:00Z');
  // B: Tue 24 Mar 20:00 CET → Thu 09:30 CET; Wednesday is a holiday: 0.5 h.
  await item(a1, '2026-03-24T19:00:00Z', '2026-03-26T08:30:00Z', U1);
  // C: Fri 27 Mar 17:30 CET → Mon 30 Mar 09:15 CEST: 0.5 h + Saturday 4 h + 0.25 h, across the DST change.
  await item(a1, '2026-03-27T16:30:00Z', '2026-03-30T07:15:00Z', U2);
  // D: Sat 28 Mar 20:00 CET → Sun 12:00 CEST: no working time in between: 0.
  await item(a1, '2026-03-28T19:00:00Z', '2026-03-29T10:00:00Z', U2);
  // E (Shop): Sun 29 Mar 07:00 CEST → 09:00 CEST: Shop opens at 08:00: 1 h; closed 10:00 CEST: 2 h.
  await item(a2, '2026-03-29T05:00:00Z', '2026-03-29T07:00:00Z', U2, '2026-03-29T08:00:00Z');
  // F: Mon 30 Mar 08:00 CEST, unanswered: no FRT.
  await item(a1, '2026-03-30T06:00:00Z', null, null);
  return { admin, spaceId, shop: shop!, op1, op2 };
}

let s: Awaited<ReturnType<typeof seed>>;
beforeAll(async () => {
  s = await seed();
});

async function ok(path: string, query = `space_id=${s.spaceId}&${PERIOD}`) {
  const res = await t.app.inject({ url: `/v1/stats/${path}?${query}`, headers: s.admin.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
async function put(payload: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'PUT',
    url: '/v1/workinghours/business',
    headers: s.admin.headers,
    payload: { space_id: s.spaceId, special_days: [], ...payload },
  });
  expect(res.statusCode, res.body).toBe(200);
}

// Hand-computed business FRT: A 2 h, B 0.5 h, C 4.75 h, D 0, E 1 h → sorted 0, 0.5, 1, 2, 4.75 h.
// percentile_disc: median = the 3rd of 5 (1 h), p90 = the 5th (4.75 h).
const FRT_BUSINESS = { count: 5, median: H, p90: 4.75 * H };
// Calendar FRT: A 17 h, B 37.5 h, C 62.75 h, D 15 h, E 2 h → median 17 h, p90 62.75 h.
const FRT_CALENDAR = { count: 5, median: 17 * H, p90: 62.75 * H };

describe('stats in business hours', () => {
  it('without a schedule the business figures are empty', async () => {
    const overview = await ok('overview');
    expect(overview.current.first_response).toEqual(FRT_CALENDAR);
    expect(overview.business).toBeNull();
    expect((await ok('time')).business).toBeNull();
    expect(
      (await ok('operators')).rows.every(
        (r: { frt_median_business: null }) => r.frt_median_business === null,
      ),
    ).toBe(true);
  });

  it('overview, time, operators, team times and one person measure business hours', async () => {
    await put({
      week: office,
      special_days: [{ day: '2026-03-28', intervals: [{ start: 600, end: 840 }] }],
    });
    const holiday = await t.app.inject({
      method: 'POST',
      url: '/v1/workinghours/holidays',
      headers: s.admin.headers,
      payload: { space_id: s.spaceId, day: '2026-03-25', name: 'Holiday' },
    });
    expect(holiday.statusCode).toBe(200);
    await put({
      company_id: s.shop.id,
      week: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: 480, end: 1200 })),
    });

    const overview = await ok('overview', `space_id=${s.spaceId}&${PERIOD}&compare=1`);
    expect(overview.current.first_response).toEqual(FRT_CALENDAR);
    expect(overview.business.current).toEqual(FRT_BUSINESS);
    // The 9 days before: nothing came in.
    expect(overview.business.previous).toEqual({ count: 0, median: null, p90: null });

    const time = await ok('time');
    expect(time.first_response).toEqual(FRT_CALENDAR);
    expect(time.business.first_response).toEqual(FRT_BUSINESS);
    // Resolution: A 4 h, E 2 h → median 2 h (the 1st of 2), p90 4 h.
    expect(time.business.resolution).toEqual({ count: 2, median: 2 * H, p90: 4 * H });
    // Buckets ≤5 min, ≤15 min, ≤1 h, ≤4 h, ≤24 h, more.
    expect(time.business.buckets).toEqual({
      first_response: [1, 0, 2, 1, 1, 0],
      resolution: [0, 0, 0, 2, 0, 0],
    });
    expect(time.business.days).toEqual([
      { day: '2026-03-23', first_response: 2 * H, resolution: 4 * H },
      { day: '2026-03-24', first_response: 0.5 * H, resolution: null },
      { day: '2026-03-27', first_response: 4.75 * H, resolution: null },
      { day: '2026-03-28', first_response: 0, resolution: null },
      { day: '2026-03-29', first_response: H, resolution: 2 * H },
      { day: '2026-03-30', first_response: null, resolution: null },
    ]);

    // Anna answered A and B first (2 h, 0.5 h); Boris C, D, E (4.75 h, 0, 1 h).
    const ops = await ok('operators');
    const byName = (rows: { name: string }[], name: string) => rows.find((r) => r.name === name) as never;
    expect(byName(ops.rows, 'Anna')).toMatchObject({ first_replies: 2, frt_median_business: 0.5 * H });
    expect(byName(ops.rows, 'Boris')).toMatchObject({ first_replies: 3, frt_median_business: H });
    const team = await ok('operator-times');
    expect(byName(team.rows, 'Anna')).toMatchObject({
      first_replies: { count: 2, median: 17 * H, p90: 37.5 * H },
      first_replies_business: { count: 2, median: 0.5 * H, p90: 2 * H },
    });
    expect(byName(team.rows, 'Boris')).toMatchObject({
      first_replies_business: { count: 3, median: H, p90: 4.75 * H },
    });
    const boris = await ok(`users/${s.op2.user.id}`);
    expect(boris.first_replies_business).toEqual({ count: 3, median: H, p90: 4.75 * H });
    expect(boris.row.frt_median_business).toBe(H);

    // Without Shop's override, E falls under the space's hours: Sunday, 0 s.
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v1/workinghours/business?space_id=${s.spaceId}&company_id=${s.shop.id}`,
      headers: s.admin.headers,
    });
    expect(removed.statusCode).toBe(200);
    // 0, 0, 0.5, 2, 4.75 h → median 0.5 h.
    expect((await ok('overview')).business.current).toEqual({ count: 5, median: 0.5 * H, p90: 4.75 * H });
  });

  it('another space neither sees nor is affected by this schedule', async () => {
    const other = await buildAdmin(t);
    const res = await t.app.inject({
      url: `/v1/stats/overview?space_id=${other.space.id}&${PERIOD}`,
      headers: other.headers,
    });
    expect(res.json().business).toBeNull();
    const denied = await t.app.inject({
      url: `/v1/stats/time?space_id=${s.spaceId}&${PERIOD}`,
      headers: other.headers,
    });
    expect(denied.statusCode).toBe(403);
  });
});
