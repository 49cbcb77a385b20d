import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import {
  activity,
  chats,
  chatTags,
  companies,
  items,
  itemTags,
  messages,
  spaces,
  tags,
} from '../../db/schema';
import { buildAdmin, buildMember, buildObject, buildUserGroup } from '../authors/test-helpers';

// The comparison with the previous period, the company and tag filters, and saved stats filters
// (docs/statistics.md "Comparison", "Filters", "Saved filters"). Every expectation is counted by hand
// from the seed below. The space is in UTC: local 2026-11-10..11 is [2026-11-10T00:00Z, 2026-11-12T00:00Z),
// the previous period 2026-11-08..09.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const Z = (iso: string) => new Date(iso);
type Headers = Record<string, string>;

async function seed() {
  const db = t.deps.database.db;
  const admin = await buildAdmin(t);
  const spaceId = admin.space.id;
  await db.update(spaces).set({ timezone: 'UTC' }).where(eq(spaces.id, spaceId));
  const [companyA, companyB] = await db
    .insert(companies)
    .values([
      { spaceId, name: 'Brand A' },
      { spaceId, name: 'Brand B' },
    ])
    .returning();
  const a1 = await buildObject(t, spaceId, { provider: 'sandbox', companyId: companyA!.id });
  const a2 = await buildObject(t, spaceId, { provider: 'telegram', companyId: companyB!.id });
  const a3 = await buildObject(t, spaceId, { provider: 'sandbox' });
  const [t1, t2] = await db
    .insert(tags)
    .values([
      { spaceId, name: 'Delivery' },
      { spaceId, name: 'Payment' },
    ])
    .returning();
  const op = await buildMember(t, spaceId, 'operator', { name: 'Olga' });

  let n = 0;
  async function item(
    object: typeof a1,
    kind: 'comment' | 'review' | 'mention',
    at: string,
    tagIds: number[],
    extra: Partial<typeof items.$inferInsert> = {},
  ) {
    n += 1;
    const [row] = await db
      .insert(items)
      .values({ spaceId, objectId: object.id, kind, externalId: `f-${n}`, createdAt: Z(at), ...extra })
      .returning();
    for (const tagId of tagIds) await db.insert(itemTags).values({ itemId: row!.id, tagId, spaceId });
    return row!;
  }
  async function chat(object: typeof a1, firstAt: string, tagIds: number[]) {
    n += 1;
    const [row] = await db
      .insert(chats)
      .values({
        spaceId,
        objectId: object.id,
        externalId: `fc-${n}`,
        status: 'new',
        lastMessageAt: Z(firstAt),
      })
      .returning();
    await db
      .insert(messages)
      .values({ spaceId, chatId: row!.id, isOwn: false, createdAt: Z(firstAt), externalId: `fm-${n}` });
    for (const tagId of tagIds) await db.insert(chatTags).values({ chatId: row!.id, tagId, spaceId });
    return row!;
  }

  // The period (Nov 10..11).
  const x1 = await item(a1, 'comment', '2026-11-10T10:00:00Z', [t1!.id], {
    status: 'closed',
    closeReason: 'reply',
    firstReplyAt: Z('2026-11-10T10:01:00Z'),
    closedAt: Z('2026-11-10T10:01:00Z'),
  });
  await item(a1, 'review', '2026-11-10T12:00:00Z', []);
  await item(a2, 'comment', '2026-11-11T09:00:00Z', [t1!.id]);
  const x4 = await item(a2, 'comment', '2026-11-11T10:00:00Z', [t2!.id], {
    firstReplyAt: Z('2026-11-11T12:00:00Z'),
  });
  await item(a3, 'mention', '2026-11-11T11:00:00Z', [t1!.id]);
  await chat(a1, '2026-11-10T08:00:00Z', [t1!.id]);
  await chat(a2, '2026-11-11T08:00:00Z', []);
  // The previous period (Nov 8..9).
  await item(a1, 'comment', '2026-11-08T10:00:00Z', [t1!.id]);
  await item(a2, 'comment', '2026-11-09T10:00:00Z', []);
  await item(a1, 'review', '2026-11-09T11:00:00Z', []);
  await chat(a1, '2026-11-09T07:00:00Z', []);

  const replied = (itemId: number, objectId: number, at: string, first: boolean) => ({
    spaceId,
    type: 'item.replied' as const,
    userId: op.user.id,
    causeKind: 'user' as const,
    causeId: op.user.id,
    itemId,
    objectId,
    at: Z(at),
    data: { first },
  });
  await db
    .insert(activity)
    .values([
      replied(x1.id, a1.id, '2026-11-10T10:01:00Z', true),
      replied(x4.id, a2.id, '2026-11-11T12:00:00Z', true),
    ]);
  return { admin, spaceId, a1, a2, a3, companyA: companyA!, companyB: companyB!, t1: t1!, t2: t2!, op };
}

let s: Awaited<ReturnType<typeof seed>>;
beforeAll(async () => {
  s = await seed();
});

const PERIOD = 'from=2026-11-10&to=2026-11-11';
async function ok(headers: Headers, path: string, query: string) {
  const res = await t.app.inject({ url: `/v1/stats/${path}?${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('stats — comparison with the previous period', () => {
  it('overview: the previous figures equal the previous period asked on its own, and the hand count', async () => {
    const body = await ok(s.admin.headers, 'overview', `space_id=${s.spaceId}&${PERIOD}&compare=1`);
    expect(body.current.incoming).toEqual({ items: 5, chats: 2, messages: 2 });
    expect(body.previous.period).toMatchObject({ from: '2026-11-08', to: '2026-11-09' });
    // Nov 8..9: three comments/reviews and one dialog with one customer message, nothing replied.
    expect(body.previous.incoming).toEqual({ items: 3, chats: 1, messages: 1 });
    expect(body.previous.replied).toBe(0);
    const alone = await ok(
      s.admin.headers,
      'overview',
      `space_id=${s.spaceId}&from=2026-11-08&to=2026-11-09`,
    );
    const { period: _p, ...previous } = body.previous;
    expect(previous).toEqual(alone.current);
    // Without compare there is no previous period.
    expect((await ok(s.admin.headers, 'overview', `space_id=${s.spaceId}&${PERIOD}`)).previous).toBeNull();
  });

  it('volume and time carry the previous period with the same filters', async () => {
    const volume = await ok(
      s.admin.headers,
      'volume',
      `space_id=${s.spaceId}&${PERIOD}&compare=1&tag_id=${s.t1.id}`,
    );
    expect(volume.previous.days.map((d: { day: string }) => d.day)).toEqual(['2026-11-08', '2026-11-09']);
    // Tagged Delivery in Nov 8..9: the Nov 8 comment only.
    expect(volume.previous.rows).toEqual([
      { day: '2026-11-08', provider: 'sandbox', kind: 'comment', count: 1 },
    ]);
    const time = await ok(s.admin.headers, 'time', `space_id=${s.spaceId}&${PERIOD}&compare=1`);
    // The first responses (x1 60 s, x4 7200 s) are in this period; none in the previous.
    expect(time.first_response).toEqual({ count: 2, median: 60, p90: 7200 });
    expect(time.previous.first_response).toEqual({ count: 0, median: null, p90: null });
    expect(time.previous.period).toMatchObject({ from: '2026-11-08', to: '2026-11-09' });
  });
});

describe('stats — company and tag filters', () => {
  const incoming = async (headers: Headers, filter: string) =>
    (await ok(headers, 'overview', `space_id=${s.spaceId}&${PERIOD}&compare=1&${filter}`)) as {
      current: { incoming: unknown };
      previous: { incoming: unknown };
      backlog: { items: number; chats: number };
    };

  it('a tag keeps the items and dialogs carrying it, in both periods and the backlog', async () => {
    const one = await incoming(s.admin.headers, `tag_id=${s.t1.id}`);
    // Delivery: x1, x3, x5 and the first dialog (one customer message); before: the Nov 8 comment.
    expect(one.current.incoming).toEqual({ items: 3, chats: 1, messages: 1 });
    expect(one.previous.incoming).toEqual({ items: 1, chats: 0, messages: 0 });
    // Open now and tagged Delivery: x3, x5 (x1 is closed), the first dialog, the Nov 8 comment.
    expect(one.backlog).toMatchObject({ items: 3, chats: 1 });
    const both = await incoming(s.admin.headers, `tag_id=${s.t1.id}&tag_id=${s.t2.id}`);
    expect(both.current.incoming).toEqual({ items: 4, chats: 1, messages: 1 });
  });

  it('a company keeps its accounts; with a tag, the intersection', async () => {
    const a = await incoming(s.admin.headers, `company_id=${s.companyA.id}`);
    // Brand A (a1): x1, x2 and the first dialog; before: two items and the Nov 9 dialog.
    expect(a.current.incoming).toEqual({ items: 2, chats: 1, messages: 1 });
    expect(a.previous.incoming).toEqual({ items: 2, chats: 1, messages: 1 });
    const b = await incoming(s.admin.headers, `company_id=${s.companyB.id}`);
    expect(b.current.incoming).toEqual({ items: 2, chats: 1, messages: 1 });
    const aTagged = await incoming(s.admin.headers, `company_id=${s.companyA.id}&tag_id=${s.t1.id}`);
    expect(aTagged.current.incoming).toEqual({ items: 1, chats: 1, messages: 1 });
  });

  it('every tab uses the same filters: volume, hours, operators, tags, time', async () => {
    const q = `space_id=${s.spaceId}&${PERIOD}&tag_id=${s.t1.id}`;
    const volume = await ok(s.admin.headers, 'volume', q);
    const items = volume.rows
      .filter((r: { kind: string }) => ['comment', 'review', 'mention'].includes(r.kind))
      .reduce((sum: number, r: { count: number }) => sum + r.count, 0);
    expect(items).toBe(3);
    const hours = await ok(s.admin.headers, 'hours', q);
    // 3 items + 1 customer message.
    expect(hours.cells.reduce((sum: number, c: { count: number }) => sum + c.count, 0)).toBe(4);
    // Olga replied to x1 (Delivery) and x4 (Payment): only x1 with the Delivery filter.
    const ops = await ok(s.admin.headers, 'operators', q);
    expect(ops.rows).toEqual([
      {
        user_id: s.op.user.id,
        name: 'Olga',
        replies: 1,
        closed: 0,
        first_replies: 1,
        frt_median: 60,
        // No business-hours schedule in this space (docs/statistics.md "Business hours").
        frt_median_business: null,
      },
    ]);
    const all = await ok(s.admin.headers, 'operators', `space_id=${s.spaceId}&${PERIOD}`);
    expect(all.rows[0]).toMatchObject({ replies: 2, first_replies: 2 });
    const tagTab = await ok(s.admin.headers, 'tags', q);
    expect(tagTab.tags).toEqual([{ tag_id: s.t1.id, name: 'Delivery', count: 4 }]);
    const companyTags = await ok(
      s.admin.headers,
      'tags',
      `space_id=${s.spaceId}&${PERIOD}&company_id=${s.companyB.id}`,
    );
    expect(companyTags.tags.map((x: { name: string; count: number }) => [x.name, x.count])).toEqual([
      ['Delivery', 1],
      ['Payment', 1],
    ]);
  });

  it('a member limited to a user group sees only their accounts, whatever the filters ask', async () => {
    const group = await buildUserGroup(t, s.spaceId, [s.a2.id]);
    const analyst = await buildMember(t, s.spaceId, 'analyst', { groupId: group.id });
    const tagged = await incoming(analyst.headers, `tag_id=${s.t1.id}`);
    // a2 only: x3 carries Delivery; nothing before.
    expect(tagged.current.incoming).toEqual({ items: 1, chats: 0, messages: 0 });
    expect(tagged.previous.incoming).toEqual({ items: 0, chats: 0, messages: 0 });
    // Brand A's account is not the group's: nothing.
    const other = await incoming(analyst.headers, `company_id=${s.companyA.id}`);
    expect(other.current.incoming).toEqual({ items: 0, chats: 0, messages: 0 });
    expect(other.backlog).toMatchObject({ items: 0, chats: 0 });
  });

  it('drill-down: the items list with the same tag and accounts lists exactly the counted items', async () => {
    const statuses = ['new', 'inprogress', 'open', 'closed', 'deleted', 'delayed', 'waiting']
      .map((x) => `status=${x}`)
      .join('&');
    const list = async (filter: string, start: number, end: number) => {
      const res = await t.app.inject({
        url: `/v1/items?created_at_from=${start}&created_at_to=${end - 1}&${statuses}&limit=200&${filter}`,
        headers: s.admin.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().items as unknown[];
    };
    const tagged = await incoming(s.admin.headers, `tag_id=${s.t1.id}`);
    const overview = await ok(
      s.admin.headers,
      'overview',
      `space_id=${s.spaceId}&${PERIOD}&tag_id=${s.t1.id}`,
    );
    const { start, end } = overview.period;
    expect(await list(`tag_id=${s.t1.id}`, start, end)).toHaveLength(
      (tagged.current.incoming as { items: number }).items,
    );
    // A company drills down as its accounts (the list has no company filter): Brand A = a1.
    const a = await incoming(s.admin.headers, `company_id=${s.companyA.id}`);
    expect(await list(`object_id=${s.a1.id}`, start, end)).toHaveLength(
      (a.current.incoming as { items: number }).items,
    );
  });

  it('refuses a bad tag or company id', async () => {
    for (const bad of ['tag_id=x', 'company_id=0']) {
      const res = await t.app.inject({
        url: `/v1/stats/overview?space_id=${s.spaceId}&${PERIOD}&${bad}`,
        headers: s.admin.headers,
      });
      expect(res.statusCode).toBe(400);
    }
  });
});

describe('stats — saved stats filters', () => {
  const filtersOf = async (headers: Headers) => {
    const res = await t.app.inject({ url: '/v1/config', headers });
    expect(res.statusCode, res.body).toBe(200);
    return (
      res.json().filters as Array<{ id: number; name: string; route: string | null; query: unknown }>
    ).filter((f) => f.route === null);
  };

  it('save, list, delete; another user neither sees nor deletes them', async () => {
    const query = { space_id: s.spaceId, preset: '30d', compare: 1, tag_id: [s.t1.id] };
    const saved = await t.app.inject({
      method: 'POST',
      url: '/v1/me/filters',
      headers: s.admin.headers,
      payload: { name: ' Delivery, 30 days ', query, route: 'stats' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const mine = await filtersOf(s.admin.headers);
    expect(mine).toEqual([{ id: expect.any(Number), name: 'Delivery, 30 days', route: null, query }]);

    const stranger = await buildAdmin(t);
    expect(await filtersOf(stranger.headers)).toEqual([]);
    const theirs = await t.app.inject({
      method: 'DELETE',
      url: `/v1/me/filters/${mine[0]!.id}`,
      headers: stranger.headers,
    });
    expect(theirs.statusCode).toBe(404);
    // A colleague in the same space does not see them either: saved filters are personal.
    expect(await filtersOf(s.op.headers)).toEqual([]);

    const blank = await t.app.inject({
      method: 'POST',
      url: '/v1/me/filters',
      headers: s.admin.headers,
      payload: { name: '  ', query, route: 'stats' },
    });
    expect(blank.statusCode).toBe(400);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/me/filters/${mine[0]!.id}`,
      headers: s.admin.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await filtersOf(s.admin.headers)).toEqual([]);
  });
});
