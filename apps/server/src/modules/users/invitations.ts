import { INVITATION_TTL_S, type Locale, type RoleFlags, roleNameOf } from '@otklik/shared';
import { and, asc, count, eq, gt, inArray, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invitations, memberships, spaces, tariffs } from '../../db/schema';
import type { Config } from '../../lib/config';
import { randomToken, sha256 } from '../../lib/crypto';
import { badRequest, notFound } from '../../lib/errors';
import type { Mailer } from '../../mail/mailer';
import { renderMail } from '../../mail/templates';
import type { EventBus } from '../../realtime/bus';
import { type AuditActor, audit } from '../audit/record';
import { inviteToSpace } from '../spaces/invitations';

// Pending invitations of Settings → users (docs/product/screens-and-routes.md users/new): the /signup/{hash} link is mailed; only
// its sha256 is stored, so resending means a new link.

export interface InvitationDeps {
  db: Db;
  mailer: Mailer;
  config: Config;
  bus: EventBus;
}

export type InvitationRow = typeof invitations.$inferSelect;

const isPending = () => and(isNull(invitations.usedAt), gt(invitations.expiresAt, new Date()));

/** Unused, unexpired invitations of the spaces, oldest first. */
export async function findPendingInvitations(db: Db, spaceIds: number[]): Promise<InvitationRow[]> {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(invitations)
    .where(and(inArray(invitations.spaceId, spaceIds), isPending()))
    .orderBy(asc(invitations.spaceId), asc(invitations.createdAt), asc(invitations.id));
}

/** Any unused invitation by id (expired ones too: they can still be resent or revoked). */
export async function getOpenInvitation(db: Db, id: number): Promise<InvitationRow | undefined> {
  const [row] = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, id), isNull(invitations.usedAt)))
    .limit(1);
  return row;
}

async function findOpenInvitationFor(db: Db, spaceId: number, email: string) {
  const [row] = await db
    .select()
    .from(invitations)
    .where(and(eq(invitations.spaceId, spaceId), eq(invitations.email, email), isNull(invitations.usedAt)))
    .orderBy(asc(invitations.id))
    .limit(1);
  return row;
}

/**
 * docs/product/errors.md 'Достигнут лимит пользователей в текущем тарифе'. A pending invitation holds a seat: members
 * plus pending invitations must stay below the tariff's maxUsers, so an invitation accepted later never
 * fails on the limit. `exceptEmail`'s own invitation does not count — it is the seat being filled.
 */
export async function assertSeatAvailable(db: Db, spaceId: number, exceptEmail?: string): Promise<void> {
  const [space] = await db
    .select({ maxUsers: tariffs.maxUsers })
    .from(spaces)
    .innerJoin(tariffs, eq(tariffs.id, spaces.tariffId))
    .where(eq(spaces.id, spaceId))
    .limit(1);
  if (!space) throw notFound();
  if (space.maxUsers === null) return;
  const [members, pending] = await Promise.all([
    db.select({ n: count() }).from(memberships).where(eq(memberships.spaceId, spaceId)),
    db
      .select({ n: count() })
      .from(invitations)
      .where(
        and(
          eq(invitations.spaceId, spaceId),
          isPending(),
          exceptEmail !== undefined ? ne(invitations.email, exceptEmail) : undefined,
        ),
      ),
  ]);
  if ((members[0]?.n ?? 0) + (pending[0]?.n ?? 0) >= space.maxUsers) {
    throw badRequest('error.userLimit', { errorType: 'user_limit' });
  }
}

/**
 * Invites `email` (no account yet) into the space. Inviting an address that already has an open
 * invitation there renews that one — new link, new role, new expiry — instead of adding a second.
 */
export async function inviteNewUser(
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
): Promise<InvitationRow> {
  const { db } = deps;
  const open = await findOpenInvitationFor(db, input.spaceId, input.email);
  await assertSeatAvailable(db, input.spaceId, open ? input.email : undefined);
  let row: InvitationRow | undefined;
  if (open) {
    row = await renewInvitation(deps, open, input);
  } else {
    const hash = await inviteToSpace(deps, input);
    [row] = await db
      .select()
      .from(invitations)
      .where(eq(invitations.hashDigest, sha256(hash)))
      .limit(1);
  }
  // After the mail went out (the invitation is made in several steps); the entry says who invited whom.
  await audit(db, input.by, {
    spaceId: input.spaceId,
    kind: 'user.invited',
    target: { type: 'invitation', id: row!.id, label: input.email },
    after: { email: input.email, role: roleNameOf(input.roles) },
  });
  await publishUsersChanged(deps.bus, input.spaceId, input.invitedBy.id);
  return row!;
}

/** Resends an open invitation with a fresh link and expiry; an expired one takes a seat again. */
export async function resendInvitation(
  deps: InvitationDeps,
  invitation: InvitationRow,
  input: { invitedBy: { id: number; name: string }; locale: Locale },
): Promise<InvitationRow> {
  if (invitation.expiresAt.getTime() <= Date.now()) {
    await assertSeatAvailable(deps.db, invitation.spaceId, invitation.email);
  }
  const row = await renewInvitation(deps, invitation, { ...input, roles: invitation.roles });
  await publishUsersChanged(deps.bus, invitation.spaceId, input.invitedBy.id);
  return row;
}

/** Revokes an open invitation: its link stops working at once. */
export async function revokeInvitation(
  deps: InvitationDeps,
  invitation: InvitationRow,
  performedBy: number,
  by?: AuditActor,
) {
  await deps.db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const deleted = await tx
      .delete(invitations)
      .where(and(eq(invitations.id, invitation.id), isNull(invitations.usedAt)))
      .returning({ id: invitations.id });
    if (deleted.length === 0) throw notFound();
    await audit(tx, by, {
      spaceId: invitation.spaceId,
      kind: 'user.invitation_revoked',
      target: { type: 'invitation', id: invitation.id, label: invitation.email },
      before: { email: invitation.email, role: roleNameOf(invitation.roles as RoleFlags) },
    });
  });
  await publishUsersChanged(deps.bus, invitation.spaceId, performedBy);
}

/** An open invitation to `email` is void once they join the space another way (added directly). */
export async function closeInvitationsFor(db: Db, spaceId: number, email: string) {
  await db
    .delete(invitations)
    .where(and(eq(invitations.spaceId, spaceId), eq(invitations.email, email), isNull(invitations.usedAt)));
}

async function renewInvitation(
  deps: InvitationDeps,
  invitation: InvitationRow,
  input: {
    roles: Record<string, boolean>;
    groupId?: number | null;
    departmentIds?: number[];
    invitedBy: { id: number; name: string };
    locale: Locale;
  },
): Promise<InvitationRow> {
  const hash = randomToken(24);
  const [row] = await deps.db
    .update(invitations)
    .set({
      hashDigest: sha256(hash),
      roles: input.roles,
      ...(input.groupId !== undefined ? { groupId: input.groupId } : {}),
      ...(input.departmentIds !== undefined ? { departmentIds: input.departmentIds } : {}),
      invitedBy: input.invitedBy.id,
      expiresAt: new Date(Date.now() + INVITATION_TTL_S * 1000),
    })
    .where(and(eq(invitations.id, invitation.id), isNull(invitations.usedAt)))
    .returning();
  // Accepted between our read and this write: nothing left to resend.
  if (!row) throw notFound();
  await mailInvitation(deps, { ...row, hash, inviterName: input.invitedBy.name, locale: input.locale });
  return row;
}

/** The same mail as modules/spaces/invitations.ts sends for a new invitation. */
async function mailInvitation(
  deps: InvitationDeps,
  input: { spaceId: number; email: string; hash: string; inviterName: string; locale: Locale },
) {
  const [space] = await deps.db
    .select({ name: spaces.name })
    .from(spaces)
    .where(eq(spaces.id, input.spaceId))
    .limit(1);
  const mail = renderMail('invitation', input.locale, {
    link: `${deps.config.appUrl}/signup/${input.hash}`,
    spaceName: space?.name ?? '',
    inviterName: input.inviterName,
  });
  await deps.mailer.send({ to: input.email, ...mail, kind: 'invitation' });
}

/** Other administrators' Settings → users lists refresh on this. */
export async function publishUsersChanged(bus: EventBus, spaceId: number, performedBy: number) {
  await bus.publish({
    type: 'users.changed',
    spaceId,
    payload: {},
    cause: { kind: 'user', id: performedBy },
  });
}
