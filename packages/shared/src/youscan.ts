import { z } from 'zod';

// YouScan (issue 21): a space connects a YouScan topic (the topic id and an API key, stored sealed);
// a job imports the topic's mentions into monitoring, a cursor keeps each mention imported once.
// docs/product/monitoring.md lists what is assumed about YouScan's API.

export const YOUSCAN_NAME_MAX = 120;
export const YOUSCAN_KEY_MAX = 500;
export const YOUSCAN_PAGE_SIZE = 30;
/** Topics per space. */
export const YOUSCAN_TOPICS_MAX = 20;
/** The socket message when mentions were imported or read, or a topic changed: topic ids only. */
export const YOUSCAN_EVENT = 'youscan';
export const YOUSCAN_SENTIMENTS = ['positive', 'neutral', 'negative', 'mixed'] as const;
export type YouscanSentiment = (typeof YOUSCAN_SENTIMENTS)[number];

const name = z
  .string({ error: 'youscan.name.required' })
  .trim()
  .min(1, 'youscan.name.required')
  .max(YOUSCAN_NAME_MAX, 'field.tooLong');
const topicId = z
  .string({ error: 'youscan.topic.invalid' })
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'youscan.topic.invalid');

export const youscanFormSchema = z.object({
  name,
  topic_id: topicId,
  /** Blank on update keeps the stored key. */
  api_key: z.string().trim().max(YOUSCAN_KEY_MAX, 'youscan.apiKey.required'),
});
export type YouscanForm = z.infer<typeof youscanFormSchema>;

export const createYouscanBody = youscanFormSchema.extend({
  space_id: z.number({ error: 'field.invalid' }).int('field.invalid').positive('field.invalid'),
  api_key: z
    .string({ error: 'youscan.apiKey.required' })
    .trim()
    .min(1, 'youscan.apiKey.required')
    .max(YOUSCAN_KEY_MAX, 'youscan.apiKey.required'),
});
export const updateYouscanBody = youscanFormSchema.partial();

/** 'ok' after a good import; 'auth' the key was refused; 'unreachable' YouScan did not answer well. */
export const YOUSCAN_STATUSES = ['ok', 'auth', 'unreachable', 'topic'] as const;
export type YouscanStatus = (typeof YOUSCAN_STATUSES)[number];

/** What leaves the server: never the key. */
export const youscanWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  name: z.string(),
  topic_id: z.string(),
  has_api_key: z.boolean(),
  status: z.enum(YOUSCAN_STATUSES).nullable(),
  last_import_at: z.number().int().nullable(),
  /** Published time of the newest imported mention (the import cursor). */
  cursor: z.number().int().nullable(),
  total: z.number().int(),
  unread: z.number().int(),
  created_at: z.number().int(),
});
export type PresentedYouscan = z.infer<typeof youscanWireSchema>;

/** GET /v1/youscan: the topics, and the spaces where one may connect them. */
export const youscanListWireSchema = z.object({
  items: z.array(youscanWireSchema),
  spaces: z.array(z.number().int()),
});
export type YouscanListWire = z.infer<typeof youscanListWireSchema>;

/** POST /v1/youscan/{id}/import: mentions imported, and the topic now. */
export const youscanImportWireSchema = z.object({ imported: z.number().int(), topic: youscanWireSchema });
export type YouscanImportWire = z.infer<typeof youscanImportWireSchema>;

export const youscanMentionWireSchema = z.object({
  id: z.number().int(),
  topic_ref: z.number().int(),
  external_id: z.string(),
  url: z.string().nullable(),
  text: z.string(),
  author_name: z.string().nullable(),
  author_url: z.string().nullable(),
  source: z.string().nullable(),
  sentiment: z.enum(YOUSCAN_SENTIMENTS).nullable(),
  published_at: z.number().int(),
  read: z.boolean(),
});
export type YouscanMentionDto = z.infer<typeof youscanMentionWireSchema>;

/** A page of a topic's mentions, newest first (`has_more` when another follows). */
export const youscanMentionsWireSchema = z.object({
  items: z.array(youscanMentionWireSchema),
  has_more: z.boolean(),
});
export type YouscanMentionsWire = z.infer<typeof youscanMentionsWireSchema>;

/** YouScan's sentiment words (and our own) to one of ours; anything else is unknown. */
export function youscanSentiment(value: unknown): YouscanSentiment | null {
  if (typeof value !== 'string') return null;
  const v = value.toLowerCase();
  return (YOUSCAN_SENTIMENTS as readonly string[]).includes(v) ? (v as YouscanSentiment) : null;
}
