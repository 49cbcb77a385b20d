import type { Ability } from '@otklik/shared';
import { forbidden, notFound } from '../../lib/errors';
import { authorize, type ServerActor, spaceIdsWhere } from '../spaces/actor';

// Who may see and change the members of a space (docs/product/roles.md: administrators manage users).

export const USERS_ABILITY: Ability = 'users.manage';

/**
 * Spaces whose members the request is about: the one named (403 unless the actor manages its users)
 * or every space where they do (403 when there is none — Settings → users is not their screen).
 */
export function scopeUsers(actor: ServerActor, spaceId?: number): number[] {
  if (spaceId !== undefined) {
    authorize(actor, USERS_ABILITY, spaceId);
    return [spaceId];
  }
  const spaceIds = spaceIdsWhere(actor, USERS_ABILITY);
  if (spaceIds.length === 0) throw forbidden();
  return spaceIds;
}

/** For a space named in the body or query: 403 unless the actor manages its users. */
export function authorizeUsers(actor: ServerActor, spaceId: number): void {
  authorize(actor, USERS_ABILITY, spaceId);
}

/** For a record found by id (an invitation): 404 unless it sits in a space whose users the actor manages. */
export function assertUsersManageable<T extends { spaceId: number }>(
  actor: ServerActor,
  row: T | undefined,
): T {
  if (!row || !spaceIdsWhere(actor, USERS_ABILITY).includes(row.spaceId)) throw notFound();
  return row;
}
