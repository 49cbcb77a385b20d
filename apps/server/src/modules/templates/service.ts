import {
  createTemplateBody,
  renderTemplateText,
  TEMPLATE_CSV_COLUMNS,
  type TemplateDto,
  templateDate,
  templateFormSchema,
  templateTextFor,
} from '@otklik/shared';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authors, chats, items, objects, replyTemplates, users } from '../../db/schema';
import { badRequest, notFound } from '../../lib/errors';
import { type AuditActor, audit, changedFields } from '../audit/record';

// Reply templates (issue 16): CRUD, usage counts, rendering for a conversation, CSV import/export.
// Callers have authorized the actor (policy.ts); these functions keep ids inside the given spaces.

type Row = typeof replyTemplates.$inferSelect;

export async function getTemplate(db: Db, id: number): Promise<Row | undefined> {
  const [row] = await db.select().from(replyTemplates).where(eq(replyTemplates.id, id)).limit(1);
  return row;
}

/** The space templates of `spaceIds` and the user's own personal ones there, by folder and title. */
export async function listTemplates(db: Db, spaceIds: number[], userId: number): Promise<Row[]> {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(replyTemplates)
    .where(
      and(
        inArray(replyTemplates.spaceId, spaceIds),
        or(isNull(replyTemplates.userId), eq(replyTemplates.userId, userId)),
      ),
    )
    .orderBy(asc(replyTemplates.folder), asc(replyTemplates.title), asc(replyTemplates.id));
}

export interface TemplateInput {
  title: string;
  text: string;
  folder: string;
  variants: Record<string, string>;
  variables: Array<{ name: string; default: string }>;
}

export async function createTemplate(
  db: Db,
  spaceId: number,
  ownerId: number | null,
  input: TemplateInput,
  createdBy: number,
  by: AuditActor = { userId: createdBy },
): Promise<Row> {
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const [row] = await tx
      .insert(replyTemplates)
      .values({ spaceId, userId: ownerId, createdBy, ...input })
      .returning();
    await audit(tx, by, {
      spaceId,
      kind: 'template.created',
      target: templateTarget(row!),
      after: { ...templateFields(row!), personal: ownerId !== null },
    });
    return row!;
  });
}

const templateFields = (r: Row) => ({
  title: r.title,
  folder: r.folder,
  text: r.text,
  variants: r.variants,
  variables: r.variables,
});
const templateTarget = (r: Row) => ({ type: 'template', id: r.id, label: r.title });

export async function updateTemplate(
  db: Db,
  row: Row,
  input: Partial<TemplateInput>,
  by?: AuditActor,
): Promise<Row> {
  return db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const [updated] = await tx
      .update(replyTemplates)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(replyTemplates.id, row.id))
      .returning();
    const changes = changedFields(templateFields(row), templateFields(updated!));
    if (Object.keys(changes.after).length > 0)
      await audit(tx, by, {
        spaceId: row.spaceId,
        kind: 'template.updated',
        target: templateTarget(updated!),
        ...changes,
      });
    return updated!;
  });
}

export async function deleteTemplate(db: Db, row: Row, by?: AuditActor): Promise<void> {
  await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    await tx.delete(replyTemplates).where(eq(replyTemplates.id, row.id));
    await audit(tx, by, {
      spaceId: row.spaceId,
      kind: 'template.deleted',
      target: templateTarget(row),
      before: templateFields(row),
    });
  });
}

/** A reply made from the template was sent: one more use (an atomic increment, no lost updates). */
export async function countUse(db: Db, row: Row): Promise<number> {
  const [updated] = await db
    .update(replyTemplates)
    .set({ usageCount: sql`${replyTemplates.usageCount} + 1` })
    .where(eq(replyTemplates.id, row.id))
    .returning({ usageCount: replyTemplates.usageCount });
  return updated!.usageCount;
}

// ---------------------------------------------------------------- rendering

export interface RenderTarget {
  itemId?: number;
  chatId?: number;
}

/** Built-in values for a comment or chat of the template's space (404 for one outside it). */
async function conversationValues(db: Db, spaceId: number, target: RenderTarget) {
  const table = target.itemId !== undefined ? items : chats;
  const id = target.itemId ?? target.chatId;
  if (id === undefined) return { author_name: null, account: null, provider: null };
  const [row] = await db
    .select({ author: authors.name, account: objects.name, provider: objects.provider })
    .from(table)
    .innerJoin(objects, eq(objects.id, table.objectId))
    .leftJoin(authors, eq(authors.id, table.authorId))
    .where(and(eq(table.id, id), eq(table.spaceId, spaceId)))
    .limit(1);
  if (!row) throw notFound();
  return { author_name: row.author, account: row.account, provider: row.provider };
}

export async function renderTemplate(
  db: Db,
  row: Row,
  target: RenderTarget & { operatorId: number; locale: string; now: Date; provider?: string },
) {
  const values = await conversationValues(db, row.spaceId, target);
  const [operator] = await db.select({ name: users.name }).from(users).where(eq(users.id, target.operatorId));
  const provider = target.provider ?? values.provider;
  const text = renderTemplateText(
    templateTextFor(row, provider),
    {
      author_name: values.author_name,
      account: values.account,
      operator_name: operator?.name,
      date: templateDate(target.now, target.locale),
    },
    row.variables,
  );
  return { text, provider };
}

// ---------------------------------------------------------------- CSV

/** A cell a spreadsheet would run as a formula gets a leading apostrophe (OWASP CSV injection). */
export function guardCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function exportCsv(rows: TemplateDto[]): string {
  const records = rows.map((r) => [
    r.title,
    r.folder,
    r.text,
    r.user_id === null ? '0' : '1',
    JSON.stringify(r.variants),
    JSON.stringify(r.variables),
  ]);
  return stringify([[...TEMPLATE_CSV_COLUMNS], ...records.map((cells) => cells.map(guardCell))]);
}

/** Undoes guardCell: an exported file imports back to the same texts. */
const unguard = (value: string) => (/^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value);

/** Parses an exported CSV; a malformed file or row → 400 naming the row. */
export function parseCsv(csv: string, spaceId: number) {
  let records: string[][];
  try {
    records = parse(csv, { bom: true, skip_empty_lines: true, relax_column_count: true });
  } catch {
    throw badRequest('templates.csv.invalid');
  }
  const [header, ...body] = records;
  if (!header || TEMPLATE_CSV_COLUMNS.some((c, i) => header[i]?.trim() !== c)) {
    throw badRequest('templates.csv.invalid');
  }
  return body.map((cells, index) => {
    const [title, folder, text, personal, variants, variables] = cells.map(unguard);
    const json = (value: string | undefined, empty: unknown) => {
      if (!value) return empty;
      try {
        return JSON.parse(value);
      } catch {
        return undefined;
      }
    };
    const parsed = createTemplateBody.safeParse({
      space_id: spaceId,
      title,
      folder: folder ?? '',
      text,
      personal: personal === '1' || personal === 'true',
      variants: json(variants, {}),
      variables: json(variables, []),
    });
    if (!parsed.success) {
      throw badRequest('templates.csv.invalid', { params: { row: index + 2 } });
    }
    return parsed.data;
  });
}

export type ParsedTemplate = ReturnType<typeof parseCsv>[number];
export { templateFormSchema };
