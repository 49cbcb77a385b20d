import { z } from 'zod';
import { PROVIDER_IDS } from './providers';

// Statistics (issue 15): the query every stats endpoint and tab shares, and the answers' shapes.
// Definitions of every figure: docs/statistics.md. The server and the web both read these.

export const STATS_PRESETS = ['today', '7d', '30d', '90d'] as const;
export type StatsPreset = (typeof STATS_PRESETS)[number];
/**
 * Response header of every statistics answer: the moment its figures were read (ISO 8601, ms). Under the
 * freshness window (STATS_FRESH_S) an answer may be older than the request; the screen shows this time.
 */
export const STATS_READ_AT_HEADER = 'x-read-at';
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

/** The top posts stats/posts lists (by incoming items). */
export const STATS_TOP_POSTS = 50;

/** Buckets of a duration distribution, upper bounds in seconds (the last one is open). */
export const STATS_TIME_BUCKETS = [300, 900, 3600, 14_400, 86_400] as const;

// The answers' shapes (StatsOverview, StatsPeriod, ...): stats-wire.ts.

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
