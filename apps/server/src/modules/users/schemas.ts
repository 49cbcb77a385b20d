import { emailField, presetFor, ROLE_PRESET_NAMES, type RoleFlags, roleFlagsSchema } from '@otklik/shared';
import { z } from 'zod';

// Request bodies of Settings → users (docs/product/screens-and-routes.md users, users/new, users/{id}). They belong in
// packages/shared once the web screens use them; until then they live beside their routes.

const spaceId = z.number().int().positive();
const roleName = z.enum(ROLE_PRESET_NAMES, { error: 'field.invalid' });
const departmentIds = z.array(z.number().int().positive()).max(200);

/** A role is given by name (one of the docs/product/roles.md presets) or as flags; flags win when both are sent. */
const roleFields = {
  role: roleName.optional(),
  roles: roleFlagsSchema.optional(),
};

export function rolesFrom(input: { role?: (typeof ROLE_PRESET_NAMES)[number]; roles?: RoleFlags }) {
  if (input.roles) return input.roles;
  return input.role ? presetFor(input.role) : undefined;
}

export const createUserBody = z
  .object({
    email: emailField('email.required', 'recovery.email.invalid'),
    space_id: spaceId,
    ...roleFields,
    group_id: z.number().int().positive().nullable().optional(),
    department_ids: departmentIds.optional(),
  })
  .refine((body) => body.role !== undefined || body.roles !== undefined, {
    message: 'field.required',
    path: ['role'],
  });

export const updateUserBody = z.object({
  space_id: spaceId,
  ...roleFields,
  /** null takes the member out of their group: they see the whole space again. */
  group_id: z.number().int().positive().nullable().optional(),
  department_ids: departmentIds.optional(),
});

export const idParams = z.object({ id: z.coerce.number().int().positive() });
export const spaceQuery = z.object({ space_id: z.coerce.number().int().positive().optional() });
export const requiredSpaceQuery = z.object({ space_id: z.coerce.number().int().positive() });
