import { STATS_KINDS, STATS_PRESETS, type StatsKind, type StatsPreset } from '@otklik/shared';
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
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

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
    object_id: [
      ...new Set(
        search
          .getAll('object_id')
          .map(Number)
          .filter((n) => Number.isInteger(n) && n > 0),
      ),
    ],
    kind: [...new Set(search.getAll('kind'))].filter((k): k is StatsKind =>
      (STATS_KINDS as readonly string[]).includes(k),
    ),
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
  };
}

const ALL_STATUSES = ['new', 'inprogress', 'open', 'closed', 'deleted', 'delayed', 'waiting'];
const ITEM_KINDS = ['comment', 'review', 'mention'];

/**
 * Drill-down: the comments list with exactly the items a figure counted (docs/statistics.md): arrival in
 * [start, end) — the list's upper bound is inclusive to the second — every status, the same filters.
 * `narrow` narrows further (one day, one network, one kind, a close reason).
 */
export function itemsLink(
  p: StatsParams,
  range: { start: number; end: number },
  narrow: { provider?: string; kind?: string; status?: string[]; close_reason?: string } = {},
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
      object_id: p.object_id.length > 0 ? p.object_id : undefined,
      close_reason: narrow.close_reason ? [narrow.close_reason] : undefined,
    },
  );
}

/** A text cell a spreadsheet would run as a formula (= + - @, tab, CR) gets a leading apostrophe. */
export function safeText(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/**
 * A CSV file (RFC 4180, `;`-free: comma separated, quoted when needed, BOM so spreadsheets read UTF-8).
 * Text cells are guarded against formula injection (numbers stay numbers).
 */
export function toCsv(header: string[], rows: Array<Array<string | number | null>>): string {
  const cell = (v: string | number | null) => {
    const text = v === null ? '' : typeof v === 'number' ? String(v) : safeText(v);
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return `\ufeff${[header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
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
