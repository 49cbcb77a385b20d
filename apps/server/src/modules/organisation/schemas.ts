import { TAGS_MODES } from '@otklik/shared';
import { z } from 'zod';

// Request bodies of the organisation settings (companies, departments, user groups). They belong in
// packages/shared once the web screens use them; until then they live beside their routes.

const name = z.string().trim().min(1, 'field.required').max(200, 'field.tooLong');
const spaceId = z.number().int().positive();
const ids = z.array(z.number().int().positive()).max(1000);

/**
 * docs/product/entities.md names the company settings but not their values. Our reading:
 * - items_assigned_to: the member new comments and chats of this company are assigned to (null: nobody);
 * - status_open: new chats of this company start in the "open" status instead of "new" (comments stay
 *   "new": "open" is not among the comment list's default statuses);
 * Both act at ingestion (inbox/ingest/ingest.ts arrivalRules).
 * - tags_mode: 'space' offers every tag of the space, 'company' only the company's own tags.
 */

export const companySettingsPatchSchema = z
  .object({
    items_assigned_to: z.number().int().positive().nullable().optional(),
    status_open: z.boolean().optional(),
    tags_mode: z.enum(TAGS_MODES, { error: 'field.invalid' }).optional(),
  })
  .strict();
export type CompanySettingsPatch = z.infer<typeof companySettingsPatchSchema>;

/** Stored settings as they act: anything missing or malformed falls back to the default. */
export const companySettingsSchema = z.object({
  items_assigned_to: z.number().int().nullable().catch(null),
  status_open: z.boolean().catch(false),
  tags_mode: z.enum(TAGS_MODES).catch('space'),
});
export type CompanySettings = z.infer<typeof companySettingsSchema>;

export const createCompanyBody = z.object({
  space_id: spaceId,
  name,
  settings: companySettingsPatchSchema.optional(),
});

export const updateCompanyBody = z.object({
  name: name.optional(),
  settings: companySettingsPatchSchema.optional(),
});

export const createDepartmentBody = z.object({ space_id: spaceId, name });
export const updateDepartmentBody = z.object({ name });

export const createUserGroupBody = z.object({
  space_id: spaceId,
  name,
  company_ids: ids.default([]),
  object_ids: ids.default([]),
});

export const updateUserGroupBody = z.object({
  name: name.optional(),
  company_ids: ids.optional(),
  object_ids: ids.optional(),
});

export const idParams = z.object({ id: z.coerce.number().int().positive() });
export const spaceQuery = z.object({ space_id: z.coerce.number().int().positive().optional() });
