import type { Ability } from '@otklik/shared';
import { notFound } from '../../lib/errors';
import { authorize, isMember, type ServerActor } from '../spaces/actor';

// Who sees, changes and runs a macro. A space macro (user_id null) is seen and run by members who may
// use macros and changed with `macros.manage` (administrators); a personal one exists only for its owner
// (anyone else, admin included, gets 404). Both need the space's `macros` flag (the abilities carry it).
// What a run may do to each item is decided per action by the inbox policies (runner.ts).

export const USE: Ability = 'macros.use';
export const MANAGE: Ability = 'macros.manage';

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

/** Creating: a personal macro needs `macros.use`, a space one `macros.manage`. */
export function authorizeCreate(actor: ServerActor, spaceId: number, personal: boolean) {
  authorize(actor, personal ? USE : MANAGE, spaceId);
}
