import { z } from 'zod';
import { SENTIMENTS } from './emotions';
import { PROVIDER_IDS } from './providers';

// Monitoring (issue 21): what narrows one query's mentions (account, network, sentiment, read state) and
// the query of a saved filter of the `monitoring-page` route (the same fields plus the keyword query).
// The screen keeps them in the address; the server reads them on GET …/mentions.

export const MONITORING_READ_STATES = ['unread', 'read'] as const;
export type MonitoringReadState = (typeof MONITORING_READ_STATES)[number];

const positive = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);

export const monitoringMentionFilterSchema = z.object({
  object_id: positive.optional(),
  provider: z.enum(PROVIDER_IDS).optional(),
  sentiment: z.enum(SENTIMENTS).optional(),
  read: z.enum(MONITORING_READ_STATES).optional(),
});
export type MonitoringMentionFilter = z.infer<typeof monitoringMentionFilterSchema>;

/** The `query` of a `monitoring-page` saved filter: the keyword query and the narrowing above. */
export const monitoringSavedFilterSchema = monitoringMentionFilterSchema.extend({
  space_id: positive.optional(),
  query_id: positive.optional(),
});
export type MonitoringSavedFilter = z.infer<typeof monitoringSavedFilterSchema>;

/** PUT /v1/monitoring/mentions/{id}/tags: the item's tags after the change. */
export const monitoringMentionTagsBody = z.object({
  tag_ids: z.array(positive).max(100, 'field.tooLong'),
});

/** POST /v1/monitoring/mentions/{id}/issue: the task's title (default: the query's name and the author). */
export const monitoringMentionIssueBody = z.object({
  title: z.string().trim().max(300, 'field.tooLong').optional(),
});
