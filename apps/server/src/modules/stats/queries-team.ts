import type { StatsClosedRow, StatsOperatorRow, StatsOperatorTimeRow, StatsPeriod } from '@otklik/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { InboxScope } from '../inbox/read/scope';
import {
  activityWhere,
  at,
  durations,
  FRT,
  list,
  rows,
  type StatsFilters,
  toDurations,
  unitFilters,
  unitsCte,
} from './queries';
import { actionsFromRollup, firstsFromRollup, rollupActsSql, rollupFirstsSql, type Via } from './rollup';

// Team figures (team, closings, team time, one member): members' recorded actions (activity) and first
// replies, under the definitions of docs/statistics.md; the shared conditions are in queries.ts.

/**
 * Per user: the units that came in during the period whose first reply was theirs (`*.replied` activity
 * with `first`), with the count, median and p90 of those first response times. Without a tag filter the
 * pairs are read from stats_first_replies (kept by triggers, the same pairs; rollup.ts).
 */
function firstsQuery(
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
  onlyUserId: number | null,
  via: Via,
): SQL {
  const spaceIds = [...scope.spaces.keys()];
  const whoOf = (alias: string) => {
    const user = sql.raw(`${alias}.user_id`);
    return sql`${onlyUserId === null ? sql`true` : sql`${user} = ${onlyUserId}`}
    AND ${f.operator_id ? sql`${user} IN (${list(f.operator_id)})` : sql`true`}`;
  };
  if (firstsFromRollup(f, via)) return rollupFirstsSql(scope, unitFilters(f), p, whoOf('r'));
  const who = whoOf('a');
  // Items and dialogs joined apart (a unit is one or the other), so each join is on one indexed column.
  const firsts = (unit: 'item' | 'chat') => sql`SELECT a.user_id, u.arrived, u.first_reply_at
    FROM (${unitsCte(scope, unitFilters(f), p)}) u JOIN activity a ON a.${sql.raw(`${unit}_id`)} = u.id
    WHERE u.unit = ${unit} AND a.type = ${`${unit}.replied`} AND a.data->>'first' = 'true'
      AND a.cause_kind = 'user' AND a.space_id IN (${list(spaceIds)}) AND ${who}`;
  return sql`SELECT u.user_id, ${durations(FRT)}
    FROM (${firsts('item')} UNION ALL ${firsts('chat')}) u
    GROUP BY u.user_id`;
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
  via: Via = 'auto',
): Promise<StatsOperatorRow[]> {
  const who = onlyUserId === null ? sql`true` : sql`a.user_id = ${onlyUserId}`;
  const acts = actionsFromRollup(f, p, via)
    ? rollupActsSql(scope, f, p, onlyUserId === null ? sql`true` : sql`r.user_id = ${onlyUserId}`)
    : sql`SELECT a.user_id,
          count(*) FILTER (WHERE a.type IN ('item.replied', 'chat.replied'))::int AS replies,
          count(*) FILTER (WHERE a.type IN ('item.status', 'chat.status') AND a.data->>'to' = 'closed')::int AS closed
        FROM activity a
        WHERE a.cause_kind = 'user' AND a.user_id IS NOT NULL AND ${who}
          AND ${activityWhere(scope, f)}
          AND a.at >= ${at(p.start)} AND a.at < ${at(p.end)}
        GROUP BY a.user_id`;
  const result = await rows<{
    user_id: number;
    name: string;
    replies: number;
    closed: number;
    n: number;
    median: unknown;
  }>(
    db,
    sql`WITH acts AS (${acts}), firsts AS (${firstsQuery(scope, f, p, onlyUserId, via)})
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

/** Per operator: their first replies to the units of the period, with median and p90 (firstsQuery). */
export async function operatorTimes(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
  onlyUserId: number | null,
  via: Via = 'auto',
): Promise<StatsOperatorTimeRow[]> {
  const result = await rows<{ user_id: number; name: string; n: number; median: unknown; p90: unknown }>(
    db,
    sql`SELECT usr.id AS user_id, usr.name, x.n, x.median, x.p90
      FROM (${firstsQuery(scope, f, p, onlyUserId, via)}) x JOIN users usr ON usr.id = x.user_id
      ORDER BY x.median, usr.name, usr.id`,
  );
  return result.map((r) => ({
    user_id: Number(r.user_id),
    name: r.name,
    first_replies: toDurations(r),
    first_replies_business: null,
  }));
}
