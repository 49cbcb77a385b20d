import {
  type Durations,
  type EmotionCounts,
  STATS_TIME_BUCKETS,
  STATS_TOP_POSTS,
  type StatsClosedRow,
  type StatsEmotions,
  type StatsFigures,
  type StatsHours,
  type StatsKind,
  type StatsOperatorRow,
  type StatsOperatorTimeRow,
  type StatsPeriod,
  type StatsPostRow,
  type StatsQuery,
  type StatsStatusRow,
  type StatsTags,
  type StatsTime,
  type StatsVolumeRow,
  type StatsWorkinghoursRow,
} from '@otklik/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { InboxScope } from '../inbox/scope';

// The statistics queries. Every figure is defined in docs/statistics.md; keep the SQL to those words.
// Every query is limited by the caller's inbox scope (one space, maybe a group's accounts) and the
// request's filters; the period is the half-open range [start, end) of instants.

export type StatsFilters = Pick<
  StatsQuery,
  'provider' | 'object_id' | 'kind' | 'company_id' | 'tag_id' | 'operator_id'
>;

const ITEM_KINDS = ['comment', 'review', 'mention'] as const;
const OPEN = sql`('new', 'inprogress', 'open')`;

export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const list = (values: readonly (string | number)[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

// The one filter builder (docs/statistics.md "Filters"): every query narrows its rows with itemWhere,
// chatWhere or activityWhere, so the tabs, the comparison period and the drill-down count the same rows.

/** `alias.space_id/object_id` within the scope (one space's entry), and the account filters. */
function accountWhere(scope: InboxScope, alias: string, f: StatsFilters): SQL {
  const space = sql.raw(`${alias}.space_id`);
  const object = sql.raw(`${alias}.object_id`);
  const parts: SQL[] = [];
  const spaceParts: SQL[] = [];
  for (const [spaceId, ids] of scope.spaces) {
    if (ids === null) spaceParts.push(sql`${space} = ${spaceId}`);
    else if (ids.length > 0) spaceParts.push(sql`(${space} = ${spaceId} AND ${object} IN (${list(ids)}))`);
  }
  parts.push(spaceParts.length > 0 ? sql`(${sql.join(spaceParts, sql` OR `)})` : sql`false`);
  if (f.object_id) parts.push(sql`${object} IN (${list(f.object_id)})`);
  if (f.provider)
    parts.push(sql`${object} IN (SELECT id FROM objects WHERE provider IN (${list(f.provider)}))`);
  if (f.company_id)
    parts.push(sql`${object} IN (SELECT id FROM objects WHERE company_id IN (${list(f.company_id)}))`);
  return sql.join(parts, sql` AND `);
}

/** The item kinds the filter keeps (all when no kind filter); empty = no items. */
function itemKinds(f: StatsFilters): string[] {
  return f.kind ? ITEM_KINDS.filter((k) => f.kind!.includes(k)) : [...ITEM_KINDS];
}
const chatsIncluded = (f: StatsFilters) => !f.kind || f.kind.includes('chat');

function kindWhere(alias: string, f: StatsFilters): SQL {
  const kinds = itemKinds(f);
  return kinds.length > 0 ? sql`${sql.raw(`${alias}.kind`)} IN (${list(kinds)})` : sql`false`;
}

/** Carries any of the filtered tags now (as the inbox list's tag_id filter); true without a tag filter. */
function tagWhere(unit: 'item' | 'chat', idColumn: string, f: StatsFilters): SQL {
  if (!f.tag_id) return sql`true`;
  const table = sql.raw(unit === 'item' ? 'item_tags' : 'chat_tags');
  const column = sql.raw(unit === 'item' ? 'item_id' : 'chat_id');
  return sql`EXISTS (SELECT 1 FROM ${table} tg WHERE tg.${column} = ${sql.raw(idColumn)} AND tg.tag_id IN (${list(f.tag_id)}))`;
}

/** Assigned now to one of the filtered operators (as the inbox list's assigned_user_id); true without one. */
function assignedWhere(alias: string, f: StatsFilters): SQL {
  return f.operator_id ? sql`${sql.raw(`${alias}.assigned_user_id`)} IN (${list(f.operator_id)})` : sql`true`;
}

/** Rows of `items` (as `alias`) the scope and every filter keep. */
function itemWhere(scope: InboxScope, alias: string, f: StatsFilters): SQL {
  return sql`${accountWhere(scope, alias, f)} AND ${kindWhere(alias, f)} AND ${tagWhere('item', `${alias}.id`, f)}
    AND ${assignedWhere(alias, f)}`;
}

/** Rows of `chats` (as `alias`) the scope and every filter keep; none when the kind filter leaves out chat. */
function chatWhere(scope: InboxScope, alias: string, f: StatsFilters): SQL {
  if (!chatsIncluded(f)) return sql`false`;
  return sql`${accountWhere(scope, alias, f)} AND ${tagWhere('chat', `${alias}.id`, f)} AND ${assignedWhere(alias, f)}`;
}

/**
 * The filters for figures about people's actions (replies, closings, first replies): the operator filter
 * picks whose actions count (the actor), not whose items — so it leaves the units' filters.
 */
export function unitFilters(f: StatsFilters): StatsFilters {
  return { ...f, operator_id: undefined };
}

/**
 * Rows of `activity a` on the items and dialogs itemWhere and chatWhere keep (whoever they are assigned
 * to), done by one of the filtered operators when there is an operator filter.
 */
function activityWhere(scope: InboxScope, f: StatsFilters): SQL {
  const by = f.operator_id ? sql`a.user_id IN (${list(f.operator_id)})` : sql`true`;
  const kinds = itemKinds(f);
  const item =
    kinds.length > 0
      ? sql`(SELECT kind FROM items WHERE id = a.item_id) IN (${list(kinds)}) AND ${tagWhere('item', 'a.item_id', f)}`
      : sql`false`;
  const chat = chatsIncluded(f) ? tagWhere('chat', 'a.chat_id', f) : sql`false`;
  return sql`${accountWhere(scope, 'a', f)} AND ${by}
    AND (a.item_id IS NOT NULL AND ${item} OR a.chat_id IS NOT NULL AND ${chat})`;
}

const at = (seconds: number) => sql`to_timestamp(${seconds})`;

/**
 * The units of work that came in during the period: customer items (arrival = created_at, the network's
 * time) and dialogs (arrival = their first customer message). One row each with its first reply.
 */
export function unitsCte(scope: InboxScope, f: StatsFilters, p: StatsPeriod): SQL {
  const itemsPart = sql`SELECT 'item'::text AS unit, i.id, i.kind, i.object_id, i.created_at AS arrived,
      i.first_reply_at, CASE WHEN i.status = 'closed' THEN i.closed_at END AS closed_at
    FROM items i
    WHERE NOT i.is_own AND ${itemWhere(scope, 'i', f)}
      AND i.created_at >= ${at(p.start)} AND i.created_at < ${at(p.end)}`;
  if (!chatsIncluded(f)) return itemsPart;
  return sql`${itemsPart}
    UNION ALL
    SELECT 'chat', c.id, 'chat', c.object_id, fm.arrived, c.first_reply_at,
      CASE WHEN c.status = 'closed' THEN c.closed_at END
    FROM chats c
    JOIN LATERAL (SELECT min(m.created_at) AS arrived FROM messages m WHERE m.chat_id = c.id AND NOT m.is_own) fm
      ON true
    WHERE ${chatWhere(scope, 'c', f)}
      AND fm.arrived >= ${at(p.start)} AND fm.arrived < ${at(p.end)}`;
}

/** Customer messages (not own) written in the period, in dialogs of the scope. */
function customerMessagesFrom(scope: InboxScope, f: StatsFilters, p: StatsPeriod): SQL {
  return sql`FROM messages m JOIN chats c ON c.id = m.chat_id
    WHERE NOT m.is_own AND ${chatWhere(scope, 'c', f)}
      AND m.created_at >= ${at(p.start)} AND m.created_at < ${at(p.end)}`;
}

/** median = percentile_disc(0.5), p90 = percentile_disc(0.9): always a measured value, in seconds. */
const durations = (expr: SQL) => sql`count(${expr})::int AS n,
  percentile_disc(0.5) WITHIN GROUP (ORDER BY ${expr}) AS median,
  percentile_disc(0.9) WITHIN GROUP (ORDER BY ${expr}) AS p90`;

function toDurations(row: { n: number; median: unknown; p90: unknown }): Durations {
  const num = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v)));
  return { count: Number(row.n), median: num(row.median), p90: num(row.p90) };
}

/** A reply time counts only when the reply came after the arrival (we may write first in a dialog). */
const FRT = sql`CASE WHEN u.first_reply_at >= u.arrived
  THEN extract(epoch FROM (u.first_reply_at - u.arrived)) END`;

export async function figures(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
): Promise<StatsFigures> {
  const [units] = await rows<{
    items: number;
    chats: number;
    replied: number;
    n: number;
    median: unknown;
    p90: unknown;
  }>(
    db,
    sql`WITH u AS (${unitsCte(scope, f, p)})
      SELECT count(*) FILTER (WHERE u.unit = 'item')::int AS items,
        count(*) FILTER (WHERE u.unit = 'chat')::int AS chats,
        count(*) FILTER (WHERE u.first_reply_at IS NOT NULL)::int AS replied,
        ${durations(FRT)}
      FROM u`,
  );
  const [messages] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n ${customerMessagesFrom(scope, f, p)}`,
  );
  const closedRows = await rows<{ reason: string; n: number }>(
    db,
    sql`SELECT close_reason AS reason, count(*)::int AS n FROM (
        SELECT i.close_reason FROM items i
        WHERE NOT i.is_own AND i.status = 'closed' AND ${itemWhere(scope, 'i', f)}
          AND i.closed_at >= ${at(p.start)} AND i.closed_at < ${at(p.end)}
        UNION ALL
        SELECT c.close_reason FROM chats c
        WHERE c.status = 'closed' AND ${chatWhere(scope, 'c', f)}
          AND c.closed_at >= ${at(p.start)} AND c.closed_at < ${at(p.end)}
      ) x GROUP BY close_reason`,
  );
  const closed = { reply: 0, noreply: 0, autorule: 0 };
  for (const r of closedRows) if (r.reason in closed) closed[r.reason as keyof typeof closed] = Number(r.n);
  const incoming = Number(units!.items) + Number(units!.chats);
  return {
    incoming: { items: Number(units!.items), chats: Number(units!.chats), messages: Number(messages!.n) },
    replied: Number(units!.replied),
    replied_share: incoming === 0 ? null : Number(units!.replied) / incoming,
    first_response: toDurations(units!),
    closed,
  };
}

/** Open now (new, inprogress, open) items and dialogs of the scope; the period does not apply. */
export async function backlog(db: Db, scope: InboxScope, f: StatsFilters) {
  const [row] = await rows<{ items: number; chats: number; oldest: string | null }>(
    db,
    sql`SELECT
      (SELECT count(*)::int FROM items i WHERE NOT i.is_own AND i.status IN ${OPEN}
         AND ${itemWhere(scope, 'i', f)}) AS items,
      (SELECT count(*)::int FROM chats c WHERE c.status IN ${OPEN}
         AND ${chatWhere(scope, 'c', f)}) AS chats,
      (SELECT extract(epoch FROM min(t))::bigint FROM (
         SELECT min(i.created_at) AS t FROM items i WHERE NOT i.is_own AND i.status IN ${OPEN}
           AND ${itemWhere(scope, 'i', f)}
         UNION ALL
         SELECT min(c.last_message_at) FROM chats c WHERE c.status IN ${OPEN}
           AND ${chatWhere(scope, 'c', f)}) x) AS oldest`,
  );
  return {
    items: Number(row!.items),
    chats: Number(row!.chats),
    oldest_at: row!.oldest === null ? null : Number(row!.oldest),
  };
}

/**
 * Incoming per local day, network and kind: items by created_at, dialogs by their first customer
 * message ('chat'), customer messages by created_at ('message').
 */
export async function volume(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
): Promise<StatsVolumeRow[]> {
  const tz = p.timezone;
  const day = (col: string) => sql`to_char((${sql.raw(col)} AT TIME ZONE ${tz})::date, 'YYYY-MM-DD')`;
  const result = await rows<{ day: string; provider: string; kind: StatsKind | 'message'; n: number }>(
    db,
    sql`SELECT x.day, o.provider, x.kind, count(*)::int AS n FROM (
        SELECT ${day('u.arrived')} AS day, u.object_id, u.kind FROM (${unitsCte(scope, f, p)}) u
        UNION ALL
        SELECT ${day('m.created_at')}, c.object_id, 'message' ${customerMessagesFrom(scope, f, p)}
      ) x JOIN objects o ON o.id = x.object_id
      GROUP BY x.day, o.provider, x.kind ORDER BY x.day, o.provider, x.kind`,
  );
  return result.map((r) => ({ day: r.day, provider: r.provider, kind: r.kind, count: Number(r.n) }));
}

/** Incoming items and customer messages per ISO weekday × hour in the space's time zone. */
export async function hours(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
): Promise<StatsHours['cells']> {
  const tz = p.timezone;
  const result = await rows<{ wd: number; h: number; n: number }>(
    db,
    sql`SELECT extract(isodow FROM t AT TIME ZONE ${tz})::int AS wd, extract(hour FROM t AT TIME ZONE ${tz})::int AS h,
        count(*)::int AS n FROM (
        SELECT i.created_at AS t FROM items i
        WHERE NOT i.is_own AND ${itemWhere(scope, 'i', f)}
          AND i.created_at >= ${at(p.start)} AND i.created_at < ${at(p.end)}
        UNION ALL
        SELECT m.created_at ${customerMessagesFrom(scope, f, p)}
      ) x GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  return result.map((r) => ({ weekday: Number(r.wd), hour: Number(r.h), count: Number(r.n) }));
}

/**
 * Per user: the units that came in during the period whose first reply was theirs (`*.replied` activity
 * with `first`), with the count, median and p90 of those first response times.
 */
function firstsQuery(scope: InboxScope, f: StatsFilters, p: StatsPeriod, onlyUserId: number | null): SQL {
  const spaceIds = [...scope.spaces.keys()];
  const who = sql`${onlyUserId === null ? sql`true` : sql`a.user_id = ${onlyUserId}`}
    AND ${f.operator_id ? sql`a.user_id IN (${list(f.operator_id)})` : sql`true`}`;
  return sql`SELECT a.user_id, ${durations(FRT)}
    FROM (${unitsCte(scope, unitFilters(f), p)}) u JOIN activity a
      ON a.type = (u.unit || '.replied') AND a.data->>'first' = 'true' AND a.cause_kind = 'user'
     AND (u.unit = 'item' AND a.item_id = u.id OR u.unit = 'chat' AND a.chat_id = u.id)
    WHERE a.space_id IN (${list(spaceIds)}) AND ${who}
    GROUP BY a.user_id`;
}

/**
 * Per operator: replies (item.replied + chat.replied activity in the period), closed (status changes to
 * closed by the user in the period), and first replies to units that came in during the period with
 * their median time. `onlyUserId` limits to one user (stats.viewOwn).
 */
export async function operators(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
  onlyUserId: number | null,
): Promise<StatsOperatorRow[]> {
  const who = onlyUserId === null ? sql`true` : sql`a.user_id = ${onlyUserId}`;
  const result = await rows<{
    user_id: number;
    name: string;
    replies: number;
    closed: number;
    n: number;
    median: unknown;
  }>(
    db,
    sql`WITH acts AS (
        SELECT a.user_id,
          count(*) FILTER (WHERE a.type IN ('item.replied', 'chat.replied'))::int AS replies,
          count(*) FILTER (WHERE a.type IN ('item.status', 'chat.status') AND a.data->>'to' = 'closed')::int AS closed
        FROM activity a
        WHERE a.cause_kind = 'user' AND a.user_id IS NOT NULL AND ${who}
          AND ${activityWhere(scope, f)}
          AND a.at >= ${at(p.start)} AND a.at < ${at(p.end)}
        GROUP BY a.user_id
      ), firsts AS (${firstsQuery(scope, f, p, onlyUserId)})
      SELECT usr.id AS user_id, usr.name, coalesce(acts.replies, 0) AS replies, coalesce(acts.closed, 0) AS closed,
        coalesce(firsts.n, 0) AS n, firsts.median
      FROM (SELECT user_id FROM acts UNION SELECT user_id FROM firsts) ids
      JOIN users usr ON usr.id = ids.user_id
      LEFT JOIN acts ON acts.user_id = ids.user_id
      LEFT JOIN firsts ON firsts.user_id = ids.user_id
      ORDER BY replies DESC, usr.name, usr.id`,
  );
  return result.map((r) => ({
    user_id: Number(r.user_id),
    name: r.name,
    replies: Number(r.replies),
    closed: Number(r.closed),
    first_replies: Number(r.n),
    frt_median: r.median === null || r.median === undefined ? null : Math.round(Number(r.median)),
    frt_median_business: null,
  }));
}

const localDay = (p: StatsPeriod, col: SQL) =>
  sql`to_char((${col} AT TIME ZONE ${p.timezone})::date, 'YYYY-MM-DD')`;

/**
 * Tags over time: the incoming items and new dialogs of the period (the units above) carrying each tag
 * now, per local day of their arrival. A unit with two tags counts once under each.
 */
export async function tagsOverTime(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
): Promise<Pick<StatsTags, 'tags' | 'rows'>> {
  const result = await rows<{ day: string; tag_id: number; name: string; n: number }>(
    db,
    sql`SELECT ${localDay(p, sql`u.arrived`)} AS day, t.id AS tag_id, t.name, count(*)::int AS n
      FROM (${unitsCte(scope, f, p)}) u
      JOIN (SELECT 'item' AS unit, item_id AS id, tag_id FROM item_tags
            UNION ALL SELECT 'chat', chat_id, tag_id FROM chat_tags) x ON x.unit = u.unit AND x.id = u.id
      JOIN tags t ON t.id = x.tag_id
      GROUP BY 1, 2, 3 ORDER BY 1, 2`,
  );
  const totals = new Map<number, { tag_id: number; name: string; count: number }>();
  for (const r of result) {
    const entry = totals.get(Number(r.tag_id)) ?? { tag_id: Number(r.tag_id), name: r.name, count: 0 };
    entry.count += Number(r.n);
    totals.set(entry.tag_id, entry);
  }
  return {
    tags: [...totals.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
    rows: result.map((r) => ({ day: r.day, tag_id: Number(r.tag_id), count: Number(r.n) })),
  };
}

/**
 * Per post: customer items under it that arrived in the period, how many of them got a reply (ever), and
 * our own replies written under it in the period (a tag filter narrows the customer items only: our
 * replies carry no tags). The top STATS_TOP_POSTS by items.
 */
export async function postsOf(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
): Promise<StatsPostRow[]> {
  const result = await rows<{
    post_id: number;
    object_id: number;
    provider: string;
    text: string;
    url: string | null;
    items: number;
    replied: number;
    replies: number;
  }>(
    db,
    sql`SELECT po.id AS post_id, po.object_id, o.provider, left(po.text, 200) AS text, po.url,
        count(*) FILTER (WHERE NOT i.is_own)::int AS items,
        count(*) FILTER (WHERE NOT i.is_own AND i.first_reply_at IS NOT NULL)::int AS replied,
        count(*) FILTER (WHERE i.is_own)::int AS replies
      FROM items i JOIN posts po ON po.id = i.post_id JOIN objects o ON o.id = po.object_id
      WHERE ${itemWhere(scope, 'i', { ...f, tag_id: undefined, operator_id: undefined })}
        AND (i.is_own OR ${tagWhere('item', 'i.id', f)} AND ${assignedWhere('i', f)})
        AND (NOT i.is_own OR ${f.operator_id ? sql`i.user_id IN (${list(f.operator_id)})` : sql`true`})
        AND i.created_at >= ${at(p.start)} AND i.created_at < ${at(p.end)}
      GROUP BY po.id, o.provider
      HAVING count(*) FILTER (WHERE NOT i.is_own) > 0
      ORDER BY items DESC, po.id
      LIMIT ${STATS_TOP_POSTS}`,
  );
  return result.map((r) => ({
    post_id: Number(r.post_id),
    object_id: Number(r.object_id),
    provider: r.provider,
    text: r.text,
    url: r.url,
    items: Number(r.items),
    replied: Number(r.replied),
    replies: Number(r.replies),
  }));
}

/**
 * Closings in the period per who and how: status changes to closed (`item.status` / `chat.status`
 * activity) in [start, end). A user's change counts under them, by its close reason (a closing without
 * a recorded reason counts as without reply); a rule's, bot's or the system's under "rules" (user null).
 */
export async function closedBy(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
  onlyUserId: number | null,
): Promise<StatsClosedRow[]> {
  const who = onlyUserId === null ? sql`true` : sql`a.cause_kind = 'user' AND a.user_id = ${onlyUserId}`;
  const result = await rows<{
    user_id: number | null;
    name: string | null;
    reply: number;
    noreply: number;
    autorule: number;
  }>(
    db,
    sql`SELECT x.uid AS user_id, usr.name,
        count(*) FILTER (WHERE x.how = 'reply')::int AS reply,
        count(*) FILTER (WHERE x.how = 'noreply')::int AS noreply,
        count(*) FILTER (WHERE x.how = 'autorule')::int AS autorule
      FROM (
        SELECT CASE WHEN a.cause_kind = 'user' THEN a.user_id END AS uid,
          CASE WHEN a.cause_kind <> 'user' THEN 'autorule'
            WHEN a.data->>'close_reason' IN ('reply', 'autorule') THEN a.data->>'close_reason'
            ELSE 'noreply' END AS how
        FROM activity a
        WHERE a.type IN ('item.status', 'chat.status') AND a.data->>'to' = 'closed' AND ${who}
          AND ${activityWhere(scope, f)}
          AND a.at >= ${at(p.start)} AND a.at < ${at(p.end)}
      ) x LEFT JOIN users usr ON usr.id = x.uid
      GROUP BY x.uid, usr.name
      ORDER BY count(*) DESC, usr.name NULLS LAST, x.uid`,
  );
  return result.map((r) => {
    const reply = Number(r.reply);
    const noreply = Number(r.noreply);
    const autorule = Number(r.autorule);
    return {
      user_id: r.user_id === null ? null : Number(r.user_id),
      name: r.name,
      reply,
      noreply,
      autorule,
      total: reply + noreply + autorule,
    };
  });
}

/** Resolution: closed now, closed at or after the arrival: closed_at − arrival. */
const RES = sql`CASE WHEN u.closed_at >= u.arrived THEN extract(epoch FROM (u.closed_at - u.arrived)) END`;

/**
 * First response and resolution times of the units that came in during the period: median, p90, how
 * many fall in each bucket (STATS_TIME_BUCKETS), and the medians per local day of arrival. Calendar time.
 */
export async function times(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
): Promise<Omit<StatsTime, 'period' | 'business'>> {
  const bucketCols = (expr: SQL, name: string) =>
    sql.join(
      [...STATS_TIME_BUCKETS, null].map((upper, i) => {
        const lower = i === 0 ? null : STATS_TIME_BUCKETS[i - 1]!;
        const cond = [
          sql`(${expr}) IS NOT NULL`,
          ...(lower === null ? [] : [sql`(${expr}) > ${lower}`]),
          ...(upper === null ? [] : [sql`(${expr}) <= ${upper}`]),
        ];
        return sql`count(*) FILTER (WHERE ${sql.join(cond, sql` AND `)})::int AS ${sql.raw(`${name}_${i}`)}`;
      }),
      sql`, `,
    );
  const [total] = await rows<Record<string, unknown>>(
    db,
    sql`WITH u AS (${unitsCte(scope, f, p)})
      SELECT count(${FRT})::int AS f_n,
        percentile_disc(0.5) WITHIN GROUP (ORDER BY ${FRT}) AS f_median,
        percentile_disc(0.9) WITHIN GROUP (ORDER BY ${FRT}) AS f_p90,
        count(${RES})::int AS r_n,
        percentile_disc(0.5) WITHIN GROUP (ORDER BY ${RES}) AS r_median,
        percentile_disc(0.9) WITHIN GROUP (ORDER BY ${RES}) AS r_p90,
        ${bucketCols(FRT, 'fb')}, ${bucketCols(RES, 'rb')}
      FROM u`,
  );
  const perDay = await rows<{ day: string; f: unknown; r: unknown }>(
    db,
    sql`WITH u AS (${unitsCte(scope, f, p)})
      SELECT ${localDay(p, sql`u.arrived`)} AS day,
        percentile_disc(0.5) WITHIN GROUP (ORDER BY ${FRT}) AS f,
        percentile_disc(0.5) WITHIN GROUP (ORDER BY ${RES}) AS r
      FROM u GROUP BY 1 ORDER BY 1`,
  );
  const row = total!;
  const num = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v)));
  const bucketsOf = (name: string) =>
    [...STATS_TIME_BUCKETS, null].map((_, i) => Number(row[`${name}_${i}`]));
  return {
    first_response: toDurations({ n: row.f_n as number, median: row.f_median, p90: row.f_p90 }),
    resolution: toDurations({ n: row.r_n as number, median: row.r_median, p90: row.r_p90 }),
    buckets: { first_response: bucketsOf('fb'), resolution: bucketsOf('rb') },
    days: perDay.map((d) => ({ day: d.day, first_response: num(d.f), resolution: num(d.r) })),
  };
}

/** Per operator: their first replies to the units of the period, with median and p90 (firstsQuery). */
export async function operatorTimes(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
  onlyUserId: number | null,
): Promise<StatsOperatorTimeRow[]> {
  const result = await rows<{ user_id: number; name: string; n: number; median: unknown; p90: unknown }>(
    db,
    sql`SELECT usr.id AS user_id, usr.name, x.n, x.median, x.p90
      FROM (${firstsQuery(scope, f, p, onlyUserId)}) x JOIN users usr ON usr.id = x.user_id
      ORDER BY x.median, usr.name, usr.id`,
  );
  return result.map((r) => ({
    user_id: Number(r.user_id),
    name: r.name,
    first_replies: toDurations(r),
    first_replies_business: null,
  }));
}

/**
 * Members of the space whose people-figures the caller sees: everyone, or — for a caller limited to a
 * user group — the members of the same group (status and schedule rows have no account to scope by).
 */
export interface PeopleScope {
  spaceId: number;
  /** Limit to members of this user group; undefined = every member. */
  groupId?: number;
  /** Only this member (stats/my/statuses, stats/users/:id/statuses). */
  userId?: number;
  /** Only these members (the operator filter). */
  userIds?: number[];
}

function peopleWhere(s: PeopleScope): SQL {
  return sql.join(
    [
      sql`ms.space_id = ${s.spaceId}`,
      ...(s.groupId === undefined ? [] : [sql`ms.group_id = ${s.groupId}`]),
      ...(s.userId === undefined ? [] : [sql`ms.user_id = ${s.userId}`]),
      ...(s.userIds === undefined ? [] : [sql`ms.user_id IN (${list(s.userIds)})`]),
    ],
    sql` AND `,
  );
}

/**
 * Each member's status intervals clipped to [start, min(end, now)): a status lasts from its change
 * (`status_changes.at`) to the member's next change in the space. Time before a member's first recorded
 * change is unknown and not counted.
 */
function statusIntervalsCte(s: PeopleScope, p: StatsPeriod, now: Date): SQL {
  const stop = Math.min(p.end, Math.floor(now.getTime() / 1000));
  return sql`SELECT x.user_id, x.status_id, greatest(x.at, ${at(p.start)}) AS f, least(x.nxt, ${at(stop)}) AS t
    FROM (
      SELECT sc.user_id, sc.status_id, sc.at,
        coalesce(lead(sc.at) OVER (PARTITION BY sc.user_id ORDER BY sc.at, sc.id), ${at(stop)}) AS nxt
      FROM status_changes sc JOIN memberships ms ON ms.space_id = sc.space_id AND ms.user_id = sc.user_id
      WHERE ${peopleWhere(s)} AND sc.at < ${at(stop)}
    ) x
    WHERE x.nxt > ${at(p.start)} AND x.nxt > x.at`;
}

/** Per member: seconds in each status in the period (statusIntervalsCte); members with none are absent. */
export async function statusTimes(
  db: Db,
  s: PeopleScope,
  p: StatsPeriod,
  now: Date,
): Promise<StatsStatusRow[]> {
  const result = await rows<{
    user_id: number;
    name: string;
    status_id: number | null;
    secs: unknown;
    working: boolean | null;
  }>(
    db,
    sql`WITH iv AS (${statusIntervalsCte(s, p, now)})
      SELECT iv.user_id, usr.name, iv.status_id, us.workinghours AS working,
        sum(extract(epoch FROM (iv.t - iv.f)))::bigint AS secs
      FROM iv JOIN users usr ON usr.id = iv.user_id LEFT JOIN user_statuses us ON us.id = iv.status_id
      WHERE iv.t > iv.f
      GROUP BY iv.user_id, usr.name, iv.status_id, us.workinghours ORDER BY usr.name, iv.user_id`,
  );
  const byUser = new Map<number, StatsStatusRow>();
  for (const r of result) {
    const id = Number(r.user_id);
    const row = byUser.get(id) ?? { user_id: id, name: r.name, seconds: {}, working: 0, total: 0 };
    const key = String(r.status_id ?? 0);
    const secs = Number(r.secs);
    row.seconds[key] = (row.seconds[key] ?? 0) + secs;
    row.total += secs;
    if (r.working) row.working += secs;
    byUser.set(id, row);
  }
  return [...byUser.values()];
}

/**
 * Per member: working-hours slots (`workinghours_items`) overlapping the period whose status counts as
 * working time (or sets none), their seconds inside [start, end); the seconds in working statuses up to
 * now; and of those, the seconds inside such slots. Members with neither slots nor status time are absent.
 */
export async function workingTimes(
  db: Db,
  s: PeopleScope,
  p: StatsPeriod,
  now: Date,
): Promise<StatsWorkinghoursRow[]> {
  const result = await rows<{
    user_id: number;
    name: string;
    slots: number;
    scheduled: unknown;
    worked: unknown;
    inside: unknown;
  }>(
    db,
    sql`WITH sl AS (
        SELECT w.user_id, greatest(w.started_at, ${at(p.start)}) AS f, least(w.ended_at, ${at(p.end)}) AS t
        FROM workinghours_items w JOIN memberships ms ON ms.space_id = w.space_id AND ms.user_id = w.user_id
        LEFT JOIN user_statuses us ON us.id = w.status_id
        WHERE ${peopleWhere(s)} AND w.started_at < ${at(p.end)} AND w.ended_at > ${at(p.start)}
          AND (w.status_id IS NULL OR us.workinghours)
      ), iv AS (
        SELECT x.* FROM (${statusIntervalsCte(s, p, now)}) x JOIN user_statuses us ON us.id = x.status_id
        WHERE us.workinghours AND x.t > x.f
      ), per AS (
        SELECT user_id, count(*)::int AS slots, sum(extract(epoch FROM (t - f)))::bigint AS scheduled,
          0::bigint AS worked, 0::bigint AS inside FROM sl GROUP BY user_id
        UNION ALL
        SELECT user_id, 0, 0, sum(extract(epoch FROM (t - f)))::bigint, 0 FROM iv GROUP BY user_id
        UNION ALL
        SELECT iv.user_id, 0, 0, 0, sum(extract(epoch FROM (least(iv.t, sl.t) - greatest(iv.f, sl.f))))::bigint
        FROM iv JOIN sl ON sl.user_id = iv.user_id AND sl.f < iv.t AND iv.f < sl.t GROUP BY iv.user_id
      )
      SELECT per.user_id, usr.name, sum(per.slots)::int AS slots, sum(per.scheduled)::bigint AS scheduled,
        sum(per.worked)::bigint AS worked, sum(per.inside)::bigint AS inside
      FROM per JOIN users usr ON usr.id = per.user_id
      GROUP BY per.user_id, usr.name ORDER BY usr.name, per.user_id`,
  );
  return result.map((r) => ({
    user_id: Number(r.user_id),
    name: r.name,
    slots: Number(r.slots),
    scheduled: Number(r.scheduled),
    worked: Number(r.worked),
    worked_in_slots: Number(r.inside),
  }));
}

/**
 * The units waiting now, as backlog() counts them (open items by created_at, open dialogs by their last
 * message): per account with the oldest, and the single longest-waiting one with its excerpt.
 */
export async function waitingNow(db: Db, scope: InboxScope, f: StatsFilters) {
  const open = sql`SELECT 'item'::text AS unit, i.id, i.object_id, i.created_at AS since, i.excerpt
      FROM items i WHERE NOT i.is_own AND i.status IN ${OPEN} AND ${itemWhere(scope, 'i', f)}
    UNION ALL
    SELECT 'chat', c.id, c.object_id, c.last_message_at, c.last_message_excerpt
      FROM chats c WHERE c.status IN ${OPEN} AND ${chatWhere(scope, 'c', f)}`;
  const accounts = await rows<{
    object_id: number;
    provider: string;
    name: string;
    n: number;
    oldest: string;
  }>(
    db,
    sql`SELECT w.object_id, o.provider, o.name, count(*)::int AS n, extract(epoch FROM min(w.since))::bigint AS oldest
      FROM (${open}) w JOIN objects o ON o.id = w.object_id
      GROUP BY w.object_id, o.provider, o.name ORDER BY n DESC, oldest, w.object_id`,
  );
  const [longest] = await rows<{
    unit: 'item' | 'chat';
    id: number;
    object_id: number;
    provider: string;
    since: string;
    excerpt: string | null;
  }>(
    db,
    sql`SELECT w.unit, w.id, w.object_id, o.provider, extract(epoch FROM w.since)::bigint AS since, w.excerpt
      FROM (${open}) w JOIN objects o ON o.id = w.object_id ORDER BY w.since, w.unit DESC, w.id LIMIT 1`,
  );
  return {
    accounts: accounts.map((r) => ({
      object_id: Number(r.object_id),
      provider: r.provider,
      name: r.name,
      count: Number(r.n),
      oldest_at: Number(r.oldest),
    })),
    longest: longest
      ? {
          unit: longest.unit,
          id: Number(longest.id),
          object_id: Number(longest.object_id),
          provider: longest.provider,
          waiting_since: Number(longest.since),
          excerpt: longest.excerpt ?? '',
        }
      : null,
  };
}

/** The visible members (PeopleScope) with their current user status in the space (memberships.status_id). */
export async function membersByStatus(db: Db, s: PeopleScope) {
  return rows<{
    user_id: number;
    name: string;
    status_id: number | null;
    status: string | null;
    color: string | null;
    offline: boolean | null;
    position: number | null;
  }>(
    db,
    sql`SELECT ms.user_id, usr.name, us.id AS status_id, us.name AS status, us.color, us.offline, us.position
      FROM memberships ms JOIN users usr ON usr.id = ms.user_id
      LEFT JOIN user_statuses us ON us.id = ms.status_id AND us.space_id = ms.space_id
      WHERE ${peopleWhere(s)}
      ORDER BY us.position NULLS LAST, us.id NULLS LAST, usr.name, ms.user_id`,
  );
}

/**
 * Emotions (docs/statistics.md "Emotions"): the customer's texts of the period — items by created_at,
 * dialog messages by created_at — with the classifier's sentiment, counted by day, account, network and
 * post. Texts without a sentiment (switched off, empty, from before the classifier) count as unrated.
 */
export async function emotions(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
): Promise<Omit<StatsEmotions, 'period'>> {
  const kinds = itemKinds(f);
  const itemsPart =
    kinds.length > 0
      ? sql`SELECT i.created_at AS at, i.sentiment, i.emotion, i.object_id, i.post_id
          FROM items i
          WHERE NOT i.is_own AND ${itemWhere(scope, 'i', f)}
            AND i.created_at >= ${at(p.start)} AND i.created_at < ${at(p.end)}`
      : null;
  const messagesPart = chatsIncluded(f)
    ? sql`SELECT m.created_at, m.sentiment, m.emotion, c.object_id, NULL::bigint ${customerMessagesFrom(scope, f, p)}`
    : null;
  const parts = [itemsPart, messagesPart].filter((x): x is SQL => x !== null);
  const empty = { negative: 0, neutral: 0, positive: 0, anger: 0 };
  if (parts.length === 0)
    return { totals: { ...empty, unrated: 0 }, days: [], by_object: [], by_provider: [], by_post: [] };
  const texts = sql`(${sql.join(parts, sql` UNION ALL `)}) t`;
  const counts = sql`count(*) FILTER (WHERE t.sentiment = 'negative')::int AS negative,
    count(*) FILTER (WHERE t.sentiment = 'neutral')::int AS neutral,
    count(*) FILTER (WHERE t.sentiment = 'positive')::int AS positive,
    count(*) FILTER (WHERE t.emotion = 'anger')::int AS anger`;
  type Counted = { negative: number; neutral: number; positive: number; anger: number };
  const num = (r: Counted): EmotionCounts => ({
    negative: Number(r.negative),
    neutral: Number(r.neutral),
    positive: Number(r.positive),
    anger: Number(r.anger),
  });
  const [total] = await rows<Counted & { unrated: number }>(
    db,
    sql`SELECT ${counts}, count(*) FILTER (WHERE t.sentiment IS NULL)::int AS unrated FROM ${texts}`,
  );
  const days = await rows<Counted & { day: string }>(
    db,
    sql`SELECT ${localDay(p, sql`t.at`)} AS day, ${counts} FROM ${texts}
      WHERE t.sentiment IS NOT NULL GROUP BY 1 ORDER BY 1`,
  );
  const byObject = await rows<Counted & { object_id: number; provider: string }>(
    db,
    sql`SELECT t.object_id, o.provider, ${counts} FROM ${texts} JOIN objects o ON o.id = t.object_id
      WHERE t.sentiment IS NOT NULL GROUP BY t.object_id, o.provider ORDER BY count(*) DESC, t.object_id`,
  );
  const byPost = await rows<
    Counted & { post_id: number; object_id: number; provider: string; text: string; url: string | null }
  >(
    db,
    sql`SELECT po.id AS post_id, po.object_id, o.provider, left(po.text, 200) AS text, po.url, ${counts}
      FROM ${texts} JOIN posts po ON po.id = t.post_id JOIN objects o ON o.id = po.object_id
      WHERE t.sentiment IS NOT NULL
      GROUP BY po.id, o.provider ORDER BY count(*) DESC, po.id LIMIT ${STATS_TOP_POSTS}`,
  );
  const providers = new Map<string, EmotionCounts & { provider: string }>();
  for (const r of byObject) {
    const entry = providers.get(r.provider) ?? { provider: r.provider, ...empty };
    const n = num(r);
    entry.negative += n.negative;
    entry.neutral += n.neutral;
    entry.positive += n.positive;
    entry.anger += n.anger;
    providers.set(r.provider, entry);
  }
  const size = (c: EmotionCounts) => c.negative + c.neutral + c.positive;
  return {
    totals: { ...num(total!), unrated: Number(total!.unrated) },
    days: days.map((r) => ({ day: r.day, ...num(r) })),
    by_object: byObject.map((r) => ({ object_id: Number(r.object_id), provider: r.provider, ...num(r) })),
    by_provider: [...providers.values()].sort(
      (a, b) => size(b) - size(a) || a.provider.localeCompare(b.provider),
    ),
    by_post: byPost.map((r) => ({
      post_id: Number(r.post_id),
      object_id: Number(r.object_id),
      provider: r.provider,
      text: r.text,
      url: r.url,
      ...num(r),
    })),
  };
}
