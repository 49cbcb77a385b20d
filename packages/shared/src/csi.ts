import { z } from 'zod';
import { PROVIDER_IDS } from './providers';
import { statsPeriodWireSchema } from './stats-wire';

// Customer satisfaction surveys (issue 21, docs/product/csi.md): per account, after a dialog is closed the
// customer gets a 1–5 question (buttons where the network has them, else "reply with a digit"), an
// optional comment question and a thank-you. Answers within the window are recorded against the chat,
// the operator and the account; definitions of the figures are in docs/statistics.md "CSI".

export const CSI_LANGUAGES = ['ru', 'en'] as const;
export type CsiLanguage = (typeof CSI_LANGUAGES)[number];
/** 'auto': Russian when the customer's last message has Cyrillic letters, else English. */
export const CSI_LANGUAGE_MODES = ['auto', 'ru', 'en'] as const;
export const CSI_SCORES = [1, 2, 3, 4, 5] as const;
export const CSI_TEXT_MAX = 1000;
export const CSI_WINDOW_HOURS_MAX = 168;
export const CSI_PERIOD_DAYS_MAX = 365;
/** Satisfied answers for CSAT: 4 and 5. */
export const CSI_SATISFIED_MIN = 4;

const text = z.string({ error: 'field.invalid' }).trim().max(CSI_TEXT_MAX, 'field.tooLong');
export const csiTextsSchema = z.object({
  survey: text.min(1, 'csi.survey.required'),
  thanks: text.default(''),
  /** The optional comment question asked after the score; empty = no comment asked. */
  comment: text.default(''),
});
export type CsiTexts = z.output<typeof csiTextsSchema>;

export const csiSettingsBody = z.object({
  enabled: z.boolean({ error: 'field.invalid' }),
  language: z.enum(CSI_LANGUAGE_MODES, { error: 'field.invalid' }),
  texts: z.object({ ru: csiTextsSchema, en: csiTextsSchema }),
  window_hours: z
    .number({ error: 'field.invalid' })
    .int('field.invalid')
    .min(1, 'csi.window.invalid')
    .max(CSI_WINDOW_HOURS_MAX, 'csi.window.invalid'),
  /** One survey per chat per this many days; 0 = after every closing. */
  period_days: z
    .number({ error: 'field.invalid' })
    .int('field.invalid')
    .min(0, 'csi.period.invalid')
    .max(CSI_PERIOD_DAYS_MAX, 'csi.period.invalid'),
});
export type CsiSettingsBody = z.output<typeof csiSettingsBody>;

/** The texts an account starts with (the customer's language). */
export const CSI_DEFAULT_TEXTS: Record<CsiLanguage, CsiTexts> = {
  ru: {
    survey: 'Пожалуйста, оцените, как мы вам помогли: от 1 (плохо) до 5 (отлично).',
    thanks: 'Спасибо за оценку!',
    comment: '',
  },
  en: {
    survey: 'Please rate how we helped you: from 1 (poor) to 5 (excellent).',
    thanks: 'Thank you for your rating!',
    comment: '',
  },
};

/** The line added under the question where the network has no buttons. */
export const CSI_DIGIT_HINT: Record<CsiLanguage, string> = {
  ru: 'Ответьте цифрой от 1 до 5.',
  en: 'Reply with a digit from 1 to 5.',
};

export const CSI_DEFAULT_SETTINGS: CsiSettingsBody = {
  enabled: false,
  language: 'auto',
  texts: CSI_DEFAULT_TEXTS,
  window_hours: 24,
  period_days: 7,
};

const wireTexts = z.object({ survey: z.string(), thanks: z.string(), comment: z.string() });

/** One account's survey settings (settings/csi): GET /v1/csi/accounts lists them, PUT answers one. */
export const csiAccountWireSchema = z.object({
  object_id: z.number().int(),
  space_id: z.number().int(),
  name: z.string(),
  provider: z.string(),
  /** The network shows the scale as buttons (else numbered replies). */
  buttons: z.boolean(),
  enabled: z.boolean(),
  language: z.enum(CSI_LANGUAGE_MODES),
  texts: z.object({ ru: wireTexts, en: wireTexts }),
  window_hours: z.number().int(),
  period_days: z.number().int(),
});
export type CsiAccount = z.infer<typeof csiAccountWireSchema>;
export const csiAccountsWireSchema = z.object({ accounts: z.array(csiAccountWireSchema) });
export type CsiAccountsWire = z.infer<typeof csiAccountsWireSchema>;

const invalid = { message: 'field.invalid' } as const;
const id = z.coerce
  .number(invalid)
  .int(invalid)
  .positive(invalid)
  .max(2 ** 31 - 1, invalid);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, invalid);
function queryArray<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (value) => (value === undefined || value === '' ? undefined : Array.isArray(value) ? value : [value]),
    z.array(item).min(1, invalid).max(100, invalid).optional(),
  );
}

export const CSI_PAGE_SIZE = 50;

/** GET /v1/csi/responses: answered surveys, newest first. */
export const csiResponsesQuery = z.object({
  space_id: id,
  from: isoDate.optional(),
  to: isoDate.optional(),
  object_id: queryArray(id),
  provider: queryArray(z.enum(PROVIDER_IDS, invalid)),
  user_id: queryArray(id),
  score: queryArray(z.coerce.number(invalid).int(invalid).min(1, invalid).max(5, invalid)),
  page: z.coerce.number(invalid).int(invalid).min(1, invalid).max(10_000, invalid).optional(),
});
export type CsiResponsesQuery = z.output<typeof csiResponsesQuery>;

export const csiResponseWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  object_id: z.number().int(),
  account_name: z.string(),
  provider: z.string(),
  chat_id: z.number().int(),
  author_name: z.string().nullable(),
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  score: z.number().int(),
  comment: z.string().nullable(),
  /** Unix seconds. */
  sent_at: z.number().int(),
  answered_at: z.number().int(),
});
export type CsiResponse = z.infer<typeof csiResponseWireSchema>;

/** GET /v1/csi/responses: a numbered page of answered surveys. */
export const csiResponsePageWireSchema = z.object({
  responses: z.array(csiResponseWireSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type CsiResponsePage = z.infer<typeof csiResponsePageWireSchema>;

/** Figures of one group of surveys (docs/statistics.md "CSI"). Shares are 0–100, null with no answers. */
export const csiFiguresWireSchema = z.object({
  sent: z.number(),
  answered: z.number(),
  satisfied: z.number(),
  csat: z.number().nullable(),
  average: z.number().nullable(),
  response_rate: z.number().nullable(),
});
export type CsiFigures = z.infer<typeof csiFiguresWireSchema>;

/** stats/csi: the surveys sent in the period, by day, operator, account and network. */
export const csiStatsWireSchema = z.object({
  period: statsPeriodWireSchema,
  total: csiFiguresWireSchema,
  scores: z.array(z.object({ score: z.number(), count: z.number() })),
  by_day: z.array(z.object({ day: z.string(), ...csiFiguresWireSchema.shape })),
  by_user: z.array(
    z.object({ user_id: z.number().nullable(), name: z.string().nullable(), ...csiFiguresWireSchema.shape }),
  ),
  by_object: z.array(
    z.object({
      object_id: z.number(),
      name: z.string(),
      provider: z.string(),
      ...csiFiguresWireSchema.shape,
    }),
  ),
  by_provider: z.array(z.object({ provider: z.string(), ...csiFiguresWireSchema.shape })),
});
export type CsiStats = z.infer<typeof csiStatsWireSchema>;
