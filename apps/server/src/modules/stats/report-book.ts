import {
  type Locale,
  type MessageKey,
  providers,
  type ReportTab,
  type StatsClosed,
  type StatsEmotions,
  type StatsHours,
  type StatsOperators,
  type StatsOperatorTimes,
  type StatsOverview,
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

// The workbook of a scheduled report (docs/statistics.md "Scheduled reports"): one or more sheets per
// tab, from the very answers the tabs' endpoints give (service.ts), so the mail and the screens agree.
// Durations are seconds, shares 0..1, counts integers; text cells are text (never formulas).

type Cell = string | number | null;
export interface Sheet {
  name: string;
  header: string[];
  rows: Cell[][];
}

/** What the report computed, per tab (only the chosen ones are present). */
export interface ReportData {
  overall?: { overview: StatsOverview; volume: StatsVolume };
  users?: StatsOperators;
  closed?: StatsClosed;
  time?: StatsTime;
  userstime?: StatsOperatorTimes;
  tags?: StatsTags;
  posts?: StatsPosts;
  hours?: StatsHours;
  statuses?: StatsStatuses;
  workinghours?: StatsWorkinghours;
  emotions?: StatsEmotions;
}

const networkName = (id: string) =>
  (providers as Record<string, { name: string } | undefined>)[id]?.name ?? id;

/** The key figures of the overview as [label, value] rows (the summary sheet and the mail's table). */
export function summaryRows(locale: Locale, overview: StatsOverview): Array<[string, number | null]> {
  const t = (key: MessageKey) => translate(locale, key);
  const c = overview.current;
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
    [t('report.fig.backlogItems'), overview.backlog.items],
    [t('report.fig.backlogChats'), overview.backlog.chats],
  ];
}

export function reportSheets(locale: Locale, tabs: readonly ReportTab[], data: ReportData): Sheet[] {
  const t = (key: MessageKey) => translate(locale, key);
  const sheets: Sheet[] = [];
  for (const tab of tabs) {
    if (tab === 'overall' && data.overall) {
      sheets.push({
        name: t('report.sheet.summary'),
        header: [t('report.col.figure'), t('report.col.value')],
        rows: summaryRows(locale, data.overall.overview),
      });
      const kinds = ['comment', 'review', 'mention', 'chat', 'message'] as const;
      const byDay = new Map<string, Record<(typeof kinds)[number], number>>();
      for (const r of data.overall.volume.rows) {
        const key = `${r.day}\u0000${r.provider}`;
        const entry = byDay.get(key) ?? { comment: 0, review: 0, mention: 0, chat: 0, message: 0 };
        entry[r.kind] += r.count;
        byDay.set(key, entry);
      }
      sheets.push({
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
      });
    }
    if (tab === 'users' && data.users)
      sheets.push({
        name: t('report.sheet.users'),
        header: [
          t('report.col.operator'),
          t('report.col.replies'),
          t('report.col.closed'),
          t('report.col.firstReplies'),
          t('report.col.frtMedian'),
        ],
        rows: data.users.rows.map((r) => [r.name, r.replies, r.closed, r.first_replies, r.frt_median]),
      });
    if (tab === 'closed' && data.closed)
      sheets.push({
        name: t('report.sheet.closed'),
        header: [
          t('report.col.operator'),
          t('report.col.reply'),
          t('report.col.noreply'),
          t('report.col.autorule'),
          t('report.col.total'),
        ],
        rows: data.closed.rows.map((r) => [
          r.user_id === null ? t('report.col.rules') : (r.name ?? ''),
          r.reply,
          r.noreply,
          r.autorule,
          r.total,
        ]),
      });
    if (tab === 'time' && data.time) {
      const d = data.time;
      sheets.push({
        name: t('report.sheet.time'),
        header: [t('report.col.figure'), t('report.col.count'), t('report.col.value')],
        rows: [
          [t('report.col.frtMedian'), d.first_response.count, d.first_response.median],
          [t('report.col.frtP90'), d.first_response.count, d.first_response.p90],
          [t('report.col.resMedian'), d.resolution.count, d.resolution.median],
          [t('report.col.resP90'), d.resolution.count, d.resolution.p90],
        ],
      });
      sheets.push({
        name: t('report.sheet.timeByDay'),
        header: [t('report.col.day'), t('report.col.frtMedian'), t('report.col.resMedian')],
        rows: d.days.map((r) => [r.day, r.first_response, r.resolution]),
      });
    }
    if (tab === 'userstime' && data.userstime)
      sheets.push({
        name: t('report.sheet.userstime'),
        header: [
          t('report.col.operator'),
          t('report.col.firstReplies'),
          t('report.col.frtMedian'),
          t('report.col.frtP90'),
        ],
        rows: data.userstime.rows.map((r) => [
          r.name,
          r.first_replies.count,
          r.first_replies.median,
          r.first_replies.p90,
        ]),
      });
    if (tab === 'tags' && data.tags)
      sheets.push({
        name: t('report.sheet.tags'),
        header: [t('report.col.tag'), t('report.col.incoming')],
        rows: data.tags.tags.map((r) => [r.name, r.count]),
      });
    if (tab === 'posts' && data.posts)
      sheets.push({
        name: t('report.sheet.posts'),
        header: [
          t('report.col.post'),
          t('report.col.network'),
          t('report.col.link'),
          t('report.col.incoming'),
          t('report.col.replied'),
          t('report.col.replies'),
        ],
        rows: data.posts.rows.map((r) => [
          r.text.slice(0, 500),
          networkName(r.provider),
          r.url,
          r.items,
          r.replied,
          r.replies,
        ]),
      });
    if (tab === 'hours' && data.hours) {
      const grid = new Map(data.hours.cells.map((c) => [`${c.weekday}:${c.hour}`, c.count]));
      sheets.push({
        name: t('report.sheet.hours'),
        header: [t('report.col.weekday'), ...Array.from({ length: 24 }, (_, h) => String(h))],
        rows: [1, 2, 3, 4, 5, 6, 7].map((wd) => [
          t(`report.weekday.${wd}` as MessageKey),
          ...Array.from({ length: 24 }, (_, h) => grid.get(`${wd}:${h}`) ?? 0),
        ]),
      });
    }
    if (tab === 'statuses' && data.statuses) sheets.push(statusesSheet(locale, data.statuses));
    if (tab === 'workinghours' && data.workinghours)
      sheets.push({
        name: t('report.sheet.workinghours'),
        header: [
          t('report.col.operator'),
          t('report.col.slots'),
          t('report.col.scheduled'),
          t('report.col.worked'),
          t('report.col.workedInSlots'),
        ],
        rows: data.workinghours.rows.map((r) => [r.name, r.slots, r.scheduled, r.worked, r.worked_in_slots]),
      });
    if (tab === 'emotions' && data.emotions) sheets.push(...emotionSheets(locale, data.emotions));
  }
  return sheets;
}

/** Per member, seconds in each user status (a status since removed is under its own column), working, all. */
function statusesSheet(locale: Locale, data: StatsStatuses): Sheet {
  const t = (key: MessageKey, params?: Record<string, string>) => translate(locale, key, params);
  const known = new Set(data.statuses.map((st) => String(st.id)));
  const removed = data.rows.some((r) => Object.keys(r.seconds).some((id) => !known.has(id)));
  const columns = [
    ...data.statuses.map((st) => ({ id: String(st.id), label: st.name })),
    ...(removed ? [{ id: '0', label: t('report.col.removedStatus') }] : []),
  ];
  return {
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
  };
}

/** Rated customer texts by sentiment: per local day, then per network. */
function emotionSheets(locale: Locale, data: StatsEmotions): Sheet[] {
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
