import type { RuleStats, StatsQuery } from '@otklik/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ruleMatches, rules } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { authorize, type ServerActor } from '../spaces/actor';
import { daysOf, resolvePeriod } from '../stats/period';

type Rows<T> = { rows: T[] };

/**
 * `stats/rules` (issue 17) on the statistics frame's query and period: per rule and local day, the items
 * it matched, the actions it did and the runs that failed (rule_matches on (space, at)).
 */
export async function ruleStats(db: Db, actor: ServerActor, q: StatsQuery, now: Date): Promise<RuleStats> {
  authorize(actor, 'stats.view', q.space_id);
  authorize(actor, 'rules.manage', q.space_id);
  const row = actor.rows.find((r) => r.space.id === q.space_id);
  if (!row) throw new AppError(403, 'error.noAccess');
  const period = await resolvePeriod(db, row.space.timezone, q, now);
  const start = new Date(period.start * 1000).toISOString();
  const end = new Date(period.end * 1000).toISOString();
  const tz = period.timezone;
  const result = (await db.execute(sql`
    SELECT r.id AS rule_id, r.name, to_char((m.at AT TIME ZONE ${tz})::date, 'YYYY-MM-DD') AS d,
      count(m.id)::int AS matches, coalesce(sum(m.actions_done), 0)::int AS actions,
      count(m.id) FILTER (WHERE m.status = 'failed')::int AS failed
    FROM ${rules} r JOIN ${ruleMatches} m ON m.rule_id = r.id
      AND m.space_id = ${q.space_id} AND m.at >= ${start}::timestamptz AND m.at < ${end}::timestamptz
    WHERE r.space_id = ${q.space_id}
    GROUP BY r.id, r.name, d`)) as unknown as Rows<{
    rule_id: number;
    name: string;
    d: string;
    matches: number;
    actions: number;
    failed: number;
  }>;
  const all = await db
    .select({ id: rules.id, name: rules.name, position: rules.position })
    .from(rules)
    .where(sql`${rules.spaceId} = ${q.space_id}`)
    .orderBy(rules.position, rules.id);
  const days = (await daysOf(db, period)).map((d) => d.day);
  return {
    days,
    rules: all.map((r) => {
      const mine = result.rows.filter((x) => Number(x.rule_id) === r.id);
      const byDay = new Map(mine.map((x) => [x.d, x]));
      return {
        rule_id: r.id,
        name: r.name,
        matches: mine.reduce((s, x) => s + Number(x.matches), 0),
        actions: mine.reduce((s, x) => s + Number(x.actions), 0),
        failed: mine.reduce((s, x) => s + Number(x.failed), 0),
        by_day: days.map((day) => ({
          day,
          matches: Number(byDay.get(day)?.matches ?? 0),
          actions: Number(byDay.get(day)?.actions ?? 0),
          failed: Number(byDay.get(day)?.failed ?? 0),
        })),
      };
    }),
  };
}
