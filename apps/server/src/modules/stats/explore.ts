import {
  STATS_EXPLORE_MAX_ROWS,
  STATS_EXPLORE_TOP,
  STATS_KINDS,
  type StatsExplore,
  type StatsExploreQuery,
  type StatsExploreRow,
  type StatsKind,
  type StatsPeriod,
} from '@otklik/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, memberships, objects, tags, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { InboxScope } from '../inbox/read/scope';
import type { ServerActor } from '../spaces/actor';
import type { BusinessCalendar } from '../workinghours/business-hours';
import { businessFirstResponse } from './business';
import { daysOf, resolvePeriod } from './period';
import { figures, type StatsFilters, rows as sqlRows, times, unitsCte } from './queries';
import { calendarOf, compared, contextFor } from './service';

// /analytics (docs/statistics.md "Analytics"): the overview's figures split by one dimension. There is no
// second definition here: a row is the same figures(), times() and business FRT as the tabs, run with
// that dimension's value added to the filters (or over one time bucket of the period), so it counts
// exactly what its drill-down lists. The cost is one set of queries per row, hence the row limits.

type Row = Omit<StatsExploreRow, 'key' | 'name'>;
interface Candidate {
  key: string;
  name: string | null;
  filters: StatsFilters;
}

async function measure(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
  calendar: BusinessCalendar | null,
): Promise<Row> {
  return {
    start: p.start,
    end: p.end,
    figures: await figures(db, scope, f, p),
    resolution: (await times(db, scope, f, p)).resolution,
    business: calendar ? await businessFirstResponse(db, scope, f, p, calendar) : null,
  };
}

/** The period cut into local days, ISO weeks (Monday first) or calendar months, clipped to the period. */
async function buckets(db: Db, p: StatsPeriod, by: 'day' | 'week' | 'month'): Promise<StatsPeriod[]> {
  const days = await daysOf(db, p);
  const keyOf = (day: string) => {
    if (by === 'day') return day;
    if (by === 'month') return day.slice(0, 7);
    const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday = 0
    return new Date(Date.parse(`${day}T00:00:00Z`) - weekday * 86_400_000).toISOString().slice(0, 10);
  };
  const out: StatsPeriod[] = [];
  let key: string | null = null;
  for (const d of days) {
    const k = keyOf(d.day);
    const last = out[out.length - 1];
    if (k === key && last) {
      last.to = d.day;
      last.end = d.end;
    } else out.push({ from: d.day, to: d.day, timezone: p.timezone, start: d.start, end: d.end });
    key = k;
  }
  return out;
}

/** The accounts of the scope that the account filters keep. */
async function accountsOf(db: Db, scope: InboxScope, spaceId: number, f: StatsFilters) {
  const allowed = scope.spaces.get(spaceId);
  const list = await db
    .select({ id: objects.id, name: objects.name, provider: objects.provider, companyId: objects.companyId })
    .from(objects)
    .where(eq(objects.spaceId, spaceId))
    .orderBy(objects.name, objects.id);
  return list.filter(
    (o) =>
      (allowed === null || allowed?.includes(o.id)) &&
      (!f.object_id || f.object_id.includes(o.id)) &&
      (!f.provider || f.provider.includes(o.provider as never)) &&
      (!f.company_id || (o.companyId !== null && f.company_id.includes(o.companyId))),
  );
}

/** The values of a non-time dimension the caller may see and the filters keep, each with its filters. */
async function candidates(
  db: Db,
  actor: ServerActor,
  scope: InboxScope,
  q: StatsExploreQuery,
): Promise<Candidate[]> {
  const spaceId = q.space_id;
  switch (q.by) {
    case 'provider': {
      const providers = [...new Set((await accountsOf(db, scope, spaceId, q)).map((o) => o.provider))];
      return providers.sort().map((provider) => ({
        key: provider,
        name: null,
        filters: { ...q, provider: [provider as never] },
      }));
    }
    case 'object':
      return (await accountsOf(db, scope, spaceId, q)).map((o) => ({
        key: String(o.id),
        name: o.name,
        filters: { ...q, object_id: [o.id] },
      }));
    case 'company': {
      const list = await db
        .select({ id: companies.id, name: companies.name })
        .from(companies)
        .where(eq(companies.spaceId, spaceId))
        .orderBy(companies.name, companies.id);
      return list
        .filter((c) => !q.company_id || q.company_id.includes(c.id))
        .map((c) => ({ key: String(c.id), name: c.name, filters: { ...q, company_id: [c.id] } }));
    }
    case 'kind':
      return STATS_KINDS.filter((k) => !q.kind || q.kind.includes(k)).map((k: StatsKind) => ({
        key: k,
        name: null,
        filters: { ...q, kind: [k] },
      }));
    case 'tag': {
      const list = await db
        .select({ id: tags.id, name: tags.name })
        .from(tags)
        .where(eq(tags.spaceId, spaceId))
        .orderBy(tags.name, tags.id);
      return list
        .filter((tag) => !q.tag_id || q.tag_id.includes(tag.id))
        .map((tag) => ({ key: String(tag.id), name: tag.name, filters: { ...q, tag_id: [tag.id] } }));
    }
    case 'operator': {
      // Members, as the people tabs list them: a caller limited to a user group sees the group's members.
      const limited = scope.spaces.get(spaceId) !== null;
      const groupId = actor.rows.find((r) => r.space.id === spaceId)?.membership.groupId ?? -1;
      const list = await db
        .select({ id: users.id, name: users.name })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(
          and(
            eq(memberships.spaceId, spaceId),
            limited ? eq(memberships.groupId, groupId) : undefined,
            q.operator_id ? inArray(memberships.userId, q.operator_id) : undefined,
          ),
        )
        .orderBy(users.name, users.id);
      return list.map((u) => ({ key: String(u.id), name: u.name, filters: { ...q, operator_id: [u.id] } }));
    }
    default:
      return [];
  }
}

/** Incoming units of the period (unitsCte: the overview's "incoming") per value of the dimension. */
async function incomingBy(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
  by: StatsExploreQuery['by'],
): Promise<Map<string, number>> {
  const key =
    by === 'provider'
      ? sql`(SELECT provider FROM objects WHERE id = u.object_id)`
      : by === 'company'
        ? sql`(SELECT company_id FROM objects WHERE id = u.object_id)::text`
        : by === 'operator'
          ? sql`(CASE WHEN u.unit = 'item' THEN (SELECT assigned_user_id FROM items WHERE id = u.id)
              ELSE (SELECT assigned_user_id FROM chats WHERE id = u.id) END)::text`
          : sql`u.object_id::text`;
  const query =
    by === 'tag'
      ? sql`SELECT tg.tag_id::text AS k, count(*)::int AS n FROM (${unitsCte(scope, f, p)}) u
          JOIN (SELECT 'item' AS unit, item_id AS id, tag_id FROM item_tags
                UNION ALL SELECT 'chat', chat_id, tag_id FROM chat_tags) tg ON tg.unit = u.unit AND tg.id = u.id
          GROUP BY 1`
      : sql`SELECT ${key} AS k, count(*)::int AS n FROM (${unitsCte(scope, f, p)}) u GROUP BY 1`;
  const result = await sqlRows<{ k: string | null; n: number }>(db, query);
  return new Map(result.filter((r) => r.k !== null).map((r) => [String(r.k), Number(r.n)]));
}

export async function exploreOf(
  db: Db,
  actor: ServerActor,
  q: StatsExploreQuery,
  now: Date,
): Promise<StatsExplore> {
  const { scope, timezone } = await contextFor(db, actor, 'analytics.view', q.space_id);
  const period = await resolvePeriod(db, timezone, q, now);
  const calendar = await calendarOf(db, q.space_id, timezone);
  const timeBased = q.by === 'day' || q.by === 'week' || q.by === 'month';

  // Non-time dimensions: the top values by incoming in the period (ties by name), chosen once, so the
  // previous period's rows are the same values.
  let chosen: Candidate[] = [];
  if (!timeBased) {
    const all = await candidates(db, actor, scope, q);
    if (all.length > STATS_EXPLORE_TOP && q.by !== 'kind') {
      const counts = await incomingBy(db, scope, q, period, q.by);
      chosen = all
        .map((c, i) => ({ c, i, n: counts.get(c.key) ?? 0 }))
        .sort((a, b) => b.n - a.n || a.i - b.i)
        .slice(0, STATS_EXPLORE_TOP)
        .map((x) => x.c);
    } else chosen = all;
  }

  const run = async (p: StatsPeriod) => {
    const rows: StatsExploreRow[] = [];
    if (timeBased) {
      const parts = await buckets(db, p, q.by as 'day' | 'week' | 'month');
      if (parts.length > STATS_EXPLORE_MAX_ROWS)
        throw new AppError(400, 'stats.explore.tooManyRows', { params: { max: STATS_EXPLORE_MAX_ROWS } });
      for (const part of parts)
        rows.push({ key: part.from, name: null, ...(await measure(db, scope, q, part, calendar)) });
    } else
      for (const c of chosen)
        rows.push({ key: c.key, name: c.name, ...(await measure(db, scope, c.filters, p, calendar)) });
    return { total: await measure(db, scope, q, p, calendar), rows };
  };
  return { period, by: q.by, ...(await run(period)), previous: await compared(db, q, period, run) };
}
