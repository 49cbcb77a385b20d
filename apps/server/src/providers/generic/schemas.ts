import { DELIVERY_STATES } from '@otklik/shared';
import { z } from 'zod';

// The generic ingestion API (ARCHITECTURE "Providers": networks without a public API get an
// authenticated endpoint a customer's own collector posts to). Each item is validated on its own: a bad
// item is reported in `invalid` and the rest of the batch is stored.

export const INGEST_BATCH_MAX = 500;

/** Marks an item that failed validation; the route reports it instead of failing the whole batch. */
export const INVALID = Symbol('invalid');

const when = z
  .union([z.number().int().nonnegative(), z.iso.datetime({ offset: true })])
  .describe('When it was written: ISO 8601 with offset, or unix seconds');

const example = {
  external_id: 'review-48213',
  kind: 'review',
  text: 'Быстро открыли счёт, но приложение иногда зависает.',
  rating: 4,
  author: { id: 'user-991', name: 'Иван П.', url: 'https://www.banki.ru/profile/?UID=991' },
  url: 'https://www.banki.ru/services/responses/bank/response/48213/',
  created_at: '2026-11-20T09:15:00+03:00',
};

export const ingestItemSchema = z
  .object({
    external_id: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .describe("The site's id; sending the same id again changes nothing"),
    kind: z
      .enum(['review', 'comment', 'mention'])
      .describe('Must be a kind the provider carries (catalogue `comments`)'),
    text: z.string().max(100_000).default('').describe('Plain text as the author wrote it'),
    rating: z.number().int().min(1).max(10).optional().describe('Review score, usually 1–5'),
    author: z
      .object({
        id: z.string().trim().min(1).max(255).describe("The author's id on the site"),
        name: z.string().trim().max(512).describe('Display name'),
        url: z.string().url().max(4096).optional().describe('Profile link'),
      })
      .describe('Who wrote it'),
    url: z.string().url().max(4096).optional().describe('Link to the item on the site'),
    created_at: when,
    post: z
      .object({
        external_id: z.string().trim().min(1).max(255),
        text: z.string().max(100_000).optional(),
        url: z.string().url().max(4096).optional(),
      })
      .optional()
      .describe('The article, topic or product page the item is under'),
    parent_external_id: z
      .string()
      .trim()
      .min(1)
      .max(255)
      .optional()
      .describe('For replies in a thread: external_id of the item it answers'),
  })
  .describe('One review, comment or mention')
  .meta({ examples: [example] });

export type IngestItem = z.output<typeof ingestItemSchema> & { [INVALID]?: string };

/** Invalid items parse to a marker carrying the validation error (see INVALID). */
const lenientItem = ingestItemSchema.catch(
  (ctx) =>
    ({
      [INVALID]: ctx.error.issues.map((i) => `${i.path.join('.') || 'item'}: ${i.message}`).join('; '),
    }) as unknown as IngestItem,
);

export const ingestBatchSchema = z
  .object({ items: z.array(lenientItem).min(1).max(INGEST_BATCH_MAX) })
  .meta({ examples: [{ items: [example] }] });

export const ingestResultSchema = z.object({
  created: z.number().int().describe('Items stored now'),
  duplicates: z.number().int().describe('Items already stored earlier (same external_id)'),
  excluded: z.number().int().describe("Items skipped by the account's exclusion rules"),
  invalid: z
    .array(z.object({ index: z.number().int(), error: z.string() }))
    .describe('Items that were not stored, by position in `items`'),
});

export const replyAckSchema = z.union([
  z.object({ external_id: z.string().trim().min(1).max(255).describe('Id the site gave the posted reply') }),
  z.object({ error: z.string().trim().min(1).max(2000).describe('Why the site refused the reply') }),
]);

/** The answer to an acknowledgement: the reply's id, its delivery state now, and its site id. */
export const replyAckResultSchema = z.object({
  id: z.number().int(),
  delivery: z
    .enum(DELIVERY_STATES)
    .describe('`delivered` once posted; `failed` when the site refused a new reply'),
  external_id: z.string().nullable(),
});

const pendingReplyAttachment = z.object({
  type: z.enum(['image', 'video', 'audio', 'voice', 'document', 'sticker', 'link']),
  url: z.string().describe('Where to download the file'),
  name: z.string().optional(),
  mime: z.string().optional(),
  size: z.number().int().optional().describe('Bytes'),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
});

export const pendingReplySchema = z
  .object({
    id: z.number().int().describe('Our id of the reply: acknowledge it with POST /v1/ingest/replies/{id}'),
    in_reply_to: z
      .string()
      .nullable()
      .describe('`external_id` of the item it answers (null when that item has no site id)'),
    external_id: z
      .string()
      .nullable()
      .describe(
        'Null: post it as a new reply. Set: the reply is already on the site under this id and was edited — change it there to `text`',
      ),
    text: z.string().describe('The text to post (for an edited reply, the new text)'),
    attachments: z.array(pendingReplyAttachment),
    created_at: z.number().int().describe('When the operator wrote it, unix seconds'),
    edited: z.boolean().describe('The operator changed the text after writing it'),
    edited_at: z.number().int().nullable().describe('When it was last edited, unix seconds; null if never'),
  })
  .describe("An operator's reply the collector has yet to post, or to change on the site");

export const pendingRepliesSchema = z
  .object({ items: z.array(pendingReplySchema).describe('Oldest first, at most 500') })
  .meta({
    examples: [
      {
        items: [
          {
            id: 5120,
            in_reply_to: 'comment-48213',
            external_id: 'comment-48290',
            text: 'Спасибо! Исправили, обновите страницу.',
            attachments: [],
            created_at: 1_763_100_000,
            edited: true,
            edited_at: 1_763_100_600,
          },
        ],
      },
    ],
  });
