import type { MessageKey } from '@otklik/shared';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authorLabels, type authors, labels } from '../../db/schema';
import { badRequest, notFound } from '../../lib/errors';
import type { EventBus } from '../../realtime/bus';
import { type AuditActor, audit, changedFields } from '../audit/record';

// Settings → author labels (docs/product/screens-and-routes.md labels (new, {id}, {id}/authors)) and putting labels on an author.
// The callers have checked who may; these functions keep every id inside the label's or author's space.
// Names are unique per space, case-insensitively, under a per-space lock.

export interface LabelsDeps {
  db: Db;
  bus: EventBus;
}

type LabelRow = typeof labels.$inferSelect;
type AuthorRow = typeof authors.$inferSelect;

const LOCK_LABELS = 724_310_102;
const NAME_TAKEN: MessageKey = 'labels.nameTaken';

const byUser = (userId: number) => ({ kind: 'user' as const, id: userId });

async function publishLabelsChanged(bus: EventBus, spaceId: number, ids: number[], performedBy: number) {
  await bus.publish({ type: 'labels.changed', spaceId, payload: { ids }, cause: byUser(performedBy) });
}

async function publishAuthorsChanged(bus: EventBus, spaceId: number, ids: number[], performedBy: number) {
  if (ids.length === 0) return;
  await bus.publish({ type: 'authors.changed', spaceId, payload: { ids }, cause: byUser(performedBy) });
}

export async function getLabel(db: Db, id: number): Promise<LabelRow | undefined> {
  const [row] = await db.select().from(labels).where(eq(labels.id, id)).limit(1);
  return row;
}

export async function findLabels(db: Db, spaceIds: number[]): Promise<LabelRow[]> {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(labels)
    .where(inArray(labels.spaceId, spaceIds))
    .orderBy(asc(labels.name), asc(labels.id));
}

async function assertNameFree(db: Db, spaceId: number, name: string, exceptId?: number) {
  const [row] = await db
    .select({ id: labels.id })
    .from(labels)
    .where(
      and(
        eq(labels.spaceId, spaceId),
        sql`lower(${labels.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(labels.id, exceptId),
      ),
    )
    .limit(1);
  if (row) throw badRequest(NAME_TAKEN, { errorType: 'name_taken', fields: { name: NAME_TAKEN } });
}

async function inLabelsLock<T>(deps: LabelsDeps, spaceId: number, work: (db: Db) => Promise<T>): Promise<T> {
  return deps.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    await db.execute(sql`SELECT pg_advisory_xact_lock(${LOCK_LABELS}::int, ${spaceId}::int)`);
    return work(db);
  });
}

export async function createLabel(
  deps: LabelsDeps,
  input: { spaceId: number; name: string; color?: string | null; performedBy: number; by?: AuditActor },
): Promise<LabelRow> {
  const row = await inLabelsLock(deps, input.spaceId, async (db) => {
    await assertNameFree(db, input.spaceId, input.name);
    const [created] = await db
      .insert(labels)
      .values({ spaceId: input.spaceId, name: input.name, color: input.color ?? null })
      .returning();
    await audit(db, input.by ?? { userId: input.performedBy }, {
      spaceId: input.spaceId,
      kind: 'label.created',
      target: { type: 'label', id: created!.id, label: created!.name },
      after: { name: created!.name, color: created!.color },
    });
    return created!;
  });
  await publishLabelsChanged(deps.bus, row.spaceId, [row.id], input.performedBy);
  return row;
}

export async function updateLabel(
  deps: LabelsDeps,
  label: LabelRow,
  patch: { name?: string; color?: string | null },
  performedBy: number,
  by: AuditActor = { userId: performedBy },
): Promise<LabelRow> {
  const row = await inLabelsLock(deps, label.spaceId, async (db) => {
    if (patch.name !== undefined) await assertNameFree(db, label.spaceId, patch.name, label.id);
    const [updated] = await db
      .update(labels)
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.color !== undefined ? { color: patch.color } : {}),
      })
      .where(and(eq(labels.id, label.id), eq(labels.spaceId, label.spaceId)))
      .returning();
    if (!updated) throw notFound(); // deleted meanwhile
    const changes = changedFields(
      { name: label.name, color: label.color },
      { name: updated.name, color: updated.color },
    );
    if (Object.keys(changes.after).length > 0)
      await audit(db, by, {
        spaceId: label.spaceId,
        kind: 'label.updated',
        target: { type: 'label', id: label.id, label: updated.name },
        ...changes,
      });
    return updated;
  });
  await publishLabelsChanged(deps.bus, row.spaceId, [row.id], performedBy);
  return row;
}

/** Deletes a label and takes it off every author (author_labels has no foreign key to labels). */
export async function deleteLabel(
  deps: LabelsDeps,
  label: LabelRow,
  performedBy: number,
  by: AuditActor = { userId: performedBy },
): Promise<void> {
  const unlabelled = await inLabelsLock(deps, label.spaceId, async (db) => {
    const rows = await db
      .delete(authorLabels)
      .where(and(eq(authorLabels.spaceId, label.spaceId), eq(authorLabels.labelId, label.id)))
      .returning({ authorId: authorLabels.authorId });
    await db.delete(labels).where(and(eq(labels.id, label.id), eq(labels.spaceId, label.spaceId)));
    await audit(db, by, {
      spaceId: label.spaceId,
      kind: 'label.deleted',
      target: { type: 'label', id: label.id, label: label.name },
      before: { name: label.name, color: label.color },
    });
    return rows.map((r) => r.authorId);
  });
  await publishLabelsChanged(deps.bus, label.spaceId, [label.id], performedBy);
  await publishAuthorsChanged(deps.bus, label.spaceId, unlabelled, performedBy);
}

/**
 * Replaces the author's labels with `labelIds` (400 naming label_ids unless every one is a label of the
 * author's space). Returns the new set, ascending.
 */
export async function setAuthorLabels(
  deps: LabelsDeps,
  author: AuthorRow,
  labelIds: number[],
  performedBy: number,
): Promise<number[]> {
  const wanted = [...new Set(labelIds)].sort((a, b) => a - b);
  const result = await inLabelsLock(deps, author.spaceId, async (db) => {
    const found =
      wanted.length === 0
        ? []
        : await db
            .select({ id: labels.id })
            .from(labels)
            .where(and(eq(labels.spaceId, author.spaceId), inArray(labels.id, wanted)));
    if (found.length !== wanted.length) {
      throw badRequest('field.invalid', { errorType: 'validation', fields: { label_ids: 'field.invalid' } });
    }
    await db.delete(authorLabels).where(eq(authorLabels.authorId, author.id));
    if (wanted.length > 0) {
      await db
        .insert(authorLabels)
        .values(wanted.map((labelId) => ({ authorId: author.id, labelId, spaceId: author.spaceId })));
    }
    return wanted;
  });
  await publishAuthorsChanged(deps.bus, author.spaceId, [author.id], performedBy);
  return result;
}
