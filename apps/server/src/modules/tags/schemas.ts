import { z } from 'zod';

// Request bodies of Settings → tags and tag groups (docs/product/screens-and-routes.md settings tags, tag_groups). They move to
// packages/shared when the web screens use them; until then they live beside their routes.

/** docs/product/validation.md 'Введите название' for every settings name; trimmed, so spaces alone count as empty. */
export const nameField = z
  .string({ error: 'filter.name.required' })
  .trim()
  .min(1, 'filter.name.required')
  .max(100, 'field.tooLong');

/** '#rrggbb' like user statuses; null clears it. */
export const colorField = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'field.invalid')
  .nullable();

const id = z.number().int().positive();
const spaceId = z.number().int().positive();

export const createTagBody = z.object({
  space_id: spaceId,
  name: nameField,
  color: colorField.optional(),
  parent_id: id.nullable().optional(),
  group_id: id.nullable().optional(),
  company_id: id.nullable().optional(),
});
export type CreateTagBody = z.infer<typeof createTagBody>;

/** Every field optional; `null` clears parent, group, company or colour. The space never changes. */
export const updateTagBody = z.object({
  name: nameField.optional(),
  color: colorField.optional(),
  parent_id: id.nullable().optional(),
  group_id: id.nullable().optional(),
  company_id: id.nullable().optional(),
});
export type UpdateTagBody = z.infer<typeof updateTagBody>;

export const createTagGroupBody = z.object({ space_id: spaceId, name: nameField });
export const updateTagGroupBody = z.object({ name: nameField });

export const idParams = z.object({ id: z.coerce.number().int().positive() });
export const spaceQuery = z.object({ space_id: z.coerce.number().int().positive().optional() });
