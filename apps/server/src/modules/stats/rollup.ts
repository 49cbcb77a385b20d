import type { StatsPeriod } from '@otklik/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { InboxScope } from '../inbox/read/scope';
import {
  accountWhere,
  at,
  chatsIncluded,
  chatWhere,
  durations,
  itemKinds,
  itemWhere,
  list,
  rows,
  type StatsFilters,
} from './queries';

// The rollup path (docs/statistics.md "Rollups"): the counts of the overview, the volume and the team
// table summed from stats_hourly (kept by triggers, migration "stats_hourly") instead of counted over the
// raw rows. It answers the same definitions exactly, so each query takes it only when it can:
// - the period's bounds (and, for per-day figures, every local midnight in it) fall on whole UTC hours —
//   true for every zone with a whole-hour offset; a half- or quarter-hour zone (Asia/Kolkata,
//   Asia/Kathmandu, Australia/Adelaide…) reads the raw rows;
// - no tag filter (tags are not in the rollup), and for figures about items and dialogs no operator
//   filter (that one means "assigned now", which the rollup does not record). The team table's
//   operator filter picks the actors, which the rollup does record.
// `via: 'raw'` forces the raw rows (the tests compare both paths).

export type Via = 'auto' | 'raw';

const HOUR = 3600;

/** The rollup answers figures about items and dialogs over `p` under `f`. */
export function unitsFromRollup(f: StatsFilters, p: StatsPeriod, via: Via): boolean {
  return via === 'auto' && !f.tag_id && !f.operator_id && p.start % HOUR === 0 && p.end % HOUR === 0;
}

/** The rollup answers the members' actions over `p` under `f`. */
export function actionsFromRollup(f: StatsFilters, p: StatsPeriod, via: Via): boolean {
  return via === 'auto' && !f.tag_id && p.start % HOUR === 0 && p.end % HOUR === 0;
}

/**
 * The first replies table (stats_first_replies) answers the members' first replies over `p` under `f`.
 * It keeps each unit's exact arrival, so any period bound works; only the tag filter reads the raw rows.
 */
export function firstsFromRollup(f: StatsFilters, via: Via): boolean {
  return via === 'auto' && !f.tag_id;
}

/** Every local midnight of the period (and the one after it) falls on a whole UTC hour. */
export async function daysOnWholeHours(db: Db, p: StatsPeriod): Promise<boolean> {
  const [row] = await rows<{ ok: boolean | null }>(
    db,
    sql`SELECT bool_and(extract(epoch FROM (g::date::timestamp AT TIME ZONE ${p.timezone}))::bigint % ${HOUR} = 0) AS ok
      FROM generate_series(${p.from}::date, ${p.to}::date + 1, interval '1 day') g`,
  );
  return row?.ok === true;
}

/** The unit kinds the filter keeps: item kinds and 'chat' (dialogs), as the rollups record them. */
function kindsWhere(f: StatsFilters): SQL {
  const kinds: string[] = [...itemKinds(f), ...(chatsIncluded(f) ? ['chat'] : [])];
  return kinds.length > 0 ? sql`r.kind IN (${list(kinds)})` : sql`false`;
}

/** Rollup rows (as `r`) of the scope and filters (account, network, company, kind) within the period. */
function rollupWhere(scope: InboxScope, f: StatsFilters, p: StatsPeriod): SQL {
  return sql`${accountWhere(scope, 'r', f)} AND ${kindsWhere(f)}
    AND r.hour >= ${at(p.start)} AND r.hour < ${at(p.end)}`;
}

/** The overview's counts (figures in queries.ts): incoming, replied, customer messages, closed by reason. */
export async function rollupCounts(db: Db, scope: InboxScope, f: StatsFilters, p: StatsPeriod) {
  const [row] = await rows<Record<string, unknown>>(
    db,
    sql`SELECT coalesce(sum(r.units) FILTER (WHERE r.kind <> 'chat'), 0)::int AS items,
        coalesce(sum(r.units) FILTER (WHERE r.kind = 'chat'), 0)::int AS chats,
        coalesce(sum(r.replied), 0)::int AS replied, coalesce(sum(r.messages), 0)::int AS messages,
        coalesce(sum(r.closed_reply), 0)::int AS reply, coalesce(sum(r.closed_noreply), 0)::int AS noreply,
        coalesce(sum(r.closed_autorule), 0)::int AS autorule
      FROM stats_hourly r WHERE r.user_id = 0 AND ${rollupWhere(scope, f, p)}`,
  );
  const n = (key: string) => Number(row?.[key] ?? 0);
  return {
    items: n('items'),
    chats: n('chats'),
    replied: n('replied'),
    messages: n('messages'),
    closed: { reply: n('reply'), noreply: n('noreply'), autorule: n('autorule') },
  };
}

/**
 * The arrival and first reply of each unit of the period (unitsCte's `arrived`, `first_reply_at`), and
 * nothing else, so the indexes items_stats_arrival_idx and chats_space_arrived_idx answer it alone:
 * the first response times, which are not summable, come from here.
 */
export function arrivalsSql(scope: InboxScope, f: StatsFilters, p: StatsPeriod): SQL {
  return sql`SELECT i.created_at AS arrived, i.first_reply_at FROM items i
    WHERE NOT i.is_own AND ${itemWhere(scope, 'i', f)}
      AND i.created_at >= ${at(p.start)} AND i.created_at < ${at(p.end)}
    UNION ALL
    SELECT c.arrived_at, c.first_reply_at FROM chats c
    WHERE ${chatWhere(scope, 'c', f)} AND c.arrived_at >= ${at(p.start)} AND c.arrived_at < ${at(p.end)}`;
}

/** Incoming per local day, network and kind ('message' for customer messages), as queries.ts volume. */
export function rollupVolumeSql(scope: InboxScope, f: StatsFilters, p: StatsPeriod): SQL {
  const day = sql`to_char((r.hour AT TIME ZONE ${p.timezone})::date, 'YYYY-MM-DD')`;
  return sql`SELECT x.day, o.provider, x.kind, sum(x.n)::int AS n FROM (
      SELECT ${day} AS day, r.object_id, r.kind, r.units AS n FROM stats_hourly r
      WHERE r.user_id = 0 AND r.units <> 0 AND ${rollupWhere(scope, f, p)}
      UNION ALL
      SELECT ${day}, r.object_id, 'message', r.messages FROM stats_hourly r
      WHERE r.user_id = 0 AND r.kind = 'chat' AND r.messages <> 0 AND ${rollupWhere(scope, f, p)}
    ) x JOIN objects o ON o.id = x.object_id
    GROUP BY x.day, o.provider, x.kind HAVING sum(x.n) > 0 ORDER BY x.day, o.provider, x.kind`;
}

/**
 * The team table's actions per member (operators in queries-team.ts, the `acts` CTE): every recorded
 * action by them in the period (so a member who only assigned still gets a row), replies, closings.
 */
export function rollupActsSql(scope: InboxScope, f: StatsFilters, p: StatsPeriod, who: SQL): SQL {
  const by = f.operator_id ? sql`r.user_id IN (${list(f.operator_id)})` : sql`true`;
  return sql`SELECT r.user_id, sum(r.replies)::int AS replies, sum(r.closings)::int AS closed
    FROM stats_hourly r
    WHERE r.user_id <> 0 AND ${who} AND ${by} AND ${rollupWhere(scope, { ...f, operator_id: undefined }, p)}
    GROUP BY r.user_id HAVING sum(r.acts) > 0`;
}

/**
 * Per member: the count, median and p90 of the first response times of the period's units they answered
 * first (firstsQuery in queries-team.ts), from stats_first_replies: one index range of the period's
 * arrivals (stats_first_replies_arrival_idx) instead of the units joined to the activity log. `f` is the
 * units' filters (account, network, company, kind); `who` the actors (r.user_id).
 */
export function rollupFirstsSql(scope: InboxScope, f: StatsFilters, p: StatsPeriod, who: SQL): SQL {
  return sql`SELECT r.user_id, ${durations(sql`r.frt`)}
    FROM stats_first_replies r
    WHERE ${accountWhere(scope, 'r', f)} AND ${kindsWhere(f)} AND ${who}
      AND r.arrived >= ${at(p.start)} AND r.arrived < ${at(p.end)}
    GROUP BY r.user_id`;
}
