import {
  type Ability,
  type Actor,
  can,
  parseRoleFlags,
  type SpaceLike,
  spaceSettingsSchema,
} from '@otklik/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { memberships, spaces, tariffs } from '../../db/schema';
import {
  type RequestClient,
  requestClientOf,
  scopedMemberships,
  takePrefetchedMemberships,
  type UserRow,
} from '../../http/auth';
import { AppError } from '../../lib/errors';

export interface MembershipRow {
  space: typeof spaces.$inferSelect;
  tariff: typeof tariffs.$inferSelect;
  membership: typeof memberships.$inferSelect;
}

/** Every space the user belongs to, with its tariff and the user's membership. The root of scoping. */
export async function loadMemberships(db: Db, userId: number): Promise<MembershipRow[]> {
  return db
    .select({ space: spaces, tariff: tariffs, membership: memberships })
    .from(memberships)
    .innerJoin(spaces, eq(spaces.id, memberships.spaceId))
    .innerJoin(tariffs, eq(tariffs.id, spaces.tariffId))
    .where(eq(memberships.userId, userId))
    .orderBy(spaces.id);
}

export function toSpaceLike(row: Pick<MembershipRow, 'space' | 'tariff'>): SpaceLike {
  return {
    id: row.space.id,
    name: row.space.name,
    expires_at: Math.floor(row.space.expiresAt.getTime() / 1000),
    is_trial: row.space.isTrial,
    tariff: { id: row.tariff.id, name: row.tariff.name },
    settings: spaceSettingsSchema.parse(row.space.settings),
  };
}

/** The caller as the shared permission rules see them (packages/shared/src/access). */
export interface ServerActor extends Actor {
  userId: number;
  rows: MembershipRow[];
  /** The request's address and user agent (the action log); absent outside a request. */
  client?: RequestClient;
  /** The user's name, for the action log. */
  name?: string;
}

export async function loadActor(db: Db, user: UserRow): Promise<ServerActor> {
  return actorOf(user, takePrefetchedMemberships(user) ?? (await loadMemberships(db, user.id)));
}

/** The actor of a user whose memberships were read already (a job that reads many users' at once). */
export function actorOf(user: UserRow, memberships: MembershipRow[]): ServerActor {
  const rows = scopedMemberships(user, memberships);
  return {
    userId: user.id,
    rows,
    client: requestClientOf(user),
    name: user.name,
    user: { is_partner: user.isPartner },
    memberships: rows.map((row) => ({
      space: toSpaceLike(row),
      roles: parseRoleFlags(row.membership.roles),
    })),
  };
}

/** Space ids the actor may do `ability` in. */
export function spaceIdsWhere(actor: ServerActor, ability: Ability): number[] {
  return actor.memberships.filter((m) => can(actor, ability, m.space)).map((m) => Number(m.space.id));
}

/**
 * Throws 403 unless the actor may do `ability` in `spaceId`. A space the actor is not a member of gets
 * the same 403, so "not yours" and "no right" look alike (CONVENTIONS: Immich).
 */
export function authorize(actor: ServerActor, ability: Ability, spaceId: number): void {
  if (!can(actor, ability, spaceId)) throw new AppError(403, 'error.noAccess');
}

export function isMember(actor: ServerActor, spaceId: number): boolean {
  return actor.rows.some((r) => r.space.id === spaceId);
}
