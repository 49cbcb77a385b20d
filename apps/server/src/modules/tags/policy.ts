import type { Ability } from '@otklik/shared';
import { forbidden, notFound } from '../../lib/errors';
import { authorize, isMember, type ServerActor } from '../spaces/actor';

// Who may read and change settings records that belong to one space (tags, tag groups, author labels).
// Every member reads them (GET /v1/objects?tags=true already sends them to everyone); changing them
// takes the entry's ability (docs/product/roles.md: tags — administrators; labels — administrators, `labels` feature).

export const TAGS_ABILITY = 'tags.manage' satisfies Ability;

/** 404 unless the record sits in one of the actor's spaces: "not yours" and "missing" look alike. */
export function assertVisible<T extends { spaceId: number }>(actor: ServerActor, row: T | undefined): T {
  if (!row || !isMember(actor, row.spaceId)) throw notFound();
  return row;
}

/** 404 for records outside the actor's spaces; 403 (the No-access page) when visible but not theirs to change. */
export function assertManageable<T extends { spaceId: number }>(
  actor: ServerActor,
  ability: Ability,
  row: T | undefined,
): T {
  const visible = assertVisible(actor, row);
  authorize(actor, ability, visible.spaceId);
  return visible;
}

/** For lists: the actor's spaces, or the one asked for (403 when they are not a member of it). */
export function listSpaceIds(actor: ServerActor, spaceId: number | undefined): number[] {
  if (spaceId === undefined) return actor.rows.map((r) => r.space.id);
  if (!isMember(actor, spaceId)) throw forbidden();
  return [spaceId];
}

/**
 * The access part of a managed settings kind (http/managed-routes.ts) for records guarded by one
 * ability: creating needs it in the body's space, changing needs it in the record's space (404 otherwise).
 */
export function manageableBy<Row extends { spaceId: number }>(
  ability: Ability,
  tags: string[],
  find: (id: number) => Promise<Row | undefined>,
) {
  return {
    tags,
    authorizeCreate: (actor: ServerActor, spaceId: number) => authorize(actor, ability, spaceId),
    manageable: async (actor: ServerActor, id: number) => assertManageable(actor, ability, await find(id)),
  };
}

/**
 * The policy of records that are either the space's (user_id null) or one member's own (reply
 * templates, macros). `use` sees and uses the space's records and one's own, `manage` changes the
 * space's; someone else's personal record is missing (404) for anyone, administrators included.
 */
export function personalOrSpace(use: Ability, manage: Ability) {
  type Row = { spaceId: number; userId: number | null };

  function assertUsable<T extends Row>(actor: ServerActor, row: T | undefined): T {
    if (!row || !isMember(actor, row.spaceId)) throw notFound();
    if (row.userId !== null && row.userId !== actor.userId) throw notFound();
    authorize(actor, use, row.spaceId);
    return row;
  }

  function assertManageable<T extends Row>(actor: ServerActor, row: T | undefined): T {
    const visible = assertUsable(actor, row);
    if (visible.userId === null) authorize(actor, manage, visible.spaceId);
    return visible;
  }

  /** Creating: a personal record needs `use`, a space one `manage`. */
  function authorizeCreate(actor: ServerActor, spaceId: number, personal: boolean) {
    authorize(actor, personal ? use : manage, spaceId);
  }

  return { assertUsable, assertManageable, authorizeCreate };
}
