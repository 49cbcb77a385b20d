import { BLOCK_DURATIONS, BULK_REPLY_MAX } from '@otklik/shared';
import { z } from 'zod';
import { SETTABLE_STATUSES } from './workflow';

// Request bodies of the inbox actions. Limits of the network (length, bytes, attachments) are checked by
// the send path against the provider catalogue, not here: they differ per account.

export const idParams = z.object({ id: z.coerce.number().int().positive() });

const attachment = z.object({
  url: z.string().min(1).max(4096).describe('An address returned by POST /v1/uploads'),
  name: z.string().max(255).optional(),
});

export const replyBody = z.object({
  text: z.string().max(100_000).default(''),
  attachments: z.array(attachment).max(20).default([]),
  undoable: z
    .boolean()
    .optional()
    .describe(
      'Hold the network call 5 s; POST /v1/items/{reply id}/undo or /v1/messages/{id}/undo cancels it',
    ),
  close: z
    .boolean()
    .optional()
    .describe(
      'Close what is answered with reply: default true for comments (docs/product/states.md), false for chats',
    ),
  template_id: z
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1)
    .optional()
    .describe('The reply template the text was made from: counted as used and written to the action log'),
});

export const directBody = z.object({ text: z.string().max(100_000) });

export const bulkReplyBody = replyBody.omit({ undoable: true, close: true }).extend({
  ids: z
    .array(z.number().int().positive())
    .min(1)
    .max(10_000)
    .describe(`Comments of one account, at most ${BULK_REPLY_MAX}`),
});

export const statusBody = z.object({
  status: z.enum(SETTABLE_STATUSES),
  close_reason: z
    .enum(['reply', 'noreply'])
    .optional()
    .describe('For closed; derived from whether a reply was sent'),
  delayed_until: z.number().int().positive().optional().describe('Unix seconds; required for delayed'),
});

export const bulkStatusBody = statusBody.extend({
  ids: z.array(z.number().int().positive()).min(1).max(500),
});

export const reactBody = z.object({
  value: z
    .union([z.string().min(1).max(64), z.number().int().positive()])
    .nullable()
    .describe("One of the provider's reactions (catalogue `reactions.items[].value`); null takes ours back"),
});

export const editBody = z.object({ text: z.string().max(100_000) });

export const tagsBody = z.object({ tag_ids: z.array(z.number().int().positive()).max(100) });

export const assignBody = z.object({ user_id: z.number().int().positive().nullable() });

export const blockBody = z.object({ duration: z.enum(BLOCK_DURATIONS) });
