import {
  DEFAULT_LOCALE,
  type InvitationWire,
  isLocale,
  type MemberWire,
  type MeWire,
  parseRoleFlags,
  roleNameOf,
} from '@otklik/shared';
import type { UserRow } from '../../http/auth';
import type { InvitationRow } from './invitations';
import type { MemberRecord } from './service';

/** What a user looks like on the wire (docs/product/entities.md User). An allow-list: no hashes, secrets or codes. */
export function presentUser(user: UserRow, roles: Record<string, boolean> = {}): MeWire {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    email_status: user.emailStatus,
    status: user.status,
    // Only 'ru' and 'en' are ever stored; anything else reads as the default rather than failing the answer.
    locale: isLocale(user.locale) ? user.locale : DEFAULT_LOCALE,
    roles,
    settings: user.settings,
    is_partner: user.isPartner,
    otp_enabled: user.otpEnabled,
    has_password: user.passwordHash !== null,
  };
}
export type PresentedUser = ReturnType<typeof presentUser>;

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A member of a space in Settings → users (docs/product/screens-and-routes.md, roles.md): one row per user per space. */
export function presentMember(member: MemberRecord): MemberWire {
  const roles = parseRoleFlags(member.roles);
  return {
    id: member.userId,
    name: member.name,
    email: member.email,
    email_status: member.emailStatus,
    space_id: member.spaceId,
    role: roleNameOf(roles),
    roles,
    group_id: member.groupId,
    department_ids: member.departmentIds,
    /** The member's current user status in this space. */
    status: member.statusId,
    /** Lets administrators of otp_required spaces see who still has to set up two-factor. */
    otp_enabled: member.otpEnabled,
    joined_at: unixSeconds(member.joinedAt),
    last_seen: member.lastSeenAt ? unixSeconds(member.lastSeenAt) : null,
  };
}
export type PresentedMember = ReturnType<typeof presentMember>;

/** A pending invitation; the link itself exists only in the mail. */
export function presentInvitation(invitation: InvitationRow): InvitationWire {
  const roles = parseRoleFlags(invitation.roles);
  return {
    id: invitation.id,
    email: invitation.email,
    space_id: invitation.spaceId,
    role: roleNameOf(roles),
    roles,
    created_at: unixSeconds(invitation.createdAt),
    expires_at: unixSeconds(invitation.expiresAt),
  };
}
export type PresentedInvitation = ReturnType<typeof presentInvitation>;
