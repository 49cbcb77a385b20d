import type { Ability } from '@otklik/shared';
import { notFound } from '../../lib/errors';
import { authorize, isMember, type ServerActor } from '../spaces/actor';

// Who sees and changes an AI agent (issue 21). Administrators manage agents (`ai.manage`); operators
// who may reply use them for suggestions (`ai.use`). Both need the space's `ai` flag (the abilities
// carry it). Another space's agent is 404.

export const USE: Ability = 'ai.use';
export const MANAGE: Ability = 'ai.manage';

type Row = { spaceId: number };

export function assertManageable<T extends Row>(actor: ServerActor, row: T | undefined): T {
  if (!row || !isMember(actor, row.spaceId)) throw notFound();
  authorize(actor, MANAGE, row.spaceId);
  return row;
}

export function assertUsable<T extends Row>(actor: ServerActor, row: T | undefined): T {
  if (!row || !isMember(actor, row.spaceId)) throw notFound();
  authorize(actor, USE, row.spaceId);
  return row;
}
