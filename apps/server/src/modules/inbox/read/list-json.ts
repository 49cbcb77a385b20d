import { sql } from 'drizzle-orm';

// List pages are the inbox's hottest reads, so PostgreSQL writes their JSON itself: each row of a page
// comes back as the finished JSON text of presentItem / presentChat (presenter.ts), and the route sends
// the page without mapping 50 rows × 30 columns into objects and serialising them again — several
// times less Node CPU per request (bench: `npm run bench -- inbox`). presenter.ts stays the definition
// of the shape; list-json.test.ts checks these builders against it field by field. Excerpts are stored
// columns (db/schema/inbox.ts excerptOf), so no row runs a regular expression on read.

/** Unix seconds, as presenter.ts `unix()` (floor; null stays null). */
const unix = (column: string) => `floor(date_part('epoch', ${column}))::bigint`;

/**
 * A JSON object of `[key, expression]` pairs, as `row_to_json` of a one-row sub-select: several times
 * cheaper per field than json_build_object (bench/inbox: the list statement's JSON was most of its
 * time), and compact (no spaces). date_part (double) rather than extract (numeric) for the same reason.
 */
const jsonRow = (alias: string, fields: Array<readonly [string, string]>) =>
  `(SELECT row_to_json(${alias}) FROM (SELECT ${fields.map(([key, expression]) => `${expression} AS "${key}"`).join(', ')}) ${alias})`;

/** presenter.ts `presentAuthor` over the row alias `a` (null when the row has no author). */
const AUTHOR_JSON = `CASE WHEN a.id IS NULL THEN NULL ELSE ${jsonRow('author_json', [
  ['id', 'a.id'],
  ['provider', 'a.provider'],
  ['external_id', 'a.external_id'],
  ['name', 'a.name'],
  ['screen_name', 'a.screen_name'],
  ['image', 'a.image'],
  ['url', 'a.url'],
  ['blocked_until', `CASE WHEN a.blocked_forever THEN NULL ELSE ${unix('a.blocked_until')} END`],
  ['blocked_forever', 'a.blocked_forever'],
  ['is_blocked', 'a.blocked_forever OR coalesce(a.blocked_until > now(), false)'],
  [
    'labels',
    `coalesce((SELECT json_agg(l.label_id ORDER BY l.label_id) FROM author_labels l WHERE l.author_id = a.id), '[]'::json)`,
  ],
])} END`;

/** presenter.ts `presentItem` (with author, tags and provider) over aliases `i`, `o` (objects), `a`. */
export const ITEM_JSON = sql.raw(
  `${jsonRow('item_json', [
    ['id', 'i.id'],
    ['space_id', 'i.space_id'],
    ['object_id', 'i.object_id'],
    ['provider', 'o.provider'],
    ['kind', 'i.kind'],
    ['post_id', 'i.post_id'],
    ['parent_id', 'i.parent_id'],
    ['external_id', 'i.external_id'],
    ['author', AUTHOR_JSON],
    ['is_own', 'i.is_own'],
    ['user_id', 'i.user_id'],
    ['text', 'i.text'],
    ['excerpt', 'i.excerpt'],
    ['rating', 'i.rating'],
    ['sentiment', 'i.sentiment'],
    ['emotion', 'i.emotion'],
    ['attachments', 'i.attachments'],
    ['reactions', 'i.reactions'],
    ['url', 'i.url'],
    ['status', 'i.status'],
    ['close_reason', 'i.close_reason'],
    ['delayed_until', unix('i.delayed_until')],
    ['returned_at', unix('i.returned_at')],
    ['assigned_user_id', 'i.assigned_user_id'],
    ['is_hidden', 'i.is_hidden'],
    ['is_liked', 'i.is_liked'],
    ['is_deleted', 'i.is_deleted'],
    ['delivery', 'i.delivery'],
    ['delivery_error', 'i.delivery_error'],
    [
      'tags',
      `coalesce((SELECT json_agg(t.tag_id ORDER BY t.tag_id) FROM item_tags t WHERE t.item_id = i.id), '[]'::json)`,
    ],
    ['created_at', unix('i.created_at')],
    ['updated_at', unix('i.updated_at')],
    ['edited_at', unix('i.edited_at')],
    ['first_reply_at', unix('i.first_reply_at')],
  ])}::text`,
);

/** presenter.ts `presentChat` (with author, tags and provider) over aliases `c`, `o`, `a`. */
export const CHAT_JSON = sql.raw(
  `${jsonRow('chat_json', [
    ['id', 'c.id'],
    ['space_id', 'c.space_id'],
    ['object_id', 'c.object_id'],
    ['provider', 'o.provider'],
    ['external_id', 'c.external_id'],
    ['author', AUTHOR_JSON],
    ['status', 'c.status'],
    ['close_reason', 'c.close_reason'],
    ['delayed_until', unix('c.delayed_until')],
    ['returned_at', unix('c.returned_at')],
    ['assigned_user_id', 'c.assigned_user_id'],
    ['last_message_at', unix('c.last_message_at')],
    ['last_message', 'c.last_message_excerpt'],
    ['last_message_is_own', 'c.last_message_is_own'],
    ['sentiment', 'c.last_sentiment'],
    ['emotion', 'c.last_emotion'],
    ['unread_count', 'c.unread_count'],
    [
      'tags',
      `coalesce((SELECT json_agg(t.tag_id ORDER BY t.tag_id) FROM chat_tags t WHERE t.chat_id = c.id), '[]'::json)`,
    ],
    ['created_at', unix('c.created_at')],
    ['updated_at', unix('c.updated_at')],
  ])}::text`,
);

/**
 * Beside each page row, for lib/snapshot-cache.ts: the snapshot the statement ran under, and when the row's
 * `is_blocked` will change by itself (a block's end still ahead, epoch ms). Over the author alias `a`.
 */
export const PAGE_META = sql.raw(`pg_current_snapshot()::text AS snapshot,
  CASE WHEN NOT a.blocked_forever AND a.blocked_until > now()
    THEN floor(date_part('epoch', a.blocked_until) * 1000)::bigint END AS block_ends_ms`);

/** `{"items":[…],"next":…}` from rows that are already JSON text. */
export function pageJson(rows: string[], next: string | null): string {
  return `{"items":[${rows.join(',')}],"next":${JSON.stringify(next)}}`;
}
