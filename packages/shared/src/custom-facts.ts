import { z } from 'zod';

// Custom fields of authors (docs/product/screens-and-routes.md settings/custom/facts, "Пользовательские поля"): an administrator
// defines fields per space (order number, city, plan, VIP since…), and whoever may label authors fills
// them in on the author page. Values are stored as text in a canonical form per kind.

export const FACT_KINDS = ['text', 'number', 'date', 'boolean', 'select', 'url', 'email', 'phone'] as const;
export type FactKind = (typeof FACT_KINDS)[number];

/** Limits of the custom fields (per space, per value). */
export const FACT_LIMITS = { perSpace: 50, nameLength: 60, options: 50, optionLength: 60, valueLength: 500 };

const factName = z.string().trim().min(1, 'fact.name.required').max(FACT_LIMITS.nameLength, 'field.tooLong');

const factOptions = z
  .array(z.string().trim().min(1, 'fact.option.empty').max(FACT_LIMITS.optionLength, 'field.tooLong'))
  .max(FACT_LIMITS.options, 'fact.options.tooMany');

export const createFactBodySchema = z
  .object({
    space_id: z.number().int().positive(),
    name: factName,
    kind: z.enum(FACT_KINDS),
    options: factOptions.optional(),
  })
  .refine((body) => body.kind !== 'select' || (body.options?.length ?? 0) > 0, {
    message: 'fact.options.required',
    path: ['options'],
  });

export const updateFactBodySchema = z
  .object({ name: factName.optional(), options: factOptions.optional() })
  .refine((body) => body.name !== undefined || body.options !== undefined, {
    message: 'update.empty',
  });

/** `{ values: { "<fact id>": "value" | null } }`: null or '' clears the field. */
export const authorFactsBodySchema = z.object({
  values: z.record(
    z.string().regex(/^\d+$/, 'field.invalid'),
    z.string().max(FACT_LIMITS.valueLength, 'field.tooLong').nullable(),
  ),
});

/** A custom field's definition (GET /v1/facts, its create and update answers). */
export const factDefinitionWireSchema = z.object({
  id: z.number().int(),
  space_id: z.number().int(),
  name: z.string(),
  kind: z.enum(FACT_KINDS),
  options: z.array(z.string()),
  position: z.number().int(),
});
export type FactDefinition = z.infer<typeof factDefinitionWireSchema>;
export const factDefinitionsWireSchema = z.object({ items: z.array(factDefinitionWireSchema) });

/** A custom field of the author's space with the author's value (null: not set). */
export const authorFactWireSchema = z.object({
  fact_id: z.number().int(),
  name: z.string(),
  kind: z.enum(FACT_KINDS),
  options: z.array(z.string()),
  value: z.string().nullable(),
});
export type AuthorFact = z.infer<typeof authorFactWireSchema>;

/** GET and PUT /v1/authors/{id}/facts: every field of the author's space, in order. */
export const authorFactsWireSchema = z.object({ items: z.array(authorFactWireSchema) });

/**
 * A value as stored for its kind, or a message key when it is not one. Both sides use it: the web
 * checks while typing, the server before storing.
 */
export function normalizeFactValue(
  kind: FactKind,
  raw: string,
  options: readonly string[] = [],
): { value: string } | { error: string } {
  const value = raw.trim();
  switch (kind) {
    case 'text':
      return { value };
    case 'number': {
      const n = Number(value.replace(',', '.').replace(/\s/g, ''));
      return value !== '' && Number.isFinite(n) ? { value: String(n) } : { error: 'fact.value.number' };
    }
    case 'date': {
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      const date = match ? new Date(`${value}T00:00:00Z`) : null;
      return date && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
        ? { value }
        : { error: 'fact.value.date' };
    }
    case 'boolean':
      return value === 'true' || value === 'false' ? { value } : { error: 'field.invalid' };
    case 'select':
      return options.includes(value) ? { value } : { error: 'fact.value.option' };
    case 'url': {
      try {
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:'
          ? { value: url.href }
          : { error: 'fact.value.url' };
      } catch {
        return { error: 'fact.value.url' };
      }
    }
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)
        ? { value: value.toLowerCase() }
        : { error: 'fact.value.email' };
    case 'phone': {
      const digits = value.replace(/[\s()\-.]/g, '');
      return /^\+?\d{5,15}$/.test(digits) ? { value: digits } : { error: 'fact.value.phone' };
    }
  }
}
