import { z } from 'zod';
import { ROLE_PRESET_NAMES, roleFlagsSchema } from './access/roles';
import { listWireSchema } from './wire';

// The members of a space on the wire (Settings → users, docs/product/screens-and-routes.md users,
// roles.md): the server's presenters (modules/users/presenter.ts) return these.

const int = z.number().int();
/** Unix seconds. */
const unixSeconds = z.number().int();

/** A preset role, or 'custom' when the flags match none. */
export const roleNameSchema = z.enum([...ROLE_PRESET_NAMES, 'custom']);

/** GET /v1/members: a colleague as everyone sees them (assignee picker, "who replied"). */
export const memberRefWireSchema = z.object({
  id: int,
  name: z.string(),
  space_id: int,
  /** Their current user status in that space. */
  status: int.nullable(),
});
export type MemberRefWire = z.infer<typeof memberRefWireSchema>;

/** A member of a space in Settings → users: one row per user per space. */
export const memberWireSchema = z.object({
  id: int,
  name: z.string(),
  email: z.string(),
  email_status: int,
  space_id: int,
  role: roleNameSchema,
  roles: roleFlagsSchema,
  group_id: int.nullable(),
  department_ids: z.array(int),
  /** The member's current user status in this space. */
  status: int.nullable(),
  /** Lets administrators of otp_required spaces see who still has to set up two-factor. */
  otp_enabled: z.boolean(),
  joined_at: unixSeconds,
  last_seen: unixSeconds.nullable(),
});
export type MemberWire = z.infer<typeof memberWireSchema>;

/** A pending invitation; the link itself exists only in the mail. */
export const invitationWireSchema = z.object({
  id: int,
  email: z.string(),
  space_id: int,
  role: roleNameSchema,
  roles: roleFlagsSchema,
  created_at: unixSeconds,
  expires_at: unixSeconds,
});
export type InvitationWire = z.infer<typeof invitationWireSchema>;

export const memberRefsWireSchema = listWireSchema(memberRefWireSchema);

/** GET /v1/users: members and pending invitations of the spaces whose users the caller manages. */
export const usersWireSchema = z.object({
  items: z.array(memberWireSchema),
  invitations: z.array(invitationWireSchema),
});
export type UsersWire = z.infer<typeof usersWireSchema>;

/** POST /v1/users: an existing account joined at once, or anyone else was invited by mail. */
export const addedUserWireSchema = z.union([
  z.object({ user: memberWireSchema }),
  z.object({ invitation: invitationWireSchema }),
]);
export type AddedUserWire = z.infer<typeof addedUserWireSchema>;
