import { colorField, settingsNameField as nameField } from '@otklik/shared';
import { z } from 'zod';

// Request bodies of Settings → tags and tag groups (docs/product/screens-and-routes.md settings tags, tag_groups). The
// name and colour rules live in packages/shared (tags.ts), which the web's forms validate with too.

export { colorField, nameField };

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
