import {
  type BotStatsAnswer,
  type CsiFigures,
  type CsiStats,
  type IssueStatsDto,
  type Locale,
  type MessageKey,
  providers,
  type RuleStatsRow,
  type StatsClosed,
  type StatsDashboard,
  type StatsEmotions,
  type StatsExplore,
  type StatsExploreRow,
  type StatsFigures,
  type StatsHours,
  type StatsLive,
  type StatsOperators,
  type StatsOperatorTimes,
  type StatsOverview,
  type StatsPerson,
  type StatsPosts,
  type StatsStatuses,
  type StatsTags,
  type StatsTime,
  type StatsVolume,
  type StatsWorkinghours,
  translate,
  xlsxColumnWidths,
  xlsxSheetName,
} from '@otklik/shared';
import ExcelJS from 'exceljs';

// The sheets of each statistics tab (docs/statistics.md "Scheduled reports", "Exports"): one builder per
// tab from the very answer the tab's endpoint gives (service.ts; wired in tab-books.ts), so a report
// mail, a background tab export and the screen agree. The workbook of several tabs' sheets.
// Durations are seconds, shares 0..1, counts integers; text cells are text (never formulas).

type Cell = string | number | null;
export interface Sheet {
  name: string;
  header: string[];
  rows: Cell[][];
}

const networkName = (id: string) =>
  (providers as Record<string, { name: string } | undefined>)[id]?.name ?? id;

/** The key figures of the overview as [label, value] rows (the summary sheet and the mail's table). */
export function summaryRows(locale: Locale, overview: StatsOverview): Array<[string, number | null]> {
  const t = (key: MessageKey) => translate(locale, key);
  return [
    ...figureRows(locale, overview.current),
    [t('report.fig.backlogItems'), overview.backlog.items],
    [t('report.fig.backlogChats'), overview.backlog.chats],
  ];
}

/** The figures of one period (StatsFigures) as [label, value] rows, in the summary's order. */
function figureRows(locale: Locale, c: StatsFigures): Array<[string, number | null]> {
  const t = (key: MessageKey) => translate(locale, key);
  return [
    [t('report.fig.items'), c.incoming.items],
    [t('report.fig.chats'), c.incoming.chats],
    [t('report.fig.messages'), c.incoming.messages],
    [t('report.fig.replied'), c.replied],
    [t('report.fig.repliedShare'), c.replied_share],
    [t('report.col.frtMedian'), c.first_response.median],
    [t('report.col.frtP90'), c.first_response.p90],
    [t('report.fig.closedReply'), c.closed.reply],
    [t('report.fig.closedNoreply'), c.closed.noreply],
    [t('report.fig.closedAutorule'), c.closed.autorule],
  ];
}

const tr = (locale: Locale) => (key: MessageKey) => translate(locale, key);

/** stats/overall (`overall`): the summary figures, then incoming per local day and network by kind. */
export function overallSheets(
  locale: Locale,
  data: { overview: StatsOverview; volume: StatsVolume },
): Sheet[] {
  const t = tr(locale);
  const kinds = ['comment', 'review', 'mention', 'chat', 'message'] as const;
  const byDay = new Map<string, Record<(typeof kinds)[number], number>>();
  for (const r of data.volume.rows) {
    const key = `${r.day}\u0000${r.provider}`;
    const entry = byDay.get(key) ?? { comment: 0, review: 0, mention: 0, chat: 0, message: 0 };
    entry[r.kind] += r.count;
    byDay.set(key, entry);
  }
  return [
    {
      name: t('report.sheet.summary'),
      header: [t('report.col.figure'), t('report.col.value')],
      rows: summaryRows(locale, data.overview),
    },
    {
      name: t('report.sheet.volume'),
      header: [
        t('report.col.day'),
        t('report.col.network'),
        ...kinds.map((k) => t(`report.col.${k}` as MessageKey)),
      ],
      rows: [...byDay.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, counts]) => {
          const [day, provider] = key.split('\u0000') as [string, string];
          return [day, networkName(provider), ...kinds.map((k) => counts[k])];
        }),
    },
  ];
}

/**
 * stats/replies (`replies`, from the overview's answer): replied, replied share, first response
 * (median, p90; in business hours too when the space has a schedule) and closings by how, as the tab's
 * two tables show them, in one sheet of figures.
 */
export function repliesSheets(locale: Locale, data: StatsOverview): Sheet[] {
  const t = tr(locale);
  const c = data.current;
  const business = data.business?.current;
  return [
    {
      name: t('report.sheet.replies'),
      header: [t('report.col.figure'), t('report.col.value')],
      rows: [
        [t('report.fig.replied'), c.replied],
        [t('report.fig.repliedShare'), c.replied_share],
        [t('report.col.frtMedian'), c.first_response.median],
        [t('report.col.frtP90'), c.first_response.p90],
        ...(business
          ? ([
              [t('report.col.frtMedianBusiness'), business.median],
              [t('report.col.frtP90Business'), business.p90],
            ] as Cell[][])
          : []),
        [t('report.fig.closedReply'), c.closed.reply],
        [t('report.fig.closedNoreply'), c.closed.noreply],
        [t('report.fig.closedAutorule'), c.closed.autorule],
      ],
    },
  ];
}

/** stats/users (`users`): per member replies, closed, first replies, median first response. */
export function usersSheets(locale: Locale, data: StatsOperators): Sheet[] {
  const t = tr(locale);
  return [
    {
      name: t('report.sheet.users'),
      header: [
        t('report.col.operator'),
        t('report.col.replies'),
        t('report.col.closed'),
        t('report.col.firstReplies'),
        t('report.col.frtMedian'),
      ],
      rows: data.rows.map((r) => [r.name, r.replies, r.closed, r.first_replies, r.frt_median]),
    },
  ];
}

/**
 * stats/my and stats/users/:id (`my`, `user`): one person's figures, as the tab's table lists them —
 * replies, closings (all, with and without reply), first replies with median and p90 (and in business
 * hours when the space has a schedule). The sheet is named after the person.
 */
export function personSheets(locale: Locale, data: StatsPerson): Sheet[] {
  const t = tr(locale);
  const business = data.first_replies_business;
  return [
    {
      name: data.user.name,
      header: [t('report.col.figure'), t('report.col.value')],
      rows: [
        [t('report.col.replies'), data.row.replies],
        [t('report.col.closed'), data.closed.total],
        [t('report.fig.closedReply'), data.closed.reply],
        [t('report.fig.closedNoreply'), data.closed.noreply],
        [t('report.col.firstReplies'), data.first_replies.count],
        [t('report.col.frtMedian'), data.first_replies.median],
        [t('report.col.frtP90'), data.first_replies.p90],
        ...(business
          ? ([
              [t('report.col.frtMedianBusiness'), business.median],
              [t('report.col.frtP90Business'), business.p90],
            ] as Cell[][])
          : []),
      ],
    },
  ];
}

/** stats/users/closed (`closed`): per member (or the rules) closings by how. */
export function closedSheets(locale: Locale, data: StatsClosed): Sheet[] {
  const t = tr(locale);
  return [
    {
      name: t('report.sheet.closed'),
      header: [
        t('report.col.operator'),
        t('report.col.reply'),
        t('report.col.noreply'),
        t('report.col.autorule'),
        t('report.col.total'),
      ],
      rows: data.rows.map((r) => [
        r.user_id === null ? t('report.col.rules') : (r.name ?? ''),
        r.reply,
        r.noreply,
        r.autorule,
        r.total,
      ]),
    },
  ];
}

/** stats/time (`time`): first response and resolution (count, median, p90), then medians per day. */
export function timeSheets(locale: Locale, d: StatsTime): Sheet[] {
  const t = tr(locale);
  return [
    {
      name: t('report.sheet.time'),
      header: [t('report.col.figure'), t('report.col.count'), t('report.col.value')],
      rows: [
        [t('report.col.frtMedian'), d.first_response.count, d.first_response.median],
        [t('report.col.frtP90'), d.first_response.count, d.first_response.p90],
        [t('report.col.resMedian'), d.resolution.count, d.resolution.median],
        [t('report.col.resP90'), d.resolution.count, d.resolution.p90],
      ],
    },
    {
      name: t('report.sheet.timeByDay'),
      header: [t('report.col.day'), t('report.col.frtMedian'), t('report.col.resMedian')],
      rows: d.days.map((r) => [r.day, r.first_response, r.resolution]),
    },
  ];
}

/** stats/userstime (`userstime`): per member first replies with median and p90. */
export function userstimeSheets(locale: Locale, data: StatsOperatorTimes): Sheet[] {
  const t = tr(locale);
  return [
    {
      name: t('report.sheet.userstime'),
      header: [
        t('report.col.operator'),
        t('report.col.firstReplies'),
        t('report.col.frtMedian'),
        t('report.col.frtP90'),
      ],
      rows: data.rows.map((r) => [
        r.name,
        r.first_replies.count,
        r.first_replies.median,
        r.first_replies.p90,
      ]),
    },
  ];
}

/** stats/tags (`tags`): incoming per tag. */
export function tagsSheets(locale: Locale, data: StatsTags): Sheet[] {
  const t = tr(locale);
  return [
    {
      name: t('report.sheet.tags'),
      header: [t('report.col.tag'), t('report.col.incoming')],
      rows: data.tags.map((r) => [r.name, r.count]),
    },
  ];
}

/** stats/posts (`posts`): the top posts with incoming, replied and our replies. */
export function postsSheets(locale: Locale, data: StatsPosts): Sheet[] {
  const t = tr(locale);
  return [
    {
      name: t('report.sheet.posts'),
      header: [
        t('report.col.post'),
        t('report.col.network'),
        t('report.col.link'),
        t('report.col.incoming'),
        t('report.col.replied'),
        t('report.col.replies'),
      ],
      rows: data.rows.map((r) => [
        r.text.slice(0, 500),
        networkName(r.provider),
        r.url,
        r.items,
        r.replied,
        r.replies,
      ]),
    },
  ];
}

/** stats/hours (`hours`): incoming per weekday (rows) and local hour (columns). */
export function hoursSheets(locale: Locale, data: StatsHours): Sheet[] {
  const t = tr(locale);
  const grid = new Map(data.cells.map((c) => [`${c.weekday}:${c.hour}`, c.count]));
  return [
    {
      name: t('report.sheet.hours'),
      header: [t('report.col.weekday'), ...Array.from({ length: 24 }, (_, h) => String(h))],
      rows: [1, 2, 3, 4, 5, 6, 7].map((wd) => [
        t(`report.weekday.${wd}` as MessageKey),
        ...Array.from({ length: 24 }, (_, h) => grid.get(`${wd}:${h}`) ?? 0),
      ]),
    },
  ];
}

/** stats/users/workinghours (`workinghours`, and one member's): scheduled slots against worked time. */
export function workinghoursSheets(locale: Locale, data: StatsWorkinghours): Sheet[] {
  const t = tr(locale);
  return [
    {
      name: t('report.sheet.workinghours'),
      header: [
        t('report.col.operator'),
        t('report.col.slots'),
        t('report.col.scheduled'),
        t('report.col.worked'),
        t('report.col.workedInSlots'),
      ],
      rows: data.rows.map((r) => [r.name, r.slots, r.scheduled, r.worked, r.worked_in_slots]),
    },
  ];
}

/** Per member, seconds in each user status (a status since removed is under its own column), working, all. */
export function statusesSheets(locale: Locale, data: StatsStatuses): Sheet[] {
  const t = (key: MessageKey, params?: Record<string, string>) => translate(locale, key, params);
  const known = new Set(data.statuses.map((st) => String(st.id)));
  const removed = data.rows.some((r) => Object.keys(r.seconds).some((id) => !known.has(id)));
  const columns = [
    ...data.statuses.map((st) => ({ id: String(st.id), label: st.name })),
    ...(removed ? [{ id: '0', label: t('report.col.removedStatus') }] : []),
  ];
  return [
    {
      name: t('report.sheet.statuses'),
      header: [
        t('report.col.operator'),
        ...columns.map((c) => t('report.col.statusSeconds', { status: c.label })),
        t('report.col.working'),
        t('report.col.recorded'),
      ],
      rows: data.rows.map((r) => [
        r.name,
        ...columns.map((c) =>
          c.id === '0'
            ? Object.entries(r.seconds).reduce((sum, [id, v]) => (known.has(id) ? sum : sum + v), 0)
            : (r.seconds[c.id] ?? 0),
        ),
        r.working,
        r.total,
      ]),
    },
  ];
}

/** Rated customer texts by sentiment: per local day, then per network. */
export function emotionSheets(locale: Locale, data: StatsEmotions): Sheet[] {
  const t = (key: MessageKey) => translate(locale, key);
  const counts = [
    t('report.col.negative'),
    t('report.col.neutral'),
    t('report.col.positive'),
    t('report.col.anger'),
  ];
  const row = (c: { negative: number; neutral: number; positive: number; anger: number }) => [
    c.negative,
    c.neutral,
    c.positive,
    c.anger,
  ];
  return [
    {
      name: t('report.sheet.emotions'),
      header: [t('report.col.day'), ...counts],
      rows: data.days.map((d) => [d.day, ...row(d)]),
    },
    {
      name: t('report.sheet.emotionsByNetwork'),
      header: [t('report.col.network'), ...counts],
      rows: data.by_provider.map((p) => [networkName(p.provider), ...row(p)]),
    },
  ];
}

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

/** The XLSX file of the sheets (exceljs, as the web's table export). */
export async function workbookOf(sheets: Sheet[]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const used = new Set<string>();
  for (const sheet of sheets) {
    let name = xlsxSheetName(sheet.name);
    for (let n = 2; used.has(name); n++) name = xlsxSheetName(`${sheet.name.slice(0, 27)} ${n}`);
    used.add(name);
    const ws = book.addWorksheet(name);
    ws.addRow(sheet.header).font = { bold: true };
    for (const row of sheet.rows) ws.addRow(row.map((v) => (v === null ? '' : v)));
    const widths = xlsxColumnWidths(sheet.header, sheet.rows);
    ws.columns.forEach((column, i) => {
      column.width = widths[i] ?? 8;
    });
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}
