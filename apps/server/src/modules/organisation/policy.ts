import type { Ability } from '@otklik/shared';
import { notFound } from '../../lib/errors';
import { authorize, isMember, type ServerActor, spaceIdsWhere } from '../spaces/actor';

// Who may change the organisation of a space (docs/product/roles.md: administrators manage companies and users).
// Companies have their own ability; departments and user groups are part of managing users.

export const ORGANISATION_ABILITIES = {
  companies: 'companies.manage',
  departments: 'users.manage',
  usergroups: 'users.manage',
} as const satisfies Record<string, Ability>;

export type OrganisationEntity = keyof typeof ORGANISATION_ABILITIES;

/** For a space named in the body: 403 unless the actor may manage `entity` there. */
export function authorizeOrganisation(actor: ServerActor, entity: OrganisationEntity, spaceId: number) {
  authorize(actor, ORGANISATION_ABILITIES[entity], spaceId);
}

/**
 * For a record found by id: 404 unless it sits in a space where the actor may manage `entity`, so
 * "not yours" and "does not exist" look the same.
 */
export function assertManageable<T extends { spaceId: number }>(
  actor: ServerActor,
  entity: OrganisationEntity,
  row: T | undefined,
): T {
  if (!row || !spaceIdsWhere(actor, ORGANISATION_ABILITIES[entity]).includes(row.spaceId)) throw notFound();
  return row;
}

/** For reading: 404 unless the record sits in one of the actor's spaces. */
export function assertVisible<T extends { spaceId: number }>(actor: ServerActor, row: T | undefined): T {
  if (!row || !isMember(actor, row.spaceId)) throw notFound();
  return row;
}
