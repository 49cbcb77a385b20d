import { z } from 'zod';
import { okWireSchema } from './wire';

// Names and colours of settings records (tags, tag groups, author labels: docs/product/screens-and-routes.md
// settings tags, tag_groups, labels). The server's request bodies and the web's forms both build on these,
// so a rule changes in one place.

/** docs/product/validation.md 'Введите название' for every settings name; trimmed, so spaces alone count as empty. */
export const settingsNameField = z
  .string({ error: 'filter.name.required' })
  .trim()
  .min(1, 'filter.name.required')
  .max(100, 'field.tooLong');

/** '#rrggbb' like user statuses; null clears it. */
export const colorField = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'field.invalid')
  .nullable();

/** The web form of a record that is just a name (a tag group), and the base of the others' forms. */
export const settingsNameFormSchema = z.object({ name: settingsNameField });

/**
 * The web forms of a label and a tag: the name is checked here, the rest as the inputs hold it (the
 * colour as typed, a select's id as a string or null) and turned into the request body on save.
 */
export const labelFormSchema = settingsNameFormSchema.extend({ color: z.string() });
export const tagFormSchema = labelFormSchema.extend({
  parent_id: z.string().nullable(),
  group_id: z.string().nullable(),
});

// ---------------------------------------------------------------- on the wire

/** A tag as every answer shows it (GET /v1/tags, the tag's create and update answers). */
export const tagWireSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string().nullable(),
  space_id: z.number().int(),
  company_id: z.number().int().nullable(),
  parent_id: z.number().int().nullable(),
  group_id: z.number().int().nullable(),
});
export type TagWire = z.infer<typeof tagWireSchema>;
/** GET /v1/tags/{id}: the tag with its direct children. */
export const tagWithChildrenWireSchema = tagWireSchema.extend({ children: z.array(tagWireSchema) });

export const tagGroupWireSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  space_id: z.number().int(),
});
export type TagGroupWire = z.infer<typeof tagGroupWireSchema>;

/** An author label (Settings → labels). */
export const labelWireSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string().nullable(),
  space_id: z.number().int(),
});
export type LabelWire = z.infer<typeof labelWireSchema>;

/** A tag's deletion: its children moved up to its parent. */
export const tagDeletedWireSchema = okWireSchema.extend({ moved_ids: z.array(z.number().int()) });
