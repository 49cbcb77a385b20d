import { type Locale, parseRoleFlags, type RoleFlags, roleNameOf } from '@otklik/shared';
import { and, asc, eq, inArray, max, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authSessions, departments, memberships, userGroups, users } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../lib/errors';
import type { EventBus } from '../../realtime/bus';
import { type AuditActor, audit } from '../audit/record';
import { assertIdsInSpace } from '../organisation/queries';
import { addMember } from '../spaces/service';
import {
  assertSeatAvailable,
  closeInvitationsFor,
  type InvitationDeps,
  type InvitationRow,
  inviteNewUser,
  publishUsersChanged,
} from './invitations';

// Settings → users (docs/product/screens-and-routes.md users, users/new, users/{id}; docs/product/roles.md). A member is one user in one space:
// the same person in two spaces is two members with their own role, group and departments.

const memberColumns = {
  userId: users.id,
  name: users.name,
  email: users.email,
  emailStatus: users.emailStatus,
  otpEnabled: users.otpEnabled,
  spaceId: memberships.spaceId,
  roles: memberships.roles,
  groupId: memberships.groupId,
  departmentIds: memberships.departmentIds,
  statusId: memberships.statusId,
  joinedAt: memberships.createdAt,
};

export interface MemberRecord {
  userId: number;
  name: string;
  email: string;
  emailStatus: number;
  otpEnabled: boolean;
  spaceId: number;
  roles: Record<string, boolean>;
  groupId: number | null;
  departmentIds: number[];
  statusId: number | null;
  joinedAt: Date;
  /** Last sign-in or token refresh (tokens refresh about hourly while the app is open). */
  lastSeenAt: Date | null;
}

async function withLastSeen(db: Db, rows: Omit<MemberRecord, 'lastSeenAt'>[]): Promise<MemberRecord[]> {
  const userIds = [...new Set(rows.map((r) => r.userId))];
  if (userIds.length === 0) return [];
  const seen = await db
    .select({ userId: authSessions.userId, at: max(authSessions.createdAt) })
    .from(authSessions)
    .where(inArray(authSessions.userId, userIds))
    .groupBy(authSessions.userId);
  const byUser = new Map(seen.map((s) => [s.userId, s.at]));
  return rows.map((r) => ({ ...r, lastSeenAt: byUser.get(r.userId) ?? null }));
}

/** Members of the spaces, by space then name. */
export async function findMembers(db: Db, spaceIds: number[]): Promise<MemberRecord[]> {
  if (spaceIds.length === 0) return [];
  const rows = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(inArray(memberships.spaceId, spaceIds))
    .orderBy(asc(memberships.spaceId), asc(users.name), asc(users.id));
  return withLastSeen(db, rows);
}

/** The user as a member of the first of `spaceIds` they belong to. */
export async function getMember(
  db: Db,
  spaceIds: number[],
  userId: number,
): Promise<MemberRecord | undefined> {
  if (spaceIds.length === 0) return undefined;
  const rows = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(inArray(memberships.spaceId, spaceIds), eq(memberships.userId, userId)))
    .orderBy(asc(memberships.spaceId))
    .limit(1);
  const [member] = await withLastSeen(db, rows);
  return member;
}

async function requireMember(db: Db, spaceId: number, userId: number): Promise<MemberRecord> {
  const member = await getMember(db, [spaceId], userId);
  if (!member) throw notFound();
  return member;
}

// ---------------------------------------------------------------- adding

export type AddUserResult =
  | { kind: 'member'; member: MemberRecord }
  | { kind: 'invitation'; invitation: InvitationRow };

/**
 * docs/product/screens-and-routes.md users/new. A person who already has an account joins the space at once; anyone else gets
 * the /signup/{hash} invitation by mail. Both take a seat of the tariff (see assertSeatAvailable).
 */
export async function addUserToSpace(
  deps: InvitationDeps,
  input: {
    spaceId: number;
    email: string;
    roles: RoleFlags;
    groupId?: number | null;
    departmentIds?: number[];
    invitedBy: { id: number; name: string };
    locale: Locale;
    by?: AuditActor;
  },
): Promise<AddUserResult> {
  const { db } = deps;
  const email = input.email.trim().toLowerCase();
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (!existing) {
    // The invitation carries the group and departments; signup applies them with the role.
    const placement = await resolvePlacement(db, input.spaceId, input);
    const invitation = await inviteNewUser(deps, { ...input, ...placement, email });
    return { kind: 'invitation', invitation };
  }

  const userId = existing.id;
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [already] = await t
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.spaceId, input.spaceId), eq(memberships.userId, userId)))
      .limit(1);
    if (already) {
      throw conflict('users.alreadyMember', {
        errorType: 'already_member',
        fields: { email: 'users.alreadyMember' },
      });
    }
    const placement = await resolvePlacement(t, input.spaceId, input);
    await assertSeatAvailable(t, input.spaceId, email);
    await addMember(t, input.spaceId, userId, input.roles);
    if (Object.keys(placement).length > 0) {
      await t
        .update(memberships)
        .set(placement)
        .where(and(eq(memberships.spaceId, input.spaceId), eq(memberships.userId, userId)));
    }
    await closeInvitationsFor(t, input.spaceId, email);
    await audit(t, input.by, {
      spaceId: input.spaceId,
      kind: 'user.added',
      target: await userTarget(t, userId),
      after: { role: roleNameOf(input.roles), ...placement },
    });
  });
  await publishMembershipChange(deps.bus, input.spaceId, userId, input.invitedBy.id);
  return { kind: 'member', member: await requireMember(db, input.spaceId, userId) };
}

// ---------------------------------------------------------------- changing and removing

/**
 * The group and departments of a member, checked to belong to the space. The group row is locked
 * (FOR SHARE) so it cannot be deleted under us: a membership pointing at a missing group would be
 * unlimited.
 */
async function resolvePlacement(
  t: Db,
  spaceId: number,
  input: { groupId?: number | null; departmentIds?: number[] },
): Promise<{ groupId?: number | null; departmentIds?: number[] }> {
  const placement: { groupId?: number | null; departmentIds?: number[] } = {};
  if (input.groupId !== undefined) {
    if (input.groupId !== null) {
      const [group] = await t
        .select({ id: userGroups.id })
        .from(userGroups)
        .where(and(eq(userGroups.id, input.groupId), eq(userGroups.spaceId, spaceId)))
        .for('share');
      if (!group) {
        throw badRequest('field.invalid', { errorType: 'validation', fields: { group_id: 'field.invalid' } });
      }
    }
    placement.groupId = input.groupId;
  }
  if (input.departmentIds !== undefined) {
    placement.departmentIds = await assertIdsInSpace(
      t,
      departments,
      spaceId,
      input.departmentIds,
      'department_ids',
    );
  }
  return placement;
}

const isAdministrator = (roles: unknown) => parseRoleFlags(roles).settings;

/**
 * A space must keep an administrator: somebody has to manage users and pay. Locks the space's
 * administrator rows so two administrators demoting each other at once cannot both succeed.
 */
async function assertAnotherAdministrator(t: Db, spaceId: number, userId: number) {
  const admins = await t
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.spaceId, spaceId), sql`${memberships.roles} -> 'settings' = 'true'::jsonb`))
    .for('update');
  if (!admins.some((a) => a.userId !== userId)) {
    throw badRequest('users.lastAdmin', { errorType: 'last_admin', fields: { role: 'users.lastAdmin' } });
  }
}

async function lockMembership(t: Db, spaceId: number, userId: number) {
  const [row] = await t
    .select()
    .from(memberships)
    .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, userId)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

/** docs/product/screens-and-routes.md users/{id}: role, group and departments of a member in one space. */
export async function updateMember(
  deps: { db: Db; bus: EventBus },
  input: {
    spaceId: number;
    userId: number;
    roles?: RoleFlags;
    groupId?: number | null;
    departmentIds?: number[];
    performedBy: number;
    by?: AuditActor;
  },
): Promise<MemberRecord> {
  const { db } = deps;
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const current = await lockMembership(t, input.spaceId, input.userId);
    if (input.roles && isAdministrator(current.roles) && !input.roles.settings) {
      await assertAnotherAdministrator(t, input.spaceId, input.userId);
    }
    const placement = await resolvePlacement(t, input.spaceId, input);
    const patch = { ...placement, ...(input.roles ? { roles: input.roles } : {}) };
    if (Object.keys(patch).length === 0) return;
    await t
      .update(memberships)
      .set(patch)
      .where(and(eq(memberships.spaceId, input.spaceId), eq(memberships.userId, input.userId)));
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    const oldRole = roleNameOf(parseRoleFlags(current.roles));
    if (input.roles && JSON.stringify(parseRoleFlags(current.roles)) !== JSON.stringify(input.roles)) {
      before.role = oldRole;
      after.role = roleNameOf(input.roles);
    }
    if (placement.groupId !== undefined && placement.groupId !== current.groupId) {
      before.group_id = current.groupId;
      after.group_id = placement.groupId;
    }
    if (
      placement.departmentIds !== undefined &&
      JSON.stringify(placement.departmentIds) !== JSON.stringify(current.departmentIds)
    ) {
      before.department_ids = current.departmentIds;
      after.department_ids = placement.departmentIds;
    }
    if (Object.keys(after).length > 0)
      await audit(t, input.by, {
        spaceId: input.spaceId,
        kind: 'user.role',
        target: await userTarget(t, input.userId),
        before,
        after,
      });
  });
  await publishMembershipChange(deps.bus, input.spaceId, input.userId, input.performedBy);
  return requireMember(db, input.spaceId, input.userId);
}

/** Takes the user out of the space; their account and other spaces stay. */
export async function removeMember(
  deps: { db: Db; bus: EventBus },
  input: { spaceId: number; userId: number; performedBy: number; by?: AuditActor },
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const current = await lockMembership(t, input.spaceId, input.userId);
    if (isAdministrator(current.roles)) await assertAnotherAdministrator(t, input.spaceId, input.userId);
    await t
      .delete(memberships)
      .where(and(eq(memberships.spaceId, input.spaceId), eq(memberships.userId, input.userId)));
    // The user's current status (docs/product/entities.md User.status) must not point at a status of a space they left.
    if (current.statusId !== null) {
      await t
        .update(users)
        .set({ status: null })
        .where(and(eq(users.id, input.userId), eq(users.status, current.statusId)));
    }
    await audit(t, input.by, {
      spaceId: input.spaceId,
      kind: 'user.removed',
      target: await userTarget(t, input.userId),
      before: { role: roleNameOf(parseRoleFlags(current.roles)) },
    });
  });
  await publishMembershipChange(deps.bus, input.spaceId, input.userId, input.performedBy);
}

/** A user as an action-log target: id and name. */
async function userTarget(t: Db, userId: number) {
  const [row] = await t
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return { type: 'user', id: userId, label: row ? row.name || row.email : null };
}

/** The member's open sockets reload their spaces; administrators' user lists refresh. */
async function publishMembershipChange(bus: EventBus, spaceId: number, userId: number, performedBy: number) {
  await bus.publish({
    type: 'memberships.changed',
    userIds: [userId],
    payload: {},
    cause: { kind: 'user', id: performedBy },
  });
  await publishUsersChanged(bus, spaceId, performedBy);
}
