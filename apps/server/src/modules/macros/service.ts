import type { MacroAction } from '@otklik/shared';
import { and, asc, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { macros } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type AuditActor, audit } from '../audit/record';
import { assertActionRefs } from './refs';

// Macros (issue 16): CRUD, the shortcut rule and usage counts. Callers have authorized the actor
// (policy.ts). Running one is runner.ts.

type Row = typeof macros.$inferSelect;

export async function getMacro(db: Db, id: number): Promise<Row | undefined> {
  const [row] = await db.select().from(macros).where(eq(macros.id, id)).limit(1);
  return row;
}

/** The space macros of `spaceIds` and the user's own personal ones there, in their list order. */
export async function listMacros(db: Db, spaceIds: number[], userId: number): Promise<Row[]> {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(macros)
    .where(and(inArray(macros.spaceId, spaceIds), or(isNull(macros.userId), eq(macros.userId, userId))))
    .orderBy(asc(macros.sortOrder), asc(macros.name), asc(macros.id));
}

export interface MacroInput {
  name: string;
  actions: MacroAction[];
  shortcut: number | null;
  sort_order: number;
}

/**
 * A key runs one macro: among what one user sees in a space (the space's macros and their own), no two
 * share it. A space macro's key is checked against the space's macros and every personal one there.
 */
async function assertShortcutFree(
  db: Db,
  spaceId: number,
  ownerId: number | null,
  shortcut: number | null | undefined,
  exceptId?: number,
) {
  if (shortcut == null) return;
  const [taken] = await db
    .select({ id: macros.id })
    .from(macros)
    .where(
      and(
        eq(macros.spaceId, spaceId),
        eq(macros.shortcut, shortcut),
        ownerId === null ? undefined : or(isNull(macros.userId), eq(macros.userId, ownerId)),
        exceptId === undefined ? undefined : ne(macros.id, exceptId),
      ),
    )
    .limit(1);
  if (taken) {
    throw new AppError(400, 'macros.shortcut.taken', {
      errorType: 'validation',
      fields: { shortcut: 'macros.shortcut.taken' },
    });
  }
}

export async function createMacro(
  db: Db,
  spaceId: number,
  ownerId: number | null,
  input: MacroInput,
  createdBy: number,
  by?: AuditActor,
): Promise<Row> {
  await assertShortcutFree(db, spaceId, ownerId, input.shortcut);
  await assertActionRefs(db, spaceId, input.actions);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(macros)
      .values({
        spaceId,
        userId: ownerId,
        createdBy,
        name: input.name,
        actions: input.actions,
        shortcut: input.shortcut,
        sortOrder: input.sort_order,
      })
      .returning();
    await audit(tx, by, {
      spaceId,
      kind: 'macro.created',
      target: { type: 'macro', id: row!.id, label: row!.name },
      after: auditView(row!),
    });
    return row!;
  });
}

/** What the action log keeps of a macro. */
function auditView(row: Row) {
  return { name: row.name, personal: row.userId !== null, actions: row.actions, shortcut: row.shortcut };
}

export async function updateMacro(
  db: Db,
  row: Row,
  input: Partial<MacroInput>,
  by?: AuditActor,
): Promise<Row> {
  await assertShortcutFree(db, row.spaceId, row.userId, input.shortcut, row.id);
  if (input.actions !== undefined) await assertActionRefs(db, row.spaceId, input.actions, row.actions);
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(macros)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.actions !== undefined ? { actions: input.actions } : {}),
        ...(input.shortcut !== undefined ? { shortcut: input.shortcut } : {}),
        ...(input.sort_order !== undefined ? { sortOrder: input.sort_order } : {}),
        updatedAt: new Date(),
      })
      .where(eq(macros.id, row.id))
      .returning();
    await audit(tx, by, {
      spaceId: row.spaceId,
      kind: 'macro.updated',
      target: { type: 'macro', id: row.id, label: updated!.name },
      before: auditView(row),
      after: auditView(updated!),
    });
    return updated!;
  });
}

export async function deleteMacro(db: Db, row: Row, by?: AuditActor): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(macros).where(eq(macros.id, row.id));
    await audit(tx, by, {
      spaceId: row.spaceId,
      kind: 'macro.deleted',
      target: { type: 'macro', id: row.id, label: row.name },
      before: auditView(row),
    });
  });
}

/** A run changed at least one item: one more use (an atomic increment). */
export async function countUse(db: Db, row: Row): Promise<number> {
  const [updated] = await db
    .update(macros)
    .set({ usageCount: sql`${macros.usageCount} + 1` })
    .where(eq(macros.id, row.id))
    .returning({ usageCount: macros.usageCount });
  return updated!.usageCount;
}
