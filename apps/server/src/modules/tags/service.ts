import type { MessageKey } from '@otklik/shared';
import { and, asc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chatTags, companies, itemTags, tagGroups, tags } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../lib/errors';
import type { EventBus } from '../../realtime/bus';
import { type AuditActor, audit, changedFields } from '../audit/record';

// Settings → tags and tag groups (docs/product/screens-and-routes.md settings tags (new, {id}, {id}/children), tag_groups). The
// callers have checked that the actor may manage the space; these functions keep every id inside it.
//
// Tags form a tree per space (parent_id). Rules kept here, under one per-space lock so two admins
// cannot race past them:
// - parent, group and company must be in the tag's space;
// - no cycles (a tag cannot move under itself or its descendants);
// - names are unique among siblings (same parent), case-insensitively; group names per space.
// Deleting a tag moves its children up to its own parent (their taggings and statistics survive) and
// removes the tag from every comment and chat.

export interface TagsDeps {
  db: Db;
  bus: EventBus;
}

type TagRow = typeof tags.$inferSelect;
type TagGroupRow = typeof tagGroups.$inferSelect;

/** Lock keys for pg_advisory_xact_lock(kind, space_id); other modules use their own first key. */
const LOCK_TAGS = 724_310_100;
const LOCK_TAG_GROUPS = 724_310_101;

const NAME_TAKEN: MessageKey = 'tags.nameTaken';
const CYCLE: MessageKey = 'tags.cycle';

const byUser = (userId: number) => ({ kind: 'user' as const, id: userId });

async function lockSpace(db: Db, kind: number, spaceId: number) {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${kind}::int, ${spaceId}::int)`);
}

function invalidField(field: string) {
  return badRequest('field.invalid', { errorType: 'validation', fields: { [field]: 'field.invalid' } });
}

const sameName = (column: typeof tags.name | typeof tagGroups.name, name: string): SQL =>
  sql`lower(${column}) = lower(${name})`;

async function publishTagsChanged(bus: EventBus, spaceId: number, ids: number[], performedBy: number) {
  await bus.publish({ type: 'tags.changed', spaceId, payload: { ids }, cause: byUser(performedBy) });
}

// ---------------------------------------------------------------- tags: reads

export async function getTag(db: Db, id: number): Promise<TagRow | undefined> {
  const [row] = await db.select().from(tags).where(eq(tags.id, id)).limit(1);
  return row;
}

/** Direct children, by name. */
export async function findChildren(db: Db, tag: Pick<TagRow, 'id' | 'spaceId'>): Promise<TagRow[]> {
  return db
    .select()
    .from(tags)
    .where(and(eq(tags.spaceId, tag.spaceId), eq(tags.parentId, tag.id)))
    .orderBy(asc(tags.name), asc(tags.id));
}

// ---------------------------------------------------------------- tags: checks

interface TagRefs {
  parentId?: number | null;
  groupId?: number | null;
  companyId?: number | null;
}

/** Parent, group and company named in a body must be rows of the tag's space (400 naming the field). */
async function assertRefsInSpace(db: Db, spaceId: number, refs: TagRefs) {
  if (refs.parentId != null) {
    const [row] = await db
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.id, refs.parentId), eq(tags.spaceId, spaceId)))
      .limit(1);
    if (!row) throw invalidField('parent_id');
  }
  if (refs.groupId != null) {
    const [row] = await db
      .select({ id: tagGroups.id })
      .from(tagGroups)
      .where(and(eq(tagGroups.id, refs.groupId), eq(tagGroups.spaceId, spaceId)))
      .limit(1);
    if (!row) throw invalidField('group_id');
  }
  if (refs.companyId != null) {
    const [row] = await db
      .select({ id: companies.id })
      .from(companies)
      .where(and(eq(companies.id, refs.companyId), eq(companies.spaceId, spaceId)))
      .limit(1);
    if (!row) throw invalidField('company_id');
  }
}

/** 400 name_taken when a sibling (same parent) already has this name. */
async function assertNameFree(
  db: Db,
  spaceId: number,
  parentId: number | null,
  name: string,
  exceptId?: number,
) {
  const [row] = await db
    .select({ id: tags.id })
    .from(tags)
    .where(
      and(
        eq(tags.spaceId, spaceId),
        sql`${tags.parentId} IS NOT DISTINCT FROM ${parentId}::int`,
        sameName(tags.name, name),
        exceptId === undefined ? undefined : ne(tags.id, exceptId),
      ),
    )
    .limit(1);
  if (row) throw badRequest(NAME_TAKEN, { errorType: 'name_taken', fields: { name: NAME_TAKEN } });
}

/** 400 tag_cycle when `parentId` is the tag itself or one of its descendants. */
async function assertNoCycle(db: Db, tag: TagRow, parentId: number) {
  const rows = await db
    .select({ id: tags.id, parentId: tags.parentId })
    .from(tags)
    .where(eq(tags.spaceId, tag.spaceId));
  const parentOf = new Map(rows.map((r) => [r.id, r.parentId]));
  const seen = new Set<number>();
  for (let at: number | null | undefined = parentId; at != null && !seen.has(at); at = parentOf.get(at)) {
    if (at === tag.id) throw badRequest(CYCLE, { errorType: 'tag_cycle', fields: { parent_id: CYCLE } });
    seen.add(at);
  }
}

// ---------------------------------------------------------------- tags: writes

const tagFields = (t: TagRow) => ({
  name: t.name,
  color: t.color,
  parent_id: t.parentId,
  group_id: t.groupId,
  company_id: t.companyId,
});

export async function createTag(
  deps: TagsDeps,
  input: {
    spaceId: number;
    name: string;
    color?: string | null;
    parentId?: number | null;
    groupId?: number | null;
    companyId?: number | null;
    performedBy: number;
    by?: AuditActor;
  },
): Promise<TagRow> {
  const row = await deps.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await lockSpace(db, LOCK_TAGS, input.spaceId);
    await assertRefsInSpace(db, input.spaceId, input);
    await assertNameFree(db, input.spaceId, input.parentId ?? null, input.name);
    const [created] = await db
      .insert(tags)
      .values({
        spaceId: input.spaceId,
        name: input.name,
        color: input.color ?? null,
        parentId: input.parentId ?? null,
        groupId: input.groupId ?? null,
        companyId: input.companyId ?? null,
      })
      .returning();
    await audit(db, input.by ?? { userId: input.performedBy }, {
      spaceId: input.spaceId,
      kind: 'tag.created',
      target: { type: 'tag', id: created!.id, label: created!.name },
      after: tagFields(created!),
    });
    return created!;
  });
  await publishTagsChanged(deps.bus, row.spaceId, [row.id], input.performedBy);
  return row;
}

export async function updateTag(
  deps: TagsDeps,
  tag: TagRow,
  patch: {
    name?: string;
    color?: string | null;
    parentId?: number | null;
    groupId?: number | null;
    companyId?: number | null;
  },
  performedBy: number,
  by: AuditActor = { userId: performedBy },
): Promise<TagRow> {
  const row = await deps.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await lockSpace(db, LOCK_TAGS, tag.spaceId);
    const current = await getTag(db, tag.id);
    if (!current) throw notFound(); // deleted meanwhile
    await assertRefsInSpace(db, tag.spaceId, patch);
    const parentId = patch.parentId !== undefined ? patch.parentId : current.parentId;
    if (patch.parentId != null) await assertNoCycle(db, current, patch.parentId);
    const name = patch.name ?? current.name;
    if (patch.name !== undefined || patch.parentId !== undefined) {
      await assertNameFree(db, tag.spaceId, parentId, name, tag.id);
    }
    const [updated] = await db
      .update(tags)
      .set({
        name,
        parentId,
        ...(patch.color !== undefined ? { color: patch.color } : {}),
        ...(patch.groupId !== undefined ? { groupId: patch.groupId } : {}),
        ...(patch.companyId !== undefined ? { companyId: patch.companyId } : {}),
      })
      .where(and(eq(tags.id, tag.id), eq(tags.spaceId, tag.spaceId)))
      .returning();
    if (!updated) throw notFound();
    const changes = changedFields(tagFields(current), tagFields(updated));
    if (Object.keys(changes.after).length > 0)
      await audit(db, by, {
        spaceId: tag.spaceId,
        kind: 'tag.updated',
        target: { type: 'tag', id: tag.id, label: updated.name },
        ...changes,
      });
    return updated;
  });
  await publishTagsChanged(deps.bus, row.spaceId, [row.id], performedBy);
  return row;
}

/**
 * Deletes a tag: its children move up to its parent (409 name_taken when a child's name is already used
 * there — rename or move it first), and it leaves every comment and chat it was on.
 */
export async function deleteTag(
  deps: TagsDeps,
  tag: TagRow,
  performedBy: number,
  by: AuditActor = { userId: performedBy },
): Promise<{ moved: number[] }> {
  const moved = await deps.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await lockSpace(db, LOCK_TAGS, tag.spaceId);
    const current = await getTag(db, tag.id);
    if (!current) return [];
    const children = await findChildren(db, current);
    if (children.length > 0) {
      const siblings = await db
        .select({ name: tags.name })
        .from(tags)
        .where(
          and(
            eq(tags.spaceId, current.spaceId),
            sql`${tags.parentId} IS NOT DISTINCT FROM ${current.parentId}::int`,
            ne(tags.id, current.id),
          ),
        );
      const taken = new Set(siblings.map((s) => s.name.toLowerCase()));
      const clashes = children.filter((c) => taken.has(c.name.toLowerCase())).map((c) => c.name);
      if (clashes.length > 0)
        throw conflict(NAME_TAKEN, { errorType: 'name_taken', body: { names: clashes } });
      await db
        .update(tags)
        .set({ parentId: current.parentId })
        .where(and(eq(tags.spaceId, current.spaceId), eq(tags.parentId, current.id)));
    }
    await db
      .delete(itemTags)
      .where(and(eq(itemTags.spaceId, current.spaceId), eq(itemTags.tagId, current.id)));
    await db
      .delete(chatTags)
      .where(and(eq(chatTags.spaceId, current.spaceId), eq(chatTags.tagId, current.id)));
    await db.delete(tags).where(and(eq(tags.id, current.id), eq(tags.spaceId, current.spaceId)));
    await audit(db, by, {
      spaceId: current.spaceId,
      kind: 'tag.deleted',
      target: { type: 'tag', id: current.id, label: current.name },
      before: tagFields(current),
    });
    return children.map((c) => c.id);
  });
  await publishTagsChanged(deps.bus, tag.spaceId, [tag.id, ...moved], performedBy);
  return { moved };
}

// ---------------------------------------------------------------- tag groups

export async function getTagGroup(db: Db, id: number): Promise<TagGroupRow | undefined> {
  const [row] = await db.select().from(tagGroups).where(eq(tagGroups.id, id)).limit(1);
  return row;
}

export async function findTagGroups(db: Db, spaceIds: number[]): Promise<TagGroupRow[]> {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(tagGroups)
    .where(inArray(tagGroups.spaceId, spaceIds))
    .orderBy(asc(tagGroups.name), asc(tagGroups.id));
}

async function assertGroupNameFree(db: Db, spaceId: number, name: string, exceptId?: number) {
  const [row] = await db
    .select({ id: tagGroups.id })
    .from(tagGroups)
    .where(
      and(
        eq(tagGroups.spaceId, spaceId),
        sameName(tagGroups.name, name),
        exceptId === undefined ? undefined : ne(tagGroups.id, exceptId),
      ),
    )
    .limit(1);
  if (row) throw badRequest(NAME_TAKEN, { errorType: 'name_taken', fields: { name: NAME_TAKEN } });
}

async function publishGroupsChanged(bus: EventBus, spaceId: number, ids: number[], performedBy: number) {
  await bus.publish({ type: 'tag_groups.changed', spaceId, payload: { ids }, cause: byUser(performedBy) });
}

export async function createTagGroup(
  deps: TagsDeps,
  input: { spaceId: number; name: string; performedBy: number; by?: AuditActor },
): Promise<TagGroupRow> {
  const row = await deps.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await lockSpace(db, LOCK_TAG_GROUPS, input.spaceId);
    await assertGroupNameFree(db, input.spaceId, input.name);
    const [created] = await db
      .insert(tagGroups)
      .values({ spaceId: input.spaceId, name: input.name })
      .returning();
    await audit(db, input.by ?? { userId: input.performedBy }, {
      spaceId: input.spaceId,
      kind: 'tag_group.created',
      target: { type: 'tag_group', id: created!.id, label: created!.name },
      after: { name: created!.name },
    });
    return created!;
  });
  await publishGroupsChanged(deps.bus, row.spaceId, [row.id], input.performedBy);
  return row;
}

export async function updateTagGroup(
  deps: TagsDeps,
  group: TagGroupRow,
  patch: { name: string },
  performedBy: number,
  by: AuditActor = { userId: performedBy },
): Promise<TagGroupRow> {
  const row = await deps.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await lockSpace(db, LOCK_TAG_GROUPS, group.spaceId);
    await assertGroupNameFree(db, group.spaceId, patch.name, group.id);
    const [updated] = await db
      .update(tagGroups)
      .set({ name: patch.name })
      .where(and(eq(tagGroups.id, group.id), eq(tagGroups.spaceId, group.spaceId)))
      .returning();
    if (!updated) throw notFound(); // deleted meanwhile
    if (updated.name !== group.name)
      await audit(db, by, {
        spaceId: group.spaceId,
        kind: 'tag_group.updated',
        target: { type: 'tag_group', id: group.id, label: updated.name },
        before: { name: group.name },
        after: { name: updated.name },
      });
    return updated;
  });
  await publishGroupsChanged(deps.bus, row.spaceId, [row.id], performedBy);
  return row;
}

/** Deletes a group; its tags stay, ungrouped. */
export async function deleteTagGroup(
  deps: TagsDeps,
  group: TagGroupRow,
  performedBy: number,
  by: AuditActor = { userId: performedBy },
) {
  const ungrouped = await deps.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    // The tags lock: a tag being created or moved into this group waits, then sees it gone.
    await lockSpace(db, LOCK_TAGS, group.spaceId);
    // The foreign key would set group_id to null too; doing it here tells us which tags changed.
    const rows = await db
      .update(tags)
      .set({ groupId: null })
      .where(and(eq(tags.spaceId, group.spaceId), eq(tags.groupId, group.id)))
      .returning({ id: tags.id });
    await db.delete(tagGroups).where(and(eq(tagGroups.id, group.id), eq(tagGroups.spaceId, group.spaceId)));
    await audit(db, by, {
      spaceId: group.spaceId,
      kind: 'tag_group.deleted',
      target: { type: 'tag_group', id: group.id, label: group.name },
      before: { name: group.name },
    });
    return rows.map((r) => r.id);
  });
  await publishGroupsChanged(deps.bus, group.spaceId, [group.id], performedBy);
  if (ungrouped.length > 0) await publishTagsChanged(deps.bus, group.spaceId, ungrouped, performedBy);
}
