import type { IssueStatsDto, StatsQuery } from '@otklik/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { issues } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { authorize, type ServerActor } from '../spaces/actor';
import { daysOf, resolvePeriod } from '../stats/period';
import { issueScope, scopeIssues } from './policy';

type Rows<T> = { rows: T[] };

/**
 * `stats/issues` (issue 16) on the statistics frame's query and period: per local day the tasks created,
 * closed and reaching their due moment while open (expired); per assignee and department the open,
 * closed and expired tasks of those created in the period; hours from creation to closing.
 */
export async function issueStats(
  db: Db,
  actor: ServerActor,
  q: StatsQuery,
  now: Date,
): Promise<IssueStatsDto> {
  authorize(actor, 'stats.view', q.space_id);
  authorize(actor, 'issues.view', q.space_id);
  const row = actor.rows.find((r) => r.space.id === q.space_id);
  if (!row) throw new AppError(403, 'error.noAccess');
  const period = await resolvePeriod(db, row.space.timezone, q, now);
  const scope = await issueScope(db, actor);
  const where = and(scopeIssues(scope), eq(issues.spaceId, q.space_id))!;
  const start = new Date(period.start * 1000).toISOString();
  const end = new Date(period.end * 1000).toISOString();
  const nowIso = now.toISOString();
  const tz = period.timezone;
  const day = (column: unknown) => sql`to_char((${column} AT TIME ZONE ${tz})::date, 'YYYY-MM-DD')`;
  const inPeriod = (column: unknown) =>
    sql`${column} >= ${start}::timestamptz AND ${column} < ${end}::timestamptz`;
  const perDay = (await db.execute(sql`
    SELECT d, sum(created)::int AS created, sum(closed)::int AS closed, sum(expired)::int AS expired FROM (
      SELECT ${day(issues.createdAt)} AS d, 1 AS created, 0 AS closed, 0 AS expired FROM ${issues}
        WHERE ${where} AND ${inPeriod(issues.createdAt)}
      UNION ALL SELECT ${day(issues.closedAt)}, 0, 1, 0 FROM ${issues}
        WHERE ${where} AND ${issues.closedAt} IS NOT NULL AND ${inPeriod(issues.closedAt)}
      UNION ALL SELECT ${day(issues.dueAt)}, 0, 0, 1 FROM ${issues}
        WHERE ${where} AND ${issues.dueAt} IS NOT NULL AND ${inPeriod(issues.dueAt)}
          AND ${issues.dueAt} < ${nowIso}::timestamptz
          AND (${issues.closedAt} IS NULL OR ${issues.closedAt} > ${issues.dueAt})
    ) x GROUP BY d`)) as unknown as Rows<{ d: string; created: number; closed: number; expired: number }>;
  const byDay = new Map(perDay.rows.map((r) => [r.d, r]));
  const days = (await daysOf(db, period)).map((d) => ({
    date: d.day,
    created: Number(byDay.get(d.day)?.created ?? 0),
    closed: Number(byDay.get(d.day)?.closed ?? 0),
    expired: Number(byDay.get(d.day)?.expired ?? 0),
  }));
  const groupBy = async (column: typeof issues.assignedUserId | typeof issues.departmentId) =>
    (
      (await db.execute(sql`
        SELECT ${column} AS k,
          count(*) FILTER (WHERE ${issues.status} <> 'closed')::int AS open,
          count(*) FILTER (WHERE ${issues.status} = 'closed')::int AS closed,
          count(*) FILTER (WHERE ${issues.status} <> 'closed' AND ${issues.dueAt} < ${nowIso}::timestamptz)::int AS expired
        FROM ${issues} WHERE ${where} AND ${inPeriod(issues.createdAt)}
        GROUP BY ${column} ORDER BY count(*) DESC`)) as unknown as Rows<{
        k: number | null;
        open: number;
        closed: number;
        expired: number;
      }>
    ).rows.map((r) => ({
      key: r.k === null ? null : Number(r.k),
      open: Number(r.open),
      closed: Number(r.closed),
      expired: Number(r.expired),
    }));
  const [assignees, depts] = await Promise.all([
    groupBy(issues.assignedUserId),
    groupBy(issues.departmentId),
  ]);
  const close = (await db.execute(sql`
    SELECT avg(h) AS mean, percentile_cont(0.5) WITHIN GROUP (ORDER BY h) AS median, count(*)::int AS n FROM (
      SELECT extract(epoch FROM (${issues.closedAt} - ${issues.createdAt})) / 3600 AS h FROM ${issues}
      WHERE ${where} AND ${issues.closedAt} IS NOT NULL AND ${inPeriod(issues.closedAt)}) x`)) as unknown as Rows<{
    mean: string | number | null;
    median: string | number | null;
    n: number;
  }>;
  const c = close.rows[0];
  const hours = (v: string | number | null | undefined) =>
    v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10;
  return {
    days,
    by_assignee: assignees.map(({ key, ...rest }) => ({ user_id: key, ...rest })),
    by_department: depts.map(({ key, ...rest }) => ({ department_id: key, ...rest })),
    close_hours: { mean: hours(c?.mean), median: hours(c?.median), count: Number(c?.n ?? 0) },
  };
}
