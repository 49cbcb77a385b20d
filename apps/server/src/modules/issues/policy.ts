import type { Ability } from '@otklik/shared';
import { and, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { issues } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type InboxScope, scopeFor } from '../inbox/read/scope';
import type { ServerActor } from '../spaces/actor';

// Who sees and changes a task. A space's tasks need its `issues` flag and the role (the abilities carry
// both: issues.view to read, issues.edit to create, change and comment, issues.manage to delete and
// configure). A member limited to a user group (docs/product/roles.md) sees the tasks about their group's accounts,
// and any task assigned to them or created by them, like the inbox (inbox/read/scope.ts).

export const VIEW: Ability = 'issues.view';
export const EDIT: Ability = 'issues.edit';
export const MANAGE: Ability = 'issues.manage';

export interface IssueScope {
  userId: number;
  inbox: InboxScope;
}

export async function issueScope(db: Db, actor: ServerActor, ability: Ability = VIEW): Promise<IssueScope> {
  return { userId: actor.userId, inbox: await scopeFor(db, actor, ability) };
}

/** WHERE for the tasks table; FALSE when the scope is empty. */
export function scopeIssues(scope: IssueScope): SQL {
  const parts: SQL[] = [];
  const whole = [...scope.inbox.spaces].filter(([, ids]) => ids === null).map(([id]) => id);
  if (whole.length > 0) parts.push(inArray(issues.spaceId, whole));
  for (const [spaceId, ids] of scope.inbox.spaces) {
    if (ids === null) continue;
    const mine = or(eq(issues.assignedUserId, scope.userId), eq(issues.createdBy, scope.userId))!;
    parts.push(
      and(eq(issues.spaceId, spaceId), ids.length > 0 ? or(inArray(issues.objectId, ids), mine) : mine)!,
    );
  }
  if (parts.length === 0) return sql`false`;
  return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` OR `)})`;
}

type Row = Pick<typeof issues.$inferSelect, 'spaceId' | 'objectId' | 'assignedUserId' | 'createdBy'>;

export function issueInScope(scope: IssueScope, row: Row): boolean {
  if (!scope.inbox.spaces.has(row.spaceId)) return false;
  const ids = scope.inbox.spaces.get(row.spaceId);
  if (ids === null || ids === undefined) return ids === null;
  if (row.assignedUserId === scope.userId || row.createdBy === scope.userId) return true;
  return row.objectId !== null && ids.includes(row.objectId);
}

/**
 * The task when the actor may `ability` it. Not visible → 404; visible but not allowed (e.g. a
 * read-only role asking to change it) → 403.
 */
export async function assertIssue<T extends Row>(
  db: Db,
  actor: ServerActor,
  row: T | undefined,
  ability: Ability,
): Promise<T> {
  const visible = await issueScope(db, actor, VIEW);
  // Tasks are off (flag or role) in every space of the caller: the feature is not theirs — 403, as the
  // list answers — rather than "this task does not exist".
  if (visible.inbox.spaces.size === 0) throw new AppError(403, 'error.noAccess');
  if (!row) throw new AppError(404, 'error.notFound');
  if (!issueInScope(visible, row)) throw new AppError(404, 'error.notFound');
  if (ability !== VIEW && !issueInScope(await issueScope(db, actor, ability), row))
    throw new AppError(403, 'error.noAccess');
  return row;
}
