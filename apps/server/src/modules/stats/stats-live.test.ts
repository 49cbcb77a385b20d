import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { chats, items, memberships, spaces, userStatuses } from '../../db/schema';
import { buildAdmin, buildMember, buildObject, buildUserGroup } from '../authors/test-helpers';

// stats/live, the team-room wall: waiting now per network and account, the longest-waiting unit,
// members by current status and today's figures. Times are relative to the real clock (the route takes
// `new Date()`); the expectations below are worked out by hand from the seed.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('stats — live wall', () => {
  it('counts the queue, the longest wait, people by status and today; a group-limited member sees their part', async () => {
    const db = t.deps.database.db;
    const admin = await buildAdmin(t);
    const spaceId = admin.space.id;
    await db.update(spaces).set({ timezone: 'UTC' }).where(eq(spaces.id, spaceId));
    const [online, pause] = await db
      .select()
      .from(userStatuses)
      .where(eq(userStatuses.spaceId, spaceId))
      .orderBy(asc(userStatuses.position), asc(userStatuses.id));
    const sb = await buildObject(t, spaceId, { provider: 'sandbox' });
    const tg = await buildObject(t, spaceId, { provider: 'telegram' });
    const sb2 = await buildObject(t, spaceId, { provider: 'sandbox' });
    const group = await buildUserGroup(t, spaceId, [sb.id]);
    const anna = await buildMember(t, spaceId, 'operator', { name: 'Anna' });
    const boris = await buildMember(t, spaceId, 'operator', { name: 'Boris', groupId: group.id });
    const limited = await buildMember(t, spaceId, 'analyst', { name: 'Lena', groupId: group.id });
    const setStatus = (userId: number, statusId: number | null) =>
      db.update(memberships).set({ statusId }).where(eq(memberships.userId, userId));
    await setStatus(admin.user.id, online!.id);
    await setStatus(anna.user.id, online!.id);
    await setStatus(boris.user.id, pause!.id);
    await setStatus(limited.user.id, null);

    const now = Math.floor(Date.now() / 1000) * 1000; // whole seconds: the figures are in seconds
    const ago = (s: number) => new Date(now - s * 1000);
    // Today (UTC), within the last hour but never before midnight.
    const todayAt = (s: number) => ago(Math.min(s, Math.floor((now / 1000) % 86_400) - 1));
    const base = { spaceId, kind: 'comment' as const };
    // sandbox sb: two waiting (new 3 days ago — the longest —, inprogress today), one closed (not waiting).
    // telegram: one open 2 h ago (maybe yesterday), our own item (never waiting).
    // sandbox sb2: one waiting 10 min ago (or since midnight).
    const longestAt = ago(3 * 86_400);
    const [longest] = await db
      .insert(items)
      .values({
        ...base,
        objectId: sb.id,
        externalId: 'l1',
        createdAt: longestAt,
        text: 'Where is my order?',
      })
      .returning();
    const sbTodayAt = todayAt(1200);
    await db.insert(items).values([
      { ...base, objectId: sb.id, externalId: 'l2', createdAt: sbTodayAt, status: 'inprogress' },
      {
        ...base,
        objectId: sb.id,
        externalId: 'l3',
        createdAt: todayAt(1800),
        status: 'closed',
        closeReason: 'reply',
        firstReplyAt: todayAt(1700),
        closedAt: todayAt(1700),
      },
      { ...base, objectId: tg.id, externalId: 'l4', createdAt: ago(7200), status: 'open' },
      { ...base, objectId: tg.id, externalId: 'l5', createdAt: ago(7100), isOwn: true, status: 'closed' },
      { ...base, objectId: sb2.id, externalId: 'l6', createdAt: todayAt(600) },
    ]);
    // A telegram dialog waiting since its last message 1 h ago; a closed one does not wait.
    await db.insert(chats).values([
      { spaceId, objectId: tg.id, externalId: 'c1', status: 'new', lastMessageAt: ago(3600) },
      { spaceId, objectId: tg.id, externalId: 'c2', status: 'closed', lastMessageAt: ago(60) },
    ]);

    const res = await t.app.inject({ url: `/v1/stats/live?space_id=${spaceId}`, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const sec = (d: Date) => Math.floor(d.getTime() / 1000);
    expect(Math.abs(body.now - Math.floor(now / 1000))).toBeLessThan(60);
    expect(body.waiting).toEqual({ items: 4, chats: 1, oldest_at: sec(longestAt) });
    expect(body.by_account).toEqual([
      // 2 waiting each: sandbox sb (oldest first) then telegram; then sb2 with 1.
      {
        provider: 'sandbox',
        object_id: sb.id,
        name: sb.name,
        count: 2,
        oldest_at: sec(longestAt),
        age: body.now - sec(longestAt),
      },
      {
        provider: 'telegram',
        object_id: tg.id,
        name: tg.name,
        count: 2,
        oldest_at: sec(ago(7200)),
        age: body.now - sec(ago(7200)),
      },
      {
        provider: 'sandbox',
        object_id: sb2.id,
        name: sb2.name,
        count: 1,
        oldest_at: sec(todayAt(600)),
        age: body.now - sec(todayAt(600)),
      },
    ]);
    expect(body.by_provider).toEqual([
      {
        provider: 'sandbox',
        object_id: null,
        name: null,
        count: 3,
        oldest_at: sec(longestAt),
        age: body.now - sec(longestAt),
      },
      {
        provider: 'telegram',
        object_id: null,
        name: null,
        count: 2,
        oldest_at: sec(ago(7200)),
        age: body.now - sec(ago(7200)),
      },
    ]);
    expect(body.longest).toEqual({
      unit: 'item',
      id: longest!.id,
      object_id: sb.id,
      provider: 'sandbox',
      waiting_since: sec(longestAt),
      age: body.now - sec(longestAt),
      excerpt: 'Where is my order?',
    });
    const people = body.statuses.map(
      (s: { status_id: number | null; count: number; users: { name: string }[] }) => [
        s.status_id,
        s.count,
        s.users.map((u) => u.name),
      ],
    );
    expect(people).toEqual([
      [online!.id, 2, [admin.user.name, 'Anna'].sort()],
      [pause!.id, 1, ['Boris']],
      [null, 1, ['Lena']],
    ]);
    // Today: l2, l3, l6 came in today (l4 maybe yesterday: counted only when 2 h ago is still today).
    const l4Today =
      new Date(now - 7200_000).toISOString().slice(0, 10) === new Date(now).toISOString().slice(0, 10);
    expect(body.figures.incoming).toEqual({ items: 3 + (l4Today ? 1 : 0), chats: 0, messages: 0 });
    expect(body.figures.closed).toEqual({ reply: 1, noreply: 0, autorule: 0 });
    expect(body.figures.replied).toBe(1);

    // Limited to the group of account sb: its queue only, the group's members only.
    const part = await t.app.inject({ url: `/v1/stats/live?space_id=${spaceId}`, headers: limited.headers });
    expect(part.statusCode, part.body).toBe(200);
    const mine = part.json();
    expect(mine.waiting).toEqual({ items: 2, chats: 0, oldest_at: sec(longestAt) });
    expect(mine.by_account.map((r: { object_id: number; count: number }) => [r.object_id, r.count])).toEqual([
      [sb.id, 2],
    ]);
    expect(mine.by_provider.map((r: { provider: string; count: number }) => [r.provider, r.count])).toEqual([
      ['sandbox', 2],
    ]);
    expect(mine.longest.id).toBe(longest!.id);
    expect(
      mine.statuses.map((s: { status_id: number | null; users: { name: string }[] }) => [
        s.status_id,
        s.users.map((u) => u.name),
      ]),
    ).toEqual([
      [pause!.id, ['Boris']],
      [null, ['Lena']],
    ]);
    expect(mine.figures.incoming.items).toBe(2);

    // Operators without stats.view: 403; another space: 403.
    expect(
      (await t.app.inject({ url: `/v1/stats/live?space_id=${spaceId}`, headers: anna.headers })).statusCode,
    ).toBe(403);
    const other = await buildAdmin(t);
    expect(
      (await t.app.inject({ url: `/v1/stats/live?space_id=${spaceId}`, headers: other.headers })).statusCode,
    ).toBe(403);
  });
});
