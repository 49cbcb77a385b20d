import { z } from 'zod';
import { listWireSchema } from './wire';

// settings/errors and the errors dropdown on the wire (docs/product/screens-and-routes.md settings/errors):
// outgoing actions the networks refused for good, their per-account counts, failed auto-rule runs and
// failed chat-bot steps. The accounts' own errors are accounts-wire.ts (GET /v1/errors).

/** What was tried: a send (reply, direct, message), a moderation, a reaction, a ban (the outbox's actions). */
export const FAILED_ACTION_KINDS = [
  'reply',
  'direct',
  'message',
  'edit',
  'delete',
  'restore',
  'hide',
  'unhide',
  'like',
  'unlike',
  'report',
  'react',
  'react_message',
  'block',
  'unblock',
] as const;
export type FailedActionKind = (typeof FAILED_ACTION_KINDS)[number];

const id = z.number().int();
const named = z.object({ id, name: z.string() });

/** One row of settings/errors: what failed, where, on which account, the network's text, when, attempts. */
export const failedActionWireSchema = z.object({
  id,
  action: z.enum(FAILED_ACTION_KINDS),
  error: z.string().nullable(),
  attempts: z.number().int(),
  /** Unix seconds. */
  created_at: z.number().int().nullable(),
  failed_at: z.number().int().nullable(),
  space_id: id,
  account: z.object({ id, name: z.string(), provider: z.string() }),
  item_id: id.nullable(),
  message_id: id.nullable(),
  chat_id: id.nullable(),
  author: named.nullable(),
  user: named.nullable(),
  /** The text of what it was about (our reply, the customer's comment or message). */
  excerpt: z.string().nullable(),
  /** Where to open it. */
  target: z.object({ kind: z.enum(['item', 'chat', 'author']), id }).nullable(),
  /** A failed send that POST …/retry sends again. */
  retry: z.object({ kind: z.enum(['item', 'message']), id }).nullable(),
});
export type FailedActionWire = z.infer<typeof failedActionWireSchema>;

/** GET /v1/errors/actions: newest first, keyset by id (`next_before`, null at the end). */
export const failedActionsWireSchema = z.object({
  items: z.array(failedActionWireSchema),
  next_before: id.nullable(),
});
export type FailedActionsWire = z.infer<typeof failedActionsWireSchema>;

/** Per account: how many recent failed actions still stand (GET /v1/errors/actions/counts). */
export const failureCountWireSchema = z.object({
  object_id: id,
  space_id: id,
  name: z.string(),
  provider: z.string(),
  count: z.number().int(),
  last_failed_at: z.number().int().nullable(),
});
export type FailureCountWire = z.infer<typeof failureCountWireSchema>;
export const failureCountsWireSchema = listWireSchema(failureCountWireSchema);

/** A failed auto-rule run (GET /v1/errors/rules). `at` is an ISO time. */
export const ruleFailureWireSchema = z.object({
  id,
  space_id: id,
  rule_id: id,
  rule: z.string(),
  item_id: id,
  excerpt: z.string(),
  error: z.string().nullable(),
  at: z.string(),
});
export type RuleFailureWire = z.infer<typeof ruleFailureWireSchema>;
export const ruleFailuresWireSchema = listWireSchema(ruleFailureWireSchema);

/** A failed chat-bot step (GET /v1/errors/bots). `at` is an ISO time. */
export const botFailureWireSchema = z.object({
  id,
  space_id: id,
  bot_id: id.nullable(),
  bot: z.string(),
  chat_id: id,
  step_id: z.string(),
  error: z.string().nullable(),
  at: z.string(),
});
export type BotFailureWire = z.infer<typeof botFailureWireSchema>;
export const botFailuresWireSchema = listWireSchema(botFailureWireSchema);
