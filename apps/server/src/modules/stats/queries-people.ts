import type { StatsPeriod, StatsStatusRow, StatsWorkinghoursRow } from '@otklik/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { InboxScope } from '../inbox/read/scope';
import { at, chatWhere, itemWhere, list, OPEN, rows, type StatsFilters } from './queries';

// People and the wall (time in statuses, working hours, waiting now, members by status) under the
// definitions of docs/statistics.md; the shared conditions are in queries.ts.

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
