import {
  CSV_BOM,
  csvLine,
  daysBetween,
  STATS_KINDS,
  STATS_PRESETS,
  type StatsKind,
  type StatsPreset,
  safeText,
} from '@otklik/shared';
import { pathFor, type RouteQuery } from '@otklik/shared/routes';

// The stats frame's state lives in the address (shareable, survives reload): period, compare, filters.

export interface StatsParams {
  space_id: number | null;
  preset: StatsPreset | 'custom';
  from: string;
  to: string;
  compare: boolean;
  provider: string[];
  object_id: number[];
  kind: StatsKind[];
  company_id: number[];
  tag_id: number[];
  /** Team members: items assigned to them; their rows on the people tabs (docs/statistics.md "Filters"). */
  operator_id: number[];
  /**
   * For the drill-down only: the accounts a company filter stands for (the inbox list filters by account,
   * not company), intersected with `object_id`; null without a company filter. See withCompanyAccounts.
   */
  company_object_id?: number[] | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const ids = (search: URLSearchParams, key: string) => [
  ...new Set(
    search
      .getAll(key)
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0),
  ),
];

export function parseStatsParams(search: URLSearchParams): StatsParams {
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  const custom = DATE.test(from) && DATE.test(to) && from <= to;
  const preset = search.get('preset');
  return {
    space_id: Number(search.get('space_id')) || null,
    preset: custom
      ? 'custom'
      : (STATS_PRESETS as readonly string[]).includes(preset ?? '')
        ? (preset as StatsPreset)
        : '7d',
    from: custom ? from : '',
    to: custom ? to : '',
    compare: search.get('compare') === '1',
    provider: [...new Set(search.getAll('provider').filter(Boolean))],
    object_id: ids(search, 'object_id'),
    kind: [...new Set(search.getAll('kind'))].filter((k): k is StatsKind =>
      (STATS_KINDS as readonly string[]).includes(k),
    ),
    company_id: ids(search, 'company_id'),
    tag_id: ids(search, 'tag_id'),
    operator_id: ids(search, 'operator_id'),
  };
}

/** The address query of the frame's state (also what the API gets, with the resolved space). */
export function statsQueryOf(p: StatsParams, spaceId: number | null): RouteQuery {
  return {
    space_id: spaceId ?? undefined,
    preset: p.preset === 'custom' ? undefined : p.preset,
    from: p.preset === 'custom' ? p.from : undefined,
    to: p.preset === 'custom' ? p.to : undefined,
    compare: p.compare ? 1 : undefined,
    provider: p.provider.length > 0 ? p.provider : undefined,
    object_id: p.object_id.length > 0 ? p.object_id : undefined,
    kind: p.kind.length > 0 ? p.kind : undefined,
    company_id: p.company_id.length > 0 ? p.company_id : undefined,
    tag_id: p.tag_id.length > 0 ? p.tag_id : undefined,
    operator_id: p.operator_id.length > 0 ? p.operator_id : undefined,
  };
}

/** The frame's state from a saved stats filter's query (what statsQueryOf wrote), through the address rules. */
export function paramsOfSaved(query: Record<string, unknown>): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    for (const v of Array.isArray(value) ? value : [value])
      if (v !== undefined && v !== null && v !== '') search.append(key, String(v));
  return search;
}

/** `p` with the accounts its company filter stands for (company_object_id), for the drill-down links. */
export function withCompanyAccounts(
  p: StatsParams,
  accounts: ReadonlyArray<{ id: number; company_id: number | null }>,
): StatsParams {
  if (p.company_id.length === 0) return { ...p, company_object_id: null };
  return {
    ...p,
    company_object_id: accounts
      .filter((a) => a.company_id !== null && p.company_id.includes(a.company_id))
      .map((a) => a.id)
      .filter((id) => p.object_id.length === 0 || p.object_id.includes(id)),
  };
}

/**
 * A figure against the previous period's: the change in percent (null when there was nothing before or
 * either is unknown), its direction, and whether that is good news — `upIsGood` false for times and
 * waiting, where less is better.
 */
export function changeOf(
  current: number | null,
  previous: number | null,
  upIsGood = true,
): { percent: number | null; direction: 'up' | 'down' | 'flat'; good: boolean | null } {
  if (current === null || previous === null) return { percent: null, direction: 'flat', good: null };
  const direction = current > previous ? 'up' : current < previous ? 'down' : 'flat';
  const percent = previous === 0 ? null : Math.round(((current - previous) / Math.abs(previous)) * 1000) / 10;
  return { percent, direction, good: direction === 'flat' ? null : (direction === 'up') === upIsGood };
}

/**
 * The previous period's values aligned with this period's days by offset: the day k days after this
 * period's first day against the day k days after the previous period's first (they have the same
 * length). Either list may skip days (no data): null where the previous period has none.
 */
export function alignPrevious<T extends { day: string }>(
  days: ReadonlyArray<{ day: string }>,
  from: string,
  previousFrom: string,
  prevDays: ReadonlyArray<T>,
  value: (row: T) => number | null,
): Array<number | null> {
  const byOffset = new Map(prevDays.map((d) => [daysBetween(previousFrom, d.day), value(d)]));
  return days.map((d) => byOffset.get(daysBetween(from, d.day)) ?? null);
}

const ALL_STATUSES = ['new', 'inprogress', 'open', 'closed', 'deleted', 'delayed', 'waiting'];
const ITEM_KINDS = ['comment', 'review', 'mention'];

/**
 * Drill-down: the comments list with exactly the items a figure counted (docs/statistics.md): arrival in
 * [start, end) — the list's upper bound is inclusive to the second — every status, the same filters (a
 * company as its accounts, company_object_id; tags as the list's tag_id, any of them; operators as the
 * list's assigned_user_id).
 * `narrow` narrows further (one day, one network, one kind, a close reason).
 */
export function itemsLink(
  p: StatsParams,
  range: { start: number; end: number },
  narrow: {
    provider?: string;
    kind?: string;
    status?: string[];
    close_reason?: string;
    object_id?: number;
    tag_id?: number;
    operator_id?: number;
  } = {},
): string {
  const kinds = narrow.kind ? [narrow.kind] : p.kind.filter((k) => ITEM_KINDS.includes(k));
  return pathFor(
    'items',
    {},
    {
      status: narrow.status ?? ALL_STATUSES,
      created_at_from: range.start,
      created_at_to: range.end - 1,
      kind: kinds.length > 0 ? kinds : undefined,
      provider: narrow.provider ? [narrow.provider] : p.provider.length > 0 ? p.provider : undefined,
      object_id:
        narrow.object_id !== undefined
          ? [narrow.object_id]
          : p.company_object_id
            ? p.company_object_id
            : p.object_id.length > 0
              ? p.object_id
              : undefined,
      tag_id: narrow.tag_id !== undefined ? [narrow.tag_id] : p.tag_id.length > 0 ? p.tag_id : undefined,
      assigned_user_id:
        narrow.operator_id !== undefined
          ? [narrow.operator_id]
          : p.operator_id.length > 0
            ? p.operator_id
            : undefined,
      close_reason: narrow.close_reason ? [narrow.close_reason] : undefined,
    },
  );
}

export { safeText };

/**
 * A CSV file (RFC 4180, `;`-free: comma separated, quoted when needed, BOM so spreadsheets read UTF-8).
 * Text cells are guarded against formula injection (numbers stay numbers); the cells are the shared
 * ones the background exports write too (packages/shared csv.ts).
 */
export function toCsv(header: string[], rows: Array<Array<string | number | null>>): string {
  return `${CSV_BOM}${[header, ...rows].map(csvLine).join('')}`;
}

export function downloadCsv(name: string, csv: string) {
  downloadBlob(name, new Blob([csv], { type: 'text/csv;charset=utf-8' }));
}

export function downloadBlob(name: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
