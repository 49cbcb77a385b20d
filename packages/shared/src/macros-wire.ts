import { z } from 'zod';
import { macroActionSchema } from './macros';
import { RULE_ACTION_TYPES } from './rules';

// Macros on the wire (issue 16; issue 12 point 4): the macro as Settings → macros and the runner read it,
// and the per-item report of a preview or a run. The server's presenter and runner are typed to these.

/** A macro as every answer shows it (the list, one macro, create and update). */
export const macroWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  /** null for a space macro; the owner's id for a personal one. */
  user_id: z.number().int().nullable(),
  name: z.string(),
  actions: z.array(macroActionSchema),
  shortcut: z.number().int().nullable(),
  sort_order: z.number().int(),
  usage_count: z.number().int(),
  updated_at: z.string(),
});
export type MacroDto = z.infer<typeof macroWireSchema>;

/** GET /v1/macros: the macros and the spaces where the caller may change space macros. */
export const macrosListWireSchema = z.object({
  items: z.array(macroWireSchema),
  can_manage: z.array(z.number().int()),
});
export type MacrosListWire = z.infer<typeof macrosListWireSchema>;

/**
 * One action for one item. Preview: `apply` (will be done), `queue` (goes to the network through the
 * outbox), `skip` (not for this item: role, network, nothing to change), `unavailable` (not built here).
 * Run: `applied`, `queued`, `skipped`, `failed` (the item's changes were rolled back), `not_run` (an
 * earlier action of the item failed).
 */
export const MACRO_ACTION_OUTCOMES = [
  'apply',
  'queue',
  'skip',
  'unavailable',
  'applied',
  'queued',
  'skipped',
  'failed',
  'not_run',
] as const;
export type MacroActionOutcome = (typeof MACRO_ACTION_OUTCOMES)[number];

export const macroActionReportWireSchema = z.object({
  /** A macro's action, or one only auto-rules have (rules.ts); the rules' list holds the macros'. */
  type: z.enum(RULE_ACTION_TYPES),
  outcome: z.enum(MACRO_ACTION_OUTCOMES),
  /** A message key (messages.ts) saying why, for skip/unavailable/failed. */
  reason: z.string().optional(),
  /** `reason` in the caller's language. */
  message: z.string().optional(),
  /** What it will write: the reply text, the tag names, the user's name, the status. */
  detail: z.string().optional(),
});
export type MacroActionReport = z.infer<typeof macroActionReportWireSchema>;

export const macroItemReportWireSchema = z.object({
  item_id: z.number().int(),
  provider: z.string().nullable(),
  /** ok: something applied; skipped: nothing applied (every action skipped); failed: nothing kept. */
  status: z.enum(['ok', 'skipped', 'failed']),
  reason: z.string().optional(),
  message: z.string().optional(),
  actions: z.array(macroActionReportWireSchema),
});
export type MacroItemReport = z.infer<typeof macroItemReportWireSchema>;

/** POST /v1/macros/{id}/preview and /run. */
export const macroRunResultWireSchema = z.object({
  macro_id: z.number().int(),
  items: z.array(macroItemReportWireSchema),
  summary: z.object({ ok: z.number().int(), skipped: z.number().int(), failed: z.number().int() }),
});
export type MacroRunResult = z.infer<typeof macroRunResultWireSchema>;
