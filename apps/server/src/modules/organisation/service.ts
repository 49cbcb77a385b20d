import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, departments, memberships, objects, userGroups } from '../../db/schema';
import { badRequest, conflict } from '../../lib/errors';
import type { EventBus } from '../../realtime/bus';
import { assertIdsInSpace, containsId, isSpaceMember, memberIdsOfGroup, withoutId } from './queries';
import { type CompanySettings, type CompanySettingsPatch, companySettingsSchema } from './schemas';

// Settings → companies, departments and user groups (docs/product/screens-and-routes.md, entities.md, roles.md). The callers have checked that
// the actor may manage the space; these functions keep every id inside that space.

export interface OrganisationDeps {
  db: Db;
  bus: EventBus;
}

const byUser = (userId: number) => ({ kind: 'user' as const, id: userId });

/** A company or a department of the space changed: its sockets reload it. */
async function publishChanged(
  bus: EventBus,
  type: 'companies.changed' | 'departments.changed',
  spaceId: number,
  id: number,
  performedBy: number,
) {
  await bus.publish({ type, spaceId, payload: { id }, cause: byUser(performedBy) });
}

/** User groups of the space changed: its sockets reload them. */
async function publishGroupsChanged(bus: EventBus, spaceId: number, ids: number[], performedBy: number) {
  await bus.publish({ type: 'usergroups.changed', spaceId, payload: { ids }, cause: byUser(performedBy) });
}

/** Tells the sockets of members whose visible companies or accounts changed to reload (docs/product/roles.md). */
async function notifyMembers(bus: EventBus, userIds: number[], performedBy: number) {
  if (userIds.length === 0) return;
  await bus.publish({ type: 'memberships.changed', userIds, payload: {}, cause: byUser(performedBy) });
}

// ---------------------------------------------------------------- companies

export async function getCompany(db: Db, id: number) {
  const [row] = await db.select().from(companies).where(eq(companies.id, id)).limit(1);
  return row;
}

async function resolveCompanySettings(
  db: Db,
  spaceId: number,
  current: unknown,
  patch: CompanySettingsPatch | undefined,
): Promise<CompanySettings> {
  const settings = { ...companySettingsSchema.parse(current ?? {}), ...patch };
  // Items can only be assigned to someone who works in the same space.
  if (settings.items_assigned_to != null && !(await isSpaceMember(db, spaceId, settings.items_assigned_to))) {
    throw badRequest('field.invalid', {
      errorType: 'validation',
      fields: { 'settings.items_assigned_to': 'field.invalid' },
    });
  }
  return settings;
}

export async function createCompany(
  deps: OrganisationDeps,
  input: { spaceId: number; name: string; settings?: CompanySettingsPatch; performedBy: number },
) {
  const settings = await resolveCompanySettings(deps.db, input.spaceId, {}, input.settings);
  const [row] = await deps.db
    .insert(companies)
    .values({ spaceId: input.spaceId, name: input.name, settings })
    .returning();
  await publishChanged(deps.bus, 'companies.changed', input.spaceId, row!.id, input.performedBy);
  return row!;
}

export async function updateCompany(
  deps: OrganisationDeps,
  company: typeof companies.$inferSelect,
  patch: { name?: string; settings?: CompanySettingsPatch },
  performedBy: number,
) {
  const settings = await resolveCompanySettings(deps.db, company.spaceId, company.settings, patch.settings);
  const [row] = await deps.db
    .update(companies)
    .set({ ...(patch.name !== undefined ? { name: patch.name } : {}), settings })
    .where(eq(companies.id, company.id))
    .returning();
  await publishChanged(deps.bus, 'companies.changed', company.spaceId, company.id, performedBy);
  return row!;
}

/**
 * Deletes a company. Its accounts and tags stay in the space without a company (the foreign keys set
 * null); user groups drop it from their lists, so a group never points at a company that is gone.
 */
export async function deleteCompany(
  deps: OrganisationDeps,
  company: typeof companies.$inferSelect,
  performedBy: number,
) {
  const { db } = deps;
  const affectedGroups = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const groups = await t
      .update(userGroups)
      .set({ companyIds: withoutId(userGroups.companyIds, company.id) })
      .where(and(eq(userGroups.spaceId, company.spaceId), containsId(userGroups.companyIds, company.id)))
      .returning({ id: userGroups.id });
    await t.delete(companies).where(eq(companies.id, company.id));
    return groups.map((g) => g.id);
  });
  await publishChanged(deps.bus, 'companies.changed', company.spaceId, company.id, performedBy);
  if (affectedGroups.length > 0) {
    await publishGroupsChanged(deps.bus, company.spaceId, affectedGroups, performedBy);
    const userIds = await groupMembers(db, company.spaceId, affectedGroups);
    await notifyMembers(deps.bus, userIds, performedBy);
  }
}

async function groupMembers(db: Db, spaceId: number, groupIds: number[]): Promise<number[]> {
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.spaceId, spaceId), inArray(memberships.groupId, groupIds)));
  return rows.map((r) => r.userId);
}

// ---------------------------------------------------------------- departments

export async function findDepartments(db: Db, spaceIds: number[]) {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(departments)
    .where(inArray(departments.spaceId, spaceIds))
    .orderBy(asc(departments.spaceId), asc(departments.name), asc(departments.id));
}

export async function getDepartment(db: Db, id: number) {
  const [row] = await db.select().from(departments).where(eq(departments.id, id)).limit(1);
  return row;
}

export async function createDepartment(
  deps: OrganisationDeps,
  input: { spaceId: number; name: string; performedBy: number },
) {
  const [row] = await deps.db
    .insert(departments)
    .values({ spaceId: input.spaceId, name: input.name })
    .returning();
  await publishChanged(deps.bus, 'departments.changed', input.spaceId, row!.id, input.performedBy);
  return row!;
}

export async function updateDepartment(
  deps: OrganisationDeps,
  department: typeof departments.$inferSelect,
  patch: { name: string },
  performedBy: number,
) {
  const [row] = await deps.db
    .update(departments)
    .set({ name: patch.name })
    .where(eq(departments.id, department.id))
    .returning();
  await publishChanged(deps.bus, 'departments.changed', department.spaceId, department.id, performedBy);
  return row!;
}

/** Deletes a department and takes it out of every membership that listed it. */
export async function deleteDepartment(
  deps: OrganisationDeps,
  department: typeof departments.$inferSelect,
  performedBy: number,
) {
  const affected = await deps.db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const rows = await t
      .update(memberships)
      .set({ departmentIds: withoutId(memberships.departmentIds, department.id) })
      .where(
        and(
          eq(memberships.spaceId, department.spaceId),
          containsId(memberships.departmentIds, department.id),
        ),
      )
      .returning({ userId: memberships.userId });
    await t.delete(departments).where(eq(departments.id, department.id));
    return rows.map((r) => r.userId);
  });
  await publishChanged(deps.bus, 'departments.changed', department.spaceId, department.id, performedBy);
  await notifyMembers(deps.bus, affected, performedBy);
}

// ---------------------------------------------------------------- user groups

export async function getUserGroup(db: Db, id: number) {
  const [row] = await db.select().from(userGroups).where(eq(userGroups.id, id)).limit(1);
  return row;
}

async function groupScope(db: Db, spaceId: number, input: { companyIds?: number[]; objectIds?: number[] }) {
  return {
    ...(input.companyIds !== undefined
      ? { companyIds: await assertIdsInSpace(db, companies, spaceId, input.companyIds, 'company_ids') }
      : {}),
    ...(input.objectIds !== undefined
      ? { objectIds: await assertIdsInSpace(db, objects, spaceId, input.objectIds, 'object_ids') }
      : {}),
  };
}

export async function createUserGroup(
  deps: OrganisationDeps,
  input: { spaceId: number; name: string; companyIds: number[]; objectIds: number[]; performedBy: number },
) {
  const scope = await groupScope(deps.db, input.spaceId, input);
  const [row] = await deps.db
    .insert(userGroups)
    .values({ spaceId: input.spaceId, name: input.name, ...scope })
    .returning();
  await publishGroupsChanged(deps.bus, input.spaceId, [row!.id], input.performedBy);
  return row!;
}

export async function updateUserGroup(
  deps: OrganisationDeps,
  group: typeof userGroups.$inferSelect,
  patch: { name?: string; companyIds?: number[]; objectIds?: number[] },
  performedBy: number,
) {
  const scope = await groupScope(deps.db, group.spaceId, patch);
  const [row] = await deps.db
    .update(userGroups)
    .set({ ...(patch.name !== undefined ? { name: patch.name } : {}), ...scope })
    .where(eq(userGroups.id, group.id))
    .returning();
  await publishGroupsChanged(deps.bus, group.spaceId, [group.id], performedBy);
  if (patch.companyIds !== undefined || patch.objectIds !== undefined) {
    await notifyMembers(deps.bus, await memberIdsOfGroup(deps.db, group.spaceId, group.id), performedBy);
  }
  return row!;
}

/**
 * Deletes a user group that nobody is in. A group limits what its members see (docs/product/roles.md); deleting it
 * under them would silently widen their access to the whole space, so the administrator moves them
 * first (409 group_in_use).
 */
export async function deleteUserGroup(
  deps: OrganisationDeps,
  group: typeof userGroups.$inferSelect,
  performedBy: number,
) {
  await deps.db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    // The row lock makes a concurrent assignment to this group (modules/users) wait for us.
    await t.select({ id: userGroups.id }).from(userGroups).where(eq(userGroups.id, group.id)).for('update');
    const members = await memberIdsOfGroup(t, group.spaceId, group.id);
    if (members.length > 0) {
      throw conflict('usergroups.inUse', { errorType: 'group_in_use', body: { members: members.length } });
    }
    await t.delete(userGroups).where(eq(userGroups.id, group.id));
  });
  await publishGroupsChanged(deps.bus, group.spaceId, [group.id], performedBy);
}
