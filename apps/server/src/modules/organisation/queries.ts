import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  type companies,
  type departments,
  memberships,
  type objects,
  type userGroups,
} from '../../db/schema';
import { badRequest } from '../../lib/errors';

// Shared checks for ids that arrive in request bodies: a company, account, department or group id
// is only accepted when it belongs to the space the request is about (ARCHITECTURE: multi-tenancy).

type SpaceScopedTable = typeof companies | typeof departments | typeof userGroups | typeof objects;

/** The subset of `ids` that are rows of `table` in `spaceId`. */
export async function idsInSpace(db: Db, table: SpaceScopedTable, spaceId: number, ids: readonly number[]) {
  if (ids.length === 0) return new Set<number>();
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(table.spaceId, spaceId), inArray(table.id, [...ids])));
  return new Set(rows.map((r) => r.id));
}

/** Throws 400 naming `field` unless every id is a row of `table` in `spaceId`. Returns them de-duplicated. */
export async function assertIdsInSpace(
  db: Db,
  table: SpaceScopedTable,
  spaceId: number,
  ids: readonly number[],
  field: string,
): Promise<number[]> {
  const unique = [...new Set(ids)];
  const found = await idsInSpace(db, table, spaceId, unique);
  if (found.size !== unique.length) {
    throw badRequest('field.invalid', { errorType: 'validation', fields: { [field]: 'field.invalid' } });
  }
  return unique;
}

/** User ids of the space's members limited to `groupId` (to tell their sockets that their scope moved). */
export async function memberIdsOfGroup(db: Db, spaceId: number, groupId: number): Promise<number[]> {
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.spaceId, spaceId), eq(memberships.groupId, groupId)));
  return rows.map((r) => r.userId);
}

/** True when `userId` is a member of `spaceId`. */
export async function isSpaceMember(db: Db, spaceId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, userId)))
    .limit(1);
  return row !== undefined;
}

/** `column` (a jsonb array of ids) without `id`. */
export function withoutId(
  column: typeof memberships.departmentIds | typeof userGroups.companyIds,
  id: number,
) {
  return sql`(SELECT coalesce(jsonb_agg(e), '[]'::jsonb) FROM jsonb_array_elements(${column}) AS e WHERE e <> to_jsonb(${id}::int))`;
}

/** `column` (a jsonb array of ids) contains `id`. */
export function containsId(
  column: typeof memberships.departmentIds | typeof userGroups.companyIds,
  id: number,
) {
  return sql`${column} @> jsonb_build_array(${id}::int)`;
}
