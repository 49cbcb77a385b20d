import { z } from 'zod';

// RSS/Atom monitoring sources (issue 21): a space adds feed URLs (news sites, blogs, forums); a job
// fetches them on a schedule and every new entry whose title or summary matches one of the space's
// monitoring queries becomes a mention like one from a connected network (docs/product/monitoring.md).

/** Feeds are stored as accounts of this provider (not a network of the catalogue: no tariff slot, no replies). */
export const FEED_PROVIDER = 'rss';
export const MONITORING_FEED_NAME_MAX = 120;
export const MONITORING_FEED_URL_MAX = 2000;
/** Feeds per space. */
export const MONITORING_FEEDS_MAX = 50;

const name = z
  .string({ error: 'monitoring.feed.name.required' })
  .trim()
  .min(1, 'monitoring.feed.name.required')
  .max(MONITORING_FEED_NAME_MAX, 'field.tooLong');
const url = z
  .string({ error: 'monitoring.feed.url.invalid' })
  .trim()
  .max(MONITORING_FEED_URL_MAX, 'field.tooLong')
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'monitoring.feed.url.invalid');

export const monitoringFeedFormSchema = z.object({ name, url });
export type MonitoringFeedForm = z.infer<typeof monitoringFeedFormSchema>;

export const createMonitoringFeedBody = monitoringFeedFormSchema.extend({
  space_id: z.number({ error: 'field.invalid' }).int('field.invalid').positive('field.invalid'),
});
export const updateMonitoringFeedBody = monitoringFeedFormSchema.partial();

/** What leaves the server about a feed. `error` is the last fetch's failure in the reader's language. */
export const monitoringFeedWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  /** The account the feed's entries belong to (mentions carry it as `object_id`). */
  object_id: z.number().int(),
  name: z.string(),
  url: z.string(),
  last_fetched_at: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_error_at: z.number().int().nullable(),
  created_at: z.number().int(),
});
export type PresentedMonitoringFeed = z.infer<typeof monitoringFeedWireSchema>;

/** GET /v1/monitoring/feeds: the feeds, and the spaces where one may add them. */
export const monitoringFeedsWireSchema = z.object({
  items: z.array(monitoringFeedWireSchema),
  spaces: z.array(z.number().int()),
});
export type MonitoringFeedsWire = z.infer<typeof monitoringFeedsWireSchema>;

/** POST /v1/monitoring/feeds/{id}/fetch: mentions created, whether the feed was unchanged, the feed now. */
export const monitoringFeedFetchWireSchema = z.object({
  created: z.number().int(),
  not_modified: z.boolean(),
  feed: monitoringFeedWireSchema,
});
export type MonitoringFeedFetchWire = z.infer<typeof monitoringFeedFetchWireSchema>;
