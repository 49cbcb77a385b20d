import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { issues, items, spaces, statusChanges, userStatuses, workinghoursItems } from '../../db/schema';
import { buildAdmin, buildMember, buildObject, buildUserGroup } from '../authors/test-helpers';

// stats/users/statuses, my/statuses, users/:id/statuses, users/workinghours and the dashboard, over a
// seeded status history and schedule; the expected seconds are worked out by hand in the comments.
// Space in Asia/Yekaterinburg (UTC+5): local 2026-11-10..11 is [2026-11-09T19:00Z, 2026-11-11T19:00Z).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const Z = (iso: string) => new Date(iso);
const PERIOD = 'from=2026-11-10&to=2026-11-11';

async function seed() {
  const db = t.deps.database.db;
  const admin = await buildAdmin(t);
  const spaceId = admin.space.id;
  await db.update(spaces).set({ timezone: 'Asia/Yekaterinburg' }).where(eq(spaces.id, spaceId));
  const [online, pause, offline] = await db
    .select()
    .from(userStatuses)
    .where(eq(userStatuses.spaceId, spaceId))
    .orderBy(asc(userStatuses.position));
  const account = await buildObject(t, spaceId, { provider: 'sandbox' });
  const group = await buildUserGroup(t, spaceId, [account.id]);
  const anna = await buildMember(t, spaceId, 'operator', { name: 'Anna' });
  const boris = await buildMember(t, spaceId, 'operator', { name: 'Boris', groupId: group.id });
  const limited = await buildMember(t, spaceId, 'analyst', { groupId: group.id });
  // Only the history below counts (sign-ups may have recorded their own changes).
  await db.delete(statusChanges).where(eq(statusChanges.spaceId, spaceId));
  const change = (userId: number, statusId: number, at: string) => ({
    spaceId,
    userId,
    statusId,
    source: 'manual' as const,
    at: Z(at),
  });
  await db.insert(statusChanges).values([
    change(anna.user.id, online!.id, '2026-11-09T10:00:00Z'), // before the period: online at its start
    change(anna.user.id, pause!.id, '2026-11-10T00:00:00Z'),
    change(anna.user.id, online!.id, '2026-11-10T01:00:00Z'),
    change(anna.user.id, offline!.id, '2026-11-11T10:00:00Z'),
    change(anna.user.id, online!.id, '2026-11-12T05:00:00Z'), // after the period
    change(boris.user.id, online!.id, '2026-11-11T09:00:00Z'),
  ]);
  const slot = (userId: number, from: string, to: string, statusId: number | null) => ({
    spaceId,
    userId,
    startedAt: Z(from),
    endedAt: Z(to),
    statusId,
  });
  await db.insert(workinghoursItems).values([
    slot(anna.user.id, '2026-11-09T15:00:00Z', '2026-11-09T21:00:00Z', null), // 2 h inside the period
    slot(anna.user.id, '2026-11-10T03:00:00Z', '2026-11-10T11:00:00Z', null),
    slot(anna.user.id, '2026-11-10T12:00:00Z', '2026-11-10T13:00:00Z', pause!.id), // a break: not working
    slot(anna.user.id, '2026-11-11T04:00:00Z', '2026-11-11T12:00:00Z', online!.id),
    slot(boris.user.id, '2026-11-11T10:00:00Z', '2026-11-11T14:00:00Z', online!.id),
  ]);
  return { admin, spaceId, anna, boris, limited, online: online!, pause: pause!, offline: offline! };
}

let s: Awaited<ReturnType<typeof seed>>;
beforeAll(async () => {
  s = await seed();
});

async function get(headers: Record<string, string>, path: string, query: string) {
  return t.app.inject({ url: `/v1/stats/${path}?${query}`, headers });
}
async function ok(headers: Record<string, string>, path: string, query: string) {
  const res = await get(headers, path, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

// Anna: online 19:00Z Nov 9 → 00:00Z Nov 10 (5 h) and 01:00Z Nov 10 → 10:00Z Nov 11 (33 h) = 136 800 s;
// break 1 h = 3 600 s; offline 10:00Z → 19:00Z Nov 11 = 32 400 s; 48 h in all.
const annaRow = (x: typeof s) => ({
  user_id: x.anna.user.id,
  name: 'Anna',
  seconds: { [x.online.id]: 136_800, [x.pause.id]: 3_600, [x.offline.id]: 32_400 },
  working: 136_800,
  total: 172_800,
});
// Boris: online from 09:00Z Nov 11 to the end of the period, 10 h.
const borisRow = (x: typeof s) => ({
  user_id: x.boris.user.id,
  name: 'Boris',
  seconds: { [x.online.id]: 36_000 },
  working: 36_000,
  total: 36_000,
});

describe('stats — time in user statuses', () => {
  it('per member, clipped to the period, from the status history', async () => {
    const body = await ok(s.admin.headers, 'statuses', `space_id=${s.spaceId}&${PERIOD}`);
    expect(body.statuses.map((x: { id: number }) => x.id)).toEqual([s.online.id, s.pause.id, s.offline.id]);
    expect(body.rows).toEqual([annaRow(s), borisRow(s)]);
  });

  it('my/statuses: only the caller; users/:id/statuses: one member', async () => {
    const mine = await ok(s.anna.headers, 'my/statuses', `space_id=${s.spaceId}&${PERIOD}`);
    expect(mine.rows).toEqual([annaRow(s)]);
    const one = await ok(
      s.admin.headers,
      `users/${s.boris.user.id}/statuses`,
      `space_id=${s.spaceId}&${PERIOD}`,
    );
    expect(one.rows).toEqual([borisRow(s)]);
  });

  it('compare=1: the previous two days (local 8-9 Nov) from the same history', async () => {
    const mine = await ok(s.anna.headers, 'my/statuses', `space_id=${s.spaceId}&${PERIOD}&compare=1`);
    expect(mine.rows).toEqual([annaRow(s)]);
    expect(mine.previous.period).toMatchObject({ from: '2026-11-08', to: '2026-11-09' });
    // Online from 10:00Z on 9 Nov to the period's end, local midnight = 19:00Z: 9 hours.
    expect(mine.previous.rows).toEqual([
      expect.objectContaining({ user_id: s.anna.user.id, seconds: { [s.online.id]: 32_400 }, total: 32_400 }),
    ]);
    const one = await ok(
      s.admin.headers,
      `users/${s.anna.user.id}/statuses`,
      `space_id=${s.spaceId}&${PERIOD}&compare=1`,
    );
    expect(one.previous.rows).toEqual(mine.previous.rows);
    const plain = await ok(s.anna.headers, 'my/statuses', `space_id=${s.spaceId}&${PERIOD}`);
    expect(plain.previous).toBeNull();
  });

  it('a group-limited analyst sees only the group; operators and other spaces are refused', async () => {
    const body = await ok(s.limited.headers, 'statuses', `space_id=${s.spaceId}&${PERIOD}`);
    expect(body.rows).toEqual([borisRow(s)]);
    expect(
      (await get(s.limited.headers, `users/${s.anna.user.id}/statuses`, `space_id=${s.spaceId}`)).statusCode,
    ).toBe(404);
    expect((await get(s.anna.headers, 'statuses', `space_id=${s.spaceId}`)).statusCode).toBe(403);
    expect((await get(s.anna.headers, 'workinghours', `space_id=${s.spaceId}`)).statusCode).toBe(403);
    const other = await buildAdmin(t);
    expect((await get(other.headers, 'statuses', `space_id=${s.spaceId}`)).statusCode).toBe(403);
    expect((await get(other.headers, 'dashboard', `space_id=${s.spaceId}`)).statusCode).toBe(403);
  });
});

describe('stats — working hours', () => {
  it('scheduled working slots against time in working statuses', async () => {
    const body = await ok(s.admin.headers, 'workinghours', `space_id=${s.spaceId}&${PERIOD}`);
    expect(body.rows).toEqual([
      // Slots: 2 h (clipped at the start) + 8 h + 8 h; the break slot does not count. Online inside them:
      // 2 h + 8 h + 6 h (offline from 10:00Z Nov 11).
      {
        user_id: s.anna.user.id,
        name: 'Anna',
        slots: 3,
        scheduled: 64_800,
        worked: 136_800,
        worked_in_slots: 57_600,
      },
      {
        user_id: s.boris.user.id,
        name: 'Boris',
        slots: 1,
        scheduled: 14_400,
        worked: 36_000,
        worked_in_slots: 14_400,
      },
    ]);
    const one = await ok(
      s.admin.headers,
      `users/${s.boris.user.id}/workinghours`,
      `space_id=${s.spaceId}&${PERIOD}`,
    );
    expect(one.rows).toEqual([body.rows[1]]);
    const limited = await ok(s.limited.headers, 'workinghours', `space_id=${s.spaceId}&${PERIOD}`);
    expect(limited.rows).toEqual([body.rows[1]]);
  });
});

describe('stats — dashboard', () => {
  it("today's and 7 days' figures, open now, tasks past due and the daily series", async () => {
    const db = t.deps.database.db;
    const admin = await buildAdmin(t, { issues: true });
    const spaceId = admin.space.id;
    await db.update(spaces).set({ timezone: 'UTC' }).where(eq(spaces.id, spaceId));
    const account = await buildObject(t, spaceId, { provider: 'sandbox' });
    const now = Date.now();
    const ago = (s: number) => new Date(now - s * 1000);
    // Today (UTC): one replied after 60 s and closed, one waiting. Three days ago: replied after 600 s, open.
    const today = ago(Math.min(3600, ((now / 1000) % 86_400) - 5));
    const before = ago(3 * 86_400);
    await db.insert(items).values([
      {
        spaceId,
        objectId: account.id,
        kind: 'comment',
        externalId: 'd1',
        createdAt: today,
        firstReplyAt: new Date(today.getTime() + 60_000),
        status: 'closed',
        closeReason: 'reply',
        closedAt: new Date(today.getTime() + 60_000),
      },
      { spaceId, objectId: account.id, kind: 'comment', externalId: 'd2', createdAt: today },
      {
        spaceId,
        objectId: account.id,
        kind: 'review',
        externalId: 'd3',
        createdAt: before,
        firstReplyAt: new Date(before.getTime() + 600_000),
        status: 'open',
      },
    ]);
    await db.insert(issues).values([
      { spaceId, title: 'late', dueAt: ago(60) },
      { spaceId, title: 'in time', dueAt: new Date(now + 86_400_000) },
      { spaceId, title: 'done late', dueAt: ago(60), status: 'closed', closedAt: ago(30) },
    ]);
    const body = await ok(admin.headers, 'dashboard', `space_id=${spaceId}`);
    const day = (d: Date) => d.toISOString().slice(0, 10);
    expect(body.today.from).toBe(day(new Date(now)));
    expect(body.figures.today).toMatchObject({
      incoming: { items: 2, chats: 0, messages: 0 },
      replied: 1,
      first_response: { count: 1, median: 60, p90: 60 },
      closed: { reply: 1, noreply: 0, autorule: 0 },
    });
    expect(body.figures.week).toMatchObject({
      incoming: { items: 3, chats: 0, messages: 0 },
      replied: 2,
      first_response: { count: 2, median: 60, p90: 600 },
    });
    expect(body.backlog).toMatchObject({ items: 2, chats: 0 });
    expect(body.expired_tasks).toBe(1);
    expect(body.days).toHaveLength(7);
    const series = Object.fromEntries(body.days.map((d: { day: string }) => [d.day, d]));
    expect(series[day(today)]).toEqual({ day: day(today), incoming: 2, first_response: 60 });
    expect(series[day(before)]).toEqual({ day: day(before), incoming: 1, first_response: 600 });
    expect(body.days.reduce((n: number, d: { incoming: number }) => n + d.incoming, 0)).toBe(3);
  });
});
