import type { StatsPeriod } from '@otklik/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { activity, chats, items, messages, spaces, statsFirstReplies, statsHourly } from '../../db/schema';
import { buildAdmin, buildMember, buildObject } from '../authors/test-helpers';
import type { InboxScope } from '../inbox/read/scope';
import { resolvePeriod } from './period';
import { backlog, figures, type StatsFilters, volume } from './queries';
import { operators, operatorTimes } from './queries-team';
import { actionsFromRollup, firstsFromRollup, unitsFromRollup } from './rollup';

// The rollups (stats_hourly and stats_first_replies, kept by triggers) against the raw rows: on a seeded
// space, and again after replies, closings, reopenings, new and removed messages, deleted items and
// dialogs, and first-reply actions moved, removed or made before the arrival, the overview's figures, the
// volume, the team table, the team's response times and the backlog (from the badge counters) read the
// same through both paths, for each filter the rollups answer. The space is in Europe/Moscow (UTC+3,
// whole hours); the first replies are compared over a half-hour zone's period too (Asia/Kolkata).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;
const BASE = Date.parse('2026-11-01T00:00:00Z');
const at = (minutes: number) => new Date(BASE + minutes * 60_000);

async function seed() {
  const db = t.deps.database.db;
  const admin = await buildAdmin(t);
  const spaceId = admin.space.id;
  await db.update(spaces).set({ timezone: 'Europe/Moscow' }).where(eq(spaces.id, spaceId));
  const a1 = await buildObject(t, spaceId, { provider: 'sandbox' });
  const a2 = await buildObject(t, spaceId, { provider: 'telegram' });
  const ops = [
    (await buildMember(t, spaceId, 'operator', { name: 'Anna' })).user.id,
    (await buildMember(t, spaceId, 'operator', { name: 'Boris' })).user.id,
  ];
  const kinds = ['comment', 'review', 'mention'] as const;
  // 80 items over 10 days (every ~3 h, some on the minute before/after an hour), deterministic mix.
  const itemRows = [];
  for (let k = 0; k < 80; k++) {
    const created = at(k * 181 + (k % 7));
    const replied = k % 3 !== 0;
    const closed = k % 4 === 0 || k % 5 === 0;
    const reason = (['reply', 'noreply', 'autorule'] as const)[k % 3]!;
    itemRows.push({
      spaceId,
      objectId: (k % 2 === 0 ? a1 : a2).id,
      kind: kinds[k % 3]!,
      externalId: `r-${k}`,
      createdAt: created,
      isOwn: k % 11 === 10,
      firstReplyAt: replied ? new Date(created.getTime() + (k % 9) * 600_000) : null,
      status: closed ? ('closed' as const) : ('new' as const),
      closeReason: closed ? reason : null,
      closedAt: closed ? new Date(created.getTime() + (k % 13) * 3_600_000) : null,
    });
  }
  const inserted = await db.insert(items).values(itemRows).returning();
  // 12 dialogs, each with two customer messages and our answer; the first customer message sets the arrival.
  for (let k = 0; k < 12; k++) {
    const first = at(k * 1_201 + 30);
    const [chat] = await db
      .insert(chats)
      .values({
        spaceId,
        objectId: (k % 3 === 0 ? a2 : a1).id,
        externalId: `rc-${k}`,
        status: k % 2 === 0 ? 'closed' : 'inprogress',
        closeReason: k % 2 === 0 ? 'reply' : null,
        closedAt: k % 2 === 0 ? new Date(first.getTime() + 7_200_000) : null,
        lastMessageAt: first,
        firstReplyAt: k % 4 === 3 ? null : new Date(first.getTime() + 900_000),
      })
      .returning();
    await db.insert(messages).values([
      { spaceId, chatId: chat!.id, isOwn: false, createdAt: first, externalId: `m-${k}-1` },
      {
        spaceId,
        chatId: chat!.id,
        isOwn: false,
        createdAt: new Date(first.getTime() + 60_000),
        externalId: `m-${k}-2`,
      },
      {
        spaceId,
        chatId: chat!.id,
        isOwn: true,
        createdAt: new Date(first.getTime() + 900_000),
        externalId: `m-${k}-3`,
      },
    ]);
    if (k % 4 !== 3)
      await db.insert(activity).values({
        spaceId,
        type: 'chat.replied',
        objectId: chat!.objectId,
        chatId: chat!.id,
        userId: ops[k % 2]!,
        causeKind: 'user',
        data: { first: true },
        at: new Date(first.getTime() + 900_000),
      });
  }
  // The members' actions: first replies, closings (a rule's too), and an assignment alone.
  const acts = inserted.flatMap((row, k) => [
    ...(row.firstReplyAt
      ? [
          {
            spaceId,
            type: 'item.replied' as const,
            objectId: row.objectId,
            itemId: row.id,
            userId: ops[k % 2]!,
            causeKind: 'user' as const,
            data: { first: true },
            at: row.firstReplyAt,
          },
        ]
      : []),
    ...(row.closedAt
      ? [
          {
            spaceId,
            type: 'item.status' as const,
            objectId: row.objectId,
            itemId: row.id,
            userId: row.closeReason === 'autorule' ? null : ops[(k + 1) % 2]!,
            causeKind: row.closeReason === 'autorule' ? ('rule' as const) : ('user' as const),
            data: { to: 'closed', close_reason: row.closeReason },
            at: row.closedAt,
          },
        ]
      : []),
  ]);
  await db.insert(activity).values([
    ...acts,
    {
      spaceId,
      type: 'item.assigned',
      objectId: a1.id,
      itemId: inserted[0]!.id,
      userId: ops[1]!,
      causeKind: 'user',
      data: {},
      at: at(3000),
    },
  ]);
  return { admin, spaceId, a1, a2, ops, inserted };
}

type Seeded = Awaited<ReturnType<typeof seed>>;

/** Every figure both paths answer, for the filters the rollup takes, over two periods. */
async function expectSame(s: Seeded) {
  const db = t.deps.database.db;
  const scope: InboxScope = { spaces: new Map([[s.spaceId, null]]) };
  const now = new Date(BASE + 12 * DAY);
  const periods: StatsPeriod[] = [
    await resolvePeriod(db, 'Europe/Moscow', { from: '2026-11-01', to: '2026-11-10' }, now),
    await resolvePeriod(db, 'Europe/Moscow', { from: '2026-11-04', to: '2026-11-04' }, now),
  ];
  const filters: StatsFilters[] = [
    {},
    { kind: ['comment'] },
    { kind: ['review', 'chat'] },
    { kind: ['chat'] },
    { object_id: [s.a1.id] },
    { provider: ['telegram'] },
  ];
  for (const p of periods) {
    for (const f of filters) {
      expect(unitsFromRollup(f, p, 'auto')).toBe(true);
      const label = JSON.stringify({ f, from: p.from, to: p.to });
      expect(await figures(db, scope, f, p), label).toEqual(await figures(db, scope, f, p, 'raw'));
      expect(await volume(db, scope, f, p), label).toEqual(await volume(db, scope, f, p, 'raw'));
      expect(await operators(db, scope, f, p, null), label).toEqual(
        await operators(db, scope, f, p, null, 'raw'),
      );
      expect(await backlog(db, scope, f), label).toEqual(await backlog(db, scope, f, 'raw'));
      expect(firstsFromRollup(f, 'auto')).toBe(true);
      expect(await operatorTimes(db, scope, f, p, null), label).toEqual(
        await operatorTimes(db, scope, f, p, null, 'raw'),
      );
    }
    const byOperator = { operator_id: [s.ops[1]!] };
    expect(actionsFromRollup(byOperator, p, 'auto')).toBe(true);
    expect(await operators(db, scope, byOperator, p, null)).toEqual(
      await operators(db, scope, byOperator, p, null, 'raw'),
    );
    expect(await operators(db, scope, {}, p, s.ops[0]!)).toEqual(
      await operators(db, scope, {}, p, s.ops[0]!, 'raw'),
    );
    expect(await operatorTimes(db, scope, byOperator, p, null)).toEqual(
      await operatorTimes(db, scope, byOperator, p, null, 'raw'),
    );
    expect(await operatorTimes(db, scope, {}, p, s.ops[0]!)).toEqual(
      await operatorTimes(db, scope, {}, p, s.ops[0]!, 'raw'),
    );
  }
  // The first replies keep exact arrivals: a period starting on a half hour reads them too.
  const kolkata = await resolvePeriod(db, 'Asia/Kolkata', { from: '2026-11-02', to: '2026-11-06' }, now);
  expect(kolkata.start % 3600).not.toBe(0);
  for (const f of filters) {
    expect(await operatorTimes(db, scope, f, kolkata, null)).toEqual(
      await operatorTimes(db, scope, f, kolkata, null, 'raw'),
    );
  }
  // The table holds exactly the pairs the raw path joins: first-reply actions by members on counted units.
  const pairs = await db
    .select({
      id: statsFirstReplies.activityId,
      arrived: statsFirstReplies.arrived,
      frt: statsFirstReplies.frt,
    })
    .from(statsFirstReplies)
    .where(eq(statsFirstReplies.spaceId, s.spaceId))
    .orderBy(statsFirstReplies.activityId);
  const raw = (await db.execute(sql`SELECT a.id, u.arrived,
      CASE WHEN u.replied >= u.arrived THEN extract(epoch FROM (u.replied - u.arrived))::float8 END AS frt
    FROM activity a JOIN (
      SELECT 'item' AS unit, id, space_id, created_at AS arrived, first_reply_at AS replied FROM items WHERE NOT is_own
      UNION ALL SELECT 'chat', id, space_id, arrived_at, first_reply_at FROM chats WHERE arrived_at IS NOT NULL
    ) u ON (u.unit = 'item' AND a.item_id = u.id OR u.unit = 'chat' AND a.chat_id = u.id) AND a.space_id = u.space_id
    WHERE a.space_id = ${s.spaceId} AND a.type = u.unit || '.replied' AND a.data->>'first' = 'true'
      AND a.cause_kind = 'user' AND a.user_id IS NOT NULL
    ORDER BY a.id`)) as unknown as { rows: Array<{ id: unknown; arrived: unknown; frt: unknown }> };
  expect(pairs.map((r) => [r.id, r.arrived.getTime(), r.frt])).toEqual(
    raw.rows.map((r) => [
      Number(r.id),
      new Date(r.arrived as string).getTime(),
      r.frt === null ? null : Number(r.frt),
    ]),
  );
  // Not vacuous: the long period counts items, dialogs, messages, closings and both members' replies.
  const [long] = periods;
  const all = await figures(db, scope, {}, long!);
  expect(all.incoming.items).toBeGreaterThan(50);
  expect((await backlog(db, scope, {})).items).toBeGreaterThan(10);
  expect(all.incoming.chats).toBeGreaterThan(5);
  expect(all.incoming.messages).toBeGreaterThan(10);
  expect(all.closed.reply + all.closed.noreply + all.closed.autorule).toBeGreaterThan(10);
  const team = await operators(db, scope, {}, long!, null);
  expect(team.map((r) => r.replies > 0 && r.closed > 0 && r.first_replies > 0)).toEqual([true, true]);
}

describe('stats rollup', () => {
  it('answers what the raw rows answer, before and after replies, closings and deletions', async () => {
    const s = await seed();
    const db = t.deps.database.db;
    expect(
      (await db.select().from(statsHourly).where(eq(statsHourly.spaceId, s.spaceId))).length,
    ).toBeGreaterThan(50);
    await expectSame(s);

    // Through the app: a reply (first reply, activity), a closing, a reopening, a status change.
    const open = s.inserted.filter((r) => !r.isOwn && r.status === 'new');
    const send = await t.app.inject({
      method: 'POST',
      url: `/v1/items/${open[0]!.id}/reply`,
      headers: s.admin.headers,
      payload: { text: 'Ответ' },
    });
    expect(send.statusCode, send.body).toBeLessThan(300);
    for (const [row, status] of [
      [open[1]!, 'closed'],
      [open[2]!, 'closed'],
      [s.inserted.find((r) => r.status === 'closed' && !r.isOwn)!, 'open'],
    ] as const) {
      const put = await t.app.inject({
        method: 'PUT',
        url: `/v1/items/${row.id}/status`,
        headers: s.admin.headers,
        payload: { status },
      });
      expect(put.statusCode, put.body).toBe(200);
    }
    // The reply and the closings happened now — move them into the period, as if done back then.
    await db.execute(
      sql`UPDATE activity SET at = ${at(4000).toISOString()}::timestamptz WHERE space_id = ${s.spaceId} AND at > ${new Date(BASE + 30 * DAY).toISOString()}::timestamptz`,
    );
    await db.execute(
      sql`UPDATE items SET closed_at = ${at(4100).toISOString()}::timestamptz, first_reply_at = least(first_reply_at, ${at(4100).toISOString()}::timestamptz)
        WHERE space_id = ${s.spaceId} AND (closed_at > ${new Date(BASE + 30 * DAY).toISOString()}::timestamptz OR first_reply_at > ${new Date(BASE + 30 * DAY).toISOString()}::timestamptz)`,
    );
    // A dialog gets an earlier customer message (its arrival moves back a day) and one more later;
    // another loses its first customer message (its arrival moves forward).
    const [c0, c1] = await db.select().from(chats).where(eq(chats.spaceId, s.spaceId)).orderBy(chats.id);
    await db.insert(messages).values([
      {
        spaceId: s.spaceId,
        chatId: c0!.id,
        isOwn: false,
        createdAt: new Date(c0!.arrivedAt!.getTime() - DAY),
        externalId: 'early',
      },
      { spaceId: s.spaceId, chatId: c0!.id, isOwn: false, createdAt: at(9000), externalId: 'late' },
    ]);
    await db.delete(messages).where(and(eq(messages.chatId, c1!.id), eq(messages.externalId, 'm-1-1')));
    // An item deleted with its activity left behind (its actions no longer count), a dialog deleted.
    await db.delete(items).where(eq(items.id, s.inserted[3]!.id));
    await db.delete(chats).where(eq(chats.id, await lastChat(s.spaceId)));
    await expectSame(s);

    // First-reply actions and their units changed directly: a first reply written before the arrival (no
    // FRT), a first reply handed to the other member, one removed, an item moved to another kind and to
    // another account, and an update that changes nothing the rollups count (a note on the activity).
    const replied = s.inserted.filter((r) => !r.isOwn && r.firstReplyAt && r.id !== s.inserted[3]!.id);
    const [early, handed, removed, rekinded, moved] = replied.slice(4);
    await db.execute(
      sql`UPDATE items SET first_reply_at = created_at - interval '1 minute' WHERE id = ${early!.id}`,
    );
    await db.execute(
      sql`UPDATE activity SET user_id = ${s.ops[0]!} WHERE item_id = ${handed!.id} AND type = 'item.replied'`,
    );
    await db.execute(sql`DELETE FROM activity WHERE item_id = ${removed!.id} AND type = 'item.replied'`);
    await db.execute(
      sql`UPDATE items SET kind = CASE WHEN kind = 'review' THEN 'comment' ELSE 'review' END WHERE id = ${rekinded!.id}`,
    );
    await db.execute(
      sql`UPDATE items SET object_id = ${moved!.objectId === s.a1.id ? s.a2.id : s.a1.id} WHERE id = ${moved!.id}`,
    );
    await db.execute(
      sql`UPDATE activity SET data = data || '{"note": 1}'::jsonb WHERE space_id = ${s.spaceId} AND type = 'item.replied'`,
    );
    await expectSame(s);
  });

  it('stays equal to the raw rows after bulk updates and deletions of first replies', async () => {
    const s = await seed();
    const db = t.deps.database.db;
    // Bulk statements (the triggers plan them afresh each time, migration 0059; the test before this one
    // ran them on single rows in the same database session): every item's and dialog's first reply moved at
    // once (some before the arrival, some unreplied now replied), half the first-reply actions of one member handed to the other, then half of all removed.
    await db.execute(
      sql`UPDATE items SET first_reply_at = CASE WHEN id % 5 = 0 THEN created_at - interval '2 minutes'
        ELSE coalesce(first_reply_at, created_at) + interval '7 minutes' END WHERE space_id = ${s.spaceId}`,
    );
    await db.execute(
      sql`UPDATE chats SET first_reply_at = first_reply_at + interval '3 minutes' WHERE space_id = ${s.spaceId}`,
    );
    await db.execute(
      sql`UPDATE activity SET user_id = ${s.ops[1]!} WHERE space_id = ${s.spaceId} AND user_id = ${s.ops[0]!}
        AND id % 2 = 1 AND type IN ('item.replied', 'chat.replied')`,
    );
    await expectSame(s);
    await db.execute(
      sql`DELETE FROM activity WHERE space_id = ${s.spaceId} AND type IN ('item.replied', 'chat.replied') AND id % 4 = 0`,
    );
    await db.execute(
      sql`UPDATE activity SET user_id = ${s.ops[0]!} WHERE space_id = ${s.spaceId} AND id % 3 = 0
        AND type IN ('item.replied', 'chat.replied')`,
    );
    await expectSame(s);
  });

  it('reads the raw rows where whole UTC hours do not make local days (Asia/Kolkata, UTC+5:30)', async () => {
    const db = t.deps.database.db;
    const p = await resolvePeriod(
      db,
      'Asia/Kolkata',
      { from: '2026-11-01', to: '2026-11-10' },
      new Date(BASE + 12 * DAY),
    );
    expect(p.start % 3600).not.toBe(0);
    expect(unitsFromRollup({}, p, 'auto')).toBe(false);
    expect(actionsFromRollup({}, p, 'auto')).toBe(false);
    const utc = await resolvePeriod(
      db,
      'UTC',
      { from: '2026-11-01', to: '2026-11-10' },
      new Date(BASE + 12 * DAY),
    );
    expect(unitsFromRollup({ tag_id: [1] }, utc, 'auto')).toBe(false);
    expect(unitsFromRollup({ operator_id: [1] }, utc, 'auto')).toBe(false);
    expect(actionsFromRollup({ operator_id: [1] }, utc, 'auto')).toBe(true);
  });
});

async function lastChat(spaceId: number): Promise<number> {
  const rows = await t.deps.database.db
    .select({ id: chats.id })
    .from(chats)
    .where(eq(chats.spaceId, spaceId));
  return Math.max(...rows.map((r) => r.id));
}
