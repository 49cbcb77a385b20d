import { EXPORT_STATUSES, type ExportKind, type Locale, type MessageKey, translate } from '@otklik/shared';
import { type SQL, sql } from 'drizzle-orm';
import { chatListQuery, itemListQuery } from '../inbox/read/list-params';
import { chatFilters, itemFilters } from '../inbox/read/queries';
import { type InboxScope, scopeCondition } from '../inbox/read/scope';

// What a raw-rows export reads (exports.ts runs it): the columns of each kind — a message key for the
// title and the SQL of the value, dates in the space's timezone — and the FROM / WHERE / window joins
// built from the inbox list's own filters inside the caller's scope.

const ts = (column: string) => `to_char(${column} AT TIME ZONE $TZ, 'YYYY-MM-DD HH24:MI:SS')`;
// The author's name is looked up per row of the window (authors_pkey), never by hashing the whole authors
// table, which holds every space's customers: a window reads only its own authors.
const authorOf = (column: string) => `(SELECT au.name FROM authors au WHERE au.id = ${column})`;

export const COLUMNS: Record<ExportKind, Array<[string, string]>> = {
  items: [
    ['id', 'items.id::float8'],
    ['created_at', ts('items.created_at')],
    ['network', 'o.provider'],
    ['account', 'o.name'],
    ['kind', 'items.kind'],
    ['status', 'items.status'],
    ['close_reason', 'items.close_reason'],
    ['author', authorOf('items.author_id')],
    ['text', 'items.text'],
    ['rating', 'items.rating::float8'],
    ['url', 'items.url'],
    ['post_id', 'items.post_id::float8'],
    ['assigned_to', 'u.name'],
    ['tags', 'tg.names'],
    ['first_reply_at', ts('items.first_reply_at')],
    ['closed_at', ts('items.closed_at')],
  ],
  replies: [
    ['id', 'items.id::float8'],
    ['created_at', ts('items.created_at')],
    ['network', 'o.provider'],
    ['account', 'o.name'],
    ['kind', 'items.kind'],
    ['parent_id', 'items.parent_id::float8'],
    ['user', 'u.name'],
    ['text', 'items.text'],
    ['delivery', 'items.delivery'],
    ['url', 'items.url'],
  ],
  chats: [
    ['id', 'chats.id::float8'],
    ['created_at', ts('chats.created_at')],
    ['last_message_at', ts('chats.last_message_at')],
    ['network', 'o.provider'],
    ['account', 'o.name'],
    ['author', authorOf('chats.author_id')],
    ['status', 'chats.status'],
    ['close_reason', 'chats.close_reason'],
    ['assigned_to', 'u.name'],
    ['tags', 'tg.names'],
    ['first_reply_at', ts('chats.first_reply_at')],
    ['closed_at', ts('chats.closed_at')],
    ['last_message', 'chats.last_message_text'],
  ],
  messages: [
    ['id', 'm.id::float8'],
    ['chat_id', 'm.chat_id::float8'],
    ['created_at', ts('m.created_at')],
    ['network', 'o.provider'],
    ['account', 'o.name'],
    ['is_own', 'm.is_own::int::float8'],
    ['author', `CASE WHEN m.is_own THEN NULL ELSE ${authorOf('chats.author_id')} END`],
    ['user', 'u.name'],
    ['text', 'm.text'],
    ['delivery', 'm.delivery'],
  ],
};

export const exportHeader = (kind: ExportKind, locale: Locale) =>
  COLUMNS[kind].map(([key]) => translate(locale, `export.col.${key}` as MessageKey));

export const select = (kind: ExportKind, timezone: string) =>
  sql.raw(
    COLUMNS[kind]
      .map(([, expr], i) => `${expr.replaceAll('$TZ', `'${timezone.replaceAll("'", "''")}'`)} AS c${i}`)
      .join(', '),
  );

/**
 * The tags of the window's units (`tg.names`, comma-separated by name): the window's range of the tag
 * table's primary key read once and grouped, instead of a sub-select per row.
 */
function windowTags(unit: 'item' | 'chat', after: number, upper: number): SQL {
  const table = sql.raw(unit === 'item' ? 'item_tags' : 'chat_tags');
  const column = sql.raw(unit === 'item' ? 'item_id' : 'chat_id');
  const id = sql.raw(unit === 'item' ? 'items.id' : 'chats.id');
  return sql`LEFT JOIN (SELECT x.${column} AS unit_id, string_agg(t.name, ', ' ORDER BY t.name) AS names
      FROM ${table} x JOIN tags t ON t.id = x.tag_id
      WHERE x.${column} > ${after} AND x.${column} <= ${upper} GROUP BY x.${column}) tg ON tg.unit_id = ${id}`;
}

/**
 * The FROM, WHERE and id column of an export: the inbox list's own filters (list-params.ts parsing,
 * queries.ts conditions) inside the scope. Items are customer items, replies our own items (no status:
 * a reply has none of its own); dialogs by their last message as in the inbox list; messages by their
 * own time, of dialogs matching the dialog filters. `window` adds the joins a window of rows reads.
 */
export function sourceOf(kind: ExportKind, filters: Record<string, unknown>, scope: InboxScope) {
  if (kind === 'items' || kind === 'replies') {
    const p = itemListQuery.parse(kind === 'replies' ? { ...filters, status: undefined } : filters);
    const own = kind === 'replies';
    const where = sql`${scopeCondition(scope, sql.raw('items.space_id') as never, sql.raw('items.object_id') as never)}
      AND items.is_own = ${own} AND ${itemFilters(own ? { ...p, status: [...EXPORT_STATUSES] } : p)}
      ${own ? sql`` : sql`AND items.status = ANY(${sql.param(p.status)}::text[])`}`;
    return {
      from: sql.raw(`items JOIN objects o ON o.id = items.object_id
        LEFT JOIN users u ON u.id = ${own ? 'items.user_id' : 'items.assigned_user_id'}`),
      window: (after: number, upper: number) => (own ? sql`` : windowTags('item', after, upper)),
      where,
      id: sql.raw('items.id'),
    };
  }
  if (kind === 'chats') {
    const p = chatListQuery.parse(filters);
    return {
      from: sql.raw(`chats JOIN objects o ON o.id = chats.object_id
        LEFT JOIN users u ON u.id = chats.assigned_user_id`),
      window: (after: number, upper: number) => windowTags('chat', after, upper),
      where: sql`${scopeCondition(scope, sql.raw('chats.space_id') as never, sql.raw('chats.object_id') as never)}
        AND chats.status = ANY(${sql.param(p.status)}::text[]) AND ${chatFilters(p)}`,
      id: sql.raw('chats.id'),
    };
  }
  const { created_at_from, created_at_to, ...chatOnly } = filters;
  const p = chatListQuery.parse(chatOnly);
  const range = itemListQuery.parse({ created_at_from, created_at_to, status: [...EXPORT_STATUSES] });
  return {
    from: sql.raw(`messages m JOIN chats ON chats.id = m.chat_id JOIN objects o ON o.id = chats.object_id
      LEFT JOIN users u ON u.id = m.user_id`),
    window: () => sql``,
    where: sql`${scopeCondition(scope, sql.raw('m.space_id') as never, sql.raw('chats.object_id') as never)}
      AND chats.status = ANY(${sql.param(p.status)}::text[]) AND ${chatFilters(p)}
      ${range.created_at_from ? sql`AND m.created_at >= ${range.created_at_from.toISOString()}::timestamptz` : sql``}
      ${range.created_at_to ? sql`AND m.created_at < ${new Date(range.created_at_to.getTime() + 1000).toISOString()}::timestamptz` : sql``}`,
    id: sql.raw('m.id'),
  };
}
