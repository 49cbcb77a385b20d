import { z } from 'zod';

// The badge and view counters (docs/product/limits.md): GET /v1/counts and GET /v1/counts/views, as the
// routes declare them (issue 12 point 4, the wire contract).

/**
 * GET /v1/counts: the badges — items, chats, tasks and past-due tasks; with monitoring=1 the monitoring
 * counter alone. /v1/config carries the same counters.
 */
export const badgeCountsWireSchema = z.object({
  items_count: z.number().optional(),
  chats_count: z.number().optional(),
  issues_count: z.number().optional(),
  issues_expired_count: z.number().optional(),
  monitoring_count: z.number().optional(),
});
export type BadgeCountsWire = z.infer<typeof badgeCountsWireSchema>;

/** One inbox view's counts over the default statuses: All, Mine, Unassigned, and Mentions of me. */
export const viewCountsWireSchema = z.object({
  all: z.number(),
  mine: z.number(),
  unassigned: z.number(),
  /** Items or chats where a note @mentions the caller and they have not seen it. */
  mentions: z.number(),
});
export type ViewCounts = z.infer<typeof viewCountsWireSchema>;

/** GET /v1/counts/views: the views' counts of comments (items) and chats. */
export const inboxViewCountsWireSchema = z.object({
  items: viewCountsWireSchema,
  chats: viewCountsWireSchema,
});
export type InboxViewCountsWire = z.infer<typeof inboxViewCountsWireSchema>;
