import type { Ability } from '@otklik/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client';
import { chats, items, objects, userGroups } from '../../../db/schema';
import { type InboxScope, inScope } from '../../../lib/account-scope';
import { AppError } from '../../../lib/errors';
import { type ServerActor, spaceIdsWhere } from '../../spaces/actor';

// InboxScope and inScope live in lib/ so the realtime hub can use them (issue 12); re-exported here.
export { type InboxScope, inScope };

export async function scopeFor(
  db: Db,
  actor: ServerActor,
  ability: Ability,
  /** The user groups of the actor's spaces, when the caller read them already (a batch of users). */
  preloadedGroups?: Array<typeof userGroups.$inferSelect>,
): Promise<InboxScope> {
  const spaceIds = spaceIdsWhere(actor, ability);
  const scope: InboxScope = { spaces: new Map() };
  if (spaceIds.length === 0) return scope;
  const groupIds = actor.rows
    .filter((r) => spaceIds.includes(r.space.id) && r.membership.groupId !== null)
    .map((r) => r.membership.groupId!);
  const groups =
    groupIds.length === 0
      ? []
      : preloadedGroups
        ? preloadedGroups.filter((g) => groupIds.includes(g.id))
        : await db.select().from(userGroups).where(inArray(userGroups.id, groupIds));
  for (const row of actor.rows) {
    if (!spaceIds.includes(row.space.id)) continue;
    if (row.membership.groupId === null) {
      scope.spaces.set(row.space.id, null);
      continue;
    }
    // A group that no longer exists (or belongs elsewhere) limits to nothing: fail closed.
    const group = groups.find((g) => g.id === row.membership.groupId && g.spaceId === row.space.id);
    if (!group) {
      scope.spaces.set(row.space.id, []);
      continue;
    }
    const byCompany =
      group.companyIds.length > 0
        ? await db
            .select({ id: objects.id })
            .from(objects)
            .where(and(eq(objects.spaceId, row.space.id), inArray(objects.companyId, group.companyIds)))
        : [];
    scope.spaces.set(row.space.id, [...new Set([...group.objectIds, ...byCompany.map((o) => o.id)])]);
  }
  return scope;
}

/** A WHERE condition limiting rows with (space_id, object_id) columns to the scope; FALSE when empty. */
export function scopeCondition(scope: InboxScope, spaceColumn: AnyPgColumn, objectColumn: AnyPgColumn): SQL {
  const parts: SQL[] = [];
  const whole = [...scope.spaces].filter(([, ids]) => ids === null).map(([id]) => id);
  if (whole.length > 0) parts.push(inArray(spaceColumn, whole));
  for (const [spaceId, ids] of scope.spaces) {
    if (ids === null || ids.length === 0) continue;
    parts.push(and(eq(spaceColumn, spaceId), inArray(objectColumn, ids))!);
  }
  if (parts.length === 0) return sql`false`;
  return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` OR `)})`;
}

/** One item the actor may `ability`; 404 when it does not exist or is outside the scope (same answer). */
export async function getScopedItem(db: Db, actor: ServerActor, id: number, ability: Ability) {
  const [row] = await db.select().from(items).where(eq(items.id, id)).limit(1);
  if (!row) throw new AppError(404, 'error.notFound');
  const scope = await scopeFor(db, actor, ability);
  if (!inScope(scope, row.spaceId, row.objectId)) {
    // Visible but not allowed → 403 (the No-access page); invisible → 404.
    const view = await scopeFor(db, actor, ability.startsWith('messages.') ? 'messages.view' : 'items.view');
    throw new AppError(
      inScope(view, row.spaceId, row.objectId) ? 403 : 404,
      inScope(view, row.spaceId, row.objectId) ? 'error.noAccess' : 'error.notFound',
    );
  }
  return row;
}

export async function getScopedChat(db: Db, actor: ServerActor, id: number, ability: Ability) {
  const [row] = await db.select().from(chats).where(eq(chats.id, id)).limit(1);
  if (!row) throw new AppError(404, 'error.dialogNotFound');
  const scope = await scopeFor(db, actor, ability);
  if (!inScope(scope, row.spaceId, row.objectId)) {
    const view = await scopeFor(db, actor, 'messages.view');
    if (inScope(view, row.spaceId, row.objectId)) throw new AppError(403, 'error.noAccess');
    throw new AppError(404, 'error.dialogNotFound');
  }
  return row;
}
