import type { Ability } from '@otklik/shared';
import { notFound } from '../../lib/errors';
import { authorize, isMember, type ServerActor } from '../spaces/actor';

// Who sees and changes a reply template. A space template (user_id null) is seen by members who may
// use templates and changed with `templates.manage`; a personal one exists only for its owner (anyone
// else, admin included, gets 404). Both need the space's `templates` flag (the abilities carry it).

export const USE: Ability = 'templates.use';
export const MANAGE: Ability = 'templates.manage';

type Row = { spaceId: number; userId: number | null };

export function assertUsable<T extends Row>(actor: ServerActor, row: T | undefined): T {
  if (!row || !isMember(actor, row.spaceId)) throw notFound();
  if (row.userId !== null && row.userId !== actor.userId) throw notFound();
  authorize(actor, USE, row.spaceId);
  return row;
}

export function assertManageable<T extends Row>(actor: ServerActor, row: T | undefined): T {
  const visible = assertUsable(actor, row);
  if (visible.userId === null) authorize(actor, MANAGE, visible.spaceId);
  return visible;
}

/** Creating: a personal template needs `templates.use`, a space one `templates.manage`. */
export function authorizeCreate(actor: ServerActor, spaceId: number, personal: boolean) {
  authorize(actor, personal ? USE : MANAGE, spaceId);
}
