import { z } from 'zod';

// The organisation's records on the wire (Settings → companies, departments, user groups): what the
// create and update answers and the lists show; the server's presenters (modules/organisation/
// presenter.ts) are typed to return these.

/** How a company's tags work: the space's tags, or its own. */
export const TAGS_MODES = ['space', 'company'] as const;

export const companyWireSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  space_id: z.number().int(),
  settings: z.object({
    items_assigned_to: z.number().int().nullable(),
    status_open: z.boolean(),
    tags_mode: z.enum(TAGS_MODES),
  }),
});
export type CompanyWire = z.infer<typeof companyWireSchema>;

export const departmentWireSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  space_id: z.number().int(),
});
export type DepartmentWire = z.infer<typeof departmentWireSchema>;

export const userGroupWireSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  space_id: z.number().int(),
  company_ids: z.array(z.number().int()),
  object_ids: z.array(z.number().int()),
});
export type UserGroupWire = z.infer<typeof userGroupWireSchema>;
