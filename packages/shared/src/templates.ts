import { z } from 'zod';
import { PROVIDER_IDS } from './providers/ids';

// Reply templates (issue 16): the form and API schemas, the variable filling and the composer's `/`
// trigger. Pure, so the server (render endpoint, tests) and the web (composer) fill texts identically.

/** Built-in variables every conversation supplies. */
export const TEMPLATE_BUILTIN_VARIABLES = ['author_name', 'account', 'operator_name', 'date'] as const;
export type TemplateBuiltinVariable = (typeof TEMPLATE_BUILTIN_VARIABLES)[number];

export const TEMPLATE_TEXT_MAX = 10_000;
const VARIABLE_NAME = /^[a-z][a-z0-9_]{0,39}$/;

const titleField = z
  .string({ error: 'filter.name.required' })
  .trim()
  .min(1, 'filter.name.required')
  .max(200, 'field.tooLong');
const textField = z
  .string({ error: 'templates.text.required' })
  .trim()
  .min(1, 'templates.text.required')
  .max(TEMPLATE_TEXT_MAX, 'field.tooLong');
const folderField = z.string().trim().max(100, 'field.tooLong');

export const templateVariableSchema = z.object({
  name: z
    .string()
    .trim()
    .regex(VARIABLE_NAME, 'templates.variable.invalid')
    .refine(
      (n) => !(TEMPLATE_BUILTIN_VARIABLES as readonly string[]).includes(n),
      'templates.variable.builtin',
    ),
  default: z.string().max(1000, 'field.tooLong'),
});

/** Per-network variants: provider id → text. Empty texts are dropped (the main text is used). */
const variantsField = z
  .record(z.string(), z.string().max(TEMPLATE_TEXT_MAX, 'field.tooLong'))
  .refine(
    (v) => Object.keys(v).every((k) => (PROVIDER_IDS as readonly string[]).includes(k)),
    'field.invalid',
  )
  .transform((v) => Object.fromEntries(Object.entries(v).filter(([, text]) => text.trim() !== '')));

const variablesField = z
  .array(templateVariableSchema)
  .max(20, 'field.tooLong')
  .refine((list) => new Set(list.map((v) => v.name)).size === list.length, 'templates.variable.duplicate');

/** The settings form (create and edit). `personal` makes it the author's own template. */
export const templateFormSchema = z.object({
  title: titleField,
  text: textField,
  folder: folderField,
  personal: z.boolean(),
  variants: variantsField,
  variables: variablesField,
});
export type TemplateForm = z.input<typeof templateFormSchema>;

export const createTemplateBody = templateFormSchema.extend({ space_id: z.number().int().positive() });
export const updateTemplateBody = templateFormSchema.omit({ personal: true }).partial();

/** What GET /v1/templates sends per template (and the create, update and one-template answers). */
export const templateWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  /** null for a space template; the owner's id for a personal one. */
  user_id: z.number().int().nullable(),
  title: z.string(),
  folder: z.string(),
  text: z.string(),
  variants: z.record(z.string(), z.string()),
  variables: z.array(z.object({ name: z.string(), default: z.string() })),
  usage_count: z.number().int(),
  updated_at: z.string(),
});
export type TemplateDto = z.infer<typeof templateWireSchema>;

/** GET /v1/templates: the templates and the spaces where the caller may change space templates. */
export const templatesListWireSchema = z.object({
  items: z.array(templateWireSchema),
  can_manage: z.array(z.number().int()),
});
export type TemplatesListWire = z.infer<typeof templatesListWireSchema>;

/** POST /v1/templates/import: the templates created. */
export const templatesImportedWireSchema = z.object({ items: z.array(templateWireSchema) });
export type TemplatesImportedWire = z.infer<typeof templatesImportedWireSchema>;

/** POST /v1/templates/{id}/render: the text filled for the conversation and the network it is for. */
export const templateRenderWireSchema = z.object({ text: z.string(), provider: z.string().nullable() });
export type TemplateRenderWire = z.infer<typeof templateRenderWireSchema>;

/** POST /v1/templates/{id}/used: the template's usage count after this use. */
export const templateUsedWireSchema = z.object({ usage_count: z.number().int() });
export type TemplateUsedWire = z.infer<typeof templateUsedWireSchema>;

export type TemplateValues = Partial<Record<TemplateBuiltinVariable, string | null | undefined>> &
  Record<string, string | null | undefined>;

/** The text for a network: its variant when it has one, the main text otherwise. */
export function templateTextFor(template: Pick<TemplateDto, 'text' | 'variants'>, provider?: string | null) {
  const variant = provider ? template.variants[provider] : undefined;
  return variant && variant.trim() !== '' ? variant : template.text;
}

/**
 * Fills {name} placeholders: the given values first, then the template's custom defaults; an unknown
 * or empty variable becomes '' (a customer never sees a raw `{author_name}`). `{{` and `}}` stay as-is.
 */
export function renderTemplateText(
  text: string,
  values: TemplateValues,
  variables: ReadonlyArray<{ name: string; default: string }> = [],
): string {
  const defaults = new Map(variables.map((v) => [v.name, v.default]));
  return text.replace(/\{([a-z][a-z0-9_]{0,39})\}/g, (_match, name: string) => {
    const given = values[name];
    if (given != null && given !== '') return given;
    return defaults.get(name) ?? '';
  });
}

/** {date} as the operator's locale writes today's date. */
export function templateDate(now: Date, locale: string): string {
  return new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : 'ru-RU', { dateStyle: 'short' }).format(now);
}

/**
 * The composer's `/` trigger: the reply box starts with `/` and holds no line break or second word
 * break beyond the query → the query typed after it (maybe ''), else null (no picker).
 */
export function slashQuery(text: string): string | null {
  if (!text.startsWith('/')) return null;
  const query = text.slice(1);
  if (query.includes('\n') || query.length > 60) return null;
  return query;
}

/** Templates matching a query by title, folder or text, case-insensitively; the most used first. */
export function filterTemplates<T extends Pick<TemplateDto, 'title' | 'folder' | 'text' | 'usage_count'>>(
  templates: readonly T[],
  query: string,
): T[] {
  const q = query.trim().toLocaleLowerCase();
  const hits = q
    ? templates.filter((t) => `${t.title}\n${t.folder}\n${t.text}`.toLocaleLowerCase().includes(q))
    : [...templates];
  return hits.sort((a, b) => b.usage_count - a.usage_count || a.title.localeCompare(b.title));
}

/** CSV columns of export and import (one row per template; variants and variables as JSON). */
export const TEMPLATE_CSV_COLUMNS = ['title', 'folder', 'text', 'personal', 'variants', 'variables'] as const;
