import type { ReportsListWire, ReportWire, RuleStatsRow, StatsExplore, StatsLive } from '@otklik/shared';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { attachmentsOf, startSmtpServer, textOf } from '../../../test/smtp';
import { activity, items, memberships, ruleMatches, rules, spaces, statsReports } from '../../db/schema';
import { StatsReportsJob } from '../../jobs/stats-reports';
import { taskClock } from '../../lib/clock';
import { buildAdmin, buildMember, buildObject, buildUserGroup } from '../authors/test-helpers';

// Scheduled reports (issue 15 item 6) against a real database and a real SMTP server: the schedule in the
// space's time zone, the job with a moved clock, the XLSX attachment's figures (worked out by hand below
// from the seeded rows, not by the module's SQL), send-now, the history, validation, other spaces.
// The space is in Asia/Yekaterinburg (UTC+5, no DST).

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
afterEach(() => taskClock.setOffset(0));

const Z = (iso: string) => new Date(iso);
const plus = (d: Date, s: number) => new Date(d.getTime() + s * 1000);
type Headers = Record<string, string>;

async function call(
  headers: Headers,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) {
  return t.app.inject({ method, url: `/v1${url}`, headers, payload: body as Record<string, unknown> });
}
async function ok<T>(
  headers: Headers,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) {
  const res = await call(headers, method, url, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

async function sheetsOf(content: Buffer) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(content as unknown as ArrayBuffer);
  const out: Record<string, Array<Array<unknown>>> = {};
  for (const ws of book.worksheets) {
    const rows: Array<Array<unknown>> = [];
    ws.eachRow((row) => {
      rows.push((row.values as unknown[]).slice(1));
    });
    out[ws.name] = rows;
  }
  return out;
}

async function seed() {
  const db = t.deps.database.db;
  const admin = await buildAdmin(t);
  const spaceId = admin.space.id;
  await db.update(spaces).set({ timezone: 'Asia/Yekaterinburg' }).where(eq(spaces.id, spaceId));
  const a1 = await buildObject(t, spaceId, { provider: 'sandbox' });
  const anna = await buildMember(t, spaceId, 'operator', { name: 'Anna' });
  let n = 0;
  const item = async (
    kind: 'comment' | 'review',
    createdAt: Date,
    extra: Partial<typeof items.$inferInsert>,
  ) => {
    n += 1;
    const [row] = await db
      .insert(items)
      .values({ spaceId, objectId: a1.id, kind, externalId: `r-${n}`, createdAt, ...extra })
      .returning();
    return row!;
  };
  const replied = (at: Date, after: number) => ({
    status: 'closed' as const,
    closeReason: 'reply' as const,
    firstReplyAt: plus(at, after),
    closedAt: plus(at, after),
  });
  // The week the report covers: local Mon 2026-11-16 .. Sun 2026-11-22 = [11-15T19:00Z, 11-22T19:00Z).
  // Out: 23:59:59 local Sun Nov 15, closed without reply at once.
  const out1 = Z('2026-11-15T18:59:59Z');
  await item('comment', out1, { status: 'closed', closeReason: 'noreply', closedAt: out1 });
  // In: Mon 10:00 local, replied by Anna after 600 s.
  const i1At = Z('2026-11-16T05:00:00Z');
  const i1 = await item('comment', i1At, replied(i1At, 600));
  // In: Wed 15:00 local, a review replied by Anna after 1800 s.
  const i2At = Z('2026-11-18T10:00:00Z');
  const i2 = await item('review', i2At, replied(i2At, 1800));
  // In: Fri 12:00 local, waiting.
  await item('comment', Z('2026-11-20T07:00:00Z'), {});
  // Out: 00:00 local Mon Nov 23, waiting (the backlog only).
  await item('comment', Z('2026-11-22T19:00:00Z'), {});
  const act = (
    itemId: number,
    type: 'item.replied' | 'item.status',
    at: Date,
    data: Record<string, unknown>,
  ) => ({
    spaceId,
    type,
    userId: anna.user.id,
    causeKind: 'user' as const,
    causeId: anna.user.id,
    at,
    data,
    itemId,
    objectId: a1.id,
  });
  await db
    .insert(activity)
    .values([
      act(i1.id, 'item.replied', plus(i1At, 600), { first: true }),
      act(i1.id, 'item.status', plus(i1At, 600), { from: 'new', to: 'closed', close_reason: 'reply' }),
      act(i2.id, 'item.replied', plus(i2At, 1800), { first: true }),
      act(i2.id, 'item.status', plus(i2At, 1800), { from: 'new', to: 'closed', close_reason: 'reply' }),
    ]);
  return { admin, spaceId, a1, anna };
}

let s: Awaited<ReturnType<typeof seed>>;
beforeAll(async () => {
  s = await seed();
});

const weekly = (spaceId: number, extra: Record<string, unknown> = {}) => ({
  space_id: spaceId,
  name: 'Weekly team',
  tabs: ['overall', 'users'],
  frequency: 'weekly',
  weekday: 1,
  hour: 9,
  user_ids: [] as number[],
  emails: ['lead@example.com'],
  locale: 'en',
  ...extra,
});

/** Sets the clock every report path reads (taskClock) to `iso`. */
const clockAt = (iso: string) => taskClock.setOffset(Date.parse(iso) - Date.now());

describe('stats reports', () => {
  it('a weekly report goes out on its weekday and hour in the space time zone with the week’s figures', async () => {
    clockAt('2026-11-20T00:00:00Z'); // Fri 05:00 local
    const report = await ok<ReportWire>(
      s.admin.headers,
      'POST',
      '/stats/reports',
      weekly(s.spaceId, { user_ids: [s.anna.user.id], emails: ['Lead@Example.com'] }),
    );
    // Monday 09:00 local = 04:00Z.
    expect(report.next_run_at).toBe(Date.parse('2026-11-23T04:00:00Z') / 1000);
    expect(report.emails).toEqual(['lead@example.com']);
    expect(report.created_by?.id).toBe(s.admin.user.id);

    const job = new StatsReportsJob({
      db: t.deps.database.db,
      mailer: t.deps.mailer,
      appUrl: 'http://app.test',
      log: t.deps.log,
      spaceIds: [s.spaceId],
    });
    expect(await job.tick(Z('2026-11-23T03:59:59Z'))).toBe(0);
    expect(await job.tick(Z('2026-11-23T04:00:30Z'))).toBe(1);
    // Claimed once: the next tick finds nothing until the following Monday.
    expect(await job.tick(Z('2026-11-23T04:01:30Z'))).toBe(0);

    const mail = await smtp.waitForMail({ to: 'lead@example.com', subject: /Weekly team/ });
    expect(mail.subject).toContain('2026-11-16 — 2026-11-22');
    expect(mail.from).toBe(t.deps.mailer.defaultFrom.replace(/^.*<|>$/g, ''));
    await smtp.waitForMail({ to: s.anna.user.email!, subject: /Weekly team/ });
    // The summary in the mail itself (text; the HTML part has the same table).
    expect(textOf(mail)).toMatch(/Comments, reviews, mentions: 3\r?\n/);
    expect(textOf(mail)).toContain('http://app.test/stats/reports');
    const [file, page] = attachmentsOf(mail);
    expect(file?.filename).toBe('report-2026-11-16-2026-11-22.xlsx');
    // The HTML summary beside it: every table, the figures as in the workbook.
    expect(page?.filename).toBe('report-2026-11-16-2026-11-22.html');
    const pageText = page!.content.toString('utf8');
    expect(pageText).toMatch(/^<!doctype html>/);
    const cells = [...pageText.matchAll(/<t[dh][^>]*>([^<]*)<\/t[dh]>/g)].map((m) => m[1]);
    const after = (label: string) => cells[cells.indexOf(label) + 1];
    expect(after('Comments, reviews, mentions')).toBe('3');
    expect(after('Got a reply')).toBe('2');
    expect(after('First response, median, s')).toBe('600');
    expect(after('Waiting now: items')).toBe('2');
    expect(pageText).toContain('<h2 style="font-size:18px;margin:24px 0 8px">Team</h2>');
    expect(cells.slice(cells.indexOf('Anna'), cells.indexOf('Anna') + 5)).toEqual([
      'Anna',
      '2',
      '2',
      '2',
      '600',
    ]);
    const sheets = await sheetsOf(file!.content);
    expect(Object.keys(sheets)).toEqual(['Summary', 'Incoming by day', 'Team']);
    const summary = Object.fromEntries(sheets.Summary!.slice(1).map((r) => [r[0], r[1]]));
    // In the week: i1, i2 and the waiting Friday comment; replied i1 and i2 (600 s and 1800 s).
    expect(summary['Comments, reviews, mentions']).toBe(3);
    expect(summary['Got a reply']).toBe(2);
    expect(summary['Replied share']).toBeCloseTo(2 / 3, 10);
    // percentile_disc(0.5) of [600, 1800] is 600; (0.9) is 1800.
    expect(summary['First response, median, s']).toBe(600);
    expect(summary['First response, 90th percentile, s']).toBe(1800);
    expect(summary['Closed with reply']).toBe(2);
    expect(summary['Closed without reply']).toBe(0);
    // Open now: the Friday comment and the one after the week.
    expect(summary['Waiting now: items']).toBe(2);
    expect(sheets['Incoming by day']!.slice(1)).toEqual([
      ['2026-11-16', 'Sandbox', 1, 0, 0, 0, 0],
      ['2026-11-18', 'Sandbox', 0, 1, 0, 0, 0],
      ['2026-11-20', 'Sandbox', 1, 0, 0, 0, 0],
    ]);
    expect(sheets.Team).toEqual([
      ['Team member', 'Replies', 'Closed', 'First replies', 'First response, median, s'],
      ['Anna', 2, 2, 2, 600],
    ]);

    const list = await ok<ReportsListWire>(s.admin.headers, 'GET', `/stats/reports?space_id=${s.spaceId}`);
    const saved = list.items.find((r) => r.id === report.id)!;
    expect(saved.next_run_at).toBe(Date.parse('2026-11-30T04:00:00Z') / 1000);
    expect(saved.last_run).toMatchObject({ status: 'sent', manual: false, period_from: '2026-11-16' });
    expect(list.runs[0]).toMatchObject({
      report_id: report.id,
      status: 'sent',
      manual: false,
      period_from: '2026-11-16',
      period_to: '2026-11-22',
      sent_at: Date.parse('2026-11-23T04:00:30Z') / 1000,
      error: null,
    });
    expect([...list.runs[0]!.recipients].sort()).toEqual(
      ['lead@example.com', s.anna.user.email!.toLowerCase()].sort(),
    );
  });

  it('send-now mails the last finished period at once and records a manual run; daily and monthly schedules', async () => {
    clockAt('2026-11-24T06:00:00Z'); // Tue 11:00 local
    const daily = await ok<ReportWire>(
      s.admin.headers,
      'POST',
      '/stats/reports',
      weekly(s.spaceId, {
        name: 'Daily closings',
        frequency: 'daily',
        weekday: null,
        hour: 8,
        tabs: ['closed', 'time'],
        emails: ['daily@example.com'],
        locale: 'ru',
      }),
    );
    // 08:00 local has passed today: tomorrow 08:00 local = 03:00Z.
    expect(daily.next_run_at).toBe(Date.parse('2026-11-25T03:00:00Z') / 1000);
    const monthly = await ok<ReportWire>(
      s.admin.headers,
      'POST',
      '/stats/reports',
      weekly(s.spaceId, {
        name: 'Month',
        frequency: 'monthly',
        weekday: 3,
        monthday: 1,
        hour: 0,
        tabs: ['tags'],
      }),
    );
    expect(monthly.weekday).toBeNull();
    expect(monthly.next_run_at).toBe(Date.parse('2026-11-30T19:00:00Z') / 1000);

    clockAt('2026-11-17T06:00:00Z'); // Tue Nov 17 local: the daily report covers Mon Nov 16
    const run = await ok<{ status: string; manual: boolean; period_from: string; period_to: string }>(
      s.admin.headers,
      'POST',
      `/stats/reports/${daily.id}/send`,
    );
    expect(run).toMatchObject({
      status: 'sent',
      manual: true,
      period_from: '2026-11-16',
      period_to: '2026-11-16',
    });
    const mail = await smtp.waitForMail({ to: 'daily@example.com', subject: /Daily closings/ });
    expect(mail.subject).toBe(`Отчёт «Daily closings» — ${s.admin.space.name}, 2026-11-16 — 2026-11-16`);
    expect(textOf(mail)).toContain('Таблицы — во вложении XLSX');
    expect(textOf(mail)).toContain(`${t.deps.config.appUrl}/stats/reports`);
    const sheets = await sheetsOf(attachmentsOf(mail)[0]!.content);
    expect(Object.keys(sheets)).toEqual(['Закрытия', 'Время', 'Время по дням']);
    expect(sheets.Закрытия!.slice(1)).toEqual([['Anna', 1, 0, 0, 1]]);
    expect(sheets.Время![1]).toEqual(['Первый ответ, медиана, с', 1, 600]);
    // The schedule is not moved by send-now.
    const list = await ok<ReportsListWire>(s.admin.headers, 'GET', `/stats/reports?space_id=${s.spaceId}`);
    expect(list.items.find((r) => r.id === daily.id)!.next_run_at).toBe(daily.next_run_at);
    expect(list.runs[0]).toMatchObject({
      report_id: daily.id,
      manual: true,
      recipients: ['daily@example.com'],
    });
  });

  it('validation errors in the caller’s language; a disabled report is never due', async () => {
    const bad = await call(
      s.admin.headers,
      'POST',
      '/stats/reports',
      weekly(s.spaceId, { emails: ['not an address'] }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Укажите корректный email получателя');
    const noWeekday = await call(
      s.admin.headers,
      'POST',
      '/stats/reports',
      weekly(s.spaceId, { weekday: null }),
    );
    expect(noWeekday.statusCode).toBe(400);
    expect(noWeekday.json().fields).toHaveProperty('weekday');
    const noTabs = await call(s.admin.headers, 'POST', '/stats/reports', weekly(s.spaceId, { tabs: [] }));
    expect(noTabs.body).toContain('Выберите хотя бы одну вкладку');
    const nobody = await call(s.admin.headers, 'POST', '/stats/reports', weekly(s.spaceId, { emails: [] }));
    expect(nobody.body).toContain('Укажите хотя бы одного получателя');
    const other = await buildAdmin(t);
    const stranger = await call(
      s.admin.headers,
      'POST',
      '/stats/reports',
      weekly(s.spaceId, { user_ids: [other.user.id] }),
    );
    expect(stranger.statusCode).toBe(400);
    expect(stranger.body).toContain('Получатель не состоит в пространстве');
    const otherAccount = await buildObject(t, other.space.id);
    const foreign = await call(
      s.admin.headers,
      'POST',
      '/stats/reports',
      weekly(s.spaceId, { object_id: [otherAccount.id] }),
    );
    expect(foreign.body).toContain('Аккаунт не из этого пространства');
    const off = await ok<ReportWire>(
      s.admin.headers,
      'POST',
      '/stats/reports',
      weekly(s.spaceId, { enabled: false }),
    );
    expect(off.next_run_at).toBeNull();
    const [row] = await t.deps.database.db.select().from(statsReports).where(eq(statsReports.id, off.id));
    expect(row!.nextRunAt).toBeNull();
  });

  it('another space’s administrator and members without stats.export can neither see nor change a report', async () => {
    const report = await ok<ReportWire>(
      s.admin.headers,
      'POST',
      '/stats/reports',
      weekly(s.spaceId, { name: 'Mine' }),
    );
    const other = await buildAdmin(t);
    expect((await call(other.headers, 'GET', `/stats/reports?space_id=${s.spaceId}`)).statusCode).toBe(403);
    const own = await ok<ReportsListWire>(other.headers, 'GET', `/stats/reports?space_id=${other.space.id}`);
    expect(own.items).toEqual([]);
    expect(
      (await call(other.headers, 'PUT', `/stats/reports/${report.id}`, weekly(other.space.id))).statusCode,
    ).toBe(404);
    expect((await call(other.headers, 'POST', `/stats/reports/${report.id}/send`)).statusCode).toBe(404);
    expect((await call(other.headers, 'DELETE', `/stats/reports/${report.id}`)).statusCode).toBe(404);
    // Moving a report to another space is not possible either.
    expect(
      (await call(s.admin.headers, 'PUT', `/stats/reports/${report.id}`, weekly(other.space.id))).statusCode,
    ).toBe(404);
    // An operator of the same space (no stats.export).
    expect((await call(s.anna.headers, 'GET', `/stats/reports?space_id=${s.spaceId}`)).statusCode).toBe(403);
    expect((await call(s.anna.headers, 'POST', `/stats/reports/${report.id}/send`)).statusCode).toBe(403);
    // The owner edits and deletes.
    const edited = await ok<ReportWire>(
      s.admin.headers,
      'PUT',
      `/stats/reports/${report.id}`,
      weekly(s.spaceId, { name: 'Renamed', tabs: ['hours'] }),
    );
    expect(edited).toMatchObject({ name: 'Renamed', tabs: ['hours'] });
    await ok(s.admin.headers, 'DELETE', `/stats/reports/${report.id}`);
    const list = await ok<ReportsListWire>(s.admin.headers, 'GET', `/stats/reports?space_id=${s.spaceId}`);
    expect(list.items.some((r) => r.id === report.id)).toBe(false);
  });

  it('a report whose creator lost statistics fails and says so in the history', async () => {
    const lead = await buildMember(t, s.spaceId, 'analyst', { name: 'Lead' });
    clockAt('2026-11-24T06:00:00Z');
    const report = await ok<ReportWire>(
      lead.headers,
      'POST',
      '/stats/reports',
      weekly(s.spaceId, { name: 'Lead’s' }),
    );
    await t.deps.database.db.delete(memberships).where(eq(memberships.userId, lead.user.id));
    const run = await ok<{ status: string; error: string }>(
      s.admin.headers,
      'POST',
      `/stats/reports/${report.id}/send`,
    );
    expect(run.status).toBe('failed');
    expect(run.error).toBe('Автор отчёта больше не может смотреть статистику пространства');
  });
  it('a report holds only what its creator may see: a creator limited to a user group sends its accounts only', async () => {
    const db = t.deps.database.db;
    const a2 = await buildObject(t, s.spaceId, { provider: 'telegram' });
    // Local Mon 2026-11-02: one comment on each account (outside every other test's period), closed so the
    // backlog other tests count stays as it was.
    const shut = {
      status: 'closed' as const,
      closeReason: 'noreply' as const,
      closedAt: Z('2026-11-02T08:00:00Z'),
    };
    await db.insert(items).values([
      {
        spaceId: s.spaceId,
        objectId: s.a1.id,
        kind: 'comment',
        externalId: 'g-1',
        createdAt: Z('2026-11-02T06:00:00Z'),
        ...shut,
      },
      {
        spaceId: s.spaceId,
        objectId: a2.id,
        kind: 'comment',
        externalId: 'g-2',
        createdAt: Z('2026-11-02T07:00:00Z'),
        ...shut,
      },
    ]);
    const group = await buildUserGroup(t, s.spaceId, [a2.id]);
    const limited = await buildMember(t, s.spaceId, 'analyst', { name: 'Limited', groupId: group.id });
    clockAt('2026-11-03T06:00:00Z'); // Tue Nov 3 local: a daily report covers Mon Nov 2
    const body = (email: string) =>
      weekly(s.spaceId, {
        name: `Daily ${email}`,
        frequency: 'daily',
        weekday: null,
        tabs: ['overall'],
        emails: [email],
      });
    const mine = await ok<ReportWire>(limited.headers, 'POST', '/stats/reports', body('group@example.com'));
    const all = await ok<ReportWire>(s.admin.headers, 'POST', '/stats/reports', body('all@example.com'));
    // Sent by the administrator, the limited member's report still has the member's scope.
    for (const r of [mine, all]) await ok(s.admin.headers, 'POST', `/stats/reports/${r.id}/send`);
    const count = async (to: string) => {
      const mail = await smtp.waitForMail({ to, subject: /Daily/ });
      const sheets = await sheetsOf(attachmentsOf(mail)[0]!.content);
      return sheets['Incoming by day']!.slice(1);
    };
    expect(await count('group@example.com')).toEqual([['2026-11-02', 'Telegram', 1, 0, 0, 0, 0]]);
    expect(await count('all@example.com')).toEqual([
      ['2026-11-02', 'Sandbox', 1, 0, 0, 0, 0],
      ['2026-11-02', 'Telegram', 1, 0, 0, 0, 0],
    ]);
  });
  it('the wall, analytics, auto-rules, chat-bots, CSI and tasks tabs: their sheets, as their endpoints answer', async () => {
    const db = t.deps.database.db;
    await db
      .update(spaces)
      .set({
        settings: sql`${spaces.settings} || '{"issues": true, "analytics": true, "csi_menu": true, "bots": true}'::jsonb`,
      })
      .where(eq(spaces.id, s.spaceId));
    // An auto-rule matched the Wednesday review, with one action done.
    const [review] = await db.select().from(items).where(eq(items.externalId, 'r-3'));
    const [rule] = await db
      .insert(rules)
      .values({
        spaceId: s.spaceId,
        name: 'Tagger',
        trigger: 'item_created',
        conditions: { all: [] },
        actions: [],
      })
      .returning();
    await db.insert(ruleMatches).values({
      spaceId: s.spaceId,
      ruleId: rule!.id,
      itemId: review!.id,
      status: 'ok',
      actionsDone: 1,
      results: [],
      at: Z('2026-11-18T10:00:01Z'),
    });
    clockAt('2026-11-24T06:00:00Z'); // Tue Nov 24 local
    const tabs = ['dashboard', 'live', 'analytics', 'rules', 'bots', 'csi', 'issues'];
    const report = await ok<ReportWire>(
      s.admin.headers,
      'POST',
      '/stats/reports',
      weekly(s.spaceId, { name: 'Everything else', tabs, emails: ['wall@example.com'] }),
    );
    expect(report.tabs).toEqual(tabs);
    const run = await ok<{ period_from: string; period_to: string }>(
      s.admin.headers,
      'POST',
      `/stats/reports/${report.id}/send`,
    );
    // Sent on a Tuesday: the 7 days before it.
    expect(run).toMatchObject({ period_from: '2026-11-17', period_to: '2026-11-23' });
    const mail = await smtp.waitForMail({ to: 'wall@example.com', subject: /Everything else/ });
    const sheets = await sheetsOf(attachmentsOf(mail)[0]!.content);
    expect(Object.keys(sheets)).toEqual([
      'Dashboard',
      'Dashboard by day',
      'Live',
      'Analytics',
      'Auto-rules',
      'Auto-rules by day',
      'Chat-bots',
      'Chat-bot steps',
      'CSI by day',
      'CSI by team member',
      'CSI by account',
      'CSI by network',
      'CSI by score',
      'Tasks by day',
      'Tasks by assignee',
      'Tasks by department',
      'Task closing time',
    ]);
    const q = `space_id=${s.spaceId}&from=${run.period_from}&to=${run.period_to}`;
    // Analytics in a report is split by local day: one row per day of the week, then the total.
    const explore = await ok<StatsExplore>(s.admin.headers, 'GET', `/stats/explore?${q}&by=day`);
    expect(sheets.Analytics!.slice(1).map((r) => [r[0], r[1]])).toEqual([
      ...explore.rows.map((r) => [r.key, r.figures.incoming.items]),
      ['Total', explore.total.figures.incoming.items],
    ]);
    // By hand: Tue 17 .. Mon 23 holds the Wednesday review, the Friday comment and the Monday 00:00 one.
    expect(sheets.Analytics!.at(-1)![1]).toBe(3);
    const ruleStats = await ok<{ rules: RuleStatsRow[] }>(s.admin.headers, 'GET', `/stats/rules?${q}`);
    expect(sheets['Auto-rules']!.slice(1)).toEqual(
      ruleStats.rules.map((r) => [r.name, r.matches, r.actions, r.failed]),
    );
    expect(sheets['Auto-rules']![1]).toEqual(['Tagger', 1, 1, 0]);
    // The wall's figures are those of sending time: the waiting items now, as /stats/live.
    const live = await ok<StatsLive>(s.admin.headers, 'GET', `/stats/live?space_id=${s.spaceId}`);
    expect(sheets.Live!.find((r) => r[0] === 'Waiting now: items')?.[1]).toBe(live.waiting.items);
    // By hand: the Friday comment and the one after the week wait.
    expect(live.waiting.items).toBe(2);
    // An analyst (stats.export, not rules.manage) may not put the auto-rules tab in a report.
    const analyst = await buildMember(t, s.spaceId, 'analyst', { name: 'Ann Analyst' });
    const refused = await call(
      analyst.headers,
      'POST',
      '/stats/reports',
      weekly(s.spaceId, { tabs: ['rules'] }),
    );
    expect(refused.statusCode).toBe(403);
  });
});
