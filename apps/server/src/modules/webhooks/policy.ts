import type { Ability } from '@otklik/shared';
import { notFound } from '../../lib/errors';
import { authorize, isMember, type ServerActor, spaceIdsWhere } from '../spaces/actor';

// Webhook endpoints are a space's settings: its administrators see and change them; anyone else gets 404
// for an endpoint of a space they are not in and 403 in their own space.

export const MANAGE: Ability = 'settings.manage';

export function managedSpaceIds(actor: ServerActor): number[] {
  return spaceIdsWhere(actor, MANAGE);
}

export function assertManageable<T extends { spaceId: number }>(actor: ServerActor, row: T | undefined): T {
  if (!row || !isMember(actor, row.spaceId)) throw notFound();
  authorize(actor, MANAGE, row.spaceId);
  return row;
}
