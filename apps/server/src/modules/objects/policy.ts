import { can } from '@otklik/shared';
import type { Db } from '../../db/client';
import type { objects } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { inScope, scopeFor } from '../inbox/read/scope';
import { isMember, type ServerActor } from '../spaces/actor';

// Who may see and manage connected accounts (docs/product/roles.md: administrators manage accounts and see their
// errors; other members see the accounts whose content they work with).

type ObjectRow = typeof objects.$inferSelect;

/** 404 unless the account is one whose content the actor sees (or they administer its space). */
export async function assertAccountVisible(
  db: Db,
  actor: ServerActor,
  row: ObjectRow | undefined,
): Promise<ObjectRow> {
  if (!row || !isMember(actor, row.spaceId)) throw new AppError(404, 'error.notFound');
  if (can(actor, 'accounts.manage', row.spaceId)) return row;
  for (const ability of ['items.view', 'messages.view'] as const) {
    if (inScope(await scopeFor(db, actor, ability), row.spaceId, row.id)) return row;
  }
  throw new AppError(404, 'error.notFound');
}

/** 404 for a stranger's account, 403 for a member who is not an administrator. */
export function assertAccountManageable(actor: ServerActor, row: ObjectRow | undefined): ObjectRow {
  if (!row || !isMember(actor, row.spaceId)) throw new AppError(404, 'error.notFound');
  if (!can(actor, 'accounts.manage', row.spaceId)) throw new AppError(403, 'error.noAccess');
  return row;
}

/** The space a new account goes to: the one named, or the only one the actor administers. */
export function spaceForNewAccount(actor: ServerActor, spaceId: number | undefined): number {
  const managed = actor.memberships
    .filter((m) => can(actor, 'accounts.manage', m.space))
    .map((m) => Number(m.space.id));
  if (spaceId !== undefined) {
    if (!managed.includes(spaceId)) throw new AppError(403, 'error.noAccess');
    return spaceId;
  }
  if (managed.length === 0) throw new AppError(403, 'error.noAccess');
  if (managed.length > 1) {
    throw new AppError(400, 'field.required', {
      errorType: 'validation',
      fields: { space_id: 'field.required' },
    });
  }
  return managed[0]!;
}
