import { and, asc, eq, gte, inArray, lte, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { holidays } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { publishSpaceScheduleChanged, type ScheduleWrite } from './events';

type HolidayRow = typeof holidays.$inferSelect;

/** One holiday per day of a space: applying a template skips it. */
async function assertDayFree(db: Db, spaceId: number, day: string, exceptId?: number) {
  const [taken] = await db
    .select({ id: holidays.id })
    .from(holidays)
    .where(
      and(
        eq(holidays.spaceId, spaceId),
        eq(holidays.day, day),
        exceptId === undefined ? undefined : ne(holidays.id, exceptId),
      ),
    )
    .limit(1);
  if (taken)
    throw badRequest('schedule.holidayTaken', {
      errorType: 'duplicate',
      fields: { day: 'schedule.holidayTaken' },
    });
}

export async function findHolidays(
  db: Db,
  filter: { spaceIds: number[]; from?: string; to?: string },
): Promise<HolidayRow[]> {
  if (filter.spaceIds.length === 0) return [];
  return db
    .select()
    .from(holidays)
    .where(
      and(
        inArray(holidays.spaceId, filter.spaceIds),
        filter.from === undefined ? undefined : gte(holidays.day, filter.from),
        filter.to === undefined ? undefined : lte(holidays.day, filter.to),
      ),
    )
    .orderBy(asc(holidays.day), asc(holidays.spaceId), asc(holidays.id));
}

export async function getHoliday(db: Db, id: number): Promise<HolidayRow | undefined> {
  const [row] = await db.select().from(holidays).where(eq(holidays.id, id)).limit(1);
  return row;
}

export async function createHoliday(
  write: ScheduleWrite,
  input: { spaceId: number; day: string; name: string },
): Promise<HolidayRow> {
  await assertDayFree(write.db, input.spaceId, input.day);
  const [row] = await write.db.insert(holidays).values(input).returning();
  await publishSpaceScheduleChanged(write, input.spaceId, 'holidays');
  return row!;
}

export async function updateHoliday(
  write: ScheduleWrite,
  holiday: HolidayRow,
  patch: { day?: string; name?: string },
): Promise<HolidayRow> {
  if (patch.day === undefined && patch.name === undefined) return holiday;
  if (patch.day !== undefined) await assertDayFree(write.db, holiday.spaceId, patch.day, holiday.id);
  const [row] = await write.db.update(holidays).set(patch).where(eq(holidays.id, holiday.id)).returning();
  await publishSpaceScheduleChanged(write, holiday.spaceId, 'holidays');
  return row!;
}

export async function deleteHoliday(write: ScheduleWrite, holiday: HolidayRow) {
  await write.db
    .delete(holidays)
    .where(and(eq(holidays.id, holiday.id), eq(holidays.spaceId, holiday.spaceId)));
  await publishSpaceScheduleChanged(write, holiday.spaceId, 'holidays');
}
