import { z } from 'zod';
import { storedJsonWireSchema } from './wire';

// Chat-bots (issue 17): one bot per messenger account, a flow of steps run in a private chat until it
// hands off to an operator, ends, or an operator takes the chat. Shared by the settings form and the API;
// message keys live in messages.ts (ru/en). Rules: docs/product/bots.md.

export const BOT_STEP_TYPES = ['message', 'menu', 'collect', 'template', 'webhook', 'ai', 'handoff'] as const;
export type BotStepType = (typeof BOT_STEP_TYPES)[number];

export const BOT_FIELDS = ['name', 'phone', 'email', 'order', 'text'] as const;
export type BotField = (typeof BOT_FIELDS)[number];

export const BOT_STEPS_MAX = 30;
export const BOT_OPTIONS_MAX = 10;
export const BOT_NAME_MAX = 120;
export const BOT_TEXT_MAX = 1000;
export const BOT_OPTION_MAX = 60;
/** Wrong answers to one question before the bot hands the chat to an operator. */
export const BOT_RETRIES_MAX = 3;
/** A conversation silent this long is over ("dropped" at its step); the next message starts a new one. */
export const BOT_IDLE_HOURS = 24;

/** Networks whose own buttons the bot uses; everywhere else the options go as numbered lines of text. */
export const BOT_NATIVE_KEYBOARDS: Readonly<
  Record<string, 'inline_keyboard' | 'vk_keyboard' | 'interactive' | 'viber_keyboard'>
> = {
  telegram: 'inline_keyboard',
  /** An inline keyboard of text buttons with a payload. */
  vk: 'vk_keyboard',
  /** Interactive messages: up to 3 reply buttons, else a list of up to 10 rows. */
  whatsapp: 'interactive',
  /** A keyboard of `reply` buttons whose ActionBody comes back as the message text. */
  viber: 'viber_keyboard',
};

const stepId = z.string().trim().min(1, 'field.required').max(40, 'field.tooLong');
const text = z.string().trim().max(BOT_TEXT_MAX, 'field.tooLong');
const required = text.min(1, 'bots.text.required');
const next = stepId.nullable().optional();

export const botOptionSchema = z.object({
  label: z.string().trim().min(1, 'bots.option.required').max(BOT_OPTION_MAX, 'field.tooLong'),
  /** Words that choose this option when typed (besides its number and label). */
  keywords: z.array(z.string().trim().min(1).max(60, 'field.tooLong')).max(20, 'field.tooLong').default([]),
  /** The step this option leads to; none: the next one. */
  next,
});

export const botStepSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ id: stepId, type: z.literal('message'), text: required, next }),
    z.object({
      id: stepId,
      type: z.literal('menu'),
      text: required,
      options: z.array(botOptionSchema).min(1, 'bots.options.required').max(BOT_OPTIONS_MAX, 'field.tooLong'),
      retry_text: text.default(''),
    }),
    z.object({
      id: stepId,
      type: z.literal('collect'),
      text: required,
      field: z.enum(BOT_FIELDS, { error: 'bots.field.required' }),
      retry_text: text.default(''),
      next,
    }),
    z.object({
      id: stepId,
      type: z.literal('template'),
      template_id: z.number({ error: 'bots.template.required' }).int().positive('bots.template.required'),
      next,
    }),
    z
      .object({
        id: stepId,
        type: z.literal('webhook'),
        /** An address called unsigned; kept for flows made before endpoints could be chosen. */
        url: z
          .union([z.literal(''), z.url({ error: 'bots.url.invalid', protocol: /^https?$/ })])
          .optional()
          .default('')
          .pipe(z.string().max(2000, 'field.tooLong')),
        /** An endpoint of settings/webhooks: its address, called signed with its secret (Standard Webhooks). */
        webhook_id: z.number().int().positive().nullable().optional(),
        next,
      })
      .refine((s) => Boolean(s.webhook_id) || s.url !== '', {
        path: ['webhook_id'],
        error: 'bots.webhook.required',
      }),
    /**
     * An answer from one of the space's AI agents to the conversation so far (modules/ai), sent to the
     * customer; on a provider error or timeout `fallback_text` goes instead (none: nothing is sent).
     */
    z.object({
      id: stepId,
      type: z.literal('ai'),
      agent_id: z.number({ error: 'bots.agent.required' }).int().positive('bots.agent.required'),
      fallback_text: text.default(''),
      next,
    }),
    z.object({
      id: stepId,
      type: z.literal('handoff'),
      text: text.default(''),
      /** Assign the chat to this user at hand-off; none: it waits unassigned in the queue. */
      user_id: z.number().int().positive().nullable().optional(),
    }),
  ],
  { error: 'bots.step.invalid' },
);
export type BotStep = z.infer<typeof botStepSchema>;
export type BotStepInput = z.input<typeof botStepSchema>;

const steps = z.array(botStepSchema).max(BOT_STEPS_MAX, 'bots.steps.tooMany');

function checkFlow(flow: BotStep[], path: string, ctx: z.RefinementCtx) {
  const ids = new Set<string>();
  flow.forEach((s, i) => {
    if (ids.has(s.id))
      ctx.addIssue({ code: 'custom', message: 'bots.step.duplicate', path: [path, i, 'id'] });
    ids.add(s.id);
  });
  flow.forEach((s, i) => {
    const targets = s.type === 'menu' ? s.options.map((o) => o.next) : 'next' in s ? [s.next] : [];
    if (targets.some((t) => t && !ids.has(t)))
      ctx.addIssue({ code: 'custom', message: 'bots.next.unknown', path: [path, i] });
  });
}

const botFields = {
  name: z.string().trim().min(1, 'bots.name.required').max(BOT_NAME_MAX, 'field.tooLong'),
  enabled: z.boolean().default(true),
  steps: steps.min(1, 'bots.steps.required'),
  /** Used outside the space's business hours; empty: the main flow always. */
  off_hours_steps: steps.default([]),
};

export const botFormSchema = z.object(botFields).superRefine((b, ctx) => {
  checkFlow(b.steps, 'steps', ctx);
  checkFlow(b.off_hours_steps, 'off_hours_steps', ctx);
});
export type BotForm = z.input<typeof botFormSchema>;

export const createBotBody = z
  .object({ ...botFields, object_id: z.number({ error: 'bots.account.required' }).int().positive() })
  .superRefine((b, ctx) => {
    checkFlow(b.steps, 'steps', ctx);
    checkFlow(b.off_hours_steps, 'off_hours_steps', ctx);
  });
export const updateBotBody = botFormSchema;

/** A chat-bot as every answer shows it (the list, one bot, create and update); times in unix seconds. */
export const botWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  object_id: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
  steps: storedJsonWireSchema(z.array(botStepSchema), 'The main flow, as the request body gives `steps`.'),
  off_hours_steps: storedJsonWireSchema(
    z.array(botStepSchema),
    'The flow outside business hours, as the request body gives `off_hours_steps`.',
  ),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});
export type PresentedBot = z.infer<typeof botWireSchema>;

/** GET /v1/bots. */
export const botsListWireSchema = z.object({ items: z.array(botWireSchema) });
export type BotsListWire = z.infer<typeof botsListWireSchema>;

export const BOT_SESSION_STATES = ['active', 'completed', 'handed_off', 'stopped', 'dropped'] as const;
export type BotSessionState = (typeof BOT_SESSION_STATES)[number];

/** What the chat page shows: the bot's conversation in this chat and what it collected. */
export const botSessionWireSchema = z.object({
  bot_id: z.number().int(),
  bot_name: z.string(),
  state: z.enum(BOT_SESSION_STATES),
  step_id: z.string(),
  fields: z.record(z.string(), z.string()),
  /** Unix seconds. */
  started_at: z.number().int(),
  ended_at: z.number().int().nullable(),
});
export type PresentedBotSession = z.infer<typeof botSessionWireSchema>;

/** GET /v1/chats/{id}/bot: the chat's latest bot conversation; null when a bot never talked there. */
export const chatBotSessionWireSchema = z.object({ session: botSessionWireSchema.nullable() });
export type ChatBotSessionWire = z.infer<typeof chatBotSessionWireSchema>;

/** stats/bots: conversations per bot and, per step, how many reached it and how many ended there. */
export const botStatsWireSchema = z.object({
  bots: z.array(
    z.object({
      bot_id: z.number(),
      name: z.string(),
      started: z.number(),
      completed: z.number(),
      handed_off: z.number(),
      dropped: z.number(),
      active: z.number(),
      steps: z.array(
        z.object({
          step_id: z.string(),
          type: z.enum(BOT_STEP_TYPES),
          flow: z.enum(['main', 'off_hours']),
          reached: z.number(),
          dropped: z.number(),
        }),
      ),
    }),
  ),
});
export type BotStatsAnswer = z.infer<typeof botStatsWireSchema>;

// Validation of a collected answer: the normalised value, or null when it is not one.
const PHONE = /^\+?\d{10,15}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export function validateBotField(field: BotField, input: string): string | null {
  const value = input.trim();
  if (!value) return null;
  switch (field) {
    case 'phone': {
      const compact = value.replace(/[\s()-]/g, '');
      if (!PHONE.test(compact)) return null;
      // A Russian number written with 8 or without a country code is stored as +7….
      if (/^8\d{10}$/.test(compact)) return `+7${compact.slice(1)}`;
      return compact.startsWith('+') ? compact : `+${compact}`;
    }
    case 'email':
      return EMAIL.test(value) && value.length <= 254 ? value.toLowerCase() : null;
    case 'name':
      return value.length >= 2 && value.length <= 100 && /\p{L}/u.test(value) && !/\d{3,}/.test(value)
        ? value
        : null;
    case 'order':
      return /^[\p{L}\d#/-]{3,30}$/u.test(value) ? value.replace(/^#/, '') : null;
    default:
      return value.length <= BOT_TEXT_MAX ? value : null;
  }
}

/** The option a customer chose by number, label or keyword (case and surrounding space ignored). */
export function matchBotOption(
  options: Array<{ label: string; keywords?: string[] }>,
  input: string,
): number {
  const said = input.trim().toLowerCase().replace(/[.)]$/, '');
  if (!said) return -1;
  const n = Number(said);
  if (Number.isInteger(n) && n >= 1 && n <= options.length) return n - 1;
  const exact = options.findIndex((o) => o.label.trim().toLowerCase() === said);
  if (exact >= 0) return exact;
  return options.findIndex((o) => (o.keywords ?? []).some((k) => k && said.includes(k.trim().toLowerCase())));
}

/** Options as numbered lines under the text: what networks without native buttons get. */
export function numberedOptions(text: string, options: Array<{ label: string }>): string {
  return [text, '', ...options.map((o, i) => `${i + 1}. ${o.label}`)].join('\n').trim();
}
