import {
  type AuditKind,
  type CreateIssueBody,
  type createIssueBody,
  ISSUE_OPEN_STATUSES,
  ISSUE_STATUSES,
  type IssueListQuery,
  type IssueSettingsWire,
  type IssueStatusName,
  translate,
  type UpdateIssueBody,
} from '@otklik/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import {
  authors,
  departments,
  issueComments,
  issueHistory,
  issueLinks,
  issues,
  memberships,
  objects,
  spaces,
  users,
} from '../../db/schema';
import type { IssueLinkKind } from '../../db/schema/issues';
import { taskClock } from '../../lib/clock';
import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../realtime/bus';
import { audit } from '../audit/record';
import { getScopedChat, getScopedItem } from '../inbox/read/scope';
import { notify as notifyThrough } from '../notifications/service';
import type { ServerActor } from '../spaces/actor';
import { resolveIssueFiles } from './files';

export type IssueRow = typeof issues.$inferSelect;
type Input = z.output<typeof createIssueBody>;

export interface IssueDeps {
  db: Db;
  bus: EventBus;
}

/** The account and network of each link (validated against the actor's inbox scope). */
async function resolveLinks(db: Db, actor: ServerActor, spaceId: number, links: Input['links']) {
  const out: Array<{
    kind: IssueLinkKind;
    targetId: number;
    objectId: number | null;
    provider: string | null;
  }> = [];
  const seen = new Set<string>();
  for (const link of links) {
    const key = `${link.kind}:${link.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (link.kind === 'item') {
      const row = await getScopedItem(db, actor, link.id, 'items.view');
      if (row.spaceId !== spaceId) throw new AppError(404, 'error.notFound');
      const provider = await providerOf(db, row.objectId);
      out.push({ kind: 'item', targetId: row.id, objectId: row.objectId, provider });
    } else if (link.kind === 'chat') {
      const row = await getScopedChat(db, actor, link.id, 'messages.view');
      if (row.spaceId !== spaceId) throw new AppError(404, 'error.dialogNotFound');
      out.push({
        kind: 'chat',
        targetId: row.id,
        objectId: row.objectId,
        provider: await providerOf(db, row.objectId),
      });
    } else {
      const [row] = await db.select().from(authors).where(eq(authors.id, link.id)).limit(1);
      if (!row || row.spaceId !== spaceId) throw new AppError(404, 'error.notFound');
      out.push({ kind: 'author', targetId: row.id, objectId: null, provider: row.provider });
    }
  }
  return out;
}

async function providerOf(db: Db, objectId: number): Promise<string | null> {
  const [row] = await db.select({ provider: objects.provider }).from(objects).where(eq(objects.id, objectId));
  return row?.provider ?? null;
}

async function assertAssignee(db: Db, spaceId: number, userId: number | null | undefined) {
  if (userId === null || userId === undefined) return;
  const [row] = await db
    .select({ id: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, userId)))
    .limit(1);
  if (!row)
    throw new AppError(400, 'issues.assignee.invalid', {
      fields: { assigned_user_id: 'issues.assignee.invalid' },
    });
}

async function assertDepartment(db: Db, spaceId: number, departmentId: number | null | undefined) {
  if (departmentId === null || departmentId === undefined) return;
  const [row] = await db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.id, departmentId), eq(departments.spaceId, spaceId)))
    .limit(1);
  if (!row)
    throw new AppError(400, 'issues.department.invalid', {
      fields: { department_id: 'issues.department.invalid' },
    });
}

function firstLinkColumns(links: Awaited<ReturnType<typeof resolveLinks>>) {
  const first = links.find((l) => l.objectId !== null) ?? links[0];
  return {
    objectId: first?.objectId ?? null,
    provider: first?.provider ?? null,
    source: links[0]?.kind ?? null,
  };
}

/** settings/issues' default assignee, when still a member of the space. */
async function defaultAssignee(db: Db, spaceId: number): Promise<number | null> {
  const [row] = await db.select({ settings: spaces.settings }).from(spaces).where(eq(spaces.id, spaceId));
  const id = (row?.settings as Record<string, unknown> | undefined)?.issues_assigned_to;
  if (typeof id !== 'number') return null;
  const [member] = await db
    .select({ id: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, id)));
  return member ? id : null;
}

async function spaceSettings(db: Db, spaceId: number): Promise<Record<string, unknown>> {
  const [row] = await db.select({ settings: spaces.settings }).from(spaces).where(eq(spaces.id, spaceId));
  return (row?.settings as Record<string, unknown> | undefined) ?? {};
}

/** The statuses settings/issues turned on for the space (all of them until it is saved). */
export async function allowedStatuses(db: Db, spaceId: number): Promise<IssueStatusName[]> {
  const saved = (await spaceSettings(db, spaceId)).issues_statuses;
  if (!Array.isArray(saved)) return [...ISSUE_STATUSES];
  const known = saved.filter((s): s is IssueStatusName => (ISSUE_STATUSES as readonly string[]).includes(s));
  return known.length > 0 ? known : [...ISSUE_STATUSES];
}

/** A task may only be put into a status its space has on (docs/product/entities.md space flag issues `statuses`). */
async function assertStatus(db: Db, spaceId: number, status: IssueStatusName) {
  if ((await allowedStatuses(db, spaceId)).includes(status)) return;
  throw new AppError(400, 'issues.status.disabled', { fields: { status: 'issues.status.disabled' } });
}

/** The open status a task made without one starts in: `new`, or the first open one the space has on. */
export async function initialStatus(db: Db, spaceId: number): Promise<IssueStatusName> {
  const allowed = await allowedStatuses(db, spaceId);
  if (allowed.includes('new')) return 'new';
  return allowed.find((s) => (ISSUE_OPEN_STATUSES as readonly string[]).includes(s)) ?? 'new';
}

/** Members' names as the action log keeps them (null: nobody). */
async function nameOf(db: Db, userId: number | null | undefined): Promise<string | null> {
  if (userId === null || userId === undefined) return null;
  const [row] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId));
  return row?.name || `#${userId}`;
}

const issueTarget = (row: Pick<IssueRow, 'id' | 'title'>) => ({
  type: 'issue',
  id: row.id,
  label: row.title,
});

/** settings/issues: statuses offered and the default assignee, kept in the space's settings. */
export async function saveIssueSettings(
  db: Db,
  actor: ServerActor,
  spaceId: number,
  body: IssueSettingsWire,
): Promise<IssueSettingsWire> {
  await assertAssignee(db, spaceId, body.assigned_to);
  const current = await spaceSettings(db, spaceId);
  const patch = JSON.stringify({ issues_statuses: body.statuses, issues_assigned_to: body.assigned_to });
  const before = {
    statuses: Array.isArray(current.issues_statuses) ? current.issues_statuses : [...ISSUE_STATUSES],
    assignee: await nameOf(
      db,
      typeof current.issues_assigned_to === 'number' ? current.issues_assigned_to : null,
    ),
  };
  const after = { statuses: body.statuses, assignee: await nameOf(db, body.assigned_to) };
  await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    await tx
      .update(spaces)
      .set({ settings: sql`${spaces.settings} || ${patch}::jsonb` })
      .where(eq(spaces.id, spaceId));
    if (JSON.stringify(before) !== JSON.stringify(after))
      await audit(tx, actor, { spaceId, kind: 'issue.settings', before, after });
  });
  return { statuses: body.statuses, assigned_to: body.assigned_to };
}

export async function createIssue(deps: IssueDeps, actor: ServerActor, input: Input): Promise<IssueRow> {
  const { db } = deps;
  if (input.assigned_user_id === undefined)
    input = { ...input, assigned_user_id: await defaultAssignee(db, input.space_id) };
  await assertStatus(db, input.space_id, input.status);
  await assertAssignee(db, input.space_id, input.assigned_user_id);
  await assertDepartment(db, input.space_id, input.department_id);
  const links = await resolveLinks(db, actor, input.space_id, input.links);
  const now = taskClock.now();
  const assignee = await nameOf(db, input.assigned_user_id);
  const row = await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const [created] = await tx
      .insert(issues)
      .values({
        spaceId: input.space_id,
        title: input.title,
        description: input.description,
        status: input.status,
        priority: input.priority,
        assignedUserId: input.assigned_user_id ?? null,
        departmentId: input.department_id,
        dueAt: input.due_at ? new Date(input.due_at) : null,
        createdBy: actor.userId,
        createdAt: now,
        updatedAt: now,
        closedAt: input.status === 'closed' ? now : null,
        ...firstLinkColumns(links),
      })
      .returning();
    if (links.length > 0)
      await tx.insert(issueLinks).values(
        links.map((l) => ({
          issueId: created!.id,
          spaceId: input.space_id,
          kind: l.kind,
          targetId: l.targetId,
          objectId: l.objectId,
        })),
      );
    await tx.insert(issueHistory).values({
      issueId: created!.id,
      spaceId: input.space_id,
      userId: actor.userId,
      field: 'created',
      before: null,
      after: input.title,
      createdAt: now,
    });
    await audit(tx, actor, {
      spaceId: input.space_id,
      kind: 'issue.created',
      target: issueTarget(created!),
      at: now,
      after: {
        title: created!.title,
        status: created!.status,
        priority: created!.priority,
        assignee,
        due_at: created!.dueAt,
        ...(links.length > 0 ? { links: links.length } : {}),
      },
    });
    return created!;
  });
  await publishChanged(deps, row, actor.userId);
  if (row.assignedUserId !== null && row.assignedUserId !== actor.userId)
    await notify(deps, [row.assignedUserId], row, 'issues.notify.assigned', {});
  return row;
}

const TRACKED = [
  'title',
  'description',
  'status',
  'priority',
  'assigned_user_id',
  'department_id',
  'due_at',
] as const;

const asText = (value: unknown): string | null =>
  value === null || value === undefined ? null : value instanceof Date ? value.toISOString() : String(value);

function currentValue(row: IssueRow, field: (typeof TRACKED)[number]): unknown {
  switch (field) {
    case 'title':
      return row.title;
    case 'description':
      return row.description;
    case 'status':
      return row.status;
    case 'priority':
      return row.priority;
    case 'assigned_user_id':
      return row.assignedUserId;
    case 'department_id':
      return row.departmentId;
    case 'due_at':
      return row.dueAt;
  }
}

export async function updateIssue(
  deps: IssueDeps,
  actor: ServerActor,
  row: IssueRow,
  body: Partial<Input> & UpdateIssueBody,
): Promise<IssueRow> {
  const { db } = deps;
  if (body.status !== undefined && body.status !== row.status)
    await assertStatus(db, row.spaceId, body.status);
  if (body.assigned_user_id !== undefined) await assertAssignee(db, row.spaceId, body.assigned_user_id);
  if (body.department_id !== undefined) await assertDepartment(db, row.spaceId, body.department_id);
  const links = body.links ? await resolveLinks(db, actor, row.spaceId, body.links) : undefined;
  const now = taskClock.now();
  const changes: Array<{ field: string; before: string | null; after: string | null }> = [];
  for (const field of TRACKED) {
    if (!(field in body) || body[field] === undefined) continue;
    const next =
      field === 'due_at' ? (body.due_at ? new Date(body.due_at).toISOString() : null) : asText(body[field]);
    const before = asText(currentValue(row, field));
    if (before !== next) changes.push({ field, before, after: next });
  }
  const set: Partial<typeof issues.$inferInsert> = { updatedAt: now };
  for (const c of changes) {
    if (c.field === 'title') set.title = body.title!;
    if (c.field === 'description') set.description = body.description!;
    if (c.field === 'priority') set.priority = body.priority!;
    if (c.field === 'assigned_user_id') set.assignedUserId = body.assigned_user_id ?? null;
    if (c.field === 'department_id') set.departmentId = body.department_id ?? null;
    if (c.field === 'status') {
      set.status = body.status!;
      set.closedAt = body.status === 'closed' ? now : null;
    }
    if (c.field === 'due_at') {
      set.dueAt = body.due_at ? new Date(body.due_at) : null;
      // A new due moment may be missed again: the due job tells the assignee once more.
      set.dueNotifiedAt = null;
    }
  }
  if (links) Object.assign(set, firstLinkColumns(links));
  // The action log: who took it and its status (before → after), in the change's transaction.
  const logged: Array<{ kind: AuditKind; before: unknown; after: unknown }> = [];
  for (const c of changes) {
    if (c.field === 'assigned_user_id')
      logged.push({
        kind: 'issue.assigned',
        before: { assignee: await nameOf(db, row.assignedUserId) },
        after: { assignee: await nameOf(db, body.assigned_user_id) },
      });
    if (c.field === 'status')
      logged.push({
        kind: body.status === 'closed' ? 'issue.closed' : 'issue.status',
        before: { status: c.before },
        after: { status: c.after },
      });
  }
  const updated = await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const [next] = await tx.update(issues).set(set).where(eq(issues.id, row.id)).returning();
    if (links) {
      await tx.delete(issueLinks).where(eq(issueLinks.issueId, row.id));
      if (links.length > 0)
        await tx.insert(issueLinks).values(
          links.map((l) => ({
            issueId: row.id,
            spaceId: row.spaceId,
            kind: l.kind,
            targetId: l.targetId,
            objectId: l.objectId,
          })),
        );
      changes.push({
        field: 'links',
        before: null,
        after: links.map((l) => `${l.kind}:${l.targetId}`).join(', '),
      });
    }
    if (changes.length > 0)
      await tx.insert(issueHistory).values(
        changes.map((c) => ({
          issueId: row.id,
          spaceId: row.spaceId,
          userId: actor.userId,
          createdAt: now,
          ...c,
        })),
      );
    for (const entry of logged)
      await audit(tx, actor, { spaceId: row.spaceId, target: issueTarget(next!), at: now, ...entry });
    return next!;
  });
  await publishChanged(deps, updated, actor.userId);
  if (
    updated.assignedUserId !== null &&
    updated.assignedUserId !== row.assignedUserId &&
    updated.assignedUserId !== actor.userId
  )
    await notify(deps, [updated.assignedUserId], updated, 'issues.notify.assigned', {});
  return updated;
}

export async function deleteIssue(deps: IssueDeps, actor: ServerActor, row: IssueRow) {
  await deps.db.transaction(async (t) => {
    const tx = t as unknown as Db;
    await tx.delete(issues).where(eq(issues.id, row.id));
    await audit(tx, actor, {
      spaceId: row.spaceId,
      kind: 'issue.deleted',
      target: issueTarget(row),
      before: { title: row.title, status: row.status },
    });
  });
  await publishChanged(deps, row, actor.userId);
}

export async function addComment(
  deps: IssueDeps,
  actor: ServerActor,
  row: IssueRow,
  body: { text: string; mentions: number[]; attachments?: Array<{ file: string; name?: string }> },
  config?: Config,
) {
  const { db } = deps;
  const attachments =
    body.attachments && body.attachments.length > 0
      ? await resolveIssueFiles(config!, row, body.attachments)
      : [];
  // Only members of the task's space can be mentioned; other ids are dropped.
  const mentioned =
    body.mentions.length === 0
      ? []
      : (
          await db
            .select({ id: memberships.userId })
            .from(memberships)
            .where(and(eq(memberships.spaceId, row.spaceId), inArray(memberships.userId, body.mentions)))
        ).map((m) => m.id);
  const members = new Set(mentioned);
  const ordered = [...new Set(body.mentions)].filter((id) => members.has(id));
  const now = taskClock.now();
  const [comment] = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(issueComments)
      .values({
        issueId: row.id,
        spaceId: row.spaceId,
        userId: actor.userId,
        text: body.text,
        mentions: ordered,
        attachments,
        createdAt: now,
      })
      .returning();
    await tx.update(issues).set({ updatedAt: now }).where(eq(issues.id, row.id));
    return inserted;
  });
  await publishChanged(deps, row, actor.userId);
  const others = ordered.filter((id) => id !== actor.userId);
  if (others.length > 0) {
    const [me] = await db.select({ name: users.name }).from(users).where(eq(users.id, actor.userId));
    await notify(deps, others, row, 'issues.notify.mentioned', { name: me?.name ?? '' });
  }
  return comment!;
}

export async function publishChanged(
  deps: IssueDeps,
  row: Pick<IssueRow, 'id' | 'spaceId'>,
  userId: number | null,
) {
  await deps.bus.publish({
    type: 'issues.changed',
    spaceId: row.spaceId,
    payload: { id: row.id },
    cause: userId === null ? { kind: 'system' } : { kind: 'user', id: userId },
  });
}

/**
 * docs/product/api.md `notify` of type `issue` to these users, in each user's language, through the notifications
 * module (issue 18: their notification centre, the socket toast, email by their subscriptions).
 */
export async function notify(
  deps: IssueDeps,
  userIds: number[],
  row: Pick<IssueRow, 'id' | 'spaceId' | 'title' | 'objectId'>,
  key: 'issues.notify.assigned' | 'issues.notify.mentioned' | 'issues.notify.due',
  params: Record<string, string>,
) {
  if (userIds.length === 0) return;
  await notifyThrough(deps, {
    spaceId: row.spaceId,
    userIds,
    event:
      key === 'issues.notify.due'
        ? 'issue_due'
        : key === 'issues.notify.assigned'
          ? 'issue_assigned'
          : 'mention',
    objectId: row.objectId ?? null,
    issueId: row.id,
    content: (locale) => ({ title: row.title, text: translate(locale, key, params) }),
    // docs/product/api.md `issue`: the toast opens the task by its id.
    socket: { type: 'issue', id: row.id },
  });
}

export type { CreateIssueBody, IssueListQuery };
