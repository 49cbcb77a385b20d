import { z } from 'zod';

// Bulk actions on a selection in the inbox lists (issue 13): close, add tags, assign, snooze — several
// comments or chats at once, each checked and applied like the single action, answered per id, and
// undoable for a short while through a sealed token the server gave back.

/** Most records one bulk action takes. */
export const BULK_ACTION_MAX = 500;

/** How long the server accepts a bulk action's undo token; the web offers Undo for less (BULK_UNDO_SHOW_S). */
export const BULK_UNDO_TTL_S = 120;

/** How long the web shows "N closed · Undo". */
export const BULK_UNDO_SHOW_S = 8;

export const BULK_ACTION_KINDS = ['close', 'tag', 'assign', 'snooze'] as const;
export type BulkActionKind = (typeof BULK_ACTION_KINDS)[number];

const positiveId = z.number().int().positive();

export const bulkActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('close') }),
  z.object({ kind: z.literal('tag'), tag_ids: z.array(positiveId).min(1).max(100) }),
  z.object({ kind: z.literal('assign'), user_id: positiveId.nullable() }),
  z.object({ kind: z.literal('snooze'), until: positiveId.describe('Unix seconds, in the future') }),
]);
export type BulkAction = z.infer<typeof bulkActionSchema>;

export const bulkActionBody = z.object({
  ids: z.array(positiveId).min(1).max(BULK_ACTION_MAX),
  action: bulkActionSchema,
});
export type BulkActionBody = z.infer<typeof bulkActionBody>;

export const bulkUndoBody = z.object({ token: z.string().min(1).max(200_000) });

/**
 * What happened to one id: done; not there or not visible to the caller (the same answer, so ids of
 * other spaces reveal nothing); visible but the caller's role may not; refused for a reason (`error`,
 * in the caller's language). Undo adds `changed`: someone changed the record since, so it was left.
 */
export const BULK_RESULTS = ['ok', 'unchanged', 'not_found', 'no_access', 'failed', 'changed'] as const;
export type BulkResultKind = (typeof BULK_RESULTS)[number];

export const bulkResultWireSchema = z.object({
  id: z.number().int(),
  result: z.enum(BULK_RESULTS),
  error: z.string().optional(),
});
export type BulkResult = z.infer<typeof bulkResultWireSchema>;

/** POST /v1/{items|chats}/bulk. */
export const bulkResponseWireSchema = z.object({
  results: z.array(bulkResultWireSchema),
  /** Present when something changed: POST …/bulk/undo with it restores what is still as we left it. */
  undo_token: z.string().nullable(),
  /** Unix seconds. */
  undo_expires_at: z.number().int().nullable(),
});
export type BulkResponse = z.infer<typeof bulkResponseWireSchema>;

/** POST /v1/{items|chats}/bulk/undo. */
export const bulkUndoResponseWireSchema = z.object({ results: z.array(bulkResultWireSchema) });
export type BulkUndoResponse = z.infer<typeof bulkUndoResponseWireSchema>;

/** Counts by result kind, for the toasts. */
export function countBulkResults(results: readonly BulkResult[]): Record<BulkResultKind, number> {
  const counts = Object.fromEntries(BULK_RESULTS.map((kind) => [kind, 0])) as Record<BulkResultKind, number>;
  for (const r of results) counts[r.result] += 1;
  return counts;
}
