import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { activity, chats, chatTags, items, itemTags, messages, posts, spaces, tags } from '../../db/schema';
import { buildAdmin, buildMember, buildObject, buildUserGroup } from '../authors/test-helpers';

// Seeded figures with expectations worked out by hand below (not by the module's SQL). The space is in
// Asia/Yekaterinburg (UTC+5, no DST): local 2026-11-10..11 is [2026-11-09T19:00Z, 2026-11-11T19:00Z).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const Z = (iso: string) => new Date(iso);
const plus = (d: Date, s: number) => new Date(d.getTime() + s * 1000);
type Headers = Record<string, string>;

async function seed() {
  const db = t.deps.database.db;
  const admin = await buildAdmin(t);
  await db.update(spaces).set({ timezone: 'Asia/Yekaterinburg' }).where(eq(spaces.id, admin.space.id));
  const spaceId = admin.space.id;
  const a1 = await buildObject(t, spaceId, { provider: 'sandbox' });
  const a2 = await buildObject(t, spaceId, { provider: 'telegram' });
  const op1 = await buildMember(t, spaceId, 'operator', { name: 'Anna' });
  const op2 = await buildMember(t, spaceId, 'operator', { name: 'Boris' });

  let n = 0;
  async function item(
    object: typeof a1,
    kind: 'comment' | 'review' | 'mention',
    createdAt: Date,
    extra: Partial<typeof items.$inferInsert> = {},
  ) {
    n += 1;
    const [row] = await db
      .insert(items)
      .values({ spaceId, objectId: object.id, kind, externalId: `s-${n}`, createdAt, ...extra })
      .returning();
    return row!;
  }
  const closedReply = (createdAt: Date, after: number) => ({
    status: 'closed' as const,
    closeReason: 'reply' as const,
    firstReplyAt: plus(createdAt, after),
    closedAt: plus(createdAt, after),
  });
  // Out: 23:59:59 local on Nov 9 (closed the same second, also out).
  const c1At = Z('2026-11-09T18:59:59Z');
  await item(a1, 'comment', c1At, { status: 'closed', closeReason: 'noreply', closedAt: c1At });
  // In: 00:00 local Nov 10, replied after 600 s.
  const i2At = Z('2026-11-09T19:00:00Z');
  const i2 = await item(a1, 'comment', i2At, closedReply(i2At, 600));
  // In: 17:00 local Nov 10 (Tuesday), a review replied after 3600 s.
  const i3At = Z('2026-11-10T12:00:00Z');
  const i3 = await item(a1, 'review', i3At, closedReply(i3At, 3600));
  // In: 23:59:59 local Nov 11, waiting.
  await item(a2, 'comment', Z('2026-11-11T18:59:59Z'));
  // Out: 00:00 local Nov 12, waiting (counts in the backlog only).
  await item(a2, 'comment', Z('2026-11-11T19:00:00Z'));
  // In: 10:00 local Nov 11, closed without reply an hour later.
  const i6 = await item(a2, 'comment', Z('2026-11-11T05:00:00Z'), {
    status: 'closed',
    closeReason: 'noreply',
    closedAt: Z('2026-11-11T06:00:00Z'),
  });
  // In: 01:00 local Nov 11 (Wednesday), a mention replied after 120 s.
  const i7At = Z('2026-11-10T20:00:00Z');
  const i7 = await item(a1, 'mention', i7At, closedReply(i7At, 120));
  // Our own reply: never incoming.
  await item(a1, 'comment', plus(i2At, 600), { isOwn: true, status: 'closed' });

  // Dialog 1 (a1): first customer message 11:00 local Nov 10, our answer 30 min later; in progress.
  const [chat1] = await db
    .insert(chats)
    .values({
      spaceId,
      objectId: a1.id,
      externalId: 'ch-1',
      status: 'inprogress',
      lastMessageAt: Z('2026-11-10T06:30:00Z'),
      firstReplyAt: Z('2026-11-10T06:30:00Z'),
    })
    .returning();
  await db.insert(messages).values([
    { spaceId, chatId: chat1!.id, isOwn: false, createdAt: Z('2026-11-10T06:00:00Z'), externalId: 'm1' },
    { spaceId, chatId: chat1!.id, isOwn: false, createdAt: Z('2026-11-10T06:05:00Z'), externalId: 'm2' },
    { spaceId, chatId: chat1!.id, isOwn: true, createdAt: Z('2026-11-10T06:30:00Z'), externalId: 'm3' },
  ]);
  // Dialog 2 (a2): started Nov 1 (before the period), one more message 12:00 local Nov 10, closed without reply.
  const [chat2] = await db
    .insert(chats)
    .values({
      spaceId,
      objectId: a2.id,
      externalId: 'ch-2',
      status: 'closed',
      closeReason: 'noreply',
      closedAt: Z('2026-11-10T08:00:00Z'),
      lastMessageAt: Z('2026-11-10T07:00:00Z'),
    })
    .returning();
  await db.insert(messages).values([
    { spaceId, chatId: chat2!.id, isOwn: false, createdAt: Z('2026-11-01T07:00:00Z'), externalId: 'm4' },
    { spaceId, chatId: chat2!.id, isOwn: false, createdAt: Z('2026-11-10T07:00:00Z'), externalId: 'm5' },
  ]);

  // What the send and workflow paths record (actions/record.ts, actions/workflow.ts).
  const act = (
    userId: number,
    type: 'item.replied' | 'item.status' | 'chat.replied',
    target: { itemId?: number; chatId?: number; objectId: number },
    at: Date,
    data: Record<string, unknown>,
  ) => ({ spaceId, type, userId, causeKind: 'user' as const, causeId: userId, at, data, ...target });
  const U1 = op1.user.id;
  const U2 = op2.user.id;
  await db.insert(activity).values([
    act(U1, 'item.replied', { itemId: i2.id, objectId: a1.id }, plus(i2At, 600), { first: true }),
    act(U1, 'item.status', { itemId: i2.id, objectId: a1.id }, plus(i2At, 600), {
      from: 'new',
      to: 'closed',
      close_reason: 'reply',
    }),
    act(U2, 'item.replied', { itemId: i3.id, objectId: a1.id }, plus(i3At, 3600), { first: true }),
    act(U2, 'item.status', { itemId: i3.id, objectId: a1.id }, plus(i3At, 3600), {
      from: 'new',
      to: 'closed',
      close_reason: 'reply',
    }),
    act(U1, 'item.replied', { itemId: i3.id, objectId: a1.id }, Z('2026-11-10T14:00:00Z'), { first: false }),
    act(U1, 'item.replied', { itemId: i7.id, objectId: a1.id }, plus(i7At, 120), { first: true }),
    act(U1, 'item.status', { itemId: i7.id, objectId: a1.id }, plus(i7At, 120), {
      from: 'new',
      to: 'closed',
      close_reason: 'reply',
    }),
    act(U1, 'item.status', { itemId: i6.id, objectId: a2.id }, Z('2026-11-11T06:00:00Z'), {
      from: 'new',
      to: 'closed',
      close_reason: 'noreply',
    }),
    act(U2, 'chat.replied', { chatId: chat1!.id, objectId: a1.id }, Z('2026-11-10T06:30:00Z'), {
      first: true,
    }),
    // After the period (local Nov 12): not counted.
    act(U1, 'item.replied', { itemId: i3.id, objectId: a1.id }, Z('2026-11-12T10:00:00Z'), { first: false }),
  ]);
  return { admin, spaceId, a1, a2, op1, op2, i2, i3, i6, chat1: chat1!, itemAt: item };
}

let s: Awaited<ReturnType<typeof seed>>;
beforeAll(async () => {
  s = await seed();
});

const PERIOD = 'from=2026-11-10&to=2026-11-11';
async function get(headers: Headers, path: string, query: string) {
  return t.app.inject({ url: `/v1/stats/${path}?${query}`, headers });
}
async function ok(headers: Headers, path: string, query: string) {
  const res = await get(headers, path, query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('stats — figures over a seeded space', () => {
  it('overview: incoming, replied share, first response, closed and backlog at the local day boundaries', async () => {
    const body = await ok(s.admin.headers, 'overview', `space_id=${s.spaceId}&${PERIOD}&compare=1`);
    expect(body.period).toEqual({
      from: '2026-11-10',
      to: '2026-11-11',
      timezone: 'Asia/Yekaterinburg',
      start: Date.parse('2026-11-09T19:00:00Z') / 1000,
      end: Date.parse('2026-11-11T19:00:00Z') / 1000,
    });
    // Items in: i2, i3, i4, i6, i7; dialogs started: chat1; customer messages: m1, m2, m5.
    expect(body.current.incoming).toEqual({ items: 5, chats: 1, messages: 3 });
    // Replied: i2, i3, i7, chat1 → 4 of 6.
    expect(body.current.replied).toBe(4);
    expect(body.current.replied_share).toBeCloseTo(4 / 6, 10);
    // Times 120, 600, 1800, 3600: the median is the 2nd value, p90 the 4th.
    expect(body.current.first_response).toEqual({ count: 4, median: 600, p90: 3600 });
    // Closed in the period: i2, i3, i7 with reply; i6 and chat2 without (i1 closed the second before).
    expect(body.current.closed).toEqual({ reply: 3, noreply: 2, autorule: 0 });
    // Open now: i4, i5 and chat1; the oldest is chat1's last message.
    expect(body.backlog).toEqual({
      items: 2,
      chats: 1,
      oldest_at: Date.parse('2026-11-10T06:30:00Z') / 1000,
    });
    expect(body.by_provider).toEqual([
      { provider: 'sandbox', items: 3, chats: 1, messages: 2 },
      { provider: 'telegram', items: 2, chats: 0, messages: 1 },
    ]);
    // Previous period, local Nov 8..9: only i1.
    expect(body.previous.period).toMatchObject({ from: '2026-11-08', to: '2026-11-09' });
    expect(body.previous.incoming).toEqual({ items: 1, chats: 0, messages: 0 });
    expect(body.previous.replied_share).toBe(0);
    expect(body.previous.first_response).toEqual({ count: 0, median: null, p90: null });
  });

  it('volume by local day, network and kind', async () => {
    const body = await ok(s.admin.headers, 'volume', `space_id=${s.spaceId}&${PERIOD}`);
    const sec = (iso: string) => Date.parse(iso) / 1000;
    expect(body.days).toEqual([
      { day: '2026-11-10', start: sec('2026-11-09T19:00:00Z'), end: sec('2026-11-10T19:00:00Z') },
      { day: '2026-11-11', start: sec('2026-11-10T19:00:00Z'), end: sec('2026-11-11T19:00:00Z') },
    ]);
    expect(body.rows).toEqual([
      { day: '2026-11-10', provider: 'sandbox', kind: 'chat', count: 1 },
      { day: '2026-11-10', provider: 'sandbox', kind: 'comment', count: 1 },
      { day: '2026-11-10', provider: 'sandbox', kind: 'message', count: 2 },
      { day: '2026-11-10', provider: 'sandbox', kind: 'review', count: 1 },
      { day: '2026-11-10', provider: 'telegram', kind: 'message', count: 1 },
      { day: '2026-11-11', provider: 'sandbox', kind: 'mention', count: 1 },
      { day: '2026-11-11', provider: 'telegram', kind: 'comment', count: 2 },
    ]);
  });

  it('hours heatmap in the space time zone (ISO weekday × hour)', async () => {
    const body = await ok(s.admin.headers, 'hours', `space_id=${s.spaceId}&${PERIOD}`);
    // Nov 10 2026 is a Tuesday (2), Nov 11 a Wednesday (3).
    expect(body.cells).toEqual([
      { weekday: 2, hour: 0, count: 1 },
      { weekday: 2, hour: 11, count: 2 },
      { weekday: 2, hour: 12, count: 1 },
      { weekday: 2, hour: 17, count: 1 },
      { weekday: 3, hour: 1, count: 1 },
      { weekday: 3, hour: 10, count: 1 },
      { weekday: 3, hour: 23, count: 1 },
    ]);
  });

  it('per operator: replies, closed, first replies and their median', async () => {
    const body = await ok(s.admin.headers, 'operators', `space_id=${s.spaceId}&${PERIOD}`);
    expect(body.rows).toEqual([
      // Anna: replies i2, i3 (second), i7; closed i2, i7, i6; first replies 600 and 120 → median 120.
      {
        user_id: s.op1.user.id,
        name: 'Anna',
        replies: 3,
        closed: 3,
        first_replies: 2,
        frt_median: 120,
        frt_median_business: null,
      },
      // Boris: replies i3, chat1; closed i3; first replies 3600 and 1800 → median 1800.
      {
        user_id: s.op2.user.id,
        name: 'Boris',
        replies: 2,
        closed: 1,
        first_replies: 2,
        frt_median: 1800,
        frt_median_business: null,
      },
    ]);
  });

  it('filters: network and kind', async () => {
    const tg = await ok(s.admin.headers, 'overview', `space_id=${s.spaceId}&${PERIOD}&provider=telegram`);
    expect(tg.current.incoming).toEqual({ items: 2, chats: 0, messages: 1 });
    expect(tg.backlog).toMatchObject({ items: 2, chats: 0 });
    const chatsOnly = await ok(s.admin.headers, 'overview', `space_id=${s.spaceId}&${PERIOD}&kind=chat`);
    expect(chatsOnly.current.incoming).toEqual({ items: 0, chats: 1, messages: 3 });
    expect(chatsOnly.current.first_response).toEqual({ count: 1, median: 1800, p90: 1800 });
    const reviews = await ok(s.admin.headers, 'overview', `space_id=${s.spaceId}&${PERIOD}&kind=review`);
    expect(reviews.current.incoming).toEqual({ items: 1, chats: 0, messages: 0 });
    expect(reviews.current.closed).toEqual({ reply: 1, noreply: 0, autorule: 0 });
  });

  it('drill-down: the items list with the same period lists exactly the counted items', async () => {
    const overview = await ok(s.admin.headers, 'overview', `space_id=${s.spaceId}&${PERIOD}`);
    const { start, end } = overview.period;
    const statuses = ['new', 'inprogress', 'open', 'closed', 'deleted', 'delayed', 'waiting']
      .map((x) => `status=${x}`)
      .join('&');
    const res = await t.app.inject({
      url: `/v1/items?created_at_from=${start}&created_at_to=${end - 1}&${statuses}&limit=200`,
      headers: s.admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toHaveLength(overview.current.incoming.items);
  });
});

describe('stats — a day across a DST change', () => {
  it('Europe/Berlin on 2026-10-25 is 25 hours long: local midnight to midnight', async () => {
    const admin = await buildAdmin(t);
    await t.deps.database.db
      .update(spaces)
      .set({ timezone: 'Europe/Berlin' })
      .where(eq(spaces.id, admin.space.id));
    const object = await buildObject(t, admin.space.id);
    const at = [
      '2026-10-24T21:59:59Z', // 23:59:59 CEST on Oct 24: out
      '2026-10-24T22:00:00Z', // 00:00 CEST on Oct 25: in
      '2026-10-25T22:59:59Z', // 23:59:59 CET on Oct 25: in
      '2026-10-25T23:00:00Z', // 00:00 CET on Oct 26: out
    ];
    await t.deps.database.db.insert(items).values(
      at.map((iso, i) => ({
        spaceId: admin.space.id,
        objectId: object.id,
        kind: 'comment' as const,
        externalId: `dst-${i}`,
        createdAt: Z(iso),
      })),
    );
    const body = await ok(
      admin.headers,
      'volume',
      `space_id=${admin.space.id}&from=2026-10-25&to=2026-10-25`,
    );
    expect(body.period.end - body.period.start).toBe(25 * 3600);
    expect(body.rows).toEqual([{ day: '2026-10-25', provider: 'sandbox', kind: 'comment', count: 2 }]);
  });
});

describe('stats — who sees what', () => {
  it('a member limited to a user group sees only the group accounts', async () => {
    const group = await buildUserGroup(t, s.spaceId, [s.a2.id]);
    const analyst = await buildMember(t, s.spaceId, 'analyst', { groupId: group.id });
    const body = await ok(analyst.headers, 'overview', `space_id=${s.spaceId}&${PERIOD}`);
    // a2 only: i4, i6; chat2's message; nothing replied; i6 and chat2 closed without reply.
    expect(body.current.incoming).toEqual({ items: 2, chats: 0, messages: 1 });
    expect(body.current.replied_share).toBe(0);
    expect(body.current.first_response).toEqual({ count: 0, median: null, p90: null });
    expect(body.current.closed).toEqual({ reply: 0, noreply: 2, autorule: 0 });
    expect(body.backlog).toMatchObject({ items: 2, chats: 0 });
    const ops = await ok(analyst.headers, 'operators', `space_id=${s.spaceId}&${PERIOD}`);
    // Only Anna closed i6 on a2.
    expect(ops.rows).toEqual([
      {
        user_id: s.op1.user.id,
        name: 'Anna',
        replies: 0,
        closed: 1,
        first_replies: 0,
        frt_median: null,
        frt_median_business: null,
      },
    ]);
  });

  it('another space sees only its own figures and may not ask for this one', async () => {
    const other = await buildAdmin(t);
    const object = await buildObject(t, other.space.id);
    await t.deps.database.db.insert(items).values({
      spaceId: other.space.id,
      objectId: object.id,
      kind: 'comment',
      externalId: 'other-1',
      createdAt: Z('2026-11-10T12:00:00Z'),
    });
    const mine = await ok(other.headers, 'overview', `space_id=${other.space.id}&${PERIOD}`);
    expect(mine.current.incoming).toEqual({ items: 1, chats: 0, messages: 0 });
    expect(mine.period.timezone).toBe('Europe/Moscow');
    for (const path of ['overview', 'volume', 'hours', 'operators']) {
      expect((await get(other.headers, path, `space_id=${s.spaceId}&${PERIOD}`)).statusCode).toBe(403);
    }
  });

  it('an operator (stats.viewOwn) gets only their own operator row and no space-wide figures', async () => {
    expect((await get(s.op1.headers, 'overview', `space_id=${s.spaceId}&${PERIOD}`)).statusCode).toBe(403);
    const own = await ok(s.op1.headers, 'operators', `space_id=${s.spaceId}&${PERIOD}`);
    expect(own.rows.map((r: { user_id: number }) => r.user_id)).toEqual([s.op1.user.id]);
  });

  it('refuses a bad period', async () => {
    expect((await get(s.admin.headers, 'overview', `space_id=${s.spaceId}&from=2026-11-10`)).statusCode).toBe(
      400,
    );
    expect(
      (await get(s.admin.headers, 'overview', `space_id=${s.spaceId}&from=2026-11-12&to=2026-11-10`))
        .statusCode,
    ).toBe(400);
    expect(
      (await get(s.admin.headers, 'overview', `space_id=${s.spaceId}&from=2025-01-01&to=2026-11-10`))
        .statusCode,
    ).toBe(400);
  });
});

// Runs last: adds a rule's closing, tags and posts to the seed above (the earlier figures stay as they were).
describe('stats — tags, posts, closings, times, one person', () => {
  let tagDelivery: number;
  let tagPayment: number;
  let postA: number;
  let postB: number;
  let limited: { headers: Headers };
  beforeAll(async () => {
    const db = t.deps.database.db;
    // i9 (a2): 12:00 local Nov 11, closed by a rule a minute later.
    const i9At = Z('2026-11-11T07:00:00Z');
    const i9 = await s.itemAt(s.a2, 'comment', i9At, {
      status: 'closed',
      closeReason: 'autorule',
      closedAt: plus(i9At, 60),
    });
    await db.insert(activity).values({
      spaceId: s.spaceId,
      type: 'item.status',
      itemId: i9.id,
      objectId: s.a2.id,
      causeKind: 'rule',
      causeId: 1,
      at: plus(i9At, 60),
      data: { from: 'new', to: 'closed', close_reason: 'autorule' },
    });
    const [d, p] = await db
      .insert(tags)
      .values([
        { spaceId: s.spaceId, name: 'Delivery' },
        { spaceId: s.spaceId, name: 'Payment' },
      ])
      .returning();
    tagDelivery = d!.id;
    tagPayment = p!.id;
    const [i1] = await db.select().from(items).where(eq(items.externalId, 's-1'));
    await db.insert(itemTags).values([
      { itemId: s.i2.id, tagId: tagDelivery, spaceId: s.spaceId },
      { itemId: s.i3.id, tagId: tagDelivery, spaceId: s.spaceId },
      { itemId: s.i3.id, tagId: tagPayment, spaceId: s.spaceId },
      { itemId: s.i6.id, tagId: tagPayment, spaceId: s.spaceId },
      { itemId: i1!.id, tagId: tagDelivery, spaceId: s.spaceId }, // arrived before the period
    ]);
    await db.insert(chatTags).values({ chatId: s.chat1.id, tagId: tagDelivery, spaceId: s.spaceId });
    const [pa, pb] = await db
      .insert(posts)
      .values([
        {
          spaceId: s.spaceId,
          objectId: s.a1.id,
          externalId: 'p-a',
          text: 'Autumn menu',
          postedAt: Z('2026-11-01T00:00:00Z'),
        },
        {
          spaceId: s.spaceId,
          objectId: s.a2.id,
          externalId: 'p-b',
          text: 'New hours',
          postedAt: Z('2026-11-01T00:00:00Z'),
        },
      ])
      .returning();
    postA = pa!.id;
    postB = pb!.id;
    // Post A: i2, i3, our reply (s-8) and i1 (before the period); post B: i6, i9.
    await db
      .update(items)
      .set({ postId: postA })
      .where(inArray(items.id, [s.i2.id, s.i3.id, i1!.id]));
    await db
      .update(items)
      .set({ postId: postA })
      .where(and(eq(items.objectId, s.a1.id), eq(items.isOwn, true)));
    await db
      .update(items)
      .set({ postId: postB })
      .where(inArray(items.id, [s.i6.id, i9.id]));
    const group = await buildUserGroup(t, s.spaceId, [s.a2.id]);
    limited = await buildMember(t, s.spaceId, 'analyst', { groupId: group.id });
  });
  const q = () => `space_id=${s.spaceId}&${PERIOD}`;

  it('tags: units of the period per tag and local day, top tags first; a group sees its accounts only', async () => {
    const body = await ok(s.admin.headers, 'tags', q());
    expect(body.tags).toEqual([
      { tag_id: tagDelivery, name: 'Delivery', count: 3 },
      { tag_id: tagPayment, name: 'Payment', count: 2 },
    ]);
    expect(body.rows).toEqual([
      { day: '2026-11-10', tag_id: tagDelivery, count: 3 }, // i2, i3, chat1
      { day: '2026-11-10', tag_id: tagPayment, count: 1 }, // i3
      { day: '2026-11-11', tag_id: tagPayment, count: 1 }, // i6
    ]);
    const mine = await ok(limited.headers, 'tags', q());
    expect(mine.tags).toEqual([{ tag_id: tagPayment, name: 'Payment', count: 1 }]);
    const chatsOnly = await ok(s.admin.headers, 'tags', `${q()}&kind=chat`);
    expect(chatsOnly.tags).toEqual([{ tag_id: tagDelivery, name: 'Delivery', count: 1 }]);
  });

  it('posts: items of the period, replied, our replies, top first', async () => {
    const body = await ok(s.admin.headers, 'posts', q());
    expect(body.rows).toEqual([
      {
        post_id: postA,
        object_id: s.a1.id,
        provider: 'sandbox',
        text: 'Autumn menu',
        url: null,
        items: 2,
        replied: 2,
        replies: 1,
      },
      {
        post_id: postB,
        object_id: s.a2.id,
        provider: 'telegram',
        text: 'New hours',
        url: null,
        items: 2,
        replied: 0,
        replies: 0,
      },
    ]);
    const mine = await ok(limited.headers, 'posts', q());
    expect(mine.rows.map((r: { post_id: number }) => r.post_id)).toEqual([postB]);
  });

  it('users/closed: per member and how; rules on their own row', async () => {
    const body = await ok(s.admin.headers, 'closed', q());
    expect(body.rows).toEqual([
      { user_id: s.op1.user.id, name: 'Anna', reply: 2, noreply: 1, autorule: 0, total: 3 },
      { user_id: s.op2.user.id, name: 'Boris', reply: 1, noreply: 0, autorule: 0, total: 1 },
      { user_id: null, name: null, reply: 0, noreply: 0, autorule: 1, total: 1 },
    ]);
    const mine = await ok(limited.headers, 'closed', q());
    expect(mine.rows).toEqual([
      { user_id: s.op1.user.id, name: 'Anna', reply: 0, noreply: 1, autorule: 0, total: 1 },
      { user_id: null, name: null, reply: 0, noreply: 0, autorule: 1, total: 1 },
    ]);
  });

  it('time: first response and resolution, median, p90, buckets and per day', async () => {
    const body = await ok(s.admin.headers, 'time', q());
    // FRT 120, 600, 1800, 3600; resolution 60 (i9), 120 (i7), 600 (i2), 3600 (i3), 3600 (i6).
    expect(body.first_response).toEqual({ count: 4, median: 600, p90: 3600 });
    expect(body.resolution).toEqual({ count: 5, median: 600, p90: 3600 });
    expect(body.buckets).toEqual({ first_response: [1, 1, 2, 0, 0, 0], resolution: [2, 1, 2, 0, 0, 0] });
    expect(body.days).toEqual([
      { day: '2026-11-10', first_response: 1800, resolution: 600 },
      { day: '2026-11-11', first_response: 120, resolution: 120 },
    ]);
    const mine = await ok(limited.headers, 'time', q());
    expect(mine.first_response).toEqual({ count: 0, median: null, p90: null });
    expect(mine.resolution).toEqual({ count: 2, median: 60, p90: 3600 });
    expect(mine.buckets.resolution).toEqual([1, 0, 1, 0, 0, 0]);
  });

  it('userstime: per member first response median and p90', async () => {
    const body = await ok(s.admin.headers, 'operator-times', q());
    expect(body.rows).toEqual([
      {
        user_id: s.op1.user.id,
        name: 'Anna',
        first_replies: { count: 2, median: 120, p90: 600 },
        first_replies_business: null,
      },
      {
        user_id: s.op2.user.id,
        name: 'Boris',
        first_replies: { count: 2, median: 1800, p90: 3600 },
        first_replies_business: null,
      },
    ]);
    expect((await ok(limited.headers, 'operator-times', q())).rows).toEqual([]);
  });

  it('my and users/:id: one person, within the caller scope; others only with stats.view', async () => {
    const my = await ok(s.op1.headers, 'my', q());
    expect(my.user).toEqual({ id: s.op1.user.id, name: 'Anna' });
    expect(my.row).toMatchObject({ replies: 3, closed: 3, first_replies: 2, frt_median: 120 });
    expect(my.closed).toMatchObject({ reply: 2, noreply: 1, autorule: 0, total: 3 });
    expect(my.first_replies).toEqual({ count: 2, median: 120, p90: 600 });
    const boris = await ok(s.admin.headers, `users/${s.op2.user.id}`, q());
    expect(boris.row).toMatchObject({ replies: 2, closed: 1, first_replies: 2, frt_median: 1800 });
    expect(boris.closed).toMatchObject({ reply: 1, total: 1 });
    expect(boris.first_replies).toEqual({ count: 2, median: 1800, p90: 3600 });
    const annaLimited = await ok(limited.headers, `users/${s.op1.user.id}`, q());
    expect(annaLimited.row).toMatchObject({ replies: 0, closed: 1, first_replies: 0, frt_median: null });
    expect(annaLimited.closed).toMatchObject({ noreply: 1, total: 1 });
    expect((await get(s.op1.headers, `users/${s.op2.user.id}`, q())).statusCode).toBe(403);
    expect((await get(s.op1.headers, 'tags', q())).statusCode).toBe(403);
    expect((await get(s.admin.headers, 'users/999999', q())).statusCode).toBe(404);
  });

  it('my and users/:id compare with the previous period: the same figures over the two days before', async () => {
    expect((await ok(s.op1.headers, 'my', q())).previous).toBeNull();
    const prevQ = `space_id=${s.spaceId}&from=2026-11-08&to=2026-11-09`;
    for (const [headers, path] of [
      [s.op1.headers, 'my'],
      [s.admin.headers, `users/${s.op2.user.id}`],
    ] as const) {
      const now = await ok(headers, path, `${q()}&compare=1`);
      const before = await ok(headers, path, prevQ);
      expect(now.previous.period).toMatchObject({ from: '2026-11-08', to: '2026-11-09' });
      const { period: _p, user: _u, previous: _x, ...figures } = before;
      expect({ ...now.previous, period: undefined }).toEqual({ ...figures, period: undefined });
      // The current figures are unchanged by comparing.
      expect(now.row).toEqual((await ok(headers, path, q())).row);
    }
  });
});
