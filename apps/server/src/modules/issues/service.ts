import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AuditKind,
  type CreateIssueBody,
  type createIssueBody,
  ISSUE_ATTACHMENT_MAX_BYTES,
  ISSUE_ATTACHMENT_TYPES,
  ISSUE_OPEN_STATUSES,
  ISSUE_STATUSES,
  type IssueAttachmentDto,
  type IssueListQuery,
  type IssueStatusName,
  type issueListQuery,
  type Locale,
  translate,
  type UpdateIssueBody,
  type UserSettings,
  userSettingsSchema,
} from '@otklik/shared';
import { and, asc, desc, eq, gte, ilike, inArray, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import {
  authors,
  chats,
  departments,
  issueComments,
  issueHistory,
  issueLinks,
  issues,
  items,
  memberships,
  objects,
  spaces,
  users,
} from '../../db/schema';
import type { IssueAttachment, IssueLinkKind } from '../../db/schema/issues';
import { AppError } from '../../http/errors';
import { taskClock } from '../../lib/clock';
import type { EventBus } from '../../realtime/bus';
import { audit } from '../audit/record';
import { type UploadRules, uploadsDir } from '../inbox/actions/uploads';
import { getScopedChat, getScopedItem } from '../inbox/scope';
import { notify as notifyThrough } from '../notifications/service';
import type { ServerActor } from '../spaces/actor';
import { type IssueScope, scopeIssues } from './policy';

export type IssueRow = typeof issues.$inferSelect;
type Input = z.output<typeof createIssueBody>;

export interface IssueDeps {
  db: Db;
  bus: EventBus;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

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
  body: { statuses: string[]; assigned_to: number | null },
) {
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

// ---------------------------------------------------------------- comment files

/** A task's comment files: the app's upload store (inbox/actions/uploads.ts), a folder per space. */
export function issueUploadRules(spaceId: number): UploadRules {
  return {
    folder: join('issues', String(spaceId)),
    types: ISSUE_ATTACHMENT_TYPES,
    maxBytes: () => ISSUE_ATTACHMENT_MAX_BYTES,
    unsupportedKey: 'issues.attachment.unsupportedType',
    tooLargeKey: 'issues.attachment.tooLarge',
  };
}

const STORED_NAME = /^[A-Za-z0-9_-]{16,64}\.([a-z0-9]{2,5})$/;
export const attachmentUrl = (issueId: number, file: string) => `/v1/issues/${issueId}/attachments/${file}`;

/** The comment's files must be uploads of this task's space; they are described from disk. */
async function resolveIssueFiles(
  config: Config,
  row: Pick<IssueRow, 'id' | 'spaceId'>,
  list: Array<{ file: string; name?: string }>,
): Promise<IssueAttachment[]> {
  const rules = issueUploadRules(row.spaceId);
  const out: IssueAttachment[] = [];
  for (const entry of list) {
    const match = STORED_NAME.exec(entry.file);
    const mime = match ? Object.entries(rules.types).find(([, ext]) => ext === match[1])?.[0] : undefined;
    const size = mime
      ? await stat(join(uploadsDir(config), rules.folder!, entry.file)).then(
          (s) => s.size,
          () => null,
        )
      : null;
    if (!mime || size === null)
      throw new AppError(400, 'issues.attachment.invalid', {
        fields: { attachments: 'issues.attachment.invalid' },
      });
    out.push({
      url: attachmentUrl(row.id, entry.file),
      name: entry.name || entry.file,
      file: entry.file,
      mime,
      size,
    });
  }
  return out;
}

/** The file when a comment of this task carries it (another task's or space's file is not found). */
export async function findIssueFile(
  db: Db,
  issueId: number,
  file: string,
): Promise<IssueAttachmentDto | null> {
  if (!STORED_NAME.test(file)) return null;
  const [row] = await db
    .select({ attachments: issueComments.attachments })
    .from(issueComments)
    .where(
      and(
        eq(issueComments.issueId, issueId),
        sql`${issueComments.attachments} @> ${JSON.stringify([{ file }])}::jsonb`,
      ),
    )
    .limit(1);
  const found = row?.attachments.find((a) => a.file === file);
  return found ? { url: found.url, name: found.name, mime: found.mime, size: found.size } : null;
}

/** Tells the space's open browsers that a task changed: lists and the top-bar counters reload. */
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

export type { CreateIssueBody, IssueListQuery };
