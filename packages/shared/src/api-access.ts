import { z } from 'zod';
import { ROLE_PRESET_NAMES } from './access/roles';

// Public API access (issue 14 item 9): API tokens for scripts and outgoing webhooks per space. The
// server's routes and the web's forms parse with these schemas; the event catalogue is the one list of
// what a webhook endpoint may subscribe to.

/** Every API token starts with this, so secret scanners and people recognise one. */
export const API_TOKEN_PREFIX = 'otk_';
/** Webhook signing secrets (Standard Webhooks: `whsec_` + base64 of the key bytes). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** last_used_at is written at most this often per token (a busy script must not write on every call). */
export const API_TOKEN_TOUCH_S = 60;

/**
 * Outgoing webhook events. `task.changed` is defined now and sent once tasks exist (docs/product/entities.md issues),
 * so an integration can subscribe ahead.
 */
export const WEBHOOK_EVENT_TYPES = [
  'item.created',
  'item.replied',
  'item.closed',
  'chat.message',
  'task.changed',
  'account.error',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Backoff after each failed attempt, seconds (the Standard Webhooks reference schedule). */
export const WEBHOOK_RETRY_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;
/** Attempts of one delivery before it is marked failed (the first try plus one per backoff step). */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_SECONDS.length + 1;
/** Consecutive failed attempts after which an endpoint is switched off, with the reason shown. */
export const WEBHOOK_DISABLE_AFTER = 20;
/** An endpoint's answer must come within this many seconds. */
export const WEBHOOK_TIMEOUT_S = 15;

const nameField = z
  .string({ error: 'field.required' })
  .trim()
  .min(1, 'field.required')
  .max(100, 'field.tooLong');

export const apiTokenKindSchema = z.enum(['personal', 'space']);
export type ApiTokenKind = z.infer<typeof apiTokenKindSchema>;

/**
 * A new token. Personal: acts as its owner, in every space or one, limited to `role` when given
 * (never more than the owner's own role there). Space: created by an administrator, acts with `role`
 * in that one space.
 */
export const createApiTokenBody = z
  .object({
    kind: apiTokenKindSchema,
    name: nameField,
    space_id: z.number().int().positive().nullable().optional(),
    role: z.enum(ROLE_PRESET_NAMES).nullable().optional(),
    /** Unix seconds; null or absent: never expires. */
    expires_at: z.number().int().positive().nullable().optional(),
  })
  .refine((b) => b.kind === 'personal' || (b.space_id != null && b.role != null), {
    message: 'apiTokens.spaceAndRole',
    path: ['role'],
  });
export type CreateApiTokenBody = z.infer<typeof createApiTokenBody>;

/** A token as the list shows it: never its digest, and the secret only in the create answer. */
export const apiTokenWireSchema = z.object({
  id: z.number().int(),
  kind: apiTokenKindSchema,
  name: z.string(),
  /** The first characters of the secret, to tell tokens apart (`otk_Ab12…`). */
  hint: z.string(),
  space_id: z.number().int().nullable(),
  role: z.enum(ROLE_PRESET_NAMES).nullable(),
  user_id: z.number().int().nullable(),
  created_at: z.number().int(),
  expires_at: z.number().int().nullable(),
  last_used_at: z.number().int().nullable(),
  revoked_at: z.number().int().nullable(),
});
export type PresentedApiToken = z.infer<typeof apiTokenWireSchema>;

/** GET /v1/api_tokens: own personal tokens and the space tokens of the spaces one administers. */
export const apiTokensWireSchema = z.object({
  items: z.array(apiTokenWireSchema),
  admin_space_ids: z.array(z.number().int()),
});
export type ApiTokensWire = z.infer<typeof apiTokensWireSchema>;

/** POST /v1/api_tokens: the token and its secret, shown this once. */
export const createdApiTokenWireSchema = z.object({ token: apiTokenWireSchema, secret: z.string() });
export type CreatedApiTokenWire = z.infer<typeof createdApiTokenWireSchema>;

const webhookUrl = z
  .string({ error: 'field.required' })
  .trim()
  .min(1, 'field.required')
  .max(2000, 'field.tooLong')
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'webhooks.url.invalid');

const eventsField = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .min(1, 'webhooks.events.required')
  .transform((list) => [...new Set(list)]);

export const webhookFormSchema = z.object({
  url: webhookUrl,
  description: z.string().trim().max(200, 'field.tooLong'),
  events: eventsField,
  is_enabled: z.boolean(),
});
export type WebhookForm = z.infer<typeof webhookFormSchema>;

export const createWebhookBody = webhookFormSchema.extend({ space_id: z.number().int().positive() });
export const updateWebhookBody = webhookFormSchema.partial();

export const webhookWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  is_enabled: z.boolean(),
  /** Why the server switched it off (many failures in a row), null when on or switched off by a person. */
  disabled_reason: z.string().nullable(),
  disabled_at: z.number().int().nullable(),
  failure_count: z.number().int(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type PresentedWebhook = z.infer<typeof webhookWireSchema>;

/** GET /v1/webhooks: the endpoints, and the spaces where one may add them. */
export const webhooksWireSchema = z.object({
  items: z.array(webhookWireSchema),
  space_ids: z.array(z.number().int()),
});
export type WebhooksWire = z.infer<typeof webhooksWireSchema>;

/** POST /v1/webhooks: the endpoint and its signing secret, shown this once. */
export const createdWebhookWireSchema = z.object({ webhook: webhookWireSchema, secret: z.string() });
export type CreatedWebhookWire = z.infer<typeof createdWebhookWireSchema>;

export const WEBHOOK_DELIVERY_STATES = ['pending', 'done', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

export const webhookDeliveryWireSchema = z.object({
  id: z.number().int(),
  endpoint_id: z.number().int(),
  /** The `webhook-id` header: the same on every attempt and redelivery (receivers deduplicate by it). */
  message_id: z.string(),
  event_type: z.enum(WEBHOOK_EVENT_TYPES),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number().int(),
  response_status: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  /** Unix seconds of the next attempt while pending. */
  next_attempt_at: z.number().int().nullable(),
  created_at: z.number().int(),
  delivered_at: z.number().int().nullable(),
});
export type PresentedWebhookDelivery = z.infer<typeof webhookDeliveryWireSchema>;
