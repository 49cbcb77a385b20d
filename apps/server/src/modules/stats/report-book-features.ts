import {
  type BotStatsAnswer,
  type CsiFigures,
  type CsiStats,
  type IssueStatsDto,
  type Locale,
  type MessageKey,
  type RuleStatsRow,
  type StatsDashboard,
  type StatsExplore,
  type StatsExploreRow,
  type StatsLive,
  translate,
} from '@otklik/shared';
import { type Cell, figureRows, networkName, type Sheet, tr } from './report-book';

// The sheets of the tabs of features beyond the statistics area's own (docs/statistics.md "Exports"):
// the dashboard and live walls, analytics, auto-rules, chat-bots, CSI and tasks — built, like
// report-book.ts's, from the very answer each tab's endpoint gives.

/**
 * stats/dashboard and /dashboard (`dashboard`): today's and the 7 days' figures side by side (the open
 * backlog and the tasks past due are "now": in the today column), then the 7 days' daily series.
 */
export function dashboardSheets(locale: Locale, d: StatsDashboard): Sheet[] {
  const t = tr(locale);
  const week = new Map(figureRows(locale, d.figures.week));
  return [
    {
      name: t('report.sheet.dashboard'),
      header: [t('report.col.figure'), t('report.col.today'), t('report.col.week')],
      rows: [
        ...figureRows(locale, d.figures.today).map(([label, v]) => [label, v, week.get(label) ?? null]),
        ...(d.business
          ? ([
              [t('report.col.frtMedianBusiness'), d.business.today.median, d.business.week.median],
            ] as Cell[][])
          : []),
        [t('report.fig.backlogItems'), d.backlog.items, null],
        [t('report.fig.backlogChats'), d.backlog.chats, null],
        ...(d.expired_tasks === null
          ? []
          : ([[t('report.fig.expiredTasks'), d.expired_tasks, null]] as Cell[][])),
      ],
    },
    {
      name: t('report.sheet.dashboardDays'),
      header: [t('report.col.day'), t('report.col.incoming'), t('report.col.frtMedian')],
      rows: d.days.map((r) => [r.day, r.incoming, r.first_response]),
    },
  ];
}

/**
 * stats/live and /live (`live`): the wall is a set of current numbers, not a table, so its sheet is
 * name/value rows — when they were taken, today's figures, waiting now (per network and account), the
 * longest wait, members per user status.
 */
export function liveSheets(locale: Locale, d: StatsLive): Sheet[] {
  const t = (key: MessageKey, params?: Record<string, string>) => translate(locale, key, params);
  const accountName = (q: StatsLive['by_account'][number]) =>
    `${networkName(q.provider)} · ${q.name ?? `#${q.object_id}`}`;
  return [
    {
      name: t('report.sheet.live'),
      header: [t('report.col.figure'), t('report.col.value')],
      rows: [
        [t('report.live.takenAt'), new Date(d.now * 1000).toISOString()],
        ...figureRows(locale, d.figures).map(([label, v]) => [t('report.live.today', { figure: label }), v]),
        ...(d.business
          ? ([
              [t('report.live.today', { figure: t('report.col.frtMedianBusiness') }), d.business.median],
            ] as Cell[][])
          : []),
        [t('report.fig.backlogItems'), d.waiting.items],
        [t('report.fig.backlogChats'), d.waiting.chats],
        [t('report.fig.oldestWaiting'), d.longest?.age ?? null],
        ...d.by_provider.map((q) => [t('report.live.byNetwork', { name: networkName(q.provider) }), q.count]),
        ...d.by_account.map((q) => [t('report.live.byAccount', { name: accountName(q) }), q.count]),
        ...d.statuses.map((st) => [
          t('report.live.status', { name: st.name ?? t('report.live.noStatus') }),
          st.count,
        ]),
      ],
    },
  ];
}

/**
 * /analytics (`analytics`): one row per value of the split (`by`; a report splits by day) with every
 * figure the screen can show, then the whole period's row (not a sum: a unit may be under two tags).
 */
export function analyticsSheets(locale: Locale, d: StatsExplore): Sheet[] {
  const t = tr(locale);
  const time = d.by === 'day' || d.by === 'week' || d.by === 'month';
  const label = (r: StatsExploreRow) =>
    d.by === 'provider'
      ? networkName(r.key)
      : d.by === 'kind'
        ? t(`report.col.${r.key}` as MessageKey)
        : time
          ? r.key
          : (r.name ?? r.key);
  const values = (r: Omit<StatsExploreRow, 'key' | 'name'>): Cell[] => [
    ...figureRows(locale, r.figures).map(([, v]) => v),
    ...(d.total.business ? [r.business?.median ?? null] : []),
    r.resolution.median,
    r.resolution.p90,
  ];
  return [
    {
      name: t('report.sheet.analytics'),
      header: [
        t(`report.dim.${d.by}` as MessageKey),
        ...figureRows(locale, d.total.figures).map(([label]) => label),
        ...(d.total.business ? [t('report.col.frtMedianBusiness')] : []),
        t('report.col.resMedian'),
        t('report.col.resP90'),
      ],
      rows: [...d.rows.map((r) => [label(r), ...values(r)]), [t('report.col.total'), ...values(d.total)]],
    },
  ];
}

/** stats/rules (`rules`): per auto-rule the items matched, actions done, failed runs; then per day. */
export function rulesSheets(locale: Locale, d: { rules: RuleStatsRow[]; days: string[] }): Sheet[] {
  const t = tr(locale);
  const counts = [t('report.col.matches'), t('report.col.actions'), t('report.col.failed')];
  return [
    {
      name: t('report.sheet.rules'),
      header: [t('report.col.rule'), ...counts],
      rows: d.rules.map((r) => [r.name, r.matches, r.actions, r.failed]),
    },
    {
      name: t('report.sheet.rulesByDay'),
      header: [t('report.col.day'), t('report.col.rule'), ...counts],
      rows: d.rules.flatMap((r) => r.by_day.map((x) => [x.day, r.name, x.matches, x.actions, x.failed])),
    },
  ];
}

/** stats/bots (`bots`): per chat-bot the conversations by outcome; then each step's funnel. */
export function botsSheets(locale: Locale, d: BotStatsAnswer): Sheet[] {
  const t = tr(locale);
  return [
    {
      name: t('report.sheet.bots'),
      header: [
        t('report.col.bot'),
        t('report.col.started'),
        t('report.col.completed'),
        t('report.col.handedOff'),
        t('report.col.dropped'),
        t('report.col.active'),
      ],
      rows: d.bots.map((b) => [b.name, b.started, b.completed, b.handed_off, b.dropped, b.active]),
    },
    {
      name: t('report.sheet.botSteps'),
      header: [
        t('report.col.bot'),
        t('report.col.step'),
        t('report.col.stepType'),
        t('report.col.flow'),
        t('report.col.reached'),
        t('report.col.dropped'),
      ],
      rows: d.bots.flatMap((b) =>
        b.steps.map((s) => [b.name, s.step_id, s.type, s.flow, s.reached, s.dropped]),
      ),
    },
  ];
}

/** stats/csi (`csi`): the survey figures per day (and the whole period), team member, account, network; scores. */
export function csiSheets(locale: Locale, d: CsiStats): Sheet[] {
  const t = tr(locale);
  const figures = [
    t('report.col.sent'),
    t('report.col.answered'),
    t('report.col.satisfied'),
    t('report.col.csat'),
    t('report.col.average'),
    t('report.col.responseRate'),
  ];
  const row = (f: CsiFigures): Cell[] => [
    f.sent,
    f.answered,
    f.satisfied,
    f.csat,
    f.average,
    f.response_rate,
  ];
  return [
    {
      name: t('report.sheet.csiDays'),
      header: [t('report.col.day'), ...figures],
      rows: [...d.by_day.map((r) => [r.day, ...row(r)]), [t('report.col.total'), ...row(d.total)]],
    },
    {
      name: t('report.sheet.csiUsers'),
      header: [t('report.col.operator'), ...figures],
      rows: d.by_user.map((r) => [
        r.user_id === null ? t('report.col.noOperator') : (r.name ?? `#${r.user_id}`),
        ...row(r),
      ]),
    },
    {
      name: t('report.sheet.csiAccounts'),
      header: [t('report.col.account'), t('report.col.network'), ...figures],
      rows: d.by_object.map((r) => [r.name, networkName(r.provider), ...row(r)]),
    },
    {
      name: t('report.sheet.csiNetworks'),
      header: [t('report.col.network'), ...figures],
      rows: d.by_provider.map((r) => [networkName(r.provider), ...row(r)]),
    },
    {
      name: t('report.sheet.csiScores'),
      header: [t('report.col.score'), t('report.col.count')],
      rows: d.scores.map((r) => [r.score, r.count]),
    },
  ];
}

/** stats/issues' answer with the names of its assignees and departments (ids as keys). */
export interface IssueTab extends IssueStatsDto {
  names: { users: Record<string, string>; departments: Record<string, string> };
}

/** stats/issues (`issues`): tasks per day, per assignee, per department, and the time to close them. */
export function issuesSheets(locale: Locale, d: IssueTab): Sheet[] {
  const t = tr(locale);
  const counts = [t('report.col.open'), t('report.col.closed'), t('report.col.expired')];
  const name = (names: Record<string, string>, id: number | null, none: MessageKey) =>
    id === null ? t(none) : (names[String(id)] ?? `#${id}`);
  return [
    {
      name: t('report.sheet.issuesDays'),
      header: [t('report.col.day'), t('report.col.created'), t('report.col.closed'), t('report.col.expired')],
      rows: d.days.map((r) => [r.date, r.created, r.closed, r.expired]),
    },
    {
      name: t('report.sheet.issuesAssignees'),
      header: [t('report.col.assignee'), ...counts],
      rows: d.by_assignee.map((r) => [
        name(d.names.users, r.user_id, 'report.col.unassigned'),
        r.open,
        r.closed,
        r.expired,
      ]),
    },
    {
      name: t('report.sheet.issuesDepartments'),
      header: [t('report.col.department'), ...counts],
      rows: d.by_department.map((r) => [
        name(d.names.departments, r.department_id, 'report.col.noDepartment'),
        r.open,
        r.closed,
        r.expired,
      ]),
    },
    {
      name: t('report.sheet.issuesCloseTime'),
      header: [t('report.col.figure'), t('report.col.value')],
      rows: [
        [t('report.col.closedTasks'), d.close_hours.count],
        [t('report.col.closeHoursMean'), d.close_hours.mean],
        [t('report.col.closeHoursMedian'), d.close_hours.median],
      ],
    },
  ];
}
