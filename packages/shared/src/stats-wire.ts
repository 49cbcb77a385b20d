import { z } from 'zod';
import { STATS_EXPLORE_DIMENSIONS, STATS_KINDS } from './stats';

// Statistics (issue 15): the answers of the stats endpoints (GET /v1/stats/*), as the routes declare them
// (issue 12 point 4, the wire contract). Definitions of every figure: docs/statistics.md. Instants are
// unix seconds, durations seconds, local dates YYYY-MM-DD of the space.

/** The resolved period: local dates, the time zone, and the instants (unix seconds) [from, to). */
export const statsPeriodWireSchema = z.object({
  from: z.string(),
  to: z.string(),
  timezone: z.string(),
  start: z.number(),
  end: z.number(),
});
export type StatsPeriod = z.infer<typeof statsPeriodWireSchema>;

/** Seconds; null when there is nothing to measure. */
export const durationsWireSchema = z.object({
  count: z.number(),
  median: z.number().nullable(),
  p90: z.number().nullable(),
});
export type Durations = z.infer<typeof durationsWireSchema>;

export const statsFiguresWireSchema = z.object({
  /** Incoming comments, reviews and mentions (items) + new dialogs (chats) in the period. */
  incoming: z.object({ items: z.number(), chats: z.number(), messages: z.number() }),
  /** Of the incoming items and new dialogs: how many got a reply (ever, up to now). */
  replied: z.number(),
  /** replied / (items + chats), 0..1; null when nothing came in. */
  replied_share: z.number().nullable(),
  first_response: durationsWireSchema,
  /** Closed in the period, by how (closed_at in the period). */
  closed: z.object({ reply: z.number(), noreply: z.number(), autorule: z.number() }),
});
export type StatsFigures = z.infer<typeof statsFiguresWireSchema>;

/** Open now (new, inprogress, open), regardless of the period; `oldest_at` unix seconds. */
const backlogWireSchema = z.object({
  items: z.number(),
  chats: z.number(),
  oldest_at: z.number().nullable(),
});
/** A local day of the period with its instants [start, end), for drill-down. */
const periodDayWireSchema = z.object({ day: z.string(), start: z.number(), end: z.number() });
/**
 * A tab's answer: `period`, the figures `once` measures, and with compare=1 `previous` — the same figures
 * over the previous period of the same length with that period last (null without compare=1).
 */
function comparedWireSchema<T extends z.ZodRawShape>(once: T) {
  return z.object({
    period: statsPeriodWireSchema,
    ...once,
    previous: z.object({ ...once, period: statsPeriodWireSchema }).nullable(),
  });
}

export const statsOverviewWireSchema = z.object({
  period: statsPeriodWireSchema,
  current: statsFiguresWireSchema,
  previous: statsFiguresWireSchema.extend({ period: statsPeriodWireSchema }).nullable(),
  backlog: backlogWireSchema,
  by_provider: z.array(
    z.object({ provider: z.string(), items: z.number(), chats: z.number(), messages: z.number() }),
  ),
  /**
   * First response time in business hours (docs/statistics.md "Business hours") of the current and the
   * previous period; null when the space has no business-hours schedule.
   */
  business: z.object({ current: durationsWireSchema, previous: durationsWireSchema.nullable() }).nullable(),
});
export type StatsOverview = z.infer<typeof statsOverviewWireSchema>;

export const statsVolumeRowWireSchema = z.object({
  /** Local date of the space. */
  day: z.string(),
  provider: z.string(),
  /** comment | review | mention (items), chat (new dialogs), message (customer messages). */
  kind: z.enum([...STATS_KINDS, 'message']),
  count: z.number(),
});
export type StatsVolumeRow = z.infer<typeof statsVolumeRowWireSchema>;
/** With compare=1 `previous` is the previous period's, day i aligned with day i of this period. */
export const statsVolumeWireSchema = comparedWireSchema({
  days: z.array(periodDayWireSchema),
  rows: z.array(statsVolumeRowWireSchema),
});
export type StatsVolume = z.infer<typeof statsVolumeWireSchema>;

export const statsOperatorRowWireSchema = z.object({
  user_id: z.number(),
  name: z.string(),
  replies: z.number(),
  closed: z.number(),
  first_replies: z.number(),
  frt_median: z.number().nullable(),
  /** The same median in business hours; null when the space has no business-hours schedule. */
  frt_median_business: z.number().nullable(),
});
export type StatsOperatorRow = z.infer<typeof statsOperatorRowWireSchema>;
/** With compare=1 `previous` has the previous period's rows (match them by user_id). */
export const statsOperatorsWireSchema = comparedWireSchema({ rows: z.array(statsOperatorRowWireSchema) });
export type StatsOperators = z.infer<typeof statsOperatorsWireSchema>;

/** ISO weekday 1 (Monday)..7 × hour 0..23, local time of the space: incoming items + customer messages. */
const hourCellWireSchema = z.object({ weekday: z.number(), hour: z.number(), count: z.number() });
/** With compare=1 `previous` has the previous period's cells (match them by weekday and hour). */
export const statsHoursWireSchema = comparedWireSchema({ cells: z.array(hourCellWireSchema) });
export type StatsHours = z.infer<typeof statsHoursWireSchema>;

/** Per tag: incoming items of the period carrying the tag, per local day (stats/tags). */
/** With compare=1 `previous` has the previous period's tags and per-day rows (match tags by tag_id). */
export const statsTagsWireSchema = comparedWireSchema({
  days: z.array(periodDayWireSchema),
  /** Every tag with at least one item, most items first: the top tags. */
  tags: z.array(z.object({ tag_id: z.number(), name: z.string(), count: z.number() })),
  rows: z.array(z.object({ day: z.string(), tag_id: z.number(), count: z.number() })),
});
export type StatsTags = z.infer<typeof statsTagsWireSchema>;

/** Per post: incoming items of the period under it, how many got a reply, our replies (stats/posts). */
export const statsPostRowWireSchema = z.object({
  post_id: z.number(),
  object_id: z.number(),
  provider: z.string(),
  text: z.string(),
  url: z.string().nullable(),
  items: z.number(),
  replied: z.number(),
  replies: z.number(),
});
export type StatsPostRow = z.infer<typeof statsPostRowWireSchema>;
export const statsPostsWireSchema = z.object({
  period: statsPeriodWireSchema,
  /** The top posts by incoming items (at most STATS_TOP_POSTS). */
  rows: z.array(statsPostRowWireSchema),
});
export type StatsPosts = z.infer<typeof statsPostsWireSchema>;

/** Closings in the period per who closed them and how (stats/users/closed); user_id null = rules. */
export const statsClosedRowWireSchema = z.object({
  user_id: z.number().nullable(),
  name: z.string().nullable(),
  reply: z.number(),
  noreply: z.number(),
  autorule: z.number(),
  total: z.number(),
});
export type StatsClosedRow = z.infer<typeof statsClosedRowWireSchema>;
/** With compare=1 `previous` has the previous period's rows (match them by user_id; null = rules). */
export const statsClosedWireSchema = comparedWireSchema({ rows: z.array(statsClosedRowWireSchema) });
export type StatsClosed = z.infer<typeof statsClosedWireSchema>;

export const statsTimeFiguresWireSchema = z.object({
  first_response: durationsWireSchema,
  resolution: durationsWireSchema,
  /** Counts per bucket (STATS_TIME_BUCKETS): [≤5 min, ≤15 min, ≤1 h, ≤4 h, ≤24 h, more], for each measure. */
  buckets: z.object({ first_response: z.array(z.number()), resolution: z.array(z.number()) }),
  /** Median per local day of arrival. */
  days: z.array(
    z.object({
      day: z.string(),
      first_response: z.number().nullable(),
      resolution: z.number().nullable(),
    }),
  ),
});
export type StatsTimeFigures = z.infer<typeof statsTimeFiguresWireSchema>;
/** With compare=1 `previous` has the previous period's figures. */
export const statsTimeWireSchema = comparedWireSchema(statsTimeFiguresWireSchema.shape).extend({
  /** The same figures in business hours; null when the space has no business-hours schedule. */
  business: statsTimeFiguresWireSchema.nullable(),
});
export type StatsTime = z.infer<typeof statsTimeWireSchema>;

export const statsOperatorTimeRowWireSchema = z.object({
  user_id: z.number(),
  name: z.string(),
  first_replies: durationsWireSchema,
  /** In business hours; null when the space has no business-hours schedule. */
  first_replies_business: durationsWireSchema.nullable(),
});
export type StatsOperatorTimeRow = z.infer<typeof statsOperatorTimeRowWireSchema>;
/** With compare=1 `previous` has the previous period's rows (match them by user_id). */
export const statsOperatorTimesWireSchema = comparedWireSchema({
  rows: z.array(statsOperatorTimeRowWireSchema),
});
export type StatsOperatorTimes = z.infer<typeof statsOperatorTimesWireSchema>;

/** One person's figures over a period (stats/my, stats/users/:id; StatsPerson and its previous period). */
export const statsPersonFiguresWireSchema = z.object({
  row: statsOperatorRowWireSchema,
  closed: statsClosedRowWireSchema,
  first_replies: durationsWireSchema,
  /** In business hours; null when the space has no business-hours schedule. */
  first_replies_business: durationsWireSchema.nullable(),
});
export type StatsPersonFigures = z.infer<typeof statsPersonFiguresWireSchema>;
export const statsPersonWireSchema = z.object({
  period: statsPeriodWireSchema,
  user: z.object({ id: z.number(), name: z.string() }),
  ...statsPersonFiguresWireSchema.shape,
  /** compare=1: the same figures over the previous period of the same length; null without it. */
  previous: statsPersonFiguresWireSchema.extend({ period: statsPeriodWireSchema }).nullable(),
});
export type StatsPerson = z.infer<typeof statsPersonWireSchema>;

/** A user status of the space, as the status tabs show it (stats/users/statuses). */
export const statsStatusInfoWireSchema = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  /** Counts as working time (docs/product/entities.md User status `workinghours`). */
  workinghours: z.boolean(),
  offline: z.boolean(),
});
export type StatsStatusInfo = z.infer<typeof statsStatusInfoWireSchema>;
/** Per member: seconds spent in each status within the period (up to now), from the status history. */
export const statsStatusRowWireSchema = z.object({
  user_id: z.number(),
  name: z.string(),
  /** status id → seconds; a status that no longer exists is under key 0. */
  seconds: z.record(z.string(), z.number()),
  /** Seconds in statuses that count as working time. */
  working: z.number(),
  /** All recorded seconds (the sum of `seconds`). */
  total: z.number(),
});
export type StatsStatusRow = z.infer<typeof statsStatusRowWireSchema>;
export const statsStatusesWireSchema = z.object({
  period: statsPeriodWireSchema,
  statuses: z.array(statsStatusInfoWireSchema),
  rows: z.array(statsStatusRowWireSchema),
  /** compare=1: the members' rows over the previous period of the same length; null without it. */
  previous: z.object({ rows: z.array(statsStatusRowWireSchema), period: statsPeriodWireSchema }).nullable(),
});
export type StatsStatuses = z.infer<typeof statsStatusesWireSchema>;

/** Per member: scheduled working-hours slots against the time actually spent in working statuses. */
export const statsWorkinghoursRowWireSchema = z.object({
  user_id: z.number(),
  name: z.string(),
  /** Slots of the schedule overlapping the period. */
  slots: z.number(),
  /** Seconds of those slots inside the period. */
  scheduled: z.number(),
  /** Seconds in working statuses (as StatsStatusRow.working). */
  worked: z.number(),
  /** Seconds in working statuses inside scheduled slots. */
  worked_in_slots: z.number(),
});
export type StatsWorkinghoursRow = z.infer<typeof statsWorkinghoursRowWireSchema>;
/** compare=1: `previous` has the members' rows over the previous period of the same length. */
export const statsWorkinghoursWireSchema = comparedWireSchema({
  rows: z.array(statsWorkinghoursRowWireSchema),
});
export type StatsWorkinghours = z.infer<typeof statsWorkinghoursWireSchema>;

/** stats/dashboard: today's and the last 7 days' key figures with the 7 days' daily series. */
export const statsDashboardWireSchema = z.object({
  today: statsPeriodWireSchema,
  week: statsPeriodWireSchema,
  /** Median first response in business hours, today and the 7 days; null without a schedule. */
  business: z.object({ today: durationsWireSchema, week: durationsWireSchema }).nullable(),
  figures: z.object({ today: statsFiguresWireSchema, week: statsFiguresWireSchema }),
  backlog: backlogWireSchema,
  /** Open tasks past due now; null when the caller may not see tasks. */
  expired_tasks: z.number().nullable(),
  /** Per local day of the 7 days: incoming (items + new dialogs), median first response. */
  days: z.array(z.object({ day: z.string(), incoming: z.number(), first_response: z.number().nullable() })),
});
export type StatsDashboard = z.infer<typeof statsDashboardWireSchema>;

/** Open now per network or account: how many wait and since when the oldest waits (unix seconds). */
const liveQueueFields = {
  /** The account (null on a per-network row). */
  object_id: z.number().nullable(),
  name: z.string().nullable(),
  count: z.number(),
  oldest_at: z.number(),
  /** Seconds the oldest has waited at `now`. */
  age: z.number(),
};
export const statsLiveQueueWireSchema = z.object({ provider: z.string(), ...liveQueueFields });
export type StatsLiveQueue = z.infer<typeof statsLiveQueueWireSchema>;
/** A per-account row: the same fields, the account first (as the server writes it). */
const liveAccountQueueWireSchema = z.object({
  object_id: liveQueueFields.object_id,
  provider: z.string(),
  name: liveQueueFields.name,
  count: liveQueueFields.count,
  oldest_at: liveQueueFields.oldest_at,
  age: liveQueueFields.age,
});

/** stats/live (the team-room wall): the queue now, the longest-waiting item, people by status, today. */
export const statsLiveWireSchema = z.object({
  /** The server's clock when the figures were taken (unix seconds). */
  now: z.number(),
  today: statsPeriodWireSchema,
  /** Today's figures (the dashboard's query). */
  figures: statsFiguresWireSchema,
  /** Today's first response time in business hours; null when the space has no schedule. */
  business: durationsWireSchema.nullable(),
  /** Open now, as the dashboard's backlog. */
  waiting: backlogWireSchema,
  by_provider: z.array(statsLiveQueueWireSchema),
  by_account: z.array(liveAccountQueueWireSchema),
  longest: z
    .object({
      unit: z.enum(['item', 'chat']),
      id: z.number(),
      object_id: z.number(),
      provider: z.string(),
      waiting_since: z.number(),
      excerpt: z.string(),
      age: z.number(),
    })
    .nullable(),
  /** Visible members per current user status (status null = none set), in the statuses' order. */
  statuses: z.array(
    z.object({
      status_id: z.number().nullable(),
      name: z.string().nullable(),
      color: z.string().nullable(),
      offline: z.boolean(),
      count: z.number(),
      users: z.array(z.object({ id: z.number(), name: z.string() })),
    }),
  ),
});
export type StatsLive = z.infer<typeof statsLiveWireSchema>;

/** /analytics: one row's figures; `total` has them without `key` and `name`. */
const exploreFiguresWireSchema = z.object({
  /** The instants the row counts [start, end) (the bucket for time dimensions, else the period). */
  start: z.number(),
  end: z.number(),
  figures: statsFiguresWireSchema,
  /** Resolution time (closed − arrival) as the time tab. */
  resolution: durationsWireSchema,
  /** First response in business hours; null when the space has no schedule. */
  business: durationsWireSchema.nullable(),
});
export const statsExploreRowWireSchema = z.object({
  /** The dimension's value: a local date (first day of the bucket), a network, an id or a kind. */
  key: z.string(),
  /** Its name (account, company, tag, member); null for dates, networks and kinds (named by the screen). */
  name: z.string().nullable(),
  ...exploreFiguresWireSchema.shape,
});
export type StatsExploreRow = z.infer<typeof statsExploreRowWireSchema>;
const exploreOnce = {
  /** The whole period with the filters alone (not a sum of the rows: a unit may be under two tags). */
  total: exploreFiguresWireSchema,
  rows: z.array(statsExploreRowWireSchema),
};
/**
 * With compare=1 `previous` is the previous period's; time buckets are matched by position (the k-th
 * day/week/month), the other rows by key.
 */
export const statsExploreWireSchema = z.object({
  period: statsPeriodWireSchema,
  by: z.enum(STATS_EXPLORE_DIMENSIONS),
  ...exploreOnce,
  previous: z.object({ ...exploreOnce, period: statsPeriodWireSchema }).nullable(),
});
export type StatsExplore = z.infer<typeof statsExploreWireSchema>;
