import { type EmotionChoice, MATCH_END, MATCH_START, type Sentiment } from '@otklik/shared';
import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gt,
  gte,
  inArray,
  isNull,
  lt,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database, Db } from '../../../db/client';
import { type BuiltStatement, KeptStatements } from '../../../db/rows';
import {
  authors,
  chats,
  chatTags,
  type InboxStatus,
  items,
  itemTags,
  messages,
  objects,
  posts,
} from '../../../db/schema';
import type { SnapshotCache, StoredAnswer } from '../../../lib/snapshot-cache';
import { CHAT_JSON, ITEM_JSON, PAGE_META, pageJson } from './list-json';
import type { ChatListParams, Cursor, ItemListParams, MessagePageParams } from './list-params';
import { encodeCursor } from './list-params';
import { type InboxScope, scopeCondition } from './scope';

// The inbox's read queries. Every list takes an InboxScope (scope.ts) and limits rows with it, so a
// filter from the request can only narrow what the caller may see, never widen it. The hot ones are
// written out as SQL so a reviewer sees exactly which index each part uses.

export type ItemRow = typeof items.$inferSelect;
export type ChatRow = typeof chats.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type AuthorRow = typeof authors.$inferSelect;

export interface Page<T> {
  rows: T[];
  /** Cursor for the next page (`before=`), null on the last page. */
  next: string | null;
}

// Lists never read the tsvector: it is only ever used inside WHERE, and shipping it costs bytes and
// tsvector-to-text work per row. Rows get `search: null` so they still fit the presenters' row type.
const { search: _itemSearch, ...itemColumns } = getTableColumns(items);
const { search: _messageSearch, ...messageColumns } = getTableColumns(messages);
const noSearch = <T extends object>(row: T) => ({ ...row, search: null });

/** The exact stored timestamp (microseconds, UTC) of a sort column, for the next-page cursor. */
const cursorText = (column: AnyPgColumn) =>
  sql<string>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
/** The same for a column of a list's aliased table (`i.created_at`). */
const cursorOf = (column: string) =>
  sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

/**
 * Rows strictly after the cursor in list order. Written as `at <= x AND (at < x OR id < y)` rather than
 * a row comparison so the first half is a plain range bound on the (…, at, id) indexes.
 */
function pastCursor(at: AnyPgColumn, id: AnyPgColumn, cursor: Cursor, reversed: boolean): SQL {
  const ts = sql`${cursor.at}::timestamptz`;
  return reversed
    ? sql`(${at} >= ${ts} AND (${at} > ${ts} OR ${id} > ${cursor.id}))`
    : sql`(${at} <= ${ts} AND (${at} < ${ts} OR ${id} < ${cursor.id}))`;
}

/**
 * List order spelled to match the list indexes exactly. Drizzle declares `.desc()` index columns as
 * DESC NULLS LAST, and PostgreSQL reads an index in order only for the same NULLS placement (it does
 * not use NOT NULL to ignore it): a plain `ORDER BY … DESC` (NULLS FIRST) sorts every candidate row
 * instead — 50 ms rather than 0.1 ms per status on the benchmark's million items. Read backwards,
 * such an index gives ASC NULLS FIRST.
 */
const listOrder = (reversed: boolean) => sql.raw(reversed ? 'ASC NULLS FIRST' : 'DESC NULLS LAST');

/**
 * `column = ANY($1::bigint[])`: one array parameter for a page's worth of ids. drizzle's inArray adds a
 * parameter per value, and building those costs more CPU per request than the query itself.
 */
const anyId = (column: AnyPgColumn, ids: number[]) => sql`${column} = ANY(${sql.param(ids)}::bigint[])`;

/** The RU + EN query of a text search; the stored tsvector is built from both configurations. */
const textQuery = (q: string) =>
  sql`(websearch_to_tsquery('russian', ${q}) || websearch_to_tsquery('english', ${q}))`;

/** RU + EN full-text match (schema/inbox.ts `search`). */
const matchesText = (vector: AnyPgColumn, q: string) => sql`${vector} @@ ${textQuery(q)}`;

/**
 * The passage of `text` around the words `q` found, those words between MATCH_START and MATCH_END.
 * The `russian` configuration stems Latin words with the English stemmer, so one headline serves both.
 */
const HEADLINE_OPTIONS = `MaxFragments=1, MaxWords=24, MinWords=10, FragmentDelimiter=" … ", StartSel=${MATCH_START}, StopSel=${MATCH_END}`;
const headline = (text: string, q: string) =>
  sql.raw(`ts_headline('russian', ${text}, `).append(sql`${textQuery(q)}, ${HEADLINE_OPTIONS})`);

/** A page row's JSON with `match` added when the list is searched: `{ text, message_id?, is_own? }`. */
const withMatch = (json: SQL, match: SQL) =>
  sql`(${json}::jsonb || jsonb_build_object('match', ${match}))::text`;

/** Above this many parts the per-account split stops paying for itself; lists merge per space then. */
const MAX_SPLIT_PARTS = 64;

/**
 * The parts a list merges, each meant to be one index range read in order: one per space of the
 * scope, or one per (space, account) when the request names a few accounts, so an index led by
 * (space_id, object_id, status, created_at, id) can serve each part in order (without one, PostgreSQL
 * combines items_queue_idx with the account index per part — correct, slower on wide date ranges).
 * Every part carries the scope condition of its space.
 */
function mergeParts(
  scope: InboxScope,
  spaceColumn: AnyPgColumn,
  objectColumn: AnyPgColumn,
  requestedObjectIds: number[] | undefined,
  statusCount: number,
): SQL[] {
  const perSpace = [...scope.spaces].filter(([, objectIds]) => objectIds === null || objectIds.length > 0);
  const inSpace = (spaceId: number, objectIds: number[] | null) =>
    scopeCondition({ spaces: new Map([[spaceId, objectIds]]) }, spaceColumn, objectColumn);
  const split =
    requestedObjectIds && perSpace.length * requestedObjectIds.length * statusCount <= MAX_SPLIT_PARTS;
  if (!split) return perSpace.map(([spaceId, objectIds]) => inSpace(spaceId, objectIds));
  return perSpace.flatMap(([spaceId, objectIds]) =>
    requestedObjectIds
      .filter((id) => objectIds === null || objectIds.includes(id))
      .map((id) => sql`${inSpace(spaceId, objectIds)} AND ${eq(objectColumn, id)}`),
  );
}

/**
 * The ids of a list page (itemPageSql, chatPageSql): per part of the scope (mergeParts) and status, a
 * sub-select that walks the list's queue index in `at` order and stops after `limit + 1` rows; the
 * outer query merges those few rows. null when the scope leaves nothing to read.
 */
function mergedPageIds(
  list: typeof items | typeof chats,
  at: AnyPgColumn,
  scope: InboxScope,
  p: { object_id?: number[]; status: InboxStatus[]; limit: number; reversed: boolean },
  where: SQL,
): SQL | null {
  const take = p.limit + 1;
  const dir = listOrder(p.reversed);
  const parts = mergeParts(scope, list.spaceId, list.objectId, p.object_id, p.status.length);
  const branches = parts.flatMap((part) =>
    p.status.map(
      (status) => sql`(SELECT ${list.id}, ${at} FROM ${list}
        WHERE ${part} AND ${list.status} = ${status} AND ${where}
        ORDER BY ${at} ${dir}, ${list.id} ${dir} LIMIT ${take})`,
    ),
  );
  if (branches.length === 0) return null;
  return sql`SELECT page.id FROM (${sql.join(branches, sql` UNION ALL `)}) AS page
    ORDER BY page.${sql.raw(at.name)} ${dir}, page.id ${dir} LIMIT ${take}`;
}

function toPage<T extends { id: number; cursorAt: string }>(rows: T[], limit: number): Page<T> {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    rows: shown,
    next: rows.length > limit && last ? encodeCursor({ at: last.cursorAt, id: last.id }) : null,
  };
}

function assignedTo(column: AnyPgColumn, values: Array<number | 'none'>): SQL | undefined {
  const ids = values.filter((v): v is number => v !== 'none');
  return or(
    ids.length > 0 ? inArray(column, ids) : undefined,
    values.includes('none') ? isNull(column) : undefined,
  );
}

const providerObjects = (objectColumn: AnyPgColumn, providers: string[]) =>
  sql`${objectColumn} IN (SELECT ${objects.id} FROM ${objects} WHERE ${inArray(objects.provider, providers)})`;

/** The emotion filter: sentiments by value, `anger` by the category (docs/product/emotions.md). */
function emotionIs(sentiment: AnyPgColumn, emotion: AnyPgColumn, values: readonly EmotionChoice[]) {
  const sentiments = values.filter((v): v is Sentiment => v !== 'anger');
  return or(
    sentiments.length > 0 ? inArray(sentiment, sentiments) : undefined,
    values.includes('anger') ? eq(emotion, 'anger') : undefined,
  );
}

// ---------------------------------------------------------------------------------------------------
// Comments, reviews, mentions

export function itemFilters(p: ItemListParams): SQL {
  const where: Array<SQL | undefined> = [
    p.kind && inArray(items.kind, p.kind),
    p.sentiment && emotionIs(items.sentiment, items.emotion, p.sentiment),
    p.object_id && inArray(items.objectId, p.object_id),
    p.provider && providerObjects(items.objectId, p.provider),
    p.tag_id &&
      sql`EXISTS (SELECT 1 FROM ${itemTags} WHERE ${itemTags.itemId} = ${items.id} AND ${inArray(itemTags.tagId, p.tag_id)})`,
    p.assigned_user_id && assignedTo(items.assignedUserId, p.assigned_user_id),
    p.author_id !== undefined ? eq(items.authorId, p.author_id) : undefined,
    p.created_at_from && gte(items.createdAt, p.created_at_from),
    // The "to" second is included whole.
    p.created_at_to && lt(items.createdAt, new Date(p.created_at_to.getTime() + 1000)),
    // How it was closed narrows the closed rows only: `new` + `closed` without reply keeps the new ones.
    p.close_reason && or(ne(items.status, 'closed'), inArray(items.closeReason, p.close_reason)),
    p.q ? matchesText(items.search, p.q) : undefined,
    p.before && pastCursor(items.createdAt, items.id, p.before, p.reversed),
  ];
  return and(...where) ?? sql`TRUE`;
}

/**
 * GET /v1/items: customer items (never our own replies) in the caller's scope, newest first.
 *
 * A plain `WHERE status IN ('new','inprogress') ORDER BY created_at DESC LIMIT 50` over a million rows
 * can't read one index in order (the index is per status), so PostgreSQL would collect and sort every
 * open item. Instead each (space, status) pair gets its own sub-select that walks items_queue_idx
 * (space_id, status, created_at DESC, id DESC) WHERE NOT is_own and stops after `limit + 1` rows; the
 * outer query merges those few rows. Cost grows with the page size, not with the table. (With an
 * object_id filter the pairs become (space, account, status) triples: mergeParts.)
 *
 *   SELECT page.id FROM (
 *     (SELECT id, created_at FROM items
 *       WHERE space_id = $space AND status = 'new' AND NOT is_own AND <filters> AND <after cursor>
 *       ORDER BY created_at DESC, id DESC LIMIT 51)
 *     UNION ALL
 *     (SELECT ... status = 'inprogress' ...)
 *   ) AS page ORDER BY created_at DESC, id DESC LIMIT 51
 *
 * The full rows of the page are then read by primary key in the same statement.
 */
export function itemPageSql(scope: InboxScope, p: ItemListParams): SQL | null {
  const pageIds = mergedPageIds(
    items,
    items.createdAt,
    scope,
    p,
    sql`NOT ${items.isOwn} AND ${itemFilters(p)}`,
  );
  if (!pageIds) return null;
  const dir = listOrder(p.reversed);
  const json = p.q
    ? withMatch(ITEM_JSON, sql`jsonb_build_object('text', ${headline('i.text', p.q)})`)
    : ITEM_JSON;
  return sql`SELECT ${json} AS j, ${cursorOf('i.created_at')} AS cursor_at, i.id, ${PAGE_META}
    FROM items i JOIN objects o ON o.id = i.object_id LEFT JOIN authors a ON a.id = i.author_id
    WHERE i.id IN (${pageIds})
    ORDER BY i.created_at ${dir}, i.id ${dir}`;
}

/** Parameters that only page through a list view, as opposed to filtering it. */
const PAGING_ONLY = new Set(['status', 'limit', 'before', 'reversed']);

/** Statements of recent list requests, by page key (the list kind, the caller's scope, the parsed query). */
const pageStatements = new KeptStatements(256);

/** A list page as the JSON the route sends: rows written by PostgreSQL (list-json.ts), and `next`. */
async function loadPage(
  database: Database,
  statement: BuiltStatement | null,
  p: { limit: number },
): Promise<StoredAnswer> {
  if (!statement) return { body: Buffer.from(pageJson([], null)), snapshot: null, changesAt: null };
  const params = statement.params as unknown[];
  // The unfiltered views — what most requests ask for — run as named prepared statements, so the server
  // plans them once per connection; filtered ones vary too much in shape to keep prepared.
  const unfiltered = Object.entries(p).every(([key, value]) => value === undefined || PAGING_ONLY.has(key));
  const result = unfiltered
    ? await database.queryPrepared<ListRowJson>(statement.name, statement.text, params)
    : await database.query<ListRowJson>(statement.text, params);
  const page = toPage(
    result.rows.map((r) => ({ id: Number(r.id), cursorAt: r.cursor_at, j: r.j })),
    p.limit,
  );
  const blockEnds = result.rows.flatMap((r) => (r.block_ends_ms === null ? [] : [Number(r.block_ends_ms)]));
  return {
    body: Buffer.from(
      pageJson(
        page.rows.map((r) => r.j),
        page.next,
      ),
    ),
    snapshot: result.rows[0]?.snapshot ?? null,
    changesAt: blockEnds.length > 0 ? Math.min(...blockEnds) : null,
  };
}

interface ListRowJson {
  j: string;
  cursor_at: string;
  id: string | number;
  snapshot: string;
  block_ends_ms: string | number | null;
}

/** Where list pages may be reused (lib/snapshot-cache.ts): the cache and the caller's database snapshot. */
export interface PageReuse {
  cache: SnapshotCache;
  snapshot: string | undefined;
}

export const pageKey = (kind: string, scope: InboxScope, p: object) =>
  JSON.stringify([kind, [...scope.spaces].sort(([a], [b]) => a - b), p]);

/** A list page (items or chats), reused from `reuse.cache` while the database is unchanged. */
async function servePage<P extends { limit: number }>(
  database: Database,
  kind: 'items' | 'chats',
  build: (scope: InboxScope, p: P) => SQL | null,
  scope: InboxScope,
  p: P,
  reuse?: PageReuse,
): Promise<Buffer> {
  const key = pageKey(kind, scope, p);
  const load = () =>
    loadPage(
      database,
      pageStatements.get(key, () => build(scope, p)),
      p,
    );
  return reuse ? reuse.cache.answer(key, reuse.snapshot, load) : (await load()).body;
}

export const findItemsJson = (database: Database, scope: InboxScope, p: ItemListParams, reuse?: PageReuse) =>
  servePage(database, 'items', itemPageSql, scope, p, reuse);

export async function getItemById(db: Db, id: number): Promise<ItemRow | null> {
  const [row] = await db.select(itemColumns).from(items).where(eq(items.id, id)).limit(1);
  return row ? noSearch(row) : null;
}

export async function getPost(db: Db, id: number) {
  const [row] = await db.select().from(posts).where(eq(posts.id, id)).limit(1);
  return row ?? null;
}

const THREAD_MAX_DEPTH = 10;
const THREAD_MAX_ROWS = 500;

/**
 * Every reply under an item (replies to replies too), ours included, oldest first. Walks
 * items_parent_idx; stays inside the item's account, and the depth cap ends a cycle a network's
 * data might contain.
 */
export async function findItemThread(db: Db, item: Pick<ItemRow, 'id' | 'objectId'>): Promise<ItemRow[]> {
  const rows = await db
    .select(itemColumns)
    .from(items)
    .where(
      sql`${items.id} IN (
        WITH RECURSIVE thread(id, depth) AS (
          SELECT id, 1 FROM items WHERE parent_id = ${item.id} AND object_id = ${item.objectId}
          UNION ALL
          SELECT child.id, thread.depth + 1 FROM items AS child JOIN thread ON child.parent_id = thread.id
          WHERE child.object_id = ${item.objectId} AND thread.depth < ${THREAD_MAX_DEPTH}
        ) SELECT id FROM thread)`,
    )
    .orderBy(asc(items.createdAt), asc(items.id))
    .limit(THREAD_MAX_ROWS);
  return rows.map(noSearch);
}

// ---------------------------------------------------------------------------------------------------
// Chats (private messages)

export function chatFilters(p: ChatListParams): SQL {
  const where: Array<SQL | undefined> = [
    p.object_id && inArray(chats.objectId, p.object_id),
    p.sentiment && emotionIs(chats.lastSentiment, chats.lastEmotion, p.sentiment),
    p.provider && providerObjects(chats.objectId, p.provider),
    p.tag_id &&
      sql`EXISTS (SELECT 1 FROM ${chatTags} WHERE ${chatTags.chatId} = ${chats.id} AND ${inArray(chatTags.tagId, p.tag_id)})`,
    p.assigned_user_id && assignedTo(chats.assignedUserId, p.assigned_user_id),
    p.author_id !== undefined ? eq(chats.authorId, p.author_id) : undefined,
    // A chat's date is its last message: the list is sorted by it, and the range then uses the index.
    p.created_at_from && gte(chats.lastMessageAt, p.created_at_from),
    p.created_at_to && lt(chats.lastMessageAt, new Date(p.created_at_to.getTime() + 1000)),
    p.close_reason && or(ne(chats.status, 'closed'), inArray(chats.closeReason, p.close_reason)),
    p.q
      ? sql`EXISTS (SELECT 1 FROM ${messages} WHERE ${messages.chatId} = ${chats.id} AND ${matchesText(messages.search, p.q)})`
      : undefined,
    p.before && pastCursor(chats.lastMessageAt, chats.id, p.before, p.reversed),
  ];
  return and(...where) ?? sql`TRUE`;
}

/**
 * GET /v1/chats: the same per-(space, status) merge as findItems, over chats_queue_idx
 * (space_id, status, last_message_at DESC, id DESC):
 *
 *   SELECT page.id FROM (
 *     (SELECT id, last_message_at FROM chats WHERE space_id = $space AND status = 'new' AND <filters>
 *       ORDER BY last_message_at DESC, id DESC LIMIT 51)
 *     UNION ALL (... 'inprogress' ...) UNION ALL (... 'open' ...)
 *   ) AS page ORDER BY last_message_at DESC, id DESC LIMIT 51
 */
export function chatPageSql(scope: InboxScope, p: ChatListParams): SQL | null {
  const pageIds = mergedPageIds(chats, chats.lastMessageAt, scope, p, chatFilters(p));
  if (!pageIds) return null;
  const dir = listOrder(p.reversed);
  // Searched: the newest message that matched, as the row's passage (not the chat's last message).
  const json = p.q
    ? withMatch(
        CHAT_JSON,
        sql`(SELECT jsonb_build_object('text', ${headline('m.text', p.q)}, 'message_id', m.id, 'is_own', m.is_own)
          FROM messages m WHERE m.chat_id = c.id AND m.search @@ ${textQuery(p.q)}
          ORDER BY m.created_at DESC, m.id DESC LIMIT 1)`,
      )
    : CHAT_JSON;
  return sql`SELECT ${json} AS j, ${cursorOf('c.last_message_at')} AS cursor_at, c.id, ${PAGE_META}
    FROM chats c JOIN objects o ON o.id = c.object_id LEFT JOIN authors a ON a.id = c.author_id
    WHERE c.id IN (${pageIds})
    ORDER BY c.last_message_at ${dir}, c.id ${dir}`;
}

export const findChatsJson = (database: Database, scope: InboxScope, p: ChatListParams, reuse?: PageReuse) =>
  servePage(database, 'chats', chatPageSql, scope, p, reuse);

/**
 * One page of a chat's messages over messages_chat_idx (chat_id, created_at, id): the newest page
 * first, each page returned oldest → newest as a conversation reads; `next` leads to older messages.
 */
export async function findChatMessages(
  db: Db,
  chatId: number,
  p: MessagePageParams,
): Promise<Page<MessageRow>> {
  const rows = await db
    .select({ ...messageColumns, cursorAt: cursorText(messages.createdAt) })
    .from(messages)
    .where(
      and(
        eq(messages.chatId, chatId),
        p.before ? pastCursor(messages.createdAt, messages.id, p.before, false) : undefined,
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(p.limit + 1);
  const page = toPage(rows, p.limit);
  return { rows: page.rows.map(({ cursorAt: _c, ...row }) => noSearch(row)).reverse(), next: page.next };
}

/** Marks a chat read; the row is returned only when it had unread messages (nothing to announce otherwise). */
export async function markChatRead(db: Db, chatId: number): Promise<ChatRow | null> {
  const [row] = await db
    .update(chats)
    .set({ unreadCount: 0 })
    .where(and(eq(chats.id, chatId), gt(chats.unreadCount, 0)))
    .returning();
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------------
// Search (GET /v1/search): newest matches first, the GIN indexes on the stored tsvectors find them.

export function searchItemsQuery(db: Db, scope: InboxScope, q: string, limit: number) {
  return db
    .select(itemColumns)
    .from(items)
    .where(
      and(
        scopeCondition(scope, items.spaceId, items.objectId),
        sql`NOT ${items.isOwn}`,
        matchesText(items.search, q),
      ),
    )
    .orderBy(sql`${items.createdAt} ${listOrder(false)}`, sql`${items.id} ${listOrder(false)}`)
    .limit(limit);
}

export async function searchItems(db: Db, scope: InboxScope, q: string, limit: number): Promise<ItemRow[]> {
  return (await searchItemsQuery(db, scope, q, limit)).map(noSearch);
}

/** Messages are scoped through their chat (the account lives on the chat). */
export function searchMessagesQuery(db: Db, scope: InboxScope, q: string, limit: number) {
  return db
    .select(messageColumns)
    .from(messages)
    .innerJoin(chats, eq(chats.id, messages.chatId))
    .where(
      and(
        scopeCondition(scope, chats.spaceId, chats.objectId),
        inArray(messages.spaceId, [...scope.spaces.keys()]),
        matchesText(messages.search, q),
      ),
    )
    .orderBy(sql`${messages.createdAt} ${listOrder(false)}`, sql`${messages.id} ${listOrder(false)}`)
    .limit(limit);
}

export async function searchMessages(
  db: Db,
  scope: InboxScope,
  q: string,
  limit: number,
): Promise<MessageRow[]> {
  return (await searchMessagesQuery(db, scope, q, limit)).map(noSearch);
}

// ---------------------------------------------------------------------------------------------------
// What a page of rows needs beside itself: one query each, whatever the page size (no N+1).

/** Authors with their label ids. */
export async function loadAuthors(
  db: Db,
  ids: number[],
): Promise<Map<number, { author: AuthorRow; labels: number[] }>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({
      author: authors,
      labels: sql<
        number[]
      >`coalesce((SELECT array_agg(label_id ORDER BY label_id) FROM author_labels WHERE author_id = ${authors.id}), '{}')`,
    })
    .from(authors)
    .where(anyId(authors.id, unique));
  return new Map(rows.map((r) => [r.author.id, { author: r.author, labels: r.labels.map(Number) }]));
}

export async function loadItemTags(db: Db, itemIds: number[]): Promise<Map<number, number[]>> {
  if (itemIds.length === 0) return new Map();
  const rows = await db
    .select({ ownerId: itemTags.itemId, tagId: itemTags.tagId })
    .from(itemTags)
    .where(anyId(itemTags.itemId, itemIds))
    .orderBy(itemTags.itemId, itemTags.tagId);
  return groupTags(rows);
}

export async function loadChatTags(db: Db, chatIds: number[]): Promise<Map<number, number[]>> {
  if (chatIds.length === 0) return new Map();
  const rows = await db
    .select({ ownerId: chatTags.chatId, tagId: chatTags.tagId })
    .from(chatTags)
    .where(anyId(chatTags.chatId, chatIds))
    .orderBy(chatTags.chatId, chatTags.tagId);
  return groupTags(rows);
}

function groupTags(rows: Array<{ ownerId: number; tagId: number }>) {
  const byOwner = new Map<number, number[]>();
  for (const r of rows) byOwner.set(r.ownerId, [...(byOwner.get(r.ownerId) ?? []), r.tagId]);
  return byOwner;
}

/** Provider of each account on the page (the presenters show it beside each item/chat). */
export async function loadProviders(db: Db, objectIds: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(objectIds)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: objects.id, provider: objects.provider })
    .from(objects)
    .where(anyId(objects.id, unique));
  return new Map(rows.map((r) => [r.id, r.provider]));
}
