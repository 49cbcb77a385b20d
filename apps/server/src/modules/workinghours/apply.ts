import { and, eq, gte, lte } from 'drizzle-orm';
import {
  absences,
  holidays,
  userStatuses,
  workinghoursItems,
  type workinghoursTemplates,
} from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { publishScheduleChanged, type ScheduleWrite } from './events';
import { assertMembers } from './policy';
import { MAX_RANGE_DAYS } from './schemas';
import { deleteUpcomingSlots, type Executor, lockUserSchedule, type NewSlot, sharesTime } from './slots';
import { civilDaysBetween, DAY_MS, formatCivilDate, instantOf, isoWeekday, parseCivilDate } from './timezone';

type TemplateRow = typeof workinghoursTemplates.$inferSelect;
interface Span {
  startedAt: Date;
  endedAt: Date;
}

const overlaps = (a: Span, b: Span) => a.startedAt < b.endedAt && b.startedAt < a.endedAt;

function parseRange(from: string, to: string) {
  const fromMs = parseCivilDate(from);
  const toMs = parseCivilDate(to);
  if (fromMs === undefined) {
    throw badRequest('error.validation', { errorType: 'validation', fields: { from: 'field.invalid' } });
  }
  if (toMs === undefined || toMs < fromMs) {
    throw badRequest('error.validation', { errorType: 'validation', fields: { to: 'field.invalid' } });
  }
  if ((toMs - fromMs) / DAY_MS + 1 > MAX_RANGE_DAYS) {
    throw badRequest('error.validation', { errorType: 'range_too_long', fields: { to: 'field.tooLong' } });
  }
  return { fromMs, toMs };
}

/**
 * The template's slots for each civil day of the range in the space's time zone: weekday by ISO number
 * (Monday = 1), wall-clock minutes turned into instants per day, so a 09:00 shift is 09:00 local on both
 * sides of a DST change. Holidays of the space get no slots.
 */
function layOutTemplate(
  template: TemplateRow,
  range: { fromMs: number; toMs: number },
  timeZone: string,
  skipDays: Set<string>,
  knownStatusIds: Set<number>,
) {
  const spans: Array<Span & { statusId: number | null }> = [];
  for (const day of civilDaysBetween(range.fromMs, range.toMs)) {
    if (skipDays.has(formatCivilDate(day))) continue;
    const weekday = isoWeekday(day);
    for (const item of template.items) {
      if (item.weekday !== weekday) continue;
      const startedAt = instantOf(day, item.start, timeZone);
      const endedAt = instantOf(day, item.end, timeZone);
      // An item inside a skipped DST hour can collapse to nothing.
      if (endedAt <= startedAt) continue;
      // A status deleted since the template was saved leaves the slot as plain working time.
      const statusId = item.status_id !== null && knownStatusIds.has(item.status_id) ? item.status_id : null;
      spans.push({ startedAt, endedAt, statusId });
    }
  }
  return spans;
}

async function replaceUpcomingSlots(
  tx: Executor,
  input: {
    spaceId: number;
    userId: number;
    from: Date;
    to: Date;
    now: Date;
    spans: Array<Omit<NewSlot, 'spaceId' | 'userId'>>;
  },
): Promise<number> {
  const { spaceId, userId, from, to, now } = input;
  await lockUserSchedule(tx, userId);
  await deleteUpcomingSlots(tx, { spaceId, userId, from, to, now });
  // A night shift of the last day runs into the next one: look one day further for what it may meet.
  const horizon = new Date(to.getTime() + DAY_MS);
  const kept: Span[] = await tx
    .select({ startedAt: workinghoursItems.startedAt, endedAt: workinghoursItems.endedAt })
    .from(workinghoursItems)
    .where(sharesTime(workinghoursItems, { spaceId, userId, from, to: horizon }));
  const away: Span[] = await tx
    .select({ startedAt: absences.startedAt, endedAt: absences.endedAt })
    .from(absences)
    .where(sharesTime(absences, { spaceId, userId, from, to: horizon }));
  const created: NewSlot[] = [];
  for (const span of input.spans) {
    // Only the future is replaced; a started slot stays as it was (and as it was applied).
    if (span.startedAt <= now) continue;
    if (away.some((absence) => overlaps(absence, span))) continue;
    if (kept.some((slot) => overlaps(slot, span)) || created.some((slot) => overlaps(slot, span))) continue;
    created.push({ ...span, spaceId, userId });
  }
  if (created.length > 0) {
    await tx
      .insert(workinghoursItems)
      .values(created.map((slot) => ({ ...slot, createdAt: now, updatedAt: now })));
  }
  return created.length;
}

/**
 * Fills users' schedules from a template for the civil days `from`..`to` (inclusive) in the space's
 * time zone, replacing their not-yet-started slots in that range. Skips holidays of the space, time
 * the user is absent, and time already taken by a slot that has started.
 */
export async function applyTemplate(
  write: ScheduleWrite,
  template: TemplateRow,
  input: { timeZone: string; userIds: number[]; from: string; to: string },
): Promise<{ created: number }> {
  const { db, now } = write;
  const range = parseRange(input.from, input.to);
  const userIds = [...new Set(input.userIds)];
  const spaceId = template.spaceId;
  await assertMembers(db, spaceId, userIds, 'user_ids');
  const holidayRows = await db
    .select({ day: holidays.day })
    .from(holidays)
    .where(and(eq(holidays.spaceId, spaceId), gte(holidays.day, input.from), lte(holidays.day, input.to)));
  const statusRows = await db
    .select({ id: userStatuses.id })
    .from(userStatuses)
    .where(eq(userStatuses.spaceId, spaceId));
  const spans = layOutTemplate(
    template,
    range,
    input.timeZone,
    new Set(holidayRows.map((h) => h.day)),
    new Set(statusRows.map((s) => s.id)),
  );
  const from = instantOf(range.fromMs, 0, input.timeZone);
  const to = instantOf(range.toMs + DAY_MS, 0, input.timeZone);
  let created = 0;
  for (const userId of userIds) {
    created += await db.transaction((tx) =>
      replaceUpcomingSlots(tx, { spaceId, userId, from, to, now, spans }),
    );
  }
  await publishScheduleChanged(write, spaceId, userIds);
  return { created };
}
