import { presetDates, previousDates, type StatsPeriod, type StatsQuery } from '@otklik/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

// The period of a stats request: local dates of the space, turned into instants [start, end) by
// PostgreSQL's time-zone rules (a day is midnight to midnight in the space's zone, 23 or 25 hours long
// across a DST change).

/** Today's local date in `timezone` at `now`. */
export async function localToday(db: Db, timezone: string, now: Date): Promise<string> {
  const res = await db.execute(
    sql`SELECT to_char((${now.toISOString()}::timestamptz AT TIME ZONE ${timezone})::date, 'YYYY-MM-DD') AS d`,
  );
  return (res as unknown as { rows: { d: string }[] }).rows[0]!.d;
}

/** The instants local midnight of `from` and of the day after `to` in `timezone`, as unix seconds. */
async function instants(db: Db, timezone: string, from: string, to: string) {
  const res = await db.execute(sql`SELECT
      extract(epoch FROM (${from}::date::timestamp AT TIME ZONE ${timezone}))::bigint AS s,
      extract(epoch FROM ((${to}::date + 1)::timestamp AT TIME ZONE ${timezone}))::bigint AS e`);
  const row = (res as unknown as { rows: { s: string | number; e: string | number }[] }).rows[0]!;
  return { start: Number(row.s), end: Number(row.e) };
}

export async function resolvePeriod(
  db: Db,
  timezone: string,
  query: Pick<StatsQuery, 'preset' | 'from' | 'to'>,
  now: Date,
): Promise<StatsPeriod> {
  const dates =
    query.from && query.to
      ? { from: query.from, to: query.to }
      : presetDates(query.preset ?? '7d', await localToday(db, timezone, now));
  return { ...dates, timezone, ...(await instants(db, timezone, dates.from, dates.to)) };
}

export async function previousPeriod(db: Db, period: StatsPeriod): Promise<StatsPeriod> {
  const dates = previousDates(period.from, period.to);
  return {
    ...dates,
    timezone: period.timezone,
    ...(await instants(db, period.timezone, dates.from, dates.to)),
  };
}

/** Each local day of the period with its instants [start, end): 23 or 25 hours across a DST change. */
export async function daysOf(db: Db, period: StatsPeriod) {
  const res = await db.execute(sql`SELECT to_char(d, 'YYYY-MM-DD') AS day,
      extract(epoch FROM (d::timestamp AT TIME ZONE ${period.timezone}))::bigint AS s,
      extract(epoch FROM ((d + 1)::timestamp AT TIME ZONE ${period.timezone}))::bigint AS e
    FROM generate_series(${period.from}::date, ${period.to}::date, interval '1 day') AS g(t),
      LATERAL (SELECT g.t::date AS d) x ORDER BY d`);
  return (res as unknown as { rows: { day: string; s: unknown; e: unknown }[] }).rows.map((r) => ({
    day: r.day,
    start: Number(r.s),
    end: Number(r.e),
  }));
}
