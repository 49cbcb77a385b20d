import { and, asc, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { absences } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { publishScheduleChanged, type ScheduleWrite } from './events';
import { assertMembers } from './policy';

type AbsenceRow = typeof absences.$inferSelect;

/** A vacation or sick leave: the scheduler does not switch the user's status during it. */
function assertAbsenceTimes(startedAt: Date, endedAt: Date) {
  if (endedAt <= startedAt) {
    throw badRequest('schedule.endBeforeStart', {
      errorType: 'end_before_start',
      fields: { ended_at: 'schedule.endBeforeStart' },
    });
  }
}

export async function findAbsences(
  db: Db,
  filter: { spaceId: number; userId?: number; from: Date; to: Date },
): Promise<AbsenceRow[]> {
  return db
    .select()
    .from(absences)
    .where(
      and(
        eq(absences.spaceId, filter.spaceId),
        filter.userId === undefined ? undefined : eq(absences.userId, filter.userId),
        gt(absences.endedAt, filter.from),
        lt(absences.startedAt, filter.to),
      ),
    )
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
  assertAbsenceTimes(input.startedAt, input.endedAt);
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
  assertAbsenceTimes(startedAt, endedAt);
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
