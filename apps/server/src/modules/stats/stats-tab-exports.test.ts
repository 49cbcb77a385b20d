import type {
  BotStatsAnswer,
  CsiStats,
  ExportsListWire,
  ExportWire,
  IssueStatsDto,
  RuleStatsRow,
  StatsDashboard,
  StatsEmotions,
  StatsExplore,
  StatsLive,
  StatsOperators,
  StatsOverview,
  StatsPerson,
  StatsStatuses,
  StatsVolume,
  StatsWorkinghours,
} from '@otklik/shared';
import { presetFor } from '@otklik/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import {
  activity,
  botSessions,
  bots,
  chats,
  csiSurveys,
  departments,
  issues,
  items,
  mailOutbox,
  memberships,
  ruleMatches,
  rules,
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

// The tabs that used to export only in the browser: the dashboard, the live wall, /analytics, auto-rules,
// chat-bots, CSI and tasks. Each file is checked against its own endpoint's answer with the same period
// and filters, and the seeded figures are counted by hand below.
describe('background export of the dashboard, live, analytics, auto-rules, chat-bots, CSI and tasks tabs', () => {
  const q = () => `space_id=${s.spaceId}&from=${period.from}&to=${period.to}`;
  const get = async <T>(url: string, headers: Headers = s.admin.headers) => {
    const res = await call(headers, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  const cell = (v: string | number | null) => v ?? '';
  let seeded: { rule: number; bot: number; support: number };
  beforeAll(async () => {
    const db = t.deps.database.db;
    const spaceId = s.spaceId;
    // The sections these tabs belong to (tasks, analytics, CSI, chat-bots); the tariff is special (auto-rules).
    await db
      .update(spaces)
      .set({
        settings: sql`${spaces.settings} || '{"issues": true, "analytics": true, "csi_menu": true, "bots": true}'::jsonb`,
      })
      .where(eq(spaces.id, spaceId));
    const [first] = await db.select().from(items).where(eq(items.externalId, 't-2'));
    const [last] = await db.select().from(items).where(eq(items.externalId, 't-6'));
    // One rule matched twice in the period (16 Nov: 2 actions done; 20 Nov: failed), once before it.
    const [rule] = await db
      .insert(rules)
      .values({ spaceId, name: 'Complaints', trigger: 'item_created', conditions: { all: [] }, actions: [] })
      .returning();
    await db.insert(ruleMatches).values([
      {
        spaceId,
        ruleId: rule!.id,
        itemId: first!.id,
        status: 'ok',
        actionsDone: 2,
        results: [],
        at: Z('2026-11-16T05:00:01Z'),
      },
      {
        spaceId,
        ruleId: rule!.id,
        itemId: last!.id,
        status: 'failed',
        results: [],
        at: Z('2026-11-20T07:00:01Z'),
      },
      {
        spaceId,
        ruleId: rule!.id,
        itemId: last!.id,
        event: 'edit:1',
        status: 'ok',
        actionsDone: 1,
        results: [],
        at: Z('2026-11-15T07:00:00Z'),
      },
    ]);
    // A dialog on the VK account: a chat-bot conversation that completed, and a CSI survey Anna's answer got 5 on.
    const [chat] = await db
      .insert(chats)
      .values({
        spaceId,
        objectId: s.a2.id,
        externalId: 'bot-chat',
        status: 'closed',
        lastMessageAt: Z('2026-11-19T08:01:00Z'),
        createdAt: Z('2026-11-19T08:00:00Z'),
      })
      .returning();
    const [bot] = await db
      .insert(bots)
      .values({
        spaceId,
        objectId: s.a2.id,
        name: 'Greeter',
        steps: [
          { id: 'hello', type: 'message', text: 'Hi', next: 'ask' },
          { id: 'ask', type: 'message', text: 'Bye', next: null },
        ] as never,
      })
      .returning();
    await db.insert(botSessions).values({
      spaceId,
      botId: bot!.id,
      chatId: chat!.id,
      state: 'completed',
      stepId: 'ask',
      path: ['hello', 'ask'],
      startedAt: Z('2026-11-19T08:00:00Z'),
      updatedAt: Z('2026-11-19T08:01:00Z'),
      endedAt: Z('2026-11-19T08:01:00Z'),
    });
    await db.insert(csiSurveys).values({
      spaceId,
      objectId: s.a2.id,
      chatId: chat!.id,
      userId: s.anna.user.id,
      language: 'en',
      sentAt: Z('2026-11-19T09:00:00Z'),
      expiresAt: Z('2026-11-20T09:00:00Z'),
      score: 5,
      answeredAt: Z('2026-11-19T09:05:00Z'),
    });
    // Tasks: one of Support assigned to Anna, created 17 Nov and closed 4 h later; one of nobody, open.
    const [support] = await db.insert(departments).values({ spaceId, name: 'Support' }).returning();
    await db.insert(issues).values([
      {
        spaceId,
        title: 'Refund',
        assignedUserId: s.anna.user.id,
        departmentId: support!.id,
        status: 'closed',
        createdAt: Z('2026-11-17T06:00:00Z'),
        closedAt: Z('2026-11-17T10:00:00Z'),
      },
      { spaceId, title: 'Call back', createdAt: Z('2026-11-18T06:00:00Z') },
    ]);
    seeded = { rule: rule!.id, bot: bot!.id, support: support!.id };
  });

  it('dashboard as XLSX: today and 7 days side by side, then the days, as /stats/dashboard', async () => {
    const api = await get<StatsDashboard>(`/stats/dashboard?${q()}`);
    const { file } = await exported({ kind: 'tab', tab: 'dashboard', format: 'xlsx' });
    const [figures, days] = await sheetsOf(file.rawPayload);
    expect(figures!.name).toBe('Dashboard');
    expect(figures!.rows[0]).toEqual(['Figure', 'Today', '7 days']);
    const row = (label: string) => figures!.rows.find((r) => r[0] === label);
    const f = api.figures;
    expect(row('Comments, reviews, mentions')).toEqual([
      'Comments, reviews, mentions',
      f.today.incoming.items,
      f.week.incoming.items,
    ]);
    expect(row('Got a reply')).toEqual(['Got a reply', f.today.replied, f.week.replied]);
    expect(row('Waiting now: items')?.[1]).toBe(api.backlog.items);
    // By hand: the open task (no due date) is not past due.
    expect(row('Tasks past due now')?.[1]).toBe(0);
    expect(days!.rows.slice(1)).toEqual(api.days.map((d) => [d.day, d.incoming, cell(d.first_response)]));
    expect(days!.rows).toHaveLength(8);
  });

  it('live as CSV: name/value rows of what the wall shows, as /stats/live', async () => {
    const api = await get<StatsLive>(`/stats/live?${q()}`);
    const { file } = await exported({ kind: 'tab', tab: 'live', format: 'csv' });
    const rows = csvRows(file.body).filter((r) => r.length === 2);
    expect(rows[0]).toEqual(['Figure', 'Value']);
    const value = (label: string) => rows.find((r) => r[0] === label)?.[1];
    expect(value('Figures as of')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // By hand: two items of the seed never closed (15 and 20 Nov, both on the Sandbox account).
    expect(value('Waiting now: items')).toBe('2');
    expect(api.waiting.items).toBe(2);
    expect(value('Today: Comments, reviews, mentions')).toBe(String(api.figures.incoming.items));
    for (const queue of api.by_provider)
      expect(value(`Waiting now, network: ${queue.provider === 'vk' ? 'VK' : 'Sandbox'}`)).toBe(
        String(queue.count),
      );
    for (const st of api.statuses)
      expect(value(`Team members in status "${st.name ?? 'no status'}"`)).toBe(String(st.count));
  });

  it('analytics by network as XLSX: the rows and the total of /stats/explore?by=provider', async () => {
    const api = await get<StatsExplore>(`/stats/explore?${q()}&by=provider`);
    const { file } = await exported({ kind: 'tab', tab: 'analytics', by: 'provider', format: 'xlsx' });
    const [sheet] = await sheetsOf(file.rawPayload);
    expect(sheet!.rows[0]!.slice(0, 2)).toEqual(['Network', 'Comments, reviews, mentions']);
    const line = (r: StatsExplore['total']) => [
      r.figures.incoming.items,
      r.figures.incoming.chats,
      r.figures.incoming.messages,
      r.figures.replied,
      cell(r.figures.replied_share),
      cell(r.figures.first_response.median),
      cell(r.figures.first_response.p90),
      r.figures.closed.reply,
      r.figures.closed.noreply,
      r.figures.closed.autorule,
      cell(r.resolution.median),
      cell(r.resolution.p90),
    ];
    expect(sheet!.rows.slice(1)).toEqual([
      ...api.rows.map((r) => [r.key === 'vk' ? 'VK' : 'Sandbox', ...line(r)]),
      ['Total', ...line(api.total)],
    ]);
    // By hand: Sandbox got the two comments of the period, VK the review.
    expect(sheet!.rows.slice(1, 3).map((r) => [r[0], r[1]])).toEqual([
      ['Sandbox', 2],
      ['VK', 1],
    ]);
  });

  it('auto-rules as XLSX: per rule and per day, as /stats/rules', async () => {
    const api = await get<{ rules: RuleStatsRow[]; days: string[] }>(`/stats/rules?${q()}`);
    const { file } = await exported({ kind: 'tab', tab: 'rules', format: 'xlsx' });
    const [perRule, perDay] = await sheetsOf(file.rawPayload);
    expect(perRule!.rows).toEqual([
      ['Rule', 'Matched', 'Actions', 'Failed'],
      ...api.rules.map((r) => [r.name, r.matches, r.actions, r.failed]),
    ]);
    // By hand: 2 matches in the period (the one of 15 Nov is before it), 2 actions, 1 failed.
    expect(perRule!.rows[1]).toEqual(['Complaints', 2, 2, 1]);
    expect(perDay!.rows.slice(1)).toEqual(
      api.rules.flatMap((r) => r.by_day.map((d) => [d.day, r.name, d.matches, d.actions, d.failed])),
    );
    expect(perDay!.rows.filter((r) => r[2] === 1).map((r) => r[0])).toEqual(['2026-11-16', '2026-11-20']);
    expect(api.rules.map((r) => r.rule_id)).toEqual([seeded.rule]);
  });

  it('chat-bots as CSV: conversations by outcome and the steps, as /stats/bots', async () => {
    const api = await get<BotStatsAnswer>(`/stats/bots?${q()}`);
    const rows = csvRows((await exported({ kind: 'tab', tab: 'bots', format: 'csv' })).file.body);
    const greeter = api.bots.find((b) => b.bot_id === seeded.bot)!;
    // By hand: one conversation, completed, through both steps.
    expect(greeter).toMatchObject({ started: 1, completed: 1, handed_off: 0, dropped: 0, active: 0 });
    expect(rows).toContainEqual(['Greeter', '1', '1', '0', '0', '0']);
    for (const step of greeter.steps)
      expect(rows).toContainEqual([
        'Greeter',
        step.step_id,
        step.type,
        step.flow,
        String(step.reached),
        String(step.dropped),
      ]);
    expect(greeter.steps.map((x) => [x.step_id, x.reached])).toEqual([
      ['hello', 1],
      ['ask', 1],
    ]);
  });

  it('CSI as XLSX: per day, team member, account, network and score, as /stats/csi', async () => {
    const api = await get<CsiStats>(`/stats/csi?${q()}`);
    const { file } = await exported({ kind: 'tab', tab: 'csi', format: 'xlsx' });
    const sheets = await sheetsOf(file.rawPayload);
    expect(sheets.map((x) => x.name)).toEqual([
      'CSI by day',
      'CSI by team member',
      'CSI by account',
      'CSI by network',
      'CSI by score',
    ]);
    const f = (x: CsiStats['total']) => [
      x.sent,
      x.answered,
      x.satisfied,
      cell(x.csat),
      cell(x.average),
      cell(x.response_rate),
    ];
    const [byDay, byUser, , byNetwork, scores] = sheets;
    expect(byDay!.rows.slice(1)).toEqual([
      ...api.by_day.map((d) => [d.day, ...f(d)]),
      ['Total', ...f(api.total)],
    ]);
    expect(byUser!.rows.slice(1)).toEqual(api.by_user.map((u) => [u.name ?? 'No team member', ...f(u)]));
    expect(byNetwork!.rows.slice(1)).toEqual(api.by_provider.map((p) => ['VK', ...f(p)]));
    expect(scores!.rows.slice(1)).toEqual(api.scores.map((x) => [x.score, x.count]));
    // By hand: one survey sent and answered with 5 — 100 % CSAT, average 5, every survey answered.
    expect(byDay!.rows.at(-1)).toEqual(['Total', 1, 1, 1, 100, 5, 100]);
    expect(byUser!.rows[1]).toEqual(['Anna', 1, 1, 1, 100, 5, 100]);
  });

  it('tasks as XLSX: per day, assignee (by name), department (by name) and closing time, as /stats/issues', async () => {
    const api = await get<IssueStatsDto>(`/stats/issues?${q()}`);
    const { file } = await exported({ kind: 'tab', tab: 'issues', format: 'xlsx' });
    const [days, assignees, depts, closing] = await sheetsOf(file.rawPayload);
    expect(days!.rows.slice(1)).toEqual(api.days.map((d) => [d.date, d.created, d.closed, d.expired]));
    const userName = (id: number | null) =>
      id === null ? 'Unassigned' : id === s.anna.user.id ? 'Anna' : `#${id}`;
    expect(assignees!.rows.slice(1)).toEqual(
      api.by_assignee.map((r) => [userName(r.user_id), r.open, r.closed, r.expired]),
    );
    const deptName = (id: number | null) =>
      id === null ? 'No department' : id === seeded.support ? 'Support' : `#${id}`;
    expect(depts!.rows.slice(1)).toEqual(
      api.by_department.map((r) => [deptName(r.department_id), r.open, r.closed, r.expired]),
    );
    // By hand: Anna's task closed after 4 hours; the unassigned one is open.
    expect(assignees!.rows.slice(1)).toContainEqual(['Anna', 0, 1, 0]);
    expect(assignees!.rows.slice(1)).toContainEqual(['Unassigned', 1, 0, 0]);
    expect(closing!.rows.slice(1)).toEqual([
      ['Tasks closed', 1],
      ['Hours to close, mean', api.close_hours.mean],
      ['Hours to close, median', api.close_hours.median],
    ]);
    expect(api.close_hours).toMatchObject({ count: 1, median: 4 });
  });

  it('a tab with a right of its own is refused up front without it; `by` belongs to analytics only', async () => {
    const base = { space_id: s.spaceId, ...period, format: 'csv', kind: 'tab' };
    // Anna is an analyst: she may export, but auto-rules and chat-bots are administrators'.
    for (const tab of ['rules', 'bots'])
      expect((await call(s.anna.headers, 'POST', '/stats/exports', { ...base, tab })).statusCode).toBe(403);
    expect(
      (await call(s.admin.headers, 'POST', '/stats/exports', { ...base, tab: 'users', by: 'day' }))
        .statusCode,
    ).toBe(400);
  });
});
