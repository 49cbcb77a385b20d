import type {
  BotStatsAnswer,
  CsiStats,
  IssueStatsDto,
  RuleStatsRow,
  StatsDashboard,
  StatsExplore,
  StatsLive,
} from '@otklik/shared';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  botSessions,
  bots,
  chats,
  csiSurveys,
  departments,
  issues,
  items,
  ruleMatches,
  rules,
  spaces,
} from '../../db/schema';
import {
  call,
  csvRows,
  exported,
  type Headers,
  period,
  s,
  sheetsOf,
  t,
  useTabExportFixture,
  Z,
} from './tab-exports.fixture';

// The tabs of features beyond the statistics area's own (dashboard, live, analytics, auto-rules, chat-bots,
// CSI, tasks) exported in the background: each file against its tab's own endpoint on the fixture's space.

useTabExportFixture();

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
