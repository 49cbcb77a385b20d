import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { companies, departments, memberships, objects, tags, userStatuses } from '../../db/schema';
import { notFound } from '../../lib/errors';

// docs/product/entities.md User.settings name rows of the user's spaces (default account, company, tag,
// department, status, assignee). An id of a row in a space the user is not a member of is refused like any
// id the caller cannot see (404), so "my settings" never hold nor echo another space's ids (issue 22, found
// by the tenant isolation matrix).

type SpaceTable = PgTable & { id: PgColumn; spaceId: PgColumn };

const REFERENCES: Array<[key: string, table: SpaceTable]> = [
  ['company_id', companies],
  ['object_id', objects],
  ['tag_id', tags],
  ['issues_department_id', departments],
  ['status', userStatuses],
];

/**
 * Throws 404 when a setting names a row outside the user's spaces. A value the user already has is not
 * checked again: a screen saving every setting at once still saves when a row it names was deleted since.
 */
export async function assertOwnSettingsRefs(
  db: Db,
  userId: number,
  patch: Record<string, unknown>,
  current: Record<string, unknown>,
) {
  const settings = Object.fromEntries(Object.entries(patch).filter(([key, value]) => current[key] !== value));
  const mySpaces = db
    .select({ spaceId: memberships.spaceId })
    .from(memberships)
    .where(eq(memberships.userId, userId));
  const exists = async (table: PgTable, where: SQL | undefined) =>
    (await db.select({ one: sql`1` }).from(table).where(where).limit(1)).length > 0;
  for (const [key, table] of REFERENCES) {
    const id = settings[key];
    if (typeof id !== 'number') continue;
    if (!(await exists(table, and(eq(table.id, id), inArray(table.spaceId, mySpaces))))) throw notFound();
  }
  const assignee = settings.issues_assigned_to;
  if (typeof assignee === 'number') {
    const where = and(eq(memberships.userId, assignee), inArray(memberships.spaceId, mySpaces));
    if (!(await exists(memberships, where))) throw notFound();
  }
}
