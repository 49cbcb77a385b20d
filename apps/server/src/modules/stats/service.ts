import {
  type Ability,
  can,
  type StatsClosed,
  type StatsDashboard,
  type StatsEmotions,
  type StatsHours,
  type StatsLive,
  type StatsLiveQueue,
  type StatsOperators,
  type StatsOperatorTimes,
  type StatsOverview,
  type StatsPeriod,
  type StatsPerson,
  type StatsPersonFigures,
  type StatsPosts,
  type StatsQuery,
  type StatsStatuses,
  type StatsTags,
  type StatsTime,
  type StatsVolume,
  type StatsWorkinghours,
} from '@otklik/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { issues, memberships, userStatuses, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type InboxScope, scopeFor } from '../inbox/read/scope';
import { issueScope, scopeIssues } from '../issues/policy';
import { expiredAt } from '../issues/queries';
import type { ServerActor } from '../spaces/actor';
import { type BusinessCalendar, loadBusinessCalendar } from '../workinghours/business-hours';
import { businessFirstResponse, businessFirstsByUser, businessTimes } from './business';
import { daysOf, previousPeriod, resolvePeriod } from './period';
import { backlog, figures, hours, times, volume } from './queries';
import { emotions, postsOf, tagsOverTime } from './queries-content';
import { membersByStatus, type PeopleScope, statusTimes, waitingNow, workingTimes } from './queries-people';
import { closedBy, operators, operatorTimes } from './queries-team';

// Statistics for one space: the caller's scope (their user group's accounts when limited) within the
// requested space, the period in that space's time zone, then the queries (queries.ts).

interface Context {
  scope: InboxScope;
  timezone: string;
}

/** The space's business-hours calendar, or null when it has no schedule (business figures are null). */
export async function calendarOf(
  db: Db,
  spaceId: number,
  timezone: string,
): Promise<BusinessCalendar | null> {
  const calendar = await loadBusinessCalendar(db, spaceId, timezone);
  return calendar.empty ? null : calendar;
}

/** The scope of `ability` narrowed to the requested space; 403 when the caller may not see it. */
export async function contextFor(
  db: Db,
  actor: ServerActor,
  ability: Ability,
  spaceId: number,
): Promise<Context> {
  const full = await scopeFor(db, actor, ability);
  const row = actor.rows.find((r) => r.space.id === spaceId);
  if (!full.spaces.has(spaceId) || !row) throw new AppError(403, 'error.noAccess');
  return { scope: { spaces: new Map([[spaceId, full.spaces.get(spaceId)!]]) }, timezone: row.space.timezone };
}

/**
 * With compare=1: `run` again over the previous period of the same length (the same queries over the
 * shifted period — docs/statistics.md "Comparison"); null without it.
 */
export async function compared<T>(
  db: Db,
  q: StatsQuery,
  period: StatsPeriod,
  run: (p: StatsPeriod) => Promise<T>,
): Promise<(T & { period: StatsPeriod }) | null> {
  if (!q.compare) return null;
  const prev = await previousPeriod(db, period);
  return { ...(await run(prev)), period: prev };
}

export async function overview(db: Db, actor: ServerActor, q: StatsQuery, now: Date): Promise<StatsOverview> {
  const { scope, timezone } = await contextFor(db, actor, 'stats.view', q.space_id);
  const period = await resolvePeriod(db, timezone, q, now);
  const prev = q.compare ? await previousPeriod(db, period) : null;
  const calendar = await calendarOf(db, q.space_id, timezone);
  const byProvider = new Map<string, { provider: string; items: number; chats: number; messages: number }>();
  for (const row of await volume(db, scope, q, period)) {
    const entry = byProvider.get(row.provider) ?? { provider: row.provider, items: 0, chats: 0, messages: 0 };
    if (row.kind === 'message') entry.messages += row.count;
    else if (row.kind === 'chat') entry.chats += row.count;
    else entry.items += row.count;
    byProvider.set(row.provider, entry);
  }
  return {
    period,
    current: await figures(db, scope, q, period),
    previous: await compared(db, q, period, (p) => figures(db, scope, q, p)),
    backlog: await backlog(db, scope, q),
    by_provider: [...byProvider.values()].sort(
      (a, b) => b.items + b.messages - (a.items + a.messages) || a.provider.localeCompare(b.provider),
    ),
    business: calendar
      ? {
          current: await businessFirstResponse(db, scope, q, period, calendar),
          previous: prev ? await businessFirstResponse(db, scope, q, prev, calendar) : null,
        }
      : null,
  };
}

export async function emotionsOf(
  db: Db,
  actor: ServerActor,
  q: StatsQuery,
  now: Date,
): Promise<StatsEmotions> {
  const { scope, timezone } = await contextFor(db, actor, 'stats.view', q.space_id);
  const period = await resolvePeriod(db, timezone, q, now);
  return { period, ...(await emotions(db, scope, q, period)) };
}

export async function volumeOf(db: Db, actor: ServerActor, q: StatsQuery, now: Date): Promise<StatsVolume> {
  const { scope, timezone } = await contextFor(db, actor, 'stats.view', q.space_id);
  const period = await resolvePeriod(db, timezone, q, now);
  const run = async (p: StatsPeriod) => ({ days: await daysOf(db, p), rows: await volume(db, scope, q, p) });
  return { period, ...(await run(period)), previous: await compared(db, q, period, run) };
}

export async function hoursOf(db: Db, actor: ServerActor, q: StatsQuery, now: Date): Promise<StatsHours> {
  const { scope, timezone } = await contextFor(db, actor, 'stats.view', q.space_id);
  const period = await resolvePeriod(db, timezone, q, now);
  const run = async (p: StatsPeriod) => ({ cells: await hours(db, scope, q, p) });
  return { period, ...(await run(period)), previous: await compared(db, q, period, run) };
}

/** Everyone's rows with stats.view; only the caller's own row with stats.viewOwn alone. */
export async function operatorsOf(
  db: Db,
  actor: ServerActor,
  q: StatsQuery,
  now: Date,
): Promise<StatsOperators> {
  let context: Context;
  let only: number | null = null;
  try {
    context = await contextFor(db, actor, 'stats.view', q.space_id);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    context = await contextFor(db, actor, 'stats.viewOwn', q.space_id);
    only = actor.userId;
  }
  const period = await resolvePeriod(db, context.timezone, q, now);
  const calendar = await calendarOf(db, q.space_id, context.timezone);
  const run = async (p: StatsPeriod) => {
    const rows = await operators(db, context.scope, q, p, only);
    if (calendar) {
      const business = await businessFirstsByUser(db, context.scope, q, p, calendar);
      for (const row of rows) row.frt_median_business = business.get(row.user_id)?.median ?? null;
    }
    return { rows };
  };
  return { period, ...(await run(period)), previous: await compared(db, q, period, run) };
}

/** The space's scope and the resolved period for an endpoint that needs stats.view. */
async function viewed(db: Db, actor: ServerActor, q: StatsQuery, now: Date) {
  const { scope, timezone } = await contextFor(db, actor, 'stats.view', q.space_id);
  return { scope, period: await resolvePeriod(db, timezone, q, now) };
}

export async function tagsOf(db: Db, actor: ServerActor, q: StatsQuery, now: Date): Promise<StatsTags> {
  const { scope, period } = await viewed(db, actor, q, now);
  const run = async (p: StatsPeriod) => ({
    days: await daysOf(db, p),
    ...(await tagsOverTime(db, scope, q, p)),
  });
  return { period, ...(await run(period)), previous: await compared(db, q, period, run) };
}

export async function postsStats(db: Db, actor: ServerActor, q: StatsQuery, now: Date): Promise<StatsPosts> {
  const { scope, period } = await viewed(db, actor, q, now);
  return { period, rows: await postsOf(db, scope, q, period) };
}

export async function closedOf(db: Db, actor: ServerActor, q: StatsQuery, now: Date): Promise<StatsClosed> {
  const { scope, period } = await viewed(db, actor, q, now);
  const run = async (p: StatsPeriod) => ({ rows: await closedBy(db, scope, q, p, null) });
  return { period, ...(await run(period)), previous: await compared(db, q, period, run) };
}

export async function timeOf(db: Db, actor: ServerActor, q: StatsQuery, now: Date): Promise<StatsTime> {
  const { scope, period } = await viewed(db, actor, q, now);
  const run = (p: StatsPeriod) => times(db, scope, q, p);
  const calendar = await calendarOf(db, q.space_id, period.timezone);
  return {
    period,
    ...(await run(period)),
    previous: await compared(db, q, period, run),
    business: calendar ? await businessTimes(db, scope, q, period, calendar) : null,
  };
}

export async function operatorTimesOf(
  db: Db,
  actor: ServerActor,
  q: StatsQuery,
  now: Date,
): Promise<StatsOperatorTimes> {
  const { scope, period } = await viewed(db, actor, q, now);
  const calendar = await calendarOf(db, q.space_id, period.timezone);
  const run = async (p: StatsPeriod) => {
    const rows = await operatorTimes(db, scope, q, p, null);
    if (calendar) {
      const business = await businessFirstsByUser(db, scope, q, p, calendar);
      for (const row of rows) row.first_replies_business = business.get(row.user_id) ?? EMPTY_DURATIONS;
    }
    return { rows };
  };
  return { period, ...(await run(period)), previous: await compared(db, q, period, run) };
}

const EMPTY_DURATIONS = { count: 0, median: null, p90: null };

/** One person's figures within the caller's scope: the operators row, closings by how, first replies. */
async function person(
  db: Db,
  context: Context,
  q: StatsQuery,
  now: Date,
  userId: number,
): Promise<StatsPerson> {
  const [member] = await db
    .select({ id: users.id, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.spaceId, q.space_id), eq(memberships.userId, userId)))
    .limit(1);
  if (!member) throw new AppError(404, 'error.notFound');
  const period = await resolvePeriod(db, context.timezone, q, now);
  const calendar = await calendarOf(db, q.space_id, context.timezone);
  const figuresOf = async (p: StatsPeriod): Promise<StatsPersonFigures> => {
    const [row] = await operators(db, context.scope, q, p, userId);
    const [closed] = await closedBy(db, context.scope, q, p, userId);
    const [firsts] = await operatorTimes(db, context.scope, q, p, userId);
    const business = calendar
      ? ((await businessFirstsByUser(db, context.scope, q, p, calendar)).get(userId) ?? EMPTY_DURATIONS)
      : null;
    if (row && business) row.frt_median_business = business.median;
    return {
      row: row ?? {
        user_id: userId,
        name: member.name,
        replies: 0,
        closed: 0,
        first_replies: 0,
        frt_median: null,
        frt_median_business: null,
      },
      closed: closed ?? { user_id: userId, name: member.name, reply: 0, noreply: 0, autorule: 0, total: 0 },
      first_replies: firsts?.first_replies ?? EMPTY_DURATIONS,
      first_replies_business: business,
    };
  };
  return {
    period,
    user: member,
    ...(await figuresOf(period)),
    previous: await compared(db, q, period, figuresOf),
  };
}

/** stats/my: the caller's own figures (stats.viewOwn or stats.view). */
export async function myStats(db: Db, actor: ServerActor, q: StatsQuery, now: Date): Promise<StatsPerson> {
  let context: Context;
  try {
    context = await contextFor(db, actor, 'stats.view', q.space_id);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    context = await contextFor(db, actor, 'stats.viewOwn', q.space_id);
  }
  return person(db, context, q, now, actor.userId);
}

/** stats/users/:id: one member's figures, for those who may see everyone's (stats.view). */
export async function userStats(
  db: Db,
  actor: ServerActor,
  q: StatsQuery,
  now: Date,
  userId: number,
): Promise<StatsPerson> {
  return person(db, await contextFor(db, actor, 'stats.view', q.space_id), q, now, userId);
}

// People tabs (statuses, working hours): rows are members, not accounts, so a caller limited to a user
// group sees the members of that group only.

function peopleOf(actor: ServerActor, context: Context, q: StatsQuery, userId?: number): PeopleScope {
  const spaceId = q.space_id;
  const limited = context.scope.spaces.get(spaceId) !== null;
  const groupId = actor.rows.find((r) => r.space.id === spaceId)?.membership.groupId ?? null;
  return {
    spaceId,
    ...(limited ? { groupId: groupId ?? -1 } : {}),
    ...(userId === undefined ? {} : { userId }),
    // The operator filter keeps these members' rows (docs/statistics.md "Filters").
    ...(q.operator_id ? { userIds: q.operator_id } : {}),
  };
}

/** The context for the caller's own figures: stats.view, else stats.viewOwn. */
async function ownContext(db: Db, actor: ServerActor, spaceId: number): Promise<Context> {
  try {
    return await contextFor(db, actor, 'stats.view', spaceId);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return contextFor(db, actor, 'stats.viewOwn', spaceId);
  }
}

/** 404 unless `userId` is a member of the space the caller may see (their group's, when limited). */
async function visibleMember(db: Db, people: PeopleScope) {
  const [member] = await db
    .select({ id: users.id, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.spaceId, people.spaceId),
        eq(memberships.userId, people.userId!),
        people.groupId === undefined ? undefined : eq(memberships.groupId, people.groupId),
      ),
    )
    .limit(1);
  if (!member) throw new AppError(404, 'error.notFound');
}

async function statusesFor(
  db: Db,
  context: Context,
  people: PeopleScope,
  q: StatsQuery,
  now: Date,
): Promise<StatsStatuses> {
  const period = await resolvePeriod(db, context.timezone, q, now);
  const statuses = await db
    .select({
      id: userStatuses.id,
      name: userStatuses.name,
      color: userStatuses.color,
      workinghours: userStatuses.workinghours,
      offline: userStatuses.offline,
    })
    .from(userStatuses)
    .where(eq(userStatuses.spaceId, people.spaceId))
    .orderBy(asc(userStatuses.position), asc(userStatuses.id));
  return {
    period,
    statuses,
    rows: await statusTimes(db, people, period, now),
    previous: await compared(db, q, period, async (p) => ({ rows: await statusTimes(db, people, p, now) })),
  };
}

/** stats/users/statuses: every visible member's time per status (stats.view). */
export async function statusesOf(db: Db, actor: ServerActor, q: StatsQuery, now: Date) {
  const context = await contextFor(db, actor, 'stats.view', q.space_id);
  return statusesFor(db, context, peopleOf(actor, context, q), q, now);
}

/** stats/my/statuses: the caller's own time per status (stats.viewOwn or stats.view). */
export async function myStatuses(db: Db, actor: ServerActor, q: StatsQuery, now: Date) {
  const context = await ownContext(db, actor, q.space_id);
  return statusesFor(db, context, { spaceId: q.space_id, userId: actor.userId }, q, now);
}

/** stats/users/:id/statuses: one member's time per status (stats.view). */
export async function userStatusesOf(db: Db, actor: ServerActor, q: StatsQuery, now: Date, userId: number) {
  const context = await contextFor(db, actor, 'stats.view', q.space_id);
  const people = peopleOf(actor, context, q, userId);
  await visibleMember(db, people);
  return statusesFor(db, context, people, q, now);
}

/** stats/users/workinghours: scheduled slots against working-status time per member (stats.view). */
export async function workinghoursOf(
  db: Db,
  actor: ServerActor,
  q: StatsQuery,
  now: Date,
): Promise<StatsWorkinghours> {
  const context = await contextFor(db, actor, 'stats.view', q.space_id);
  return workinghoursFor(db, context, peopleOf(actor, context, q), q, now);
}

/** stats/users/:id/workinghours: one member's (stats.view). */
export async function userWorkinghoursOf(
  db: Db,
  actor: ServerActor,
  q: StatsQuery,
  now: Date,
  userId: number,
): Promise<StatsWorkinghours> {
  const context = await contextFor(db, actor, 'stats.view', q.space_id);
  const people = peopleOf(actor, context, q, userId);
  await visibleMember(db, people);
  return workinghoursFor(db, context, people, q, now);
}

async function workinghoursFor(
  db: Db,
  context: Context,
  people: PeopleScope,
  q: StatsQuery,
  now: Date,
): Promise<StatsWorkinghours> {
  const period = await resolvePeriod(db, context.timezone, q, now);
  return {
    period,
    rows: await workingTimes(db, people, period, now),
    previous: await compared(db, q, period, async (p) => ({ rows: await workingTimes(db, people, p, now) })),
  };
}

/**
 * stats/dashboard: today's and the last 7 days' figures (the overview's query), open now (backlog),
 * tasks past due now, and per day of the 7 days incoming (volume) and median first response (times).
 * The period picker does not apply; the filters do (not to tasks, which have no network or account).
 */
export async function dashboardOf(
  db: Db,
  actor: ServerActor,
  q: StatsQuery,
  now: Date,
): Promise<StatsDashboard> {
  const { scope, timezone } = await contextFor(db, actor, 'stats.view', q.space_id);
  const today = await resolvePeriod(db, timezone, { preset: 'today' }, now);
  const week = await resolvePeriod(db, timezone, { preset: '7d' }, now);
  const incoming = new Map<string, number>();
  for (const row of await volume(db, scope, q, week))
    if (row.kind !== 'message') incoming.set(row.day, (incoming.get(row.day) ?? 0) + row.count);
  const frt = new Map((await times(db, scope, q, week)).days.map((d) => [d.day, d.first_response]));
  let expired: number | null = null;
  if (can(actor, 'issues.view', q.space_id)) {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(issues)
      .where(and(scopeIssues(await issueScope(db, actor)), eq(issues.spaceId, q.space_id), expiredAt(now)));
    expired = Number(row?.n ?? 0);
  }
  const calendar = await calendarOf(db, q.space_id, timezone);
  return {
    today,
    week,
    business: calendar
      ? {
          today: await businessFirstResponse(db, scope, q, today, calendar),
          week: await businessFirstResponse(db, scope, q, week, calendar),
        }
      : null,
    figures: { today: await figures(db, scope, q, today), week: await figures(db, scope, q, week) },
    backlog: await backlog(db, scope, q),
    expired_tasks: expired,
    days: (await daysOf(db, week)).map((d) => ({
      day: d.day,
      incoming: incoming.get(d.day) ?? 0,
      first_response: frt.get(d.day) ?? null,
    })),
  };
}

/**
 * stats/live (the team-room wall, docs/statistics.md "Live wall"): the units waiting now per network and
 * account with the oldest, the longest-waiting one, the visible members by current user status, and
 * today's figures and backlog (the dashboard's queries). The filters apply except to people.
 */
export async function liveOf(db: Db, actor: ServerActor, q: StatsQuery, now: Date): Promise<StatsLive> {
  const context = await contextFor(db, actor, 'stats.view', q.space_id);
  const { scope, timezone } = context;
  const today = await resolvePeriod(db, timezone, { preset: 'today' }, now);
  const nowSec = Math.floor(now.getTime() / 1000);
  const waiting = await waitingNow(db, scope, q);
  const queue = (r: {
    provider: string;
    object_id: number | null;
    name: string | null;
    count: number;
    oldest_at: number;
  }): StatsLiveQueue => ({
    ...r,
    age: Math.max(0, nowSec - r.oldest_at),
  });
  const providers = new Map<
    string,
    { provider: string; object_id: null; name: null; count: number; oldest_at: number }
  >();
  for (const a of waiting.accounts) {
    const p = providers.get(a.provider);
    if (!p)
      providers.set(a.provider, {
        provider: a.provider,
        object_id: null,
        name: null,
        count: a.count,
        oldest_at: a.oldest_at,
      });
    else {
      p.count += a.count;
      p.oldest_at = Math.min(p.oldest_at, a.oldest_at);
    }
  }
  const statuses = new Map<number | null, StatsLive['statuses'][number]>();
  for (const m of await membersByStatus(db, peopleOf(actor, context, q))) {
    const key = m.status_id === null ? null : Number(m.status_id);
    const entry = statuses.get(key) ?? {
      status_id: key,
      name: m.status,
      color: m.color,
      offline: m.offline ?? false,
      count: 0,
      users: [],
    };
    entry.count += 1;
    entry.users.push({ id: Number(m.user_id), name: m.name });
    statuses.set(key, entry);
  }
  const calendar = await calendarOf(db, q.space_id, timezone);
  return {
    now: nowSec,
    today,
    figures: await figures(db, scope, q, today),
    business: calendar ? await businessFirstResponse(db, scope, q, today, calendar) : null,
    waiting: await backlog(db, scope, q),
    by_provider: [...providers.values()]
      .sort((a, b) => b.count - a.count || a.oldest_at - b.oldest_at || a.provider.localeCompare(b.provider))
      .map(queue),
    by_account: waiting.accounts.map(queue),
    longest: waiting.longest
      ? { ...waiting.longest, age: Math.max(0, nowSec - waiting.longest.waiting_since) }
      : null,
    statuses: [...statuses.values()],
  };
}
