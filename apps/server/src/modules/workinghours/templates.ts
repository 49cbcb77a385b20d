import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { workinghoursTemplates } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { publishSpaceScheduleChanged, type ScheduleWrite } from './events';
import { assertSpaceStatuses } from './policy';
import { MINUTES_PER_DAY, type TemplateItem } from './schemas';

type TemplateRow = typeof workinghoursTemplates.$inferSelect;

const WEEK_MINUTES = 7 * MINUTES_PER_DAY;

/** Items in week order (Monday first, docs/product/limits.md), so the schedule screen and applying read them alike. */
function sortItems(items: TemplateItem[]): TemplateItem[] {
  return [...items].sort((a, b) => a.weekday - b.weekday || a.start - b.start);
}

/**
 * Two items of a template must not share time, or applying it would create overlapping slots. Items
 * are laid on the week as minutes from Monday 00:00; a Sunday night shift wraps into Monday.
 */
function assertItemsDisjoint(items: TemplateItem[]) {
  const spans = items.map((item, index) => {
    const start = (item.weekday - 1) * MINUTES_PER_DAY + item.start;
    return { index, start, end: start + (item.end - item.start) };
  });
  for (const a of spans) {
    for (const b of spans) {
      if (a.index >= b.index) continue;
      const overlaps = [0, WEEK_MINUTES, -WEEK_MINUTES].some(
        (shift) => a.start < b.end + shift && b.start + shift < a.end,
      );
      if (overlaps) {
        throw badRequest('schedule.overlap', {
          errorType: 'overlap',
          fields: { [`items.${b.index}`]: 'schedule.overlap' },
        });
      }
    }
  }
}

async function assertItems(db: Db, spaceId: number, items: TemplateItem[]) {
  assertItemsDisjoint(items);
  await assertSpaceStatuses(
    db,
    spaceId,
    items.map((item) => item.status_id),
    'items',
  );
}

export async function findTemplates(db: Db, spaceIds: number[]): Promise<TemplateRow[]> {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(workinghoursTemplates)
    .where(inArray(workinghoursTemplates.spaceId, spaceIds))
    .orderBy(
      asc(workinghoursTemplates.spaceId),
      asc(workinghoursTemplates.name),
      asc(workinghoursTemplates.id),
    );
}

export async function getTemplate(db: Db, id: number): Promise<TemplateRow | undefined> {
  const [row] = await db
    .select()
    .from(workinghoursTemplates)
    .where(eq(workinghoursTemplates.id, id))
    .limit(1);
  return row;
}

export async function createTemplate(
  write: ScheduleWrite,
  input: { spaceId: number; name: string; items: TemplateItem[] },
): Promise<TemplateRow> {
  await assertItems(write.db, input.spaceId, input.items);
  const [row] = await write.db
    .insert(workinghoursTemplates)
    .values({ spaceId: input.spaceId, name: input.name, items: sortItems(input.items) })
    .returning();
  await publishSpaceScheduleChanged(write, input.spaceId, 'templates');
  return row!;
}

export async function updateTemplate(
  write: ScheduleWrite,
  template: TemplateRow,
  patch: { name?: string; items?: TemplateItem[] },
): Promise<TemplateRow> {
  if (patch.items) await assertItems(write.db, template.spaceId, patch.items);
  if (patch.name === undefined && !patch.items) return template;
  const [row] = await write.db
    .update(workinghoursTemplates)
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.items ? { items: sortItems(patch.items) } : {}),
    })
    .where(eq(workinghoursTemplates.id, template.id))
    .returning();
  await publishSpaceScheduleChanged(write, template.spaceId, 'templates');
  return row!;
}

export async function deleteTemplate(write: ScheduleWrite, template: TemplateRow) {
  await write.db
    .delete(workinghoursTemplates)
    .where(
      and(eq(workinghoursTemplates.id, template.id), eq(workinghoursTemplates.spaceId, template.spaceId)),
    );
  await publishSpaceScheduleChanged(write, template.spaceId, 'templates');
}
