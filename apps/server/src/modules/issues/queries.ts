import { type issueListQuery, type UserSettings, userSettingsSchema } from '@otklik/shared';
import { and, asc, desc, eq, gte, ilike, inArray, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import {
  authors,
  chats,
  issueComments,
  issueHistory,
  issueLinks,
  issues,
  items,
  users,
} from '../../db/schema';
import type { IssueLinkKind } from '../../db/schema/issues';
import { taskClock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { type IssueScope, scopeIssues } from './policy';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

// The read side of tasks: one task, the list with its cursor, links, comments, history and counters.
export async function getIssue(db: Db, id: number) {
  const [row] = await db.select().from(issues).where(eq(issues.id, id)).limit(1);
  return row;
}

const truthy = (v: string | undefined) => v === '1' || v === 'true';

/** The list's filter with the user's defaults (docs/product/entities.md user settings issues_*) where the query is silent. */
export function withDefaults(query: z.output<typeof issueListQuery>, settings: UserSettings) {
  return {
    ...query,
    assigned_to: query.assigned_to ?? settings.issues_assigned_to ?? 'all',
    department_id: query.department_id ?? settings.issues_department_id ?? undefined,
    sort: query.sort ?? settings.issues_sort ?? 'created_at',
  };
}

export async function userSettingsOf(db: Db, userId: number): Promise<UserSettings> {
  const [row] = await db.select({ settings: users.settings }).from(users).where(eq(users.id, userId));
  const parsed = userSettingsSchema.safeParse(row?.settings ?? {});
  return parsed.success ? parsed.data : {};
}

export async function findIssues(
  db: Db,
  scope: IssueScope,
  query: ReturnType<typeof withDefaults>,
  now = taskClock.now(),
) {
  const where: Array<SQL | undefined> = [scopeIssues(scope)];
  if (query.space_id !== undefined) where.push(eq(issues.spaceId, query.space_id));
  if (query.status === 'open') where.push(ne(issues.status, 'closed'));
  else if (query.status) where.push(eq(issues.status, query.status));
  if (query.created_at_from !== undefined)
    where.push(gte(issues.createdAt, new Date(query.created_at_from * 1000)));
  if (query.created_at_to !== undefined)
    where.push(lt(issues.createdAt, new Date(query.created_at_to * 1000)));
  if (query.provider) where.push(eq(issues.provider, query.provider));
  if (query.source === 'none') where.push(isNull(issues.source));
  else if (query.source) where.push(eq(issues.source, query.source));
  const assigned = query.assigned_to;
  if (assigned === 'me') where.push(eq(issues.assignedUserId, scope.userId));
  else if (assigned === 'none') where.push(isNull(issues.assignedUserId));
  else if (typeof assigned === 'number') where.push(eq(issues.assignedUserId, assigned));
  if (query.department_id !== undefined) where.push(eq(issues.departmentId, query.department_id));
  if (truthy(query.expired)) where.push(expiredAt(now));
  if (truthy(query.mine))
    where.push(or(eq(issues.assignedUserId, scope.userId), eq(issues.createdBy, scope.userId)));
  if (query.q) {
    const like = `%${escapeLike(query.q)}%`;
    where.push(or(ilike(issues.title, like), ilike(issues.description, like)));
  }
  const total = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(issues)
    .where(and(...where))
    .then((r) => r[0]?.n ?? 0);
  // Keyset paging: the cursor is the last row's (sort key, id); the next page starts after it.
  const column =
    query.sort === 'deadline'
      ? issues.dueAt
      : query.sort === 'updated_at'
        ? issues.updatedAt
        : issues.createdAt;
  const keyText = sql<string | null>`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  if (query.cursor !== undefined) {
    const [key, id] = decodeCursor(query.cursor);
    if (query.sort === 'deadline') {
      where.push(
        key === null
          ? and(isNull(issues.dueAt), lt(issues.id, id))
          : sql`(${issues.dueAt} > ${key}::timestamptz OR (${issues.dueAt} = ${key}::timestamptz AND ${issues.id} < ${id}) OR ${issues.dueAt} IS NULL)`,
      );
    } else {
      if (key === null)
        throw new AppError(400, 'issues.cursor.invalid', { fields: { cursor: 'field.invalid' } });
      where.push(sql`(${column}, ${issues.id}) < (${key}::timestamptz, ${id})`);
    }
  }
  const order =
    query.sort === 'deadline'
      ? [sql`${issues.dueAt} ASC NULLS LAST`, desc(issues.id)]
      : [desc(column), desc(issues.id)];
  const rows = await db
    .select({ issue: issues, key: keyText })
    .from(issues)
    .where(and(...where))
    .orderBy(...order)
    .limit(query.limit + 1)
    .offset(query.cursor === undefined ? query.offset : 0);
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    rows: page.map((r) => r.issue),
    total,
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.key, last.issue.id) : null,
  };
}

function encodeCursor(key: string | null, id: number): string {
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}

/** [sort key (ISO with microseconds, or null for no due date), id]; anything else is refused. */
function decodeCursor(cursor: string): [string | null, number] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2) {
      const [key, id] = value as [unknown, unknown];
      const keyOk =
        key === null ||
        (typeof key === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(key));
      if (keyOk && typeof id === 'number' && Number.isSafeInteger(id) && id > 0)
        return [key as string | null, id];
    }
  } catch {
    // falls through to the refusal
  }
  throw new AppError(400, 'issues.cursor.invalid', { fields: { cursor: 'field.invalid' } });
}

/** Open and past due at `now` (SPEC: a task past due counts as expired). */
export function expiredAt(now: Date): SQL {
  return and(ne(issues.status, 'closed'), lt(issues.dueAt, now))!;
}

/** The tasks that link to one item, chat or author, in the caller's scope. */
export async function findLinked(db: Db, scope: IssueScope, kind: IssueLinkKind, id: number) {
  return db
    .select({ issue: issues })
    .from(issueLinks)
    .innerJoin(issues, eq(issues.id, issueLinks.issueId))
    .where(and(eq(issueLinks.kind, kind), eq(issueLinks.targetId, id), scopeIssues(scope)))
    .orderBy(desc(issues.createdAt))
    .limit(100)
    .then((rows) => rows.map((r) => r.issue));
}

export interface LinkInfo {
  issueId: number;
  kind: IssueLinkKind;
  targetId: number;
  objectId: number | null;
  label: string | null;
}

/** Links of these tasks with a short label (the item's excerpt, the chat's last message, the author's name). */
export async function linksOf(db: Db, issueIds: number[]): Promise<LinkInfo[]> {
  if (issueIds.length === 0) return [];
  const rows = await db
    .select({
      issueId: issueLinks.issueId,
      kind: issueLinks.kind,
      targetId: issueLinks.targetId,
      objectId: issueLinks.objectId,
      itemText: items.excerpt,
      chatText: chats.lastMessageExcerpt,
      authorName: authors.name,
    })
    .from(issueLinks)
    .leftJoin(items, and(eq(issueLinks.kind, 'item'), eq(items.id, issueLinks.targetId)))
    .leftJoin(chats, and(eq(issueLinks.kind, 'chat'), eq(chats.id, issueLinks.targetId)))
    .leftJoin(authors, and(eq(issueLinks.kind, 'author'), eq(authors.id, issueLinks.targetId)))
    .where(inArray(issueLinks.issueId, issueIds));
  return rows.map((r) => ({
    issueId: r.issueId,
    kind: r.kind,
    targetId: r.targetId,
    objectId: r.objectId,
    label: r.itemText ?? r.chatText ?? r.authorName ?? null,
  }));
}

export async function commentCounts(db: Db, issueIds: number[]): Promise<Map<number, number>> {
  if (issueIds.length === 0) return new Map();
  const rows = await db
    .select({ id: issueComments.issueId, n: sql<number>`count(*)`.mapWith(Number) })
    .from(issueComments)
    .where(inArray(issueComments.issueId, issueIds))
    .groupBy(issueComments.issueId);
  return new Map(rows.map((r) => [r.id, r.n]));
}

export async function commentsOf(db: Db, issueId: number) {
  return db
    .select()
    .from(issueComments)
    .where(eq(issueComments.issueId, issueId))
    .orderBy(asc(issueComments.id));
}

export async function historyOf(db: Db, issueId: number) {
  return db
    .select()
    .from(issueHistory)
    .where(eq(issueHistory.issueId, issueId))
    .orderBy(asc(issueHistory.id));
}

/**
 * The top-bar counters: open tasks assigned to the caller, and of them those past due — the work that
 * waits on this person (docs/product/entities.md Config issues_count / issues_expired_count).
 */
export async function countMine(db: Db, scope: IssueScope, now = taskClock.now()) {
  const [row] = await db
    .select({
      open: sql<number>`count(*)`.mapWith(Number),
      expired:
        sql<number>`count(*) FILTER (WHERE ${issues.dueAt} < ${now.toISOString()}::timestamptz)`.mapWith(
          Number,
        ),
    })
    .from(issues)
    .where(and(scopeIssues(scope), eq(issues.assignedUserId, scope.userId), ne(issues.status, 'closed')));
  return { open: row?.open ?? 0, expired: row?.expired ?? 0 };
}
