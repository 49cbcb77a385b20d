import type {
  ExportsListWire,
  ExportWire,
  StatsEmotions,
  StatsOperators,
  StatsOverview,
  StatsPerson,
  StatsStatuses,
  StatsVolume,
  StatsWorkinghours,
} from '@otklik/shared';
import { presetFor } from '@otklik/shared';
import { and, asc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import {
  activity,
  items,
  mailOutbox,
  memberships,
  spaces,
  statusChanges,
  userStatuses,
  users,
  workinghoursItems,
} from '../../db/schema';
import { taskClock } from '../../lib/clock';
import { buildAdmin, buildMember, buildObject } from '../authors/test-helpers';
import { type ExportDeps, processExports } from './exports';

// Background export of a statistics tab (kind `tab`, docs/statistics.md "Exports"): the job row, list,
// progress and mail of the raw exports, and a file holding the same figures the tab's endpoint answers
// with for the same period and filters. The space is in UTC+5 (Asia/Yekaterinburg); period Mon 16 ..
// Sun 22 Nov 2026 local.

let t: TestApp;
let deps: ExportDeps;
beforeAll(async () => {
  t = await createTestApp();
  deps = {
    db: t.deps.database.db,
    mailer: t.deps.mailer,
    bus: t.deps.bus,
    appUrl: t.deps.config.appUrl,
    dataDir: t.deps.config.dataDir,
    log: t.deps.log,
  };
});
afterAll(async () => {
  await t.close();
});

type Headers = Record<string, string>;
const Z = (iso: string) => new Date(iso);
const call = (headers: Headers, method: 'GET' | 'POST', url: string, body?: unknown) =>
  t.app.inject({ method, url: `/v1${url}`, headers, payload: body as Record<string, unknown> });

async function seed() {
  const db = t.deps.database.db;
  const admin = await buildAdmin(t);
  const spaceId = admin.space.id;
  await db.update(spaces).set({ timezone: 'Asia/Yekaterinburg' }).where(eq(spaces.id, spaceId));
  await db.update(users).set({ locale: 'en' }).where(eq(users.email, admin.email));
  const a1 = await buildObject(t, spaceId, { provider: 'sandbox' });
  const a2 = await buildObject(t, spaceId, { provider: 'vk' });
  const anna = await buildMember(t, spaceId, 'operator', { name: 'Anna' });
  const bob = await buildMember(t, spaceId, 'operator', { name: 'Bob' });
  let n = 0;
  const item = async (
    objectId: number,
    createdAt: string,
    extra: Partial<typeof items.$inferInsert> = {},
  ) => {
    n += 1;
    const [row] = await db
      .insert(items)
      .values({ spaceId, objectId, kind: 'comment', externalId: `t-${n}`, createdAt: Z(createdAt), ...extra })
      .returning();
    return row!;
  };
  // Three comments and a review in the period; one before it (never counted).
  await item(a1.id, '2026-11-15T18:00:00Z');
  const c1 = await item(a1.id, '2026-11-16T05:00:00Z', {
    sentiment: 'negative',
    emotion: 'anger',
    status: 'closed',
    closeReason: 'reply',
    firstReplyAt: Z('2026-11-16T05:10:00Z'),
    closedAt: Z('2026-11-16T05:10:00Z'),
  });
  await item(a1.id, '2026-11-16T05:10:00Z', {
    isOwn: true,
    userId: anna.user.id,
    parentId: c1.id,
    status: 'closed',
  });
  const c2 = await item(a2.id, '2026-11-18T10:00:00Z', {
    kind: 'review',
    rating: 2,
    sentiment: 'positive',
    status: 'closed',
    closeReason: 'reply',
    firstReplyAt: Z('2026-11-18T11:00:00Z'),
    closedAt: Z('2026-11-18T11:00:00Z'),
  });
  await item(a2.id, '2026-11-18T11:00:00Z', {
    isOwn: true,
    userId: bob.user.id,
    parentId: c2.id,
    status: 'closed',
  });
  await item(a1.id, '2026-11-20T07:00:00Z', { sentiment: 'neutral' });
  // What the team tables count: the members' recorded actions.
  const act = (
    userId: number,
    type: 'item.replied' | 'item.status',
    itemId: number,
    objectId: number,
    at: string,
    data: Record<string, unknown>,
  ) => ({
    spaceId,
    type,
    userId,
    causeKind: 'user' as const,
    causeId: userId,
    at: Z(at),
    data,
    itemId,
    objectId,
  });
  await db.insert(activity).values([
    act(anna.user.id, 'item.replied', c1.id, a1.id, '2026-11-16T05:10:00Z', { first: true }),
    act(anna.user.id, 'item.status', c1.id, a1.id, '2026-11-16T05:10:00Z', {
      from: 'new',
      to: 'closed',
      close_reason: 'reply',
    }),
    act(bob.user.id, 'item.replied', c2.id, a2.id, '2026-11-18T11:00:00Z', { first: true }),
    act(bob.user.id, 'item.status', c2.id, a2.id, '2026-11-18T11:00:00Z', {
      from: 'new',
      to: 'closed',
      close_reason: 'reply',
    }),
  ]);
  // Anna's user statuses and her working-hours slot (stats/statuses, stats/workinghours).
  const [online, away] = await db
    .select()
    .from(userStatuses)
    .where(eq(userStatuses.spaceId, spaceId))
    .orderBy(asc(userStatuses.position));
  await db.delete(statusChanges).where(eq(statusChanges.spaceId, spaceId));
  await db.insert(statusChanges).values([
    { spaceId, userId: anna.user.id, statusId: online!.id, source: 'manual', at: Z('2026-11-17T09:00:00Z') },
    { spaceId, userId: anna.user.id, statusId: away!.id, source: 'manual', at: Z('2026-11-17T17:00:00Z') },
  ]);
  await db.insert(workinghoursItems).values({
    spaceId,
    userId: anna.user.id,
    startedAt: Z('2026-11-17T09:00:00Z'),
    endedAt: Z('2026-11-17T17:00:00Z'),
    statusId: null,
  });
  return { admin, spaceId, a1, a2, anna, bob };
}

let s: Awaited<ReturnType<typeof seed>>;
beforeAll(async () => {
  s = await seed();
});

const period = { from: '2026-11-16', to: '2026-11-22' };

async function exported(body: Record<string, unknown>, headers: Headers = s.admin.headers) {
  const res = await call(headers, 'POST', '/stats/exports', {
    space_id: s.spaceId,
    ...period,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  const started = res.json() as ExportWire;
  expect(started).toMatchObject({ status: 'queued', kind: 'tab', tab: body.tab });
  await processExports(deps, () => taskClock.now(), [s.spaceId]);
  const list = (await call(headers, 'GET', `/stats/exports?space_id=${s.spaceId}`)).json() as ExportsListWire;
  const wire = list.items.find((e) => e.id === started.id)!;
  expect(wire.status, wire.error ?? '').toBe('done');
  const file = await call(headers, 'GET', `/stats/exports/${wire.id}/file`);
  expect(file.statusCode).toBe(200);
  return { wire, file };
}

/** The CSV's lines as cells (quoted cells unquoted; none of these figures holds a line break). */
const csvRows = (body: string) =>
  body
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .map((line) =>
      [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)]
        .slice(0, -1)
        .map((m) => m[1]!.replace(/^"|"$/g, '').replaceAll('""', '"')),
    );

async function sheetsOf(content: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(content as unknown as ArrayBuffer);
  return book.worksheets.map((ws) => {
    const rows: unknown[][] = [];
    ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return { name: ws.name, rows };
  });
}

describe('background export of a stats tab', () => {
  it('overall as CSV: the summary and the daily volume equal /stats/overview and /stats/volume', async () => {
    const q = `space_id=${s.spaceId}&from=${period.from}&to=${period.to}`;
    const overview = (await call(s.admin.headers, 'GET', `/stats/overview?${q}`)).json() as StatsOverview;
    const volume = (await call(s.admin.headers, 'GET', `/stats/volume?${q}`)).json() as StatsVolume;
    // Counted by hand from the seed: 3 customer items in the period (one before it is not).
    expect(overview.current.incoming.items).toBe(3);
    const { wire, file } = await exported({ kind: 'tab', tab: 'overall', format: 'csv' });
    expect(file.headers['content-disposition']).toBe(
      'attachment; filename="overall-2026-11-16-2026-11-22.csv"',
    );
    const rows = csvRows(file.body);
    const value = (label: string) => rows.find((r) => r[0] === label)?.[1];
    expect(value('Comments, reviews, mentions')).toBe(String(overview.current.incoming.items));
    expect(value('Got a reply')).toBe(String(overview.current.replied));
    expect(value('Closed with reply')).toBe(String(overview.current.closed.reply));
    expect(value('First response, median, s')).toBe(String(overview.current.first_response.median));
    // The daily volume: one line per local day and network, the kinds' counts summing to the API's.
    const days = rows.filter((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[0] ?? ''));
    const fileTotal = days.reduce((sum, r) => sum + r.slice(2).reduce((a, c) => a + Number(c), 0), 0);
    expect(fileTotal).toBe(volume.rows.reduce((sum, r) => sum + r.count, 0));
    expect(days.map((r) => r[0])).toEqual(['2026-11-16', '2026-11-18', '2026-11-20']);
    expect(wire.rows_done).toBe(wire.rows_total);
    expect(wire.rows_done).toBeGreaterThan(days.length);
    // The mail names the tab.
    const mails = await t.deps.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, s.admin.email), eq(mailOutbox.kind, 'stats_export')));
    expect(mails.some((m) => m.text?.includes('Tab "Incoming"'))).toBe(true);
  });

  it('team as XLSX with an operator filter: the rows of /stats/operators with the same filter', async () => {
    const q = `space_id=${s.spaceId}&from=${period.from}&to=${period.to}&operator_id=${s.bob.user.id}`;
    const team = (await call(s.admin.headers, 'GET', `/stats/operators?${q}`)).json() as StatsOperators;
    expect(team.rows.map((r) => r.name)).toEqual(['Bob']);
    const { file } = await exported({
      kind: 'tab',
      tab: 'users',
      format: 'xlsx',
      operator_id: [s.bob.user.id],
    });
    const [sheet] = await sheetsOf(file.rawPayload);
    expect(sheet!.rows.slice(1)).toEqual(
      team.rows.map((r) => [r.name, r.replies, r.closed, r.first_replies, r.frt_median ?? '']),
    );
    expect(team.rows[0]!.replies).toBe(1);
  });

  it('emotions as XLSX: per day and per network, as /stats/emotions counts them', async () => {
    const q = `space_id=${s.spaceId}&from=${period.from}&to=${period.to}`;
    const api = (await call(s.admin.headers, 'GET', `/stats/emotions?${q}`)).json() as StatsEmotions;
    // Counted by hand from the seed: one negative (with anger), one positive, one neutral in the period.
    expect(api.totals).toMatchObject({ negative: 1, positive: 1, neutral: 1, anger: 1 });
    const { file } = await exported({ kind: 'tab', tab: 'emotions', format: 'xlsx' });
    const [byDay, byNetwork] = await sheetsOf(file.rawPayload);
    expect(byDay!.name).toBe('Emotions by day');
    expect(byDay!.rows[0]).toEqual(['Day', 'Negative', 'Neutral', 'Positive', 'Anger']);
    expect(byDay!.rows.slice(1)).toEqual(
      api.days.map((d) => [d.day, d.negative, d.neutral, d.positive, d.anger]),
    );
    expect(byNetwork!.rows.slice(1)).toEqual(
      api.by_provider.map((p) => [
        p.provider === 'vk' ? 'VK' : 'Sandbox',
        p.negative,
        p.neutral,
        p.positive,
        p.anger,
      ]),
    );
    expect(byNetwork!.rows.slice(1).reduce((sum, r) => sum + Number(r[1]), 0)).toBe(1);
  });

  it('statuses and working hours as CSV: one line per member with /stats/statuses and /stats/workinghours figures', async () => {
    const q = `space_id=${s.spaceId}&from=${period.from}&to=${period.to}`;
    const statuses = (await call(s.admin.headers, 'GET', `/stats/statuses?${q}`)).json() as StatsStatuses;
    const hours = (
      await call(s.admin.headers, 'GET', `/stats/workinghours?${q}`)
    ).json() as StatsWorkinghours;
    const st = csvRows((await exported({ kind: 'tab', tab: 'statuses', format: 'csv' })).file.body);
    expect(st[0]).toEqual([
      'Team member',
      ...statuses.statuses.map((x) => `${x.name}, s`),
      'In working statuses, s',
      'Recorded in all, s',
    ]);
    expect(st.slice(1).filter((r) => r.length > 1)).toEqual(
      statuses.rows.map((r) => [
        r.name,
        ...statuses.statuses.map((x) => String(r.seconds[String(x.id)] ?? 0)),
        String(r.working),
        String(r.total),
      ]),
    );
    const wh = csvRows((await exported({ kind: 'tab', tab: 'workinghours', format: 'csv' })).file.body);
    expect(wh[0]).toEqual([
      'Team member',
      'Scheduled slots',
      'Scheduled, s',
      'Worked, s',
      'Worked within slots, s',
    ]);
    expect(wh.slice(1).filter((r) => r.length > 1)).toEqual(
      hours.rows.map((r) => [
        r.name,
        String(r.slots),
        String(r.scheduled),
        String(r.worked),
        String(r.worked_in_slots),
      ]),
    );
    // Counted by hand from the seed: Anna online 2026-11-17 09:00–17:00 UTC, inside her 8-hour slot.
    const anna = hours.rows.find((r) => r.name === 'Anna')!;
    expect(anna).toMatchObject({ slots: 1, scheduled: 8 * 3600, worked_in_slots: 8 * 3600 });
    expect(statuses.rows.find((r) => r.name === 'Anna')?.working).toBeGreaterThanOrEqual(8 * 3600);
  });

  it('a tab export needs its tab; a raw export takes none', async () => {
    const base = { space_id: s.spaceId, ...period, format: 'csv' };
    expect((await call(s.admin.headers, 'POST', '/stats/exports', { ...base, kind: 'tab' })).statusCode).toBe(
      400,
    );
    const raw = await call(s.admin.headers, 'POST', '/stats/exports', {
      ...base,
      kind: 'items',
      tab: 'users',
    });
    expect(raw.statusCode).toBe(400);
  });
});

// The tabs the web used to export only in the browser: replies, my figures and my statuses, one member's
// figures, statuses and working hours. Expected figures counted by hand from the seed: Anna's first reply
// took 10 min (c1), Bob's 1 h (c2); each closed the item they answered; nobody closed without a reply.
describe('background export of the replies and one-person tabs', () => {
  const q = () => `space_id=${s.spaceId}&from=${period.from}&to=${period.to}`;
  const figures = (rows: string[][]) =>
    Object.fromEntries(rows.filter((r) => r.length === 2).map((r) => [r[0], r[1]]));
  beforeAll(async () => {
    // Anna becomes an analyst (stats.export), so she may export her own figures; her files are in English.
    const db = t.deps.database.db;
    await db
      .update(memberships)
      .set({ roles: presetFor('analyst') })
      .where(and(eq(memberships.spaceId, s.spaceId), eq(memberships.userId, s.anna.user.id)));
    await db.update(users).set({ locale: 'en' }).where(eq(users.id, s.anna.user.id));
  });

  it('replies as CSV: replied, share, first response and closings as /stats/overview answers', async () => {
    const api = (await call(s.admin.headers, 'GET', `/stats/overview?${q()}`)).json() as StatsOverview;
    const { file } = await exported({ kind: 'tab', tab: 'replies', format: 'csv' });
    const rows = csvRows(file.body);
    expect(rows[0]).toEqual(['Figure', 'Value']);
    const got = figures(rows.slice(1));
    // By hand: 2 of the 3 items answered; FRT 600 s and 3600 s (percentile_disc: median 600, p90 3600).
    expect(got).toEqual({
      'Got a reply': '2',
      'Replied share': String(2 / 3),
      'First response, median, s': '600',
      'First response, 90th percentile, s': '3600',
      'Closed with reply': '2',
      'Closed without reply': '0',
      'Closed by rules': '0',
    });
    expect(got['Got a reply']).toBe(String(api.current.replied));
    expect(got['First response, median, s']).toBe(String(api.current.first_response.median));
  });

  it("my as XLSX: the creator's own figures, as /stats/my answers them", async () => {
    const api = (await call(s.anna.headers, 'GET', `/stats/my?${q()}`)).json() as StatsPerson;
    const { wire, file } = await exported({ kind: 'tab', tab: 'my', format: 'xlsx' }, s.anna.headers);
    expect(wire).toMatchObject({ tab: 'my', user_id: null });
    const [sheet] = await sheetsOf(file.rawPayload);
    expect(sheet!.name).toBe('Anna');
    const expected = [
      ['Replies', 1],
      ['Closed', 1],
      ['Closed with reply', 1],
      ['Closed without reply', 0],
      ['First replies', 1],
      ['First response, median, s', 600],
      ['First response, 90th percentile, s', 600],
    ];
    expect(sheet!.rows).toEqual([['Figure', 'Value'], ...expected]);
    expect(api.row.replies).toBe(1);
    expect(api.first_replies).toEqual({ count: 1, median: 600, p90: 600 });
  });

  it("one member's figures (users/:id) as CSV: Bob's, exported by the administrator", async () => {
    const api = (
      await call(s.admin.headers, 'GET', `/stats/users/${s.bob.user.id}?${q()}`)
    ).json() as StatsPerson;
    const { wire, file } = await exported({
      kind: 'tab',
      tab: 'user',
      user_id: s.bob.user.id,
      format: 'csv',
    });
    expect(wire).toMatchObject({ tab: 'user', user_id: s.bob.user.id });
    const got = figures(csvRows(file.body).slice(1));
    expect(got).toMatchObject({
      Replies: '1',
      Closed: '1',
      'First replies': '1',
      'First response, median, s': '3600',
      'First response, 90th percentile, s': '3600',
    });
    expect(got.Replies).toBe(String(api.row.replies));
  });

  it("my statuses, a member's statuses and working hours: the one person's row of each endpoint", async () => {
    const mine = (await call(s.anna.headers, 'GET', `/stats/my/statuses?${q()}`)).json() as StatsStatuses;
    const [online] = mine.statuses;
    // By hand: Anna online 2026-11-17 09:00–17:00 UTC.
    expect(mine.rows.map((r) => [r.name, r.seconds[String(online!.id)]])).toEqual([['Anna', 8 * 3600]]);
    const row = (r: StatsStatuses['rows'][number]) => [
      r.name,
      ...mine.statuses.map((x) => String(r.seconds[String(x.id)] ?? 0)),
      String(r.working),
      String(r.total),
    ];
    const my = csvRows(
      (await exported({ kind: 'tab', tab: 'my_statuses', format: 'csv' }, s.anna.headers)).file.body,
    );
    expect(my.slice(1).filter((r) => r.length > 1)).toEqual(mine.rows.map(row));
    const theirs = csvRows(
      (await exported({ kind: 'tab', tab: 'user_statuses', user_id: s.anna.user.id, format: 'csv' })).file
        .body,
    );
    expect(theirs.slice(1).filter((r) => r.length > 1)).toEqual(mine.rows.map(row));
    const hours = (
      await call(s.admin.headers, 'GET', `/stats/users/${s.anna.user.id}/workinghours?${q()}`)
    ).json() as StatsWorkinghours;
    const { file } = await exported({
      kind: 'tab',
      tab: 'user_workinghours',
      user_id: s.anna.user.id,
      format: 'xlsx',
    });
    const [sheet] = await sheetsOf(file.rawPayload);
    expect(sheet!.rows.slice(1)).toEqual([['Anna', 1, 8 * 3600, hours.rows[0]!.worked, 8 * 3600]]);
  });

  it('a one-member tab needs its member, others take none; a stranger is refused up front', async () => {
    const base = { space_id: s.spaceId, ...period, format: 'csv', kind: 'tab' };
    const post = (body: Record<string, unknown>) =>
      call(s.admin.headers, 'POST', '/stats/exports', { ...base, ...body });
    expect((await post({ tab: 'user' })).statusCode).toBe(400);
    expect((await post({ tab: 'replies', user_id: s.bob.user.id })).statusCode).toBe(400);
    const stranger = await buildAdmin(t);
    expect((await post({ tab: 'user_statuses', user_id: stranger.user.id })).statusCode).toBe(404);
    // An operator may not export at all.
    const op = await buildMember(t, s.spaceId, 'operator', { name: 'Olga' });
    expect((await call(op.headers, 'POST', '/stats/exports', { ...base, tab: 'my' })).statusCode).toBe(403);
  });
});
