import {
  type Locale,
  type MessageKey,
  providers,
  type StatsClosed,
  type StatsEmotions,
  type StatsFigures,
  type StatsHours,
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

// The sheets of each statistics tab (docs/statistics.md "Scheduled reports", "Exports"): one builder per
// tab from the very answer the tab's endpoint gives (service.ts; wired in tab-books.ts), so a report
// mail, a background tab export and the screen agree. The workbook of several tabs' sheets.
// Durations are seconds, shares 0..1, counts integers; text cells are text (never formulas).

export type Cell = string | number | null;
export interface Sheet {
  name: string;
  header: string[];
  rows: Cell[][];
}

export const networkName = (id: string) =>
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
export function figureRows(locale: Locale, c: StatsFigures): Array<[string, number | null]> {
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

export const tr = (locale: Locale) => (key: MessageKey) => translate(locale, key);

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
 * The XLSX file of the sheets (exceljs, as the web's table export). exceljs is loaded on the first
 * workbook: at the server's start it cost ~8% of the start's CPU, for a feature most starts never use.
 */
export async function workbookOf(sheets: Sheet[]): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
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
