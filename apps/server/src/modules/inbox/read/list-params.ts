import {
  CLOSE_REASONS,
  DEFAULT_CHAT_STATUSES,
  DEFAULT_ITEM_STATUSES,
  EMOTION_CHOICES,
  INBOX_STATUSES,
  type InboxStatus,
  ITEM_KINDS,
  PROVIDER_IDS,
} from '@otklik/shared';
import { z } from 'zod';

// Query parameters of the inbox lists (GET /v1/items, /v1/chats, /v1/chats/:id/messages, /v1/search).
// Validation messages are message keys, so a bad value answers 400 in the caller's locale.

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_SEARCH_SIZE = 20;
export const MAX_SEARCH_SIZE = 100;
const MAX_ARRAY = 100;

const invalid = { message: 'field.invalid' } as const;

/**
 * An array query parameter. The querystring parser (http/querystring.ts) gives `a=1&a=2` and `a[]=1`
 * as arrays but a lone `a=1` as a string, so one value is wrapped here.
 */
export function queryArray<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (value) => (value === undefined || value === '' ? undefined : Array.isArray(value) ? value : [value]),
    z.array(item).min(1, invalid).max(MAX_ARRAY, invalid).optional(),
  );
}

const id = z.coerce
  .number(invalid)
  .int(invalid)
  .positive(invalid)
  .max(2 ** 53 - 1, invalid);
const unixSeconds = z.coerce
  .number(invalid)
  .int(invalid)
  .min(0, invalid)
  .max(32_503_680_000, invalid)
  .transform((s) => new Date(s * 1000));
const flag = z
  .enum(['0', '1', 'true', 'false'], invalid)
  .optional()
  .transform((v) => v === '1' || v === 'true');
const limit = (fallback: number, max: number) =>
  z.coerce.number(invalid).int(invalid).min(1, invalid).max(max, invalid).default(fallback);
/** Full-text query; blank means "no text filter". */
const textQuery = z
  .string()
  .trim()
  .max(500, { message: 'field.tooLong' })
  .optional()
  .transform((v) => v || undefined);

/**
 * Keyset pagination cursor: the sort key of the last row shown (its timestamp to the microsecond, as
 * PostgreSQL stores it, and its id), opaque to clients. Microseconds matter: rows written by SQL carry
 * them, and a cursor rounded to milliseconds would skip rows that share the millisecond.
 */
export interface Cursor {
  /** UTC timestamp `YYYY-MM-DDTHH:MI:SS.USZ`, compared as timestamptz. */
  at: string;
  id: number;
}

const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.at}~${cursor.id}`).toString('base64url');
}

export function decodeCursor(raw: string): Cursor | null {
  const [at, idText, ...rest] = Buffer.from(raw, 'base64url').toString('utf8').split('~');
  if (rest.length > 0 || !at || !idText || !CURSOR_AT.test(at) || !/^\d{1,16}$/.test(idText)) return null;
  return { at, id: Number(idText) };
}

const cursor = z
  .string()
  .max(200, invalid)
  .optional()
  .transform((raw, ctx) => {
    if (!raw) return undefined;
    const decoded = decodeCursor(raw);
    if (!decoded) {
      ctx.issues.push({ code: 'custom', message: 'field.invalid', input: raw });
      return z.NEVER;
    }
    return decoded;
  });

/** Filters shared by the comment and chat lists (docs/product/screens-and-routes.md saved-filter query: status, dates, provider, ...). */
const commonListFilters = {
  provider: queryArray(z.enum(PROVIDER_IDS, invalid)),
  object_id: queryArray(id),
  /**
   * docs/product/screens-and-routes.md: a saved filter's query can carry `source` — the connected accounts (review sources,
   * networks, messengers) the list comes from. It narrows like object_id; with both, the list is
   * their intersection (foldSource).
   */
  source: queryArray(id),
  tag_id: queryArray(id),
  /** User ids, and `none` for "not assigned to anybody". */
  assigned_user_id: queryArray(z.union([z.literal('none'), id])),
  author_id: id.optional(),
  created_at_from: unixSeconds.optional(),
  created_at_to: unixSeconds.optional(),
  close_reason: queryArray(z.enum(CLOSE_REASONS, invalid)),
  q: textQuery,
  /** reversed=1: oldest first (the user setting `reversed`, docs/product/entities.md). */
  reversed: flag,
  limit: limit(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
  before: cursor,
};

/**
 * The statuses a list covers. Without a `status` parameter: docs/product/limits.md's default queue — except for a text
 * search, which covers every status (issue 13: a search found only new and in-progress rows, silently).
 * An explicit `status` always wins.
 */
function withStatuses(fallback: readonly InboxStatus[], searched: readonly InboxStatus[]) {
  return <P extends { status?: InboxStatus[]; q?: string }>(p: P) => ({
    ...p,
    status: [...new Set(p.status ?? (p.q ? searched : fallback))],
  });
}

/** Every status a text search covers by default; chats are never 'deleted'. */
export const SEARCH_ITEM_STATUSES = INBOX_STATUSES;
export const SEARCH_CHAT_STATUSES = INBOX_STATUSES.filter((status) => status !== 'deleted');

const statusFilter = queryArray(z.enum(INBOX_STATUSES, invalid));

export const itemListQuery = z
  .object({
    ...commonListFilters,
    // docs/product/limits.md: the default status filter is new and inprogress.
    status: statusFilter,
    kind: queryArray(z.enum(ITEM_KINDS, invalid)),
    /** Emotions (issue 21): a sentiment, or `anger`; several values widen the list. */
    sentiment: queryArray(z.enum(EMOTION_CHOICES, invalid)),
  })
  .transform(withStatuses(DEFAULT_ITEM_STATUSES, SEARCH_ITEM_STATUSES));

/** `source` folded into object_id, so the queries and the page cache know one account filter. */
export function foldSource<T extends { object_id?: number[]; source?: number[] }>(p: T): T {
  if (!p.source) return p;
  // An empty intersection must list nothing: no account has id 0.
  const both = p.object_id ? p.object_id.filter((v) => p.source!.includes(v)) : p.source;
  return { ...p, object_id: both.length > 0 ? both : [0], source: undefined };
}
export type ItemListParams = z.output<typeof itemListQuery>;

export const chatListQuery = z
  .object({
    ...commonListFilters,
    // docs/product/limits.md: chats add open to the default status filter.
    status: statusFilter,
    /** Emotions (issue 21): of the customer's latest message; a sentiment, or `anger`. */
    sentiment: queryArray(z.enum(EMOTION_CHOICES, invalid)),
  })
  .transform(withStatuses(DEFAULT_CHAT_STATUSES, SEARCH_CHAT_STATUSES));
export type ChatListParams = z.output<typeof chatListQuery>;

export const messagePageQuery = z.object({
  limit: limit(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
  before: cursor,
});
export type MessagePageParams = z.output<typeof messagePageQuery>;

export const searchQuery = z.object({
  q: z.string().trim().min(1, { message: 'field.required' }).max(500, { message: 'field.tooLong' }),
  limit: limit(DEFAULT_SEARCH_SIZE, MAX_SEARCH_SIZE),
});
export type SearchParams = z.output<typeof searchQuery>;

export const idParams = z.object({ id });
