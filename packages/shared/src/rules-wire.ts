import { z } from 'zod';
import { MACRO_ACTION_OUTCOMES, macroActionReportWireSchema } from './macros-wire';
import { RULE_TRIGGERS, ruleActionSchema, ruleConditionsSchema } from './rules';
import { storedJsonWireSchema } from './wire';

// Auto-rules on the wire (issue 17; issue 12 point 4): the rule as Settings → auto-rules reads it, the dry
// run, and the matches a rule ran on. The server's presenter and the dry run are typed to these.

/** An auto-rule as every answer shows it (the list, one rule, create and update). */
export const ruleWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  name: z.string(),
  trigger: z.enum(RULE_TRIGGERS),
  minutes: z.number().int().nullable(),
  conditions: storedJsonWireSchema(ruleConditionsSchema, 'The condition tree, as the request body gives it.'),
  actions: storedJsonWireSchema(z.array(ruleActionSchema), 'The actions, as the request body gives them.'),
  paused: z.boolean(),
  stop_processing: z.boolean(),
  position: z.number().int(),
  /** Items it matched, ever. */
  match_count: z.number().int(),
  last_matched_at: z.string().nullable(),
  updated_at: z.string(),
});
export type RuleDto = z.infer<typeof ruleWireSchema>;

/** GET /v1/rules: the rules of the spaces the caller manages, in order. */
export const rulesListWireSchema = z.object({ items: z.array(ruleWireSchema) });
export type RulesListWire = z.infer<typeof rulesListWireSchema>;

/**
 * One action's result in a run, as the item's history and the stats keep it (jsonb: the keys in the
 * database's order, so the answer's bytes are as stored).
 */
export const ruleActionResultWireSchema = z.object({
  /** The action's type as it was when the rule ran. */
  type: z.string(),
  detail: z.string().optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
  outcome: z.enum(MACRO_ACTION_OUTCOMES),
});
export type RuleActionResult = z.infer<typeof ruleActionResultWireSchema>;

export const ruleDryRunItemWireSchema = z.object({
  item_id: z.number().int(),
  provider: z.string(),
  kind: z.string(),
  excerpt: z.string(),
  created_at: z.string(),
  /** What it would do (only for the first RULE_DRY_RUN_DETAILS matches): the macro runner's preview. */
  actions: z.array(macroActionReportWireSchema).nullable(),
});
export type RuleDryRunItem = z.infer<typeof ruleDryRunItemWireSchema>;

/** POST /v1/rules/dry-run. */
export const ruleDryRunResultWireSchema = z.object({
  rule_id: z.number().int().nullable(),
  looked_at: z.number().int(),
  matched: z.number().int(),
  items: z.array(ruleDryRunItemWireSchema),
});
export type RuleDryRunResult = z.infer<typeof ruleDryRunResultWireSchema>;

/** One item an auto-rule ran on (GET /v1/rules/{id}/matches, the stats drill-down). */
export const ruleMatchWireSchema = z.object({
  item_id: z.number().int(),
  /** ok: something was done; skipped: nothing applied; failed: an action failed (nothing kept). */
  status: z.enum(['ok', 'skipped', 'failed']),
  actions_done: z.number().int(),
  results: z.array(ruleActionResultWireSchema),
  error: z.string().nullable(),
  at: z.string(),
  excerpt: z.string(),
});
export type RuleMatchWire = z.infer<typeof ruleMatchWireSchema>;
export const ruleMatchesWireSchema = z.object({ items: z.array(ruleMatchWireSchema) });
