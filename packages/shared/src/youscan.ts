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
export type YouscanStatus = 'ok' | 'auth' | 'unreachable' | 'topic';

/** What leaves the server: never the key. */
export interface PresentedYouscan {
  id: number;
  space_id: number;
  name: string;
  topic_id: string;
  has_api_key: boolean;
  status: YouscanStatus | null;
  last_import_at: number | null;
  /** Published time of the newest imported mention (the import cursor). */
  cursor: number | null;
  total: number;
  unread: number;
  created_at: number;
}

export interface YouscanMentionDto {
  id: number;
  topic_ref: number;
  external_id: string;
  url: string | null;
  text: string;
  author_name: string | null;
  author_url: string | null;
  source: string | null;
  sentiment: YouscanSentiment | null;
  published_at: number;
  read: boolean;
}

/** YouScan's sentiment words (and our own) to one of ours; anything else is unknown. */
export function youscanSentiment(value: unknown): YouscanSentiment | null {
  if (typeof value !== 'string') return null;
  const v = value.toLowerCase();
  return (YOUSCAN_SENTIMENTS as readonly string[]).includes(v) ? (v as YouscanSentiment) : null;
}
