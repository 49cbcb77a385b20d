import {
  DEFAULT_CHAT_STATUSES,
  DEFAULT_ITEM_STATUSES,
  EMOTION_CHOICES,
  type EmotionChoice,
  isProviderId,
} from '@otklik/shared';
import type { RouteQuery } from '@otklik/shared/routes';
import type { CloseReason, InboxItem, InboxStatus, ItemKind } from '../../../api/inboxTypes';

// The filters of the comment and chat lists, kept in the address (docs/product/screens-and-routes.md: object filtering adds
// object_id to the current route; saved filters carry status, dates, provider...). One mapping in each
// direction: address ↔ filters ↔ API query, and the check a live row must pass to join an open list.

export type ListKind = 'items' | 'chats';

const sameSet = <T>(a: readonly T[], b: readonly T[]) =>
  a.length === b.length && a.every((value) => b.includes(value));

export const INBOX_STATUSES: readonly InboxStatus[] = [
  'new',
  'inprogress',
  'open',
  'waiting',
  'delayed',
  'closed',
  'deleted',
];
/**
 * Statuses offered in each list's filter (chats have no deleted). Comments are rarely 'open' — only
 * through the API — but one that is must still be findable.
 */
export const FILTER_STATUSES: Record<ListKind, readonly InboxStatus[]> = {
  items: ['new', 'inprogress', 'open', 'waiting', 'delayed', 'closed', 'deleted'],
  chats: ['new', 'inprogress', 'open', 'waiting', 'delayed', 'closed'],
};
export const ITEM_KINDS: readonly ItemKind[] = ['comment', 'review', 'mention'];
/** How a closed row was closed (docs/product/screens-and-routes.md statuses: closed with reply, without reply, by autorules). */
export const CLOSE_REASONS: readonly CloseReason[] = ['reply', 'noreply', 'autorule'];

/**
 * docs/product/limits.md: default status filter new + inprogress; chats add open. A text search defaults to every status
 * (issue 13: a search that silently looked at the queue only missed closed and waiting rows); the server
 * applies the same rule to a `q` without `status`.
 */
export function defaultStatuses(kind: ListKind, q = ''): InboxStatus[] {
  if (q.trim()) return [...FILTER_STATUSES[kind]];
  return [...(kind === 'items' ? DEFAULT_ITEM_STATUSES : DEFAULT_CHAT_STATUSES)];
}

/**
 * The filters with a new search text. Statuses left at their default follow the text's default (every
 * status while searching, the queue without a text); statuses someone chose stay.
 */
export function withSearchText(filters: InboxFilters, kind: ListKind, q: string): InboxFilters {
  const defaulted = sameSet(filters.status, defaultStatuses(kind, filters.q));
  const status = defaulted ? defaultStatuses(kind, q) : filters.status;
  return { ...filters, q, status, close_reason: status.includes('closed') ? filters.close_reason : [] };
}

export interface InboxFilters {
  status: InboxStatus[];
  kind: ItemKind[];
  provider: string[];
  object_id: number[];
  tag_id: number[];
  /** User ids, or 'none' for "not assigned". */
  assigned_user_id: Array<number | 'none'>;
  author_id: number | null;
  /** Unix seconds. */
  created_at_from: number | null;
  created_at_to: number | null;
  /** Only closed rows closed this way; kept only while 'closed' is among the statuses. */
  close_reason: CloseReason[];
  q: string;
  /**
   * docs/product/screens-and-routes.md: a saved query can carry `source` — the connected accounts the list comes from (account
   * ids). The server narrows by it like object_id; with both, the intersection.
   */
  source: number[];
  /** Emotions (issue 21): a sentiment or anger (a chat: of its customer's latest message); several widen the list. */
  sentiment: EmotionChoice[];
}

/** Query parameters that are this list's filters (the top bar counts them, docs/product/screens-and-routes.md filter button). */
export function filterKeys(kind: ListKind): string[] {
  const keys = [
    'status',
    'provider',
    'object_id',
    'tag_id',
    'assigned_user_id',
    'author_id',
    'created_at_from',
    'created_at_to',
    'close_reason',
    'q',
    'source',
  ];
  return kind === 'items' ? [...keys, 'kind', 'sentiment'] : [...keys, 'sentiment'];
}

const unique = <T>(list: T[]) => [...new Set(list)];
const positiveInt = (value: string) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
};
const ids = (values: string[]) => unique(values.map(positiveInt).filter((n): n is number => n !== null));

/** Filters from the address; anything unknown or malformed is dropped, a missing status means the default. */
export function parseFilters(search: string | URLSearchParams, kind: ListKind): InboxFilters {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const all = (key: string) => params.getAll(key).filter((v) => v !== '');
  const statuses = unique(all('status')).filter((s): s is InboxStatus =>
    (FILTER_STATUSES[kind] as readonly string[]).includes(s),
  );
  const seconds = (key: string) => {
    const value = params.get(key);
    if (value === null || value === '') return null;
    const n = Number(value);
    return Number.isInteger(n) && n >= 0 ? n : null;
  };
  const q = (params.get('q') ?? '').trim();
  const status = statuses.length > 0 ? statuses : defaultStatuses(kind, q);
  const assigned = unique(all('assigned_user_id'))
    .map((v) => (v === 'none' ? 'none' : positiveInt(v)))
    .filter((v): v is number | 'none' => v !== null);
  return {
    status,
    kind:
      kind === 'items'
        ? unique(all('kind')).filter((k): k is ItemKind => (ITEM_KINDS as readonly string[]).includes(k))
        : [],
    provider: unique(all('provider')).filter(isProviderId),
    object_id: ids(all('object_id')),
    tag_id: ids(all('tag_id')),
    assigned_user_id: assigned,
    author_id: positiveInt(params.get('author_id') ?? ''),
    created_at_from: seconds('created_at_from'),
    created_at_to: seconds('created_at_to'),
    close_reason: status.includes('closed')
      ? unique(all('close_reason')).filter((r): r is CloseReason =>
          (CLOSE_REASONS as readonly string[]).includes(r),
        )
      : [],
    q,
    source: ids(all('source')),
    sentiment: unique(all('sentiment')).filter((v): v is EmotionChoice =>
      (EMOTION_CHOICES as readonly string[]).includes(v),
    ),
  };
}

/** The filters as query values; the default status is left out, so a clean address means "defaults". */
export function filtersToQuery(filters: InboxFilters, kind: ListKind): RouteQuery {
  return {
    status: sameSet(filters.status, defaultStatuses(kind, filters.q)) ? undefined : filters.status,
    kind: kind === 'items' && filters.kind.length > 0 ? filters.kind : undefined,
    provider: filters.provider.length > 0 ? filters.provider : undefined,
    object_id: filters.object_id.length > 0 ? filters.object_id : undefined,
    tag_id: filters.tag_id.length > 0 ? filters.tag_id : undefined,
    assigned_user_id: filters.assigned_user_id.length > 0 ? filters.assigned_user_id.map(String) : undefined,
    author_id: filters.author_id ?? undefined,
    created_at_from: filters.created_at_from ?? undefined,
    created_at_to: filters.created_at_to ?? undefined,
    close_reason:
      filters.close_reason.length > 0 && filters.status.includes('closed') ? filters.close_reason : undefined,
    q: filters.q || undefined,
    source: filters.source.length > 0 ? filters.source : undefined,
    sentiment: filters.sentiment.length > 0 ? filters.sentiment : undefined,
  };
}

/** URLSearchParams for the address, keeping parameters that are not filters (locale, ...). */
export function filtersToSearch(
  filters: InboxFilters,
  kind: ListKind,
  keep?: URLSearchParams,
): URLSearchParams {
  const search = new URLSearchParams();
  if (keep) for (const [key, value] of keep) if (!filterKeys(kind).includes(key)) search.append(key, value);
  for (const [key, value] of Object.entries(filtersToQuery(filters, kind))) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) search.append(key, String(v));
    else search.append(key, String(value));
  }
  return search;
}

/** What GET /v1/items or /v1/chats gets: always an explicit status list. */
export function filtersToApiQuery(filters: InboxFilters, kind: ListKind, reversed = false): RouteQuery {
  return {
    ...filtersToQuery(filters, kind),
    status: filters.status,
    reversed: reversed ? 1 : undefined,
  };
}

/** How many filters differ from the defaults (docs/product/screens-and-routes.md: the filter button shows the number). */
export function countAppliedFilters(filters: InboxFilters, kind: ListKind): number {
  return Object.values(filtersToQuery(filters, kind)).filter((v) => v !== undefined).length;
}

/**
 * The applied-filter count of an address — what the list shows and what the top bar's filter button
 * shows (one parse, so both always agree: the default statuses, malformed ids or unknown statuses count
 * as nothing).
 */
export function countAppliedInSearch(search: string | URLSearchParams, kind: ListKind): number {
  return countAppliedFilters(parseFilters(search, kind), kind);
}

/** Stable per-list counters for the top bar's filter button (FilterSlot `count`). */
export const APPLIED_FILTER_COUNTERS: Record<ListKind, (search: string) => number> = {
  items: (search) => countAppliedInSearch(search, 'items'),
  chats: (search) => countAppliedInSearch(search, 'chats'),
};

/** A saved filter's query (docs/product/entities.md Saved filter), the same keys as the address. */
export function savedQueryOf(filters: InboxFilters, kind: ListKind): Record<string, unknown> {
  return Object.fromEntries(Object.entries(filtersToQuery(filters, kind)).filter(([, v]) => v !== undefined));
}

/** Filters from a saved query (values may be strings, numbers or lists of them). */
export function filtersFromSaved(query: Record<string, unknown>, kind: ListKind): InboxFilters {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const list = Array.isArray(value) ? value : [value];
    for (const v of list) if (typeof v === 'string' || typeof v === 'number') search.append(key, String(v));
  }
  return parseFilters(search, kind);
}

export const EMPTY_FILTERS = (kind: ListKind): InboxFilters => parseFilters('', kind);

type Row = Pick<InboxItem, 'status' | 'object_id' | 'tags' | 'assigned_user_id' | 'created_at'> & {
  close_reason?: CloseReason | null;
  sentiment?: string | null;
  emotion?: string | null;
  provider?: string;
  kind?: ItemKind;
  author?: { id: number } | null;
};

/**
 * Whether a row pushed over the socket belongs in the open list. A text search can't be checked here
 * (the server's full-text rules), so a list filtered by text takes no live rows: 'unknown'.
 */
export function rowMatches(filters: InboxFilters, row: Row, kind: ListKind): boolean | 'unknown' {
  if (!filters.status.includes(row.status)) return false;
  if (kind === 'items' && filters.kind.length > 0 && row.kind && !filters.kind.includes(row.kind))
    return false;
  if (filters.provider.length > 0 && (!row.provider || !filters.provider.includes(row.provider)))
    return false;
  if (filters.object_id.length > 0 && !filters.object_id.includes(row.object_id)) return false;
  if (filters.source.length > 0 && !filters.source.includes(row.object_id)) return false;
  if (filters.tag_id.length > 0 && !row.tags.some((tag) => filters.tag_id.includes(tag))) return false;
  if (filters.assigned_user_id.length > 0) {
    const assigned = row.assigned_user_id ?? 'none';
    if (!filters.assigned_user_id.includes(assigned)) return false;
  }
  if (filters.author_id !== null && row.author?.id !== filters.author_id) return false;
  if (filters.created_at_from !== null && row.created_at < filters.created_at_from) return false;
  if (filters.created_at_to !== null && row.created_at > filters.created_at_to) return false;
  // The server's close_reason filter narrows the closed rows only (queries.ts); other statuses stay.
  if (
    filters.close_reason.length > 0 &&
    row.status === 'closed' &&
    (!row.close_reason || !filters.close_reason.includes(row.close_reason))
  )
    return false;
  if (
    filters.sentiment.length > 0 &&
    !filters.sentiment.some((v) => (v === 'anger' ? row.emotion === 'anger' : row.sentiment === v))
  )
    return false;
  if (filters.q) return 'unknown';
  return true;
}

/** yyyy-mm-dd (local) ↔ unix seconds for the date-range inputs: "from" is the day's start, "to" its end. */
export function dayToSeconds(day: string, edge: 'start' | 'end'): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (Number.isNaN(date.getTime())) return null;
  if (edge === 'end') date.setHours(23, 59, 59, 0);
  return Math.floor(date.getTime() / 1000);
}

export function secondsToDay(seconds: number | null): string {
  if (seconds === null) return '';
  const d = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
