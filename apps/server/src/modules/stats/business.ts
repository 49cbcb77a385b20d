import {
  type BusinessSchedule,
  BusinessTimeline,
  type Durations,
  percentileDisc,
  STATS_TIME_BUCKETS,
  type StatsPeriod,
  type StatsTimeFigures,
} from '@otklik/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { InboxScope } from '../inbox/read/scope';
import type { BusinessCalendar } from '../workinghours/business-hours';
import { rows, type StatsFilters, unitFilters, unitsCte } from './queries';

// Business-hours durations (docs/statistics.md "Business hours"). The SQL cannot see a weekly schedule
// with holidays, special days, company overrides and DST, so the units of the period are read once —
// arrival, first reply, closing, the account's company, the first replier — and measured here against
// one timeline per schedule: O(units × log intervals) after one read bounded by the period's units.

interface UnitTimes {
  arrived: number;
  replied: number | null;
  closed: number | null;
  companyId: number | null;
  day: string;
  userId: number | null;
}

async function unitTimes(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
  withFirstReplier: boolean,
): Promise<UnitTimes[]> {
  const replier = withFirstReplier
    ? sql`(SELECT a.user_id FROM activity a
        WHERE a.type = (u.unit || '.replied') AND a.data->>'first' = 'true' AND a.cause_kind = 'user'
          AND (u.unit = 'item' AND a.item_id = u.id OR u.unit = 'chat' AND a.chat_id = u.id)
          AND a.space_id = o.space_id
        ORDER BY a.at, a.id LIMIT 1)`
    : sql`NULL::int`;
  const result = await rows<{
    a: unknown;
    r: unknown;
    c: unknown;
    company_id: number | null;
    day: string;
    uid: unknown;
  }>(
    db,
    sql`SELECT extract(epoch FROM u.arrived)::float8 AS a,
        extract(epoch FROM u.first_reply_at)::float8 AS r,
        extract(epoch FROM u.closed_at)::float8 AS c,
        o.company_id, to_char((u.arrived AT TIME ZONE ${p.timezone})::date, 'YYYY-MM-DD') AS day,
        ${replier} AS uid
      FROM (${unitsCte(scope, f, p)}) u JOIN objects o ON o.id = u.object_id`,
  );
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return result.map((r) => ({
    arrived: Number(r.a),
    replied: num(r.r),
    closed: num(r.c),
    companyId: r.company_id === null ? null : Number(r.company_id),
    day: r.day,
    userId: num(r.uid),
  }));
}

/** A measurer per schedule over [from, to]: the timeline is built once for all the units under it. */
function measurer(calendar: BusinessCalendar, units: UnitTimes[]) {
  let from = Number.POSITIVE_INFINITY;
  let to = 0;
  for (const u of units) {
    from = Math.min(from, u.arrived);
    to = Math.max(to, u.arrived + 1, u.replied ?? 0, u.closed ?? 0);
  }
  const timelines = new Map<BusinessSchedule, BusinessTimeline>();
  return (unit: UnitTimes, end: number | null): number | null => {
    if (end === null || end < unit.arrived) return null;
    const schedule = calendar.forCompany(unit.companyId);
    if (!schedule) return null;
    let timeline = timelines.get(schedule);
    if (!timeline) {
      timeline = new BusinessTimeline(schedule, from, to);
      timelines.set(schedule, timeline);
    }
    // Exact instants (microseconds), rounded once at the end like the calendar figures.
    return Math.round(timeline.seconds(unit.arrived, end));
  };
}

function durationsOf(values: number[]): Durations {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, median: percentileDisc(sorted, 0.5), p90: percentileDisc(sorted, 0.9) };
}

/** Counts per STATS_TIME_BUCKETS bucket (upper bound inclusive), as the calendar-time buckets. */
function bucketsOf(values: number[]): number[] {
  const counts: number[] = new Array(STATS_TIME_BUCKETS.length + 1).fill(0);
  for (const v of values) {
    const i = STATS_TIME_BUCKETS.findIndex((upper) => v <= upper);
    counts[i === -1 ? STATS_TIME_BUCKETS.length : i] += 1;
  }
  return counts;
}

/** First response time in business hours of the units of the period (the overview's FRT, business). */
export async function businessFirstResponse(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
  calendar: BusinessCalendar,
): Promise<Durations> {
  const units = await unitTimes(db, scope, f, p, false);
  const measure = measurer(calendar, units);
  return durationsOf(units.map((u) => measure(u, u.replied)).filter((v) => v !== null));
}

/** stats/time in business hours: FRT and resolution, median, p90, buckets, per-day medians. */
export async function businessTimes(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
  calendar: BusinessCalendar,
): Promise<StatsTimeFigures> {
  const units = await unitTimes(db, scope, f, p, false);
  const measure = measurer(calendar, units);
  const frt: number[] = [];
  const res: number[] = [];
  const perDay = new Map<string, { f: number[]; r: number[] }>();
  for (const u of units) {
    const day = perDay.get(u.day) ?? { f: [], r: [] };
    perDay.set(u.day, day);
    const a = measure(u, u.replied);
    const b = measure(u, u.closed);
    if (a !== null) {
      frt.push(a);
      day.f.push(a);
    }
    if (b !== null) {
      res.push(b);
      day.r.push(b);
    }
  }
  const median = (values: number[]) =>
    percentileDisc(
      [...values].sort((x, y) => x - y),
      0.5,
    );
  return {
    first_response: durationsOf(frt),
    resolution: durationsOf(res),
    buckets: { first_response: bucketsOf(frt), resolution: bucketsOf(res) },
    days: [...perDay.entries()]
      .sort(([x], [y]) => x.localeCompare(y))
      .map(([day, v]) => ({ day, first_response: median(v.f), resolution: median(v.r) })),
  };
}

/** Per first replier: the business-hours FRT of the units of the period they answered first. */
export async function businessFirstsByUser(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
  calendar: BusinessCalendar,
): Promise<Map<number, Durations>> {
  // As firstsQuery: the operator filter picks the first repliers, not the units' assignees.
  const units = await unitTimes(db, scope, unitFilters(f), p, true);
  const measure = measurer(calendar, units);
  const byUser = new Map<number, number[]>();
  for (const u of units) {
    if (u.userId === null || (f.operator_id && !f.operator_id.includes(u.userId))) continue;
    const v = measure(u, u.replied);
    if (v === null) continue;
    byUser.set(u.userId, [...(byUser.get(u.userId) ?? []), v]);
  }
  return new Map([...byUser.entries()].map(([id, values]) => [id, durationsOf(values)]));
}
