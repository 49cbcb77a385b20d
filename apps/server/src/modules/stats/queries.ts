import {
  type Durations,
  STATS_TIME_BUCKETS,
  type StatsFigures,
  type StatsHours,
  type StatsKind,
  type StatsPeriod,
  type StatsQuery,
  type StatsTimeFigures,
  type StatsVolumeRow,
} from '@otklik/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { InboxScope } from '../inbox/read/scope';
import {
  arrivalsSql,
  daysOnWholeHours,
  rollupCounts,
  rollupVolumeSql,
  unitsFromRollup,
  type Via,
} from './rollup';

// The statistics queries. Every figure is defined in docs/statistics.md; keep the SQL to those words.
// Every query is limited by the caller's inbox scope (one space, maybe a group's accounts) and the
// request's filters; the period is the half-open range [start, end) of instants.

export type StatsFilters = Pick<
  StatsQuery,
  'provider' | 'object_id' | 'kind' | 'company_id' | 'tag_id' | 'operator_id'
>;

const ITEM_KINDS = ['comment', 'review', 'mention'] as const;
export const OPEN = sql`('new', 'inprogress', 'open')`;

export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export const list = (values: readonly (string | number)[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

// The one filter builder (docs/statistics.md "Filters"): every query narrows its rows with itemWhere,
// chatWhere or activityWhere, so the tabs, the comparison period and the drill-down count the same rows.

/** `alias.space_id/object_id` within the scope (one space's entry), and the account filters. */
export function accountWhere(scope: InboxScope, alias: string, f: StatsFilters): SQL {
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
export function itemKinds(f: StatsFilters): string[] {
  return f.kind ? ITEM_KINDS.filter((k) => f.kind!.includes(k)) : [...ITEM_KINDS];
}
export const chatsIncluded = (f: StatsFilters) => !f.kind || f.kind.includes('chat');

function kindWhere(alias: string, f: StatsFilters): SQL {
  const kinds = itemKinds(f);
  return kinds.length > 0 ? sql`${sql.raw(`${alias}.kind`)} IN (${list(kinds)})` : sql`false`;
}

/** Carries any of the filtered tags now (as the inbox list's tag_id filter); true without a tag filter. */
export function tagWhere(unit: 'item' | 'chat', idColumn: string, f: StatsFilters): SQL {
  if (!f.tag_id) return sql`true`;
  const table = sql.raw(unit === 'item' ? 'item_tags' : 'chat_tags');
  const column = sql.raw(unit === 'item' ? 'item_id' : 'chat_id');
  return sql`EXISTS (SELECT 1 FROM ${table} tg WHERE tg.${column} = ${sql.raw(idColumn)} AND tg.tag_id IN (${list(f.tag_id)}))`;
}

/** Assigned now to one of the filtered operators (as the inbox list's assigned_user_id); true without one. */
export function assignedWhere(alias: string, f: StatsFilters): SQL {
  return f.operator_id ? sql`${sql.raw(`${alias}.assigned_user_id`)} IN (${list(f.operator_id)})` : sql`true`;
}

/** Rows of `items` (as `alias`) the scope and every filter keep. */
export function itemWhere(scope: InboxScope, alias: string, f: StatsFilters): SQL {
  return sql`${accountWhere(scope, alias, f)} AND ${kindWhere(alias, f)} AND ${tagWhere('item', `${alias}.id`, f)}
    AND ${assignedWhere(alias, f)}`;
}

/** Rows of `chats` (as `alias`) the scope and every filter keep; none when the kind filter leaves out chat. */
export function chatWhere(scope: InboxScope, alias: string, f: StatsFilters): SQL {
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
export function activityWhere(scope: InboxScope, f: StatsFilters): SQL {
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

export const at = (seconds: number) => sql`to_timestamp(${seconds})`;

/**
 * The units of work that came in during the period: customer items (arrival = created_at, the network's
 * time) and dialogs (arrival = their first customer message, `chats.arrived_at`, kept by a trigger on
 * messages). One row each with its first reply.
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
    SELECT 'chat', c.id, 'chat', c.object_id, c.arrived_at, c.first_reply_at,
      CASE WHEN c.status = 'closed' THEN c.closed_at END
    FROM chats c
    WHERE ${chatWhere(scope, 'c', f)}
      AND c.arrived_at >= ${at(p.start)} AND c.arrived_at < ${at(p.end)}`;
}

/** Customer messages (not own) written in the period, in dialogs of the scope. */
export function customerMessagesFrom(scope: InboxScope, f: StatsFilters, p: StatsPeriod): SQL {
  return sql`FROM messages m JOIN chats c ON c.id = m.chat_id
    WHERE NOT m.is_own AND ${chatWhere(scope, 'c', f)}
      AND m.created_at >= ${at(p.start)} AND m.created_at < ${at(p.end)}`;
}

/** median = percentile_disc(0.5), p90 = percentile_disc(0.9): always a measured value, in seconds. */
export const durations = (expr: SQL) => sql`count(${expr})::int AS n,
  percentile_disc(0.5) WITHIN GROUP (ORDER BY ${expr}) AS median,
  percentile_disc(0.9) WITHIN GROUP (ORDER BY ${expr}) AS p90`;

export function toDurations(row: { n: number; median: unknown; p90: unknown }): Durations {
  const num = (v: unknown) => (v === null || v === undefined ? null : Math.round(Number(v)));
  return { count: Number(row.n), median: num(row.median), p90: num(row.p90) };
}

/** A reply time counts only when the reply came after the arrival (we may write first in a dialog). */
export const FRT = sql`CASE WHEN u.first_reply_at >= u.arrived
  THEN extract(epoch FROM (u.first_reply_at - u.arrived)) END`;

export async function figures(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
  via: Via = 'auto',
): Promise<StatsFigures> {
  if (unitsFromRollup(f, p, via)) {
    // The counts from the rollup; the first response times from the units themselves (not summable).
    const counts = await rollupCounts(db, scope, f, p);
    const [frt] = await rows<{ n: number; median: unknown; p90: unknown }>(
      db,
      sql`SELECT ${durations(FRT)} FROM (${arrivalsSql(scope, f, p)}) u`,
    );
    const incoming = counts.items + counts.chats;
    return {
      incoming: { items: counts.items, chats: counts.chats, messages: counts.messages },
      replied: counts.replied,
      replied_share: incoming === 0 ? null : counts.replied / incoming,
      first_response: toDurations(frt!),
      closed: counts.closed,
    };
  }
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
export async function backlog(db: Db, scope: InboxScope, f: StatsFilters, via: Via = 'auto') {
  // Without a kind, tag or operator filter the counts are the badge counters' (inbox_counters, kept by
  // triggers per account and status: customer items of every kind, and dialogs) — the same numbers.
  const counters = via === 'auto' && !f.kind && !f.tag_id && !f.operator_id;
  const count = (unit: 'items' | 'chats') =>
    sql`(SELECT coalesce(sum(n.count), 0)::int FROM inbox_counters n
      WHERE n.kind = ${unit} AND n.status IN ${OPEN} AND ${accountWhere(scope, 'n', f)})`;
  const [row] = await rows<{ items: number; chats: number; oldest: string | null }>(
    db,
    sql`SELECT
      ${
        counters
          ? count('items')
          : sql`(SELECT count(*)::int FROM items i WHERE NOT i.is_own AND i.status IN ${OPEN}
         AND ${itemWhere(scope, 'i', f)})`
      } AS items,
      ${
        counters
          ? count('chats')
          : sql`(SELECT count(*)::int FROM chats c WHERE c.status IN ${OPEN}
         AND ${chatWhere(scope, 'c', f)})`
      } AS chats,
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
  via: Via = 'auto',
): Promise<StatsVolumeRow[]> {
  const tz = p.timezone;
  const day = (col: string) => sql`to_char((${sql.raw(col)} AT TIME ZONE ${tz})::date, 'YYYY-MM-DD')`;
  const rollup = unitsFromRollup(f, p, via) && (await daysOnWholeHours(db, p));
  const result = await rows<{ day: string; provider: string; kind: StatsKind | 'message'; n: number }>(
    db,
    rollup
      ? rollupVolumeSql(scope, f, p)
      : sql`SELECT x.day, o.provider, x.kind, count(*)::int AS n FROM (
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

/** The local date (YYYY-MM-DD) of an instant in the period's time zone. */
export const localDay = (p: StatsPeriod, col: SQL) =>
  sql`to_char((${col} AT TIME ZONE ${p.timezone})::date, 'YYYY-MM-DD')`;

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
): Promise<StatsTimeFigures> {
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
