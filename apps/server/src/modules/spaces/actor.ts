import { type Ability, can } from '@otklik/shared';
import type { Db } from '../../db/client';
import { actorOf, loadMemberships, type ServerActor, type UserRow } from '../../http/actor';
import { AppError } from '../../lib/errors';

// A request's actor is `req.actor` (set once by the signed-in scope, http/auth.ts); the types and the
// builder live in http/actor.ts, re-exported here for the modules that check permissions.
export {
  actorOf,
  loadMemberships,
  type MembershipRow,
  type RequestClient,
  type ServerActor,
  toSpaceLike,
} from '../../http/actor';

/**
 * The actor of a user outside a request (a job, a socket message, a scheduled report): their
 * memberships read afresh, no client. A route reads `req.actor` instead.
 */
export async function loadActor(db: Db, user: UserRow): Promise<ServerActor> {
  return actorOf(user, await loadMemberships(db, user.id));
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
