import { z } from 'zod';
import { PROVIDER_IDS } from './providers';

// Statistics (issue 15): the query every stats endpoint and tab shares, and the answers' shapes.
// Definitions of every figure: docs/statistics.md. The server and the web both read these.

export const STATS_PRESETS = ['today', '7d', '30d', '90d'] as const;
export type StatsPreset = (typeof STATS_PRESETS)[number];
/** Item kinds plus `chat` (personal messages). */
export const STATS_KINDS = ['comment', 'review', 'mention', 'chat'] as const;
export type StatsKind = (typeof STATS_KINDS)[number];
/** The longest period one request may cover (a custom range). */
export const STATS_MAX_DAYS = 366;

const invalid = { message: 'field.invalid' } as const;
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, invalid);
const id = z.coerce
  .number(invalid)
  .int(invalid)
  .positive(invalid)
  .max(2 ** 31 - 1, invalid);
function queryArray<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (value) => (value === undefined || value === '' ? undefined : Array.isArray(value) ? value : [value]),
    z.array(item).min(1, invalid).max(100, invalid).optional(),
  );
}

/**
 * The period is either a preset (ending today, in the space's time zone) or `from`..`to`, both local
 * dates of the space, inclusive. The server turns it into the half-open instant range [from, to).
 */
const statsQueryObject = z.object({
  space_id: id,
  preset: z.enum(STATS_PRESETS, invalid).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  provider: queryArray(z.enum(PROVIDER_IDS, invalid)),
  object_id: queryArray(id),
  kind: queryArray(z.enum(STATS_KINDS, invalid)),
  /** Accounts of these companies (objects.company_id). */
  company_id: queryArray(id),
  /** Items and dialogs carrying any of these tags now (as the inbox list's tag_id). */
  tag_id: queryArray(id),
  /**
   * Operators (docs/statistics.md "Filters"): items and dialogs assigned to one of them now; on the
   * per-person figures (team tables, closings, statuses) the rows and actions of these members.
   */
  operator_id: queryArray(id),
  /**
   * compare=1: also the figures of the previous period of the same length (overview, volume, time,
   * team, closings, team time, tags, hours, analytics, my figures and a member's, statuses and working
   * hours), counted by the same queries over the shifted period.
   */
  compare: z
    .enum(['0', '1', 'true', 'false'], invalid)
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});
function refinePeriod(q: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) {
  if ((q.from === undefined) !== (q.to === undefined))
    ctx.addIssue({ code: 'custom', path: [q.from ? 'to' : 'from'], message: 'field.required' });
  if (q.from && q.to && q.from > q.to)
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'field.invalid' });
  if (q.from && q.to && daysBetween(q.from, q.to) + 1 > STATS_MAX_DAYS)
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'field.invalid' });
}
export const statsQuery = statsQueryObject.superRefine(refinePeriod);
export type StatsQuery = z.output<typeof statsQuery>;
export type StatsQueryInput = z.input<typeof statsQuery>;

/** Whole days from one ISO date to another (calendar arithmetic, no time zone involved). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Adds days to an ISO date. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The local dates a preset covers, given today's local date. */
export function presetDates(preset: StatsPreset, today: string): { from: string; to: string } {
  const days = preset === 'today' ? 1 : Number(preset.replace('d', ''));
  return { from: addDays(today, 1 - days), to: today };
}

/** The previous period of the same length, right before `from`. */
export function previousDates(from: string, to: string): { from: string; to: string } {
  const days = daysBetween(from, to) + 1;
  return { from: addDays(from, -days), to: addDays(from, -1) };
}

/** The resolved period: local dates, the time zone, and the instants (unix seconds) [from, to). */
export interface StatsPeriod {
  from: string;
  to: string;
  timezone: string;
  start: number;
  end: number;
}

/** Seconds; null when there is nothing to measure. */
export interface Durations {
  count: number;
  median: number | null;
  p90: number | null;
}

export interface StatsFigures {
  /** Incoming comments, reviews and mentions (items) + new dialogs (chats) in the period. */
  incoming: { items: number; chats: number; messages: number };
  /** Of the incoming items and new dialogs: how many got a reply (ever, up to now). */
  replied: number;
  /** replied / (items + chats), 0..1; null when nothing came in. */
  replied_share: number | null;
  first_response: Durations;
  /** Closed in the period, by how (closed_at in the period). */
  closed: { reply: number; noreply: number; autorule: number };
}

export interface StatsOverview {
  period: StatsPeriod;
  current: StatsFigures;
  previous: (StatsFigures & { period: StatsPeriod }) | null;
  /** Open now (new, inprogress, open), regardless of the period. */
  backlog: { items: number; chats: number; oldest_at: number | null };
  by_provider: { provider: string; items: number; chats: number; messages: number }[];
  /**
   * First response time in business hours (docs/statistics.md "Business hours") of the current and the
   * previous period; null when the space has no business-hours schedule.
   */
  business: { current: Durations; previous: Durations | null } | null;
}

export interface StatsVolumeRow {
  /** Local date of the space. */
  day: string;
  provider: string;
  /** comment | review | mention (items), chat (new dialogs), message (customer messages). */
  kind: StatsKind | 'message';
  count: number;
}
export interface StatsVolume {
  period: StatsPeriod;
  /** Each local day of the period with its instants [start, end) (unix seconds), for drill-down. */
  days: { day: string; start: number; end: number }[];
  rows: StatsVolumeRow[];
  /** With compare=1: the previous period's, day i aligned with day i of this period. */
  previous?: Omit<StatsVolume, 'previous'> | null;
}

export interface StatsOperatorRow {
  user_id: number;
  name: string;
  replies: number;
  closed: number;
  first_replies: number;
  frt_median: number | null;
  /** The same median in business hours; null when the space has no business-hours schedule. */
  frt_median_business: number | null;
}
export interface StatsOperators {
  period: StatsPeriod;
  rows: StatsOperatorRow[];
  /** With compare=1: the previous period's rows (match them by user_id). */
  previous?: { period: StatsPeriod; rows: StatsOperatorRow[] } | null;
}

export interface StatsHours {
  period: StatsPeriod;
  /** ISO weekday 1 (Monday)..7 × hour 0..23, local time of the space: incoming items + customer messages. */
  cells: { weekday: number; hour: number; count: number }[];
  /** With compare=1: the previous period's cells (match them by weekday and hour). */
  previous?: { period: StatsPeriod; cells: { weekday: number; hour: number; count: number }[] } | null;
}

/** Per tag: incoming items of the period carrying the tag, per local day (stats/tags). */
export interface StatsTags {
  period: StatsPeriod;
  days: { day: string; start: number; end: number }[];
  /** Every tag with at least one item, most items first: the top tags. */
  tags: { tag_id: number; name: string; count: number }[];
  rows: { day: string; tag_id: number; count: number }[];
  /** With compare=1: the previous period's tags and per-day rows (match tags by tag_id). */
  previous?: Omit<StatsTags, 'previous'> | null;
}

/** Per post: incoming items of the period under it, how many got a reply, our replies (stats/posts). */
export interface StatsPostRow {
  post_id: number;
  object_id: number;
  provider: string;
  text: string;
  url: string | null;
  items: number;
  replied: number;
  replies: number;
}
export interface StatsPosts {
  period: StatsPeriod;
  /** The top posts by incoming items (at most STATS_TOP_POSTS). */
  rows: StatsPostRow[];
}
export const STATS_TOP_POSTS = 50;

/** Closings in the period per who closed them and how (stats/users/closed); user_id null = rules. */
export interface StatsClosedRow {
  user_id: number | null;
  name: string | null;
  reply: number;
  noreply: number;
  autorule: number;
  total: number;
}
export interface StatsClosed {
  period: StatsPeriod;
  rows: StatsClosedRow[];
  /** With compare=1: the previous period's rows (match them by user_id; null = rules). */
  previous?: { period: StatsPeriod; rows: StatsClosedRow[] } | null;
}

/** Buckets of a duration distribution, upper bounds in seconds (the last one is open). */
export const STATS_TIME_BUCKETS = [300, 900, 3600, 14_400, 86_400] as const;
export interface StatsTimeFigures {
  first_response: Durations;
  resolution: Durations;
  buckets: { first_response: number[]; resolution: number[] };
  days: { day: string; first_response: number | null; resolution: number | null }[];
}
export interface StatsTime {
  period: StatsPeriod;
  /** The same figures in business hours; null when the space has no business-hours schedule. */
  business: StatsTimeFigures | null;
  first_response: Durations;
  resolution: Durations;
  /** Counts per bucket: [≤5 min, ≤15 min, ≤1 h, ≤4 h, ≤24 h, more], for each measure. */
  buckets: { first_response: number[]; resolution: number[] };
  /** Median per local day of arrival. */
  days: { day: string; first_response: number | null; resolution: number | null }[];
  /** With compare=1: the previous period's. */
  previous?: Omit<StatsTime, 'previous' | 'business'> | null;
}

export interface StatsOperatorTimeRow {
  user_id: number;
  name: string;
  first_replies: Durations;
  /** In business hours; null when the space has no business-hours schedule. */
  first_replies_business: Durations | null;
}
export interface StatsOperatorTimes {
  period: StatsPeriod;
  rows: StatsOperatorTimeRow[];
  /** With compare=1: the previous period's rows (match them by user_id). */
  previous?: { period: StatsPeriod; rows: StatsOperatorTimeRow[] } | null;
}

/** One person's figures (stats/my, stats/users/:id). */
/** One person's figures over a period (StatsPerson and its previous period). */
export interface StatsPersonFigures {
  row: StatsOperatorRow;
  closed: StatsClosedRow;
  first_replies: Durations;
  /** In business hours; null when the space has no business-hours schedule. */
  first_replies_business: Durations | null;
}
export interface StatsPerson extends StatsPersonFigures {
  period: StatsPeriod;
  user: { id: number; name: string };
  /** compare=1: the same figures over the previous period of the same length; null without it. */
  previous: (StatsPersonFigures & { period: StatsPeriod }) | null;
}

/** A user status of the space, as the status tabs show it (stats/users/statuses). */
export interface StatsStatusInfo {
  id: number;
  name: string;
  color: string;
  /** Counts as working time (docs/product/entities.md User status `workinghours`). */
  workinghours: boolean;
  offline: boolean;
}
/** Per member: seconds spent in each status within the period (up to now), from the status history. */
export interface StatsStatusRow {
  user_id: number;
  name: string;
  /** status id → seconds; a status that no longer exists is under key 0. */
  seconds: Record<string, number>;
  /** Seconds in statuses that count as working time. */
  working: number;
  /** All recorded seconds (the sum of `seconds`). */
  total: number;
}
export interface StatsStatuses {
  period: StatsPeriod;
  statuses: StatsStatusInfo[];
  rows: StatsStatusRow[];
  /** compare=1: the members' rows over the previous period of the same length; null without it. */
  previous: { period: StatsPeriod; rows: StatsStatusRow[] } | null;
}

/** Per member: scheduled working-hours slots against the time actually spent in working statuses. */
export interface StatsWorkinghoursRow {
  user_id: number;
  name: string;
  /** Slots of the schedule overlapping the period. */
  slots: number;
  /** Seconds of those slots inside the period. */
  scheduled: number;
  /** Seconds in working statuses (as StatsStatusRow.working). */
  worked: number;
  /** Seconds in working statuses inside scheduled slots. */
  worked_in_slots: number;
}
export interface StatsWorkinghours {
  period: StatsPeriod;
  rows: StatsWorkinghoursRow[];
  /** compare=1: the members' rows over the previous period of the same length; null without it. */
  previous: { period: StatsPeriod; rows: StatsWorkinghoursRow[] } | null;
}

/** stats/dashboard: today's and the last 7 days' key figures with the 7 days' daily series. */
export interface StatsDashboard {
  today: StatsPeriod;
  week: StatsPeriod;
  figures: { today: StatsFigures; week: StatsFigures };
  backlog: { items: number; chats: number; oldest_at: number | null };
  /** Open tasks past due now; null when the caller may not see tasks. */
  expired_tasks: number | null;
  /** Per local day of the 7 days: incoming (items + new dialogs), median first response. */
  days: { day: string; incoming: number; first_response: number | null }[];
  /** Median first response in business hours, today and the 7 days; null without a schedule. */
  business: { today: Durations; week: Durations } | null;
}

/** Open now per network or account: how many wait and since when the oldest waits (unix seconds). */
export interface StatsLiveQueue {
  provider: string;
  /** The account (null on a per-network row). */
  object_id: number | null;
  name: string | null;
  count: number;
  oldest_at: number;
  /** Seconds the oldest has waited at `now`. */
  age: number;
}

/** stats/live (the team-room wall): the queue now, the longest-waiting item, people by status, today. */
export interface StatsLive {
  /** The server's clock when the figures were taken (unix seconds). */
  now: number;
  today: StatsPeriod;
  /** Today's figures (the dashboard's query). */
  figures: StatsFigures;
  /** Today's first response time in business hours; null when the space has no schedule. */
  business: Durations | null;
  /** Open now, as the dashboard's backlog. */
  waiting: { items: number; chats: number; oldest_at: number | null };
  by_provider: StatsLiveQueue[];
  by_account: StatsLiveQueue[];
  longest: {
    unit: 'item' | 'chat';
    id: number;
    provider: string;
    object_id: number;
    waiting_since: number;
    age: number;
    excerpt: string;
  } | null;
  /** Visible members per current user status (status null = none set), in the statuses' order. */
  statuses: {
    status_id: number | null;
    name: string | null;
    color: string | null;
    offline: boolean;
    count: number;
    users: { id: number; name: string }[];
  }[];
}

/**
 * /analytics (docs/statistics.md "Analytics"): the figures of the period split by one dimension. Each row
 * is the overview's figures with that dimension's value added to the filters (time buckets: the period
 * cut into local days, ISO weeks or months), so a row counts exactly what its drill-down lists.
 */
export const STATS_EXPLORE_DIMENSIONS = [
  'day',
  'week',
  'month',
  'provider',
  'object',
  'company',
  'kind',
  'tag',
  'operator',
] as const;
export type StatsExploreDimension = (typeof STATS_EXPLORE_DIMENSIONS)[number];
/** At most this many rows: time buckets beyond it are refused, other values keep the top ones. */
export const STATS_EXPLORE_MAX_ROWS = 60;
/** Of the non-time dimensions, the values with the most incoming units (then by name). */
export const STATS_EXPLORE_TOP = 25;

export const statsExploreQuery = statsQueryObject
  .extend({ by: z.enum(STATS_EXPLORE_DIMENSIONS, invalid).default('day') })
  .superRefine(refinePeriod);
export type StatsExploreQuery = z.output<typeof statsExploreQuery>;

export interface StatsExploreRow {
  /** The dimension's value: a local date (first day of the bucket), a network, an id or a kind. */
  key: string;
  /** Its name (account, company, tag, member); null for dates, networks and kinds (named by the screen). */
  name: string | null;
  /** The instants the row counts [start, end) (the bucket for time dimensions, else the period). */
  start: number;
  end: number;
  figures: StatsFigures;
  /** Resolution time (closed − arrival) as the time tab. */
  resolution: Durations;
  /** First response in business hours; null when the space has no schedule. */
  business: Durations | null;
}
export interface StatsExplore {
  period: StatsPeriod;
  by: StatsExploreDimension;
  /** The whole period with the filters alone (not a sum of the rows: a unit may be under two tags). */
  total: Omit<StatsExploreRow, 'key' | 'name'>;
  rows: StatsExploreRow[];
  /**
   * With compare=1: the previous period's; time buckets are matched by position (the k-th day/week/month),
   * the other rows by key.
   */
  previous?: {
    period: StatsPeriod;
    total: Omit<StatsExploreRow, 'key' | 'name'>;
    rows: StatsExploreRow[];
  } | null;
}
