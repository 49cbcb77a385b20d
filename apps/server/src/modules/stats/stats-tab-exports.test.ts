import type {
  StatsEmotions,
  StatsOperators,
  StatsOverview,
  StatsPerson,
  StatsStatuses,
  StatsVolume,
  StatsWorkinghours,
} from '@otklik/shared';
import { presetFor } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, memberships, users } from '../../db/schema';
import { buildAdmin, buildMember } from '../authors/test-helpers';
import { call, csvRows, exported, period, s, sheetsOf, t, useTabExportFixture } from './tab-exports.fixture';

// Background export of a statistics tab (kind `tab`, docs/statistics.md "Exports"): the job row, list,
// progress and mail of the raw exports, and a file holding the same figures the tab's endpoint answers
// with for the same period and filters. The space is in UTC+5 (Asia/Yekaterinburg); period Mon 16 ..
// Sun 22 Nov 2026 local.

useTabExportFixture();

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
