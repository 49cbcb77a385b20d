import {
  type CompanyWire,
  type DepartmentWire,
  type LabelWire,
  monitoringSavedFilterSchema,
  RECENT_EMOJI_PER_PROVIDER,
  type TagGroupWire,
  type TagWire,
} from '@otklik/shared';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  companies,
  departments,
  labels,
  objects,
  savedFilters,
  tagGroups,
  tags,
  userEmoji,
  userGroups,
} from '../../db/schema';
import { AppError } from '../../lib/errors';
import { presentCompany } from '../organisation/presenter';
import type { ServerActor } from './actor';
import { presentFilter } from './presenter';

// Reads behind GET /v1/config, /v1/objects, /v1/companies, /v1/usergroups, /v1/tags (docs/product/api.md Data).
// Every query is scoped to the caller's spaces; a member limited to a user group sees only its
// companies and accounts (docs/product/roles.md).

const memberSpaceIds = (actor: ServerActor) => actor.rows.map((r) => r.space.id);

/** Per space: null = everything; otherwise the group's company and object ids. */
function groupLimits(actor: ServerActor, groups: Array<typeof userGroups.$inferSelect>) {
  const limits = new Map<number, { companyIds: Set<number>; objectIds: Set<number> } | null>();
  for (const row of actor.rows) {
    if (row.membership.groupId === null) {
      limits.set(row.space.id, null);
      continue;
    }
    // A group that no longer exists limits to nothing (fail closed), never to everything.
    const group = groups.find((g) => g.id === row.membership.groupId);
    limits.set(row.space.id, {
      companyIds: new Set(group?.companyIds ?? []),
      objectIds: new Set(group?.objectIds ?? []),
    });
  }
  return limits;
}

export async function findUserGroups(db: Db, actor: ServerActor) {
  const spaceIds = memberSpaceIds(actor);
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(userGroups)
    .where(inArray(userGroups.spaceId, spaceIds))
    .orderBy(asc(userGroups.id));
}

/** The companies the actor sees, each with its settings read with their defaults (presentCompany). */
export async function findCompanies(db: Db, actor: ServerActor): Promise<CompanyWire[]> {
  const spaceIds = memberSpaceIds(actor);
  if (spaceIds.length === 0) return [];
  const [rows, groups] = await Promise.all([
    db.select().from(companies).where(inArray(companies.spaceId, spaceIds)).orderBy(asc(companies.id)),
    findUserGroups(db, actor),
  ]);
  const limits = groupLimits(actor, groups);
  return rows
    .filter((c) => {
      const limit = limits.get(c.spaceId);
      return !limit || limit.companyIds.has(c.id);
    })
    .map(presentCompany);
}

export async function findObjects(db: Db, actor: ServerActor) {
  const spaceIds = memberSpaceIds(actor);
  if (spaceIds.length === 0) return [];
  const [rows, groups] = await Promise.all([
    db.select().from(objects).where(inArray(objects.spaceId, spaceIds)).orderBy(asc(objects.id)),
    findUserGroups(db, actor),
  ]);
  const limits = groupLimits(actor, groups);
  return rows
    .filter((o) => {
      const limit = limits.get(o.spaceId);
      return (
        !limit || limit.objectIds.has(o.id) || (o.companyId !== null && limit.companyIds.has(o.companyId))
      );
    })
    .map(presentObject);
}

/** docs/product/entities.md Object. Credentials never leave the server. */
export function presentObject(o: typeof objects.$inferSelect) {
  return {
    id: o.id,
    space_id: o.spaceId,
    company_id: o.companyId,
    provider: o.provider,
    name: o.name,
    screen_name: o.screenName,
    image: o.image,
    url: o.url,
    domain: o.domain,
    error: o.error,
  };
}

/** Every member's settings records for pickers and filters: the shared wire shapes (tags.ts, organisation-wire.ts). */
export async function findTagsAndFriends(
  db: Db,
  actor: ServerActor,
): Promise<{
  tags: TagWire[];
  tag_groups: TagGroupWire[];
  labels: LabelWire[];
  departments: DepartmentWire[];
}> {
  const spaceIds = memberSpaceIds(actor);
  if (spaceIds.length === 0) return { tags: [], tag_groups: [], labels: [], departments: [] };
  const [tagRows, groupRows, labelRows, departmentRows] = await Promise.all([
    db.select().from(tags).where(inArray(tags.spaceId, spaceIds)).orderBy(asc(tags.id)),
    db.select().from(tagGroups).where(inArray(tagGroups.spaceId, spaceIds)).orderBy(asc(tagGroups.id)),
    db.select().from(labels).where(inArray(labels.spaceId, spaceIds)).orderBy(asc(labels.id)),
    db.select().from(departments).where(inArray(departments.spaceId, spaceIds)).orderBy(asc(departments.id)),
  ]);
  return {
    tags: tagRows.map((t) => ({
      id: t.id,
      name: t.name,
      color: t.color,
      space_id: t.spaceId,
      company_id: t.companyId,
      parent_id: t.parentId,
      group_id: t.groupId,
    })),
    tag_groups: groupRows.map((g) => ({ id: g.id, name: g.name, space_id: g.spaceId })),
    labels: labelRows.map((l) => ({ id: l.id, name: l.name, color: l.color, space_id: l.spaceId })),
    departments: departmentRows.map((d) => ({ id: d.id, name: d.name, space_id: d.spaceId })),
  };
}

// ---------------------------------------------------------------- saved filters

export async function listFilters(db: Db, userId: number) {
  const rows = await db
    .select()
    .from(savedFilters)
    .where(eq(savedFilters.userId, userId))
    .orderBy(asc(savedFilters.id));
  return rows.map(presentFilter);
}

/**
 * The query a saved filter keeps, checked for the routes whose shape is known: `monitoring-page` keeps
 * the monitoring screen's filter (space, keyword query, account, network, sentiment, read state) only.
 */
function filterQuery(route: string | null | undefined, query: Record<string, unknown>) {
  if (route !== 'monitoring-page') return query;
  const parsed = monitoringSavedFilterSchema.strict().safeParse(query);
  if (!parsed.success)
    throw new AppError(400, 'field.invalid', { errorType: 'validation', fields: { query: 'field.invalid' } });
  return parsed.data as Record<string, unknown>;
}

export async function createFilter(
  db: Db,
  userId: number,
  input: { name: string; query: Record<string, unknown>; route?: string | null },
) {
  await db.insert(savedFilters).values({
    userId,
    name: input.name,
    query: filterQuery(input.route, input.query),
    route: input.route ?? null,
  });
  return listFilters(db, userId);
}

/** Renames one of the user's saved filters (its query and route stay). */
export async function renameFilter(db: Db, userId: number, id: number, name: string) {
  const renamed = await db
    .update(savedFilters)
    .set({ name })
    .where(and(eq(savedFilters.id, id), eq(savedFilters.userId, userId)))
    .returning({ id: savedFilters.id });
  if (renamed.length === 0) throw new AppError(404, 'error.notFound');
  return listFilters(db, userId);
}

export async function deleteFilter(db: Db, userId: number, id: number) {
  const deleted = await db
    .delete(savedFilters)
    .where(and(eq(savedFilters.id, id), eq(savedFilters.userId, userId)))
    .returning({ id: savedFilters.id });
  if (deleted.length === 0) throw new AppError(404, 'error.notFound');
  return listFilters(db, userId);
}

// ---------------------------------------------------------------- recent emoji

/** docs/product/entities.md Config emoji: per provider, a list of {char}. */
export async function listEmoji(db: Db, userId: number) {
  const rows = await db
    .select()
    .from(userEmoji)
    .where(eq(userEmoji.userId, userId))
    .orderBy(desc(userEmoji.updatedAt));
  return Object.fromEntries(rows.map((r) => [r.provider, r.emoji.map((char) => ({ char }))]));
}

/** Puts the given emoji first (most recent first), keeps the 18 most recent per provider (docs/product/limits.md). */
export async function rememberEmoji(db: Db, userId: number, byProvider: Record<string, string[]>) {
  for (const [provider, used] of Object.entries(byProvider)) {
    const [row] = await db
      .select()
      .from(userEmoji)
      .where(and(eq(userEmoji.userId, userId), eq(userEmoji.provider, provider)))
      .limit(1);
    const merged = [...new Set([...used, ...(row?.emoji ?? [])])].slice(0, RECENT_EMOJI_PER_PROVIDER);
    await db
      .insert(userEmoji)
      .values({ userId, provider, emoji: merged, updatedAt: new Date() })
      .onConflictDoUpdate({
        target: [userEmoji.userId, userEmoji.provider],
        set: { emoji: merged, updatedAt: new Date() },
      });
  }
  return listEmoji(db, userId);
}
