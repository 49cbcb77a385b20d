import { type Ability, can } from '@otklik/shared';
import type { Db } from '../../db/client';
import { AppError, notFound } from '../../lib/errors';
import { inScope, scopeFor } from '../inbox/read/scope';
import { authorize, isMember, type ServerActor } from '../spaces/actor';
import type { SampleRow } from './service';

// Who may do what in the quality check (docs/product/qa.md, docs/product/roles.md):
// - scorecards: `qa.manage` (the `qa` permission on a space with the quality check on a special tariff);
// - reviewing: `qa.review` — the holders of the `qa` permission; samples outside their group's accounts
//   are invisible; their own replies are reviewed by someone else;
// - the settings/logsrandom list: `random.view` (administrators);
// - one's own results: `qa.viewOwn`.
// A row of a space the actor is not a member of is a 404; a member without the right gets 403.

export const MANAGE: Ability = 'qa.manage';
export const REVIEW: Ability = 'qa.review';
export const OWN: Ability = 'qa.viewOwn';
export const LOGS: Ability = 'random.view';

export function assertManageable<T extends { spaceId: number }>(actor: ServerActor, row: T | undefined): T {
  if (!row || !isMember(actor, row.spaceId)) throw notFound();
  authorize(actor, MANAGE, row.spaceId);
  return row;
}

/** The sample as the actor may see it: a reviewer in scope, or the operator whose reply it is. */
export async function assertVisibleSample(db: Db, actor: ServerActor, row: SampleRow | undefined) {
  if (!row || !isMember(actor, row.sample.spaceId)) throw notFound();
  const s = row.sample;
  if (s.operatorId === actor.userId && can(actor, OWN, s.spaceId)) {
    return { row, canReview: false };
  }
  for (const ability of [REVIEW, LOGS] as const) {
    if (!can(actor, ability, s.spaceId)) continue;
    const scope = await scopeFor(db, actor, ability);
    if (!inScope(scope, s.spaceId, s.objectId)) throw notFound();
    return { row, canReview: ability === REVIEW && s.operatorId !== actor.userId };
  }
  throw new AppError(403, 'error.noAccess');
}

export function assertReviewable(actor: ServerActor, visible: { row: SampleRow; canReview: boolean }) {
  if (visible.row.sample.operatorId === actor.userId) throw new AppError(403, 'qa.review.own');
  if (!visible.canReview) throw new AppError(403, 'error.noAccess');
}
