import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { absences } from '../../db/schema';
import { publishScheduleChanged, type ScheduleWrite } from './events';
import { assertMembers } from './policy';
import { assertEndsAfterStart, type SpanFilter, sharesTime } from './slots';

type AbsenceRow = typeof absences.$inferSelect;

/** A vacation or sick leave: the scheduler does not switch the user's status during it. */
export async function findAbsences(db: Db, filter: SpanFilter): Promise<AbsenceRow[]> {
  return db
    .select()
    .from(absences)
    .where(sharesTime(absences, filter))
    .orderBy(asc(absences.startedAt), asc(absences.userId), asc(absences.id));
}

export async function getAbsence(db: Db, id: number): Promise<AbsenceRow | undefined> {
  const [row] = await db.select().from(absences).where(eq(absences.id, id)).limit(1);
  return row;
}

export async function createAbsence(
  write: ScheduleWrite,
  input: { spaceId: number; userId: number; startedAt: Date; endedAt: Date; reason: string | null },
): Promise<AbsenceRow> {
  assertEndsAfterStart(input.startedAt, input.endedAt);
  await assertMembers(write.db, input.spaceId, [input.userId], 'user_id');
  const [row] = await write.db.insert(absences).values(input).returning();
  await publishScheduleChanged(write, input.spaceId, [input.userId]);
  return row!;
}

export async function updateAbsence(
  write: ScheduleWrite,
  absence: AbsenceRow,
  patch: { startedAt?: Date; endedAt?: Date; reason?: string | null },
): Promise<AbsenceRow> {
  const startedAt = patch.startedAt ?? absence.startedAt;
  const endedAt = patch.endedAt ?? absence.endedAt;
  assertEndsAfterStart(startedAt, endedAt);
  const [row] = await write.db
    .update(absences)
    .set({ startedAt, endedAt, ...(patch.reason !== undefined ? { reason: patch.reason } : {}) })
    .where(eq(absences.id, absence.id))
    .returning();
  await publishScheduleChanged(write, absence.spaceId, [absence.userId]);
  return row!;
}

export async function deleteAbsence(write: ScheduleWrite, absence: AbsenceRow) {
  await write.db
    .delete(absences)
    .where(and(eq(absences.id, absence.id), eq(absences.spaceId, absence.spaceId)));
  await publishScheduleChanged(write, absence.spaceId, [absence.userId]);
}
