import {
  type AuthorFact,
  FACT_LIMITS,
  type FactDefinition,
  type FactKind,
  isMessageKey,
  normalizeFactValue,
} from '@otklik/shared';
import { and, asc, count, eq, inArray, max } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authorFacts, customFacts } from '../../db/schema';
import { isUniqueViolation } from '../../db/sqlstate';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { type AuditActor, audit, changedFields } from '../audit/record';

// Custom fields of authors: definitions per space (Settings → Custom fields) and each author's values
// (the author page). A value is checked against its field's kind and stored in canonical form.

type FactRow = typeof customFacts.$inferSelect;

export function presentFact(row: FactRow): FactDefinition {
  return {
    id: row.id,
    space_id: row.spaceId,
    name: row.name,
    kind: row.kind as FactKind,
    options: row.options,
    position: row.position,
  };
}

export async function findFacts(db: Db, spaceIds: number[]): Promise<FactRow[]> {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(customFacts)
    .where(inArray(customFacts.spaceId, spaceIds))
    .orderBy(asc(customFacts.spaceId), asc(customFacts.position), asc(customFacts.id));
}

export async function getFact(db: Db, id: number): Promise<FactRow> {
  const [row] = await db.select().from(customFacts).where(eq(customFacts.id, id)).limit(1);
  if (!row) throw notFound('fact.notFound');
  return row;
}

/** A unique-name violation (the case-insensitive index) is the user's "name taken". */
const nameTaken = () => badRequest('fact.name.taken', { fields: { name: 'fact.name.taken' } });

const uniqueOptions = (options: string[] | undefined) => [...new Set(options ?? [])];

export async function createFact(
  db: Db,
  input: { spaceId: number; name: string; kind: FactKind; options?: string[] },
  by?: AuditActor,
): Promise<FactRow> {
  const [stats] = await db
    .select({ n: count(), last: max(customFacts.position) })
    .from(customFacts)
    .where(eq(customFacts.spaceId, input.spaceId));
  if ((stats?.n ?? 0) >= FACT_LIMITS.perSpace)
    throw badRequest('fact.limit', { params: { limit: FACT_LIMITS.perSpace } });
  try {
    return await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const [row] = await tx
        .insert(customFacts)
        .values({
          spaceId: input.spaceId,
          name: input.name,
          kind: input.kind,
          options: input.kind === 'select' ? uniqueOptions(input.options) : [],
          position: (stats?.last ?? -1) + 1,
        })
        .returning();
      await audit(tx, by, {
        spaceId: input.spaceId,
        kind: 'fact.created',
        target: factTarget(row!),
        after: { name: row!.name, kind: row!.kind, options: row!.options },
      });
      return row!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

/**
 * Renames a field or changes a select's options. The kind never changes (stored values are in its
 * form); values no longer among a select's options are removed with the change.
 */
export async function updateFact(
  db: Db,
  fact: FactRow,
  changes: { name?: string; options?: string[] },
  by?: AuditActor,
): Promise<FactRow> {
  const set: Partial<FactRow> = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.options !== undefined && fact.kind === 'select') {
    const options = uniqueOptions(changes.options);
    if (options.length === 0)
      throw badRequest('fact.options.required', { fields: { options: 'fact.options.required' } });
    set.options = options;
  }
  if (Object.keys(set).length === 0) throw badRequest('update.empty');
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.update(customFacts).set(set).where(eq(customFacts.id, fact.id)).returning();
      if (set.options) {
        const stale = (
          await tx
            .select({ authorId: authorFacts.authorId, value: authorFacts.value })
            .from(authorFacts)
            .where(eq(authorFacts.factId, fact.id))
        ).filter((v) => !set.options!.includes(v.value));
        if (stale.length > 0)
          await tx.delete(authorFacts).where(
            and(
              eq(authorFacts.factId, fact.id),
              inArray(
                authorFacts.authorId,
                stale.map((v) => v.authorId),
              ),
            ),
          );
      }
      const diff = changedFields(
        { name: fact.name, options: fact.options },
        { name: row!.name, options: row!.options },
      );
      if (Object.keys(diff.after).length > 0)
        await audit(tx as unknown as Db, by, {
          spaceId: fact.spaceId,
          kind: 'fact.updated',
          target: factTarget(row!),
          ...diff,
        });
      return row!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

export async function deleteFact(db: Db, fact: FactRow, by?: AuditActor): Promise<void> {
  await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    await tx.delete(customFacts).where(eq(customFacts.id, fact.id));
    await audit(tx, by, {
      spaceId: fact.spaceId,
      kind: 'fact.deleted',
      target: factTarget(fact),
      before: { name: fact.name, kind: fact.kind, options: fact.options },
    });
  });
}

const factTarget = (f: FactRow) => ({ type: 'fact', id: f.id, label: f.name });

/** Every field of the author's space with the author's value (null when not filled in). */
export async function findAuthorFacts(
  db: Db,
  author: { id: number; spaceId: number },
): Promise<AuthorFact[]> {
  const [facts, values] = await Promise.all([
    findFacts(db, [author.spaceId]),
    db.select().from(authorFacts).where(eq(authorFacts.authorId, author.id)),
  ]);
  const byFact = new Map(values.map((v) => [v.factId, v.value]));
  return facts.map((f) => ({
    fact_id: f.id,
    name: f.name,
    kind: f.kind as FactKind,
    options: f.options,
    value: byFact.get(f.id) ?? null,
  }));
}

/**
 * Sets (or clears, with null or '') the author's values of the named fields, all or nothing: a field of
 * another space is "not found", a value that does not fit its field answers with the field's message.
 */
export async function setAuthorFacts(
  db: Db,
  author: { id: number; spaceId: number },
  values: Record<string, string | null>,
  userId: number,
): Promise<AuthorFact[]> {
  const ids = Object.keys(values).map(Number);
  if (ids.length === 0) throw badRequest('update.empty');
  const facts = await db.select().from(customFacts).where(inArray(customFacts.id, ids));
  const byId = new Map(facts.filter((f) => f.spaceId === author.spaceId).map((f) => [f.id, f]));
  const upserts: Array<{ factId: number; value: string }> = [];
  const clears: number[] = [];
  const fieldErrors: Record<string, string> = {};
  for (const [key, raw] of Object.entries(values)) {
    const fact = byId.get(Number(key));
    if (!fact) throw notFound('fact.notFound');
    if (raw === null || raw.trim() === '') {
      clears.push(fact.id);
      continue;
    }
    const result = normalizeFactValue(fact.kind as FactKind, raw, fact.options);
    if ('error' in result) fieldErrors[key] = isMessageKey(result.error) ? result.error : 'field.invalid';
    else upserts.push({ factId: fact.id, value: result.value });
  }
  const firstError = Object.values(fieldErrors)[0];
  if (firstError)
    throw new AppError(400, firstError as never, { fields: fieldErrors, errorType: 'validation' });
  await db.transaction(async (tx) => {
    if (clears.length > 0)
      await tx
        .delete(authorFacts)
        .where(and(eq(authorFacts.authorId, author.id), inArray(authorFacts.factId, clears)));
    for (const { factId, value } of upserts) {
      await tx
        .insert(authorFacts)
        .values({ authorId: author.id, factId, value, updatedBy: userId })
        .onConflictDoUpdate({
          target: [authorFacts.authorId, authorFacts.factId],
          set: { value, updatedBy: userId, updatedAt: new Date() },
        });
    }
  });
  return findAuthorFacts(db, author);
}
