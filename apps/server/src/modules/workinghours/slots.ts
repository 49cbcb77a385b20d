import { and, asc, desc, eq, gt, gte, inArray, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { absences, workinghoursItems } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { publishScheduleChanged, type ScheduleWrite } from './events';
import { assertMembers, assertSpaceStatuses } from './policy';
import { unixSeconds } from './presenter';
import { MAX_RANGE_DAYS, MAX_SLOT_S } from './schemas';
import { DAY_MS } from './timezone';

type SlotRow = typeof workinghoursItems.$inferSelect;
/** A transaction or the database: the slot rules run inside either. */
export type Executor = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

/** docs/product/api.md GET v1/me/workinghours: the window the browser checks every minute (docs/product/states.md). */
export const MY_SCHEDULE_BEHIND_MS = DAY_MS;
export const MY_SCHEDULE_AHEAD_MS = 14 * DAY_MS;

/**
 * Serialises schedule writes of one user (two admins saving overlapping slots at once, a template being
 * applied meanwhile), so the no-overlap rule holds under concurrency. Held until the transaction ends.
 */
export async function lockUserSchedule(tx: Executor, userId: number) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('workinghours'), ${userId})`);
}

/** A time range of a read: defaults to the browser's window, at most MAX_RANGE_DAYS long. */
export function readRange(query: { from?: number; to?: number }, now: Date) {
  const from = query.from !== undefined ? new Date(query.from * 1000) : new Date(now.getTime() - DAY_MS);
  const to = query.to !== undefined ? new Date(query.to * 1000) : new Date(from.getTime() + 14 * DAY_MS);
  if (to <= from)
    throw badRequest('error.validation', { errorType: 'validation', fields: { to: 'field.invalid' } });
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
    throw badRequest('error.validation', { errorType: 'range_too_long', fields: { to: 'field.tooLong' } });
  }
  return { from, to };
}

/** The caller's own schedule in their spaces, without slots that start during one of their absences. */
export async function findMySchedule(db: Db, userId: number, spaceIds: number[], now: Date) {
  if (spaceIds.length === 0) return { items: [], updatedAt: 0 };
  const mine = and(eq(workinghoursItems.userId, userId), inArray(workinghoursItems.spaceId, spaceIds));
  const absent = sql`EXISTS (SELECT 1 FROM ${absences} WHERE ${absences.spaceId} = ${workinghoursItems.spaceId}
    AND ${absences.userId} = ${workinghoursItems.userId} AND ${absences.startedAt} <= ${workinghoursItems.startedAt}
    AND ${absences.endedAt} > ${workinghoursItems.startedAt})`;
  const items = await db
    .select()
    .from(workinghoursItems)
    .where(
      and(
        mine,
        gt(workinghoursItems.endedAt, new Date(now.getTime() - MY_SCHEDULE_BEHIND_MS)),
        lt(workinghoursItems.startedAt, new Date(now.getTime() + MY_SCHEDULE_AHEAD_MS)),
        sql`NOT ${absent}`,
      ),
    )
    .orderBy(asc(workinghoursItems.startedAt), asc(workinghoursItems.id));
  const [latest] = await db
    .select({ updatedAt: workinghoursItems.updatedAt })
    .from(workinghoursItems)
    .where(mine)
    .orderBy(desc(workinghoursItems.updatedAt))
    .limit(1);
  return { items, updatedAt: latest ? unixSeconds(latest.updatedAt) : 0 };
}

/** The columns a span of a user's time is stored in: slots and absences alike. */
interface SpanColumns {
  spaceId: AnyPgColumn;
  userId: AnyPgColumn;
  startedAt: AnyPgColumn;
  endedAt: AnyPgColumn;
}

/** A read of spans: a space, one user of it or all, and a time range [from, to). */
export interface SpanFilter {
  spaceId: number;
  userId?: number;
  from: Date;
  to: Date;
}

/** The space's rows (one user's when given) that share time with [from, to). */
export function sharesTime(table: SpanColumns, filter: SpanFilter): SQL | undefined {
  return and(
    eq(table.spaceId, filter.spaceId),
    filter.userId === undefined ? undefined : eq(table.userId, filter.userId),
    gt(table.endedAt, filter.from),
    lt(table.startedAt, filter.to),
  );
}

export async function findSlots(db: Db, filter: SpanFilter): Promise<SlotRow[]> {
  return db
    .select()
    .from(workinghoursItems)
    .where(sharesTime(workinghoursItems, filter))
    .orderBy(asc(workinghoursItems.startedAt), asc(workinghoursItems.userId), asc(workinghoursItems.id));
}

export async function getSlot(db: Db, id: number): Promise<SlotRow | undefined> {
  const [row] = await db.select().from(workinghoursItems).where(eq(workinghoursItems.id, id)).limit(1);
  return row;
}

/** A slot or an absence ends after it starts. */
export function assertEndsAfterStart(startedAt: Date, endedAt: Date) {
  if (endedAt <= startedAt) {
    throw badRequest('schedule.endBeforeStart', {
      errorType: 'end_before_start',
      fields: { ended_at: 'schedule.endBeforeStart' },
    });
  }
}

export function assertSlotTimes(startedAt: Date, endedAt: Date) {
  assertEndsAfterStart(startedAt, endedAt);
  if (endedAt.getTime() - startedAt.getTime() > MAX_SLOT_S * 1000) {
    throw badRequest('schedule.tooLong', {
      errorType: 'slot_too_long',
      fields: { ended_at: 'schedule.tooLong' },
    });
  }
}

/** The first of the user's slots in the space that shares time with [startedAt, endedAt). */
export async function findOverlap(
  tx: Executor,
  slot: { spaceId: number; userId: number; startedAt: Date; endedAt: Date; exceptId?: number },
) {
  const [row] = await tx
    .select()
    .from(workinghoursItems)
    .where(
      and(
        sharesTime(workinghoursItems, {
          spaceId: slot.spaceId,
          userId: slot.userId,
          from: slot.startedAt,
          to: slot.endedAt,
        }),
        slot.exceptId === undefined ? undefined : ne(workinghoursItems.id, slot.exceptId),
      ),
    )
    .orderBy(asc(workinghoursItems.startedAt))
    .limit(1);
  return row;
}

async function assertNoOverlap(tx: Executor, slot: Parameters<typeof findOverlap>[1]) {
  const overlap = await findOverlap(tx, slot);
  if (!overlap) return;
  throw badRequest('schedule.overlap', {
    errorType: 'overlap',
    fields: { started_at: 'schedule.overlap', ended_at: 'schedule.overlap' },
    body: {
      conflict: {
        id: overlap.id,
        started_at: unixSeconds(overlap.startedAt),
        ended_at: unixSeconds(overlap.endedAt),
      },
    },
  });
}

export interface NewSlot {
  spaceId: number;
  userId: number;
  startedAt: Date;
  endedAt: Date;
  statusId: number | null;
}

/** A new slot for a member of the space, switching to one of the space's statuses. */
export async function createSlot(write: ScheduleWrite, slot: NewSlot): Promise<SlotRow> {
  const { db, now } = write;
  assertSlotTimes(slot.startedAt, slot.endedAt);
  await assertMembers(db, slot.spaceId, [slot.userId], 'user_id');
  await assertSpaceStatuses(db, slot.spaceId, [slot.statusId], 'status');
  const created = await db.transaction(async (tx) => {
    await lockUserSchedule(tx, slot.userId);
    await assertNoOverlap(tx, slot);
    const [row] = await tx
      .insert(workinghoursItems)
      .values({ ...slot, createdAt: now, updatedAt: now })
      .returning();
    return row!;
  });
  await publishScheduleChanged(write, slot.spaceId, [slot.userId]);
  return created;
}

/**
 * Moving or changing a slot. A slot that (now) starts in the future is not applied yet, whatever
 * happened to its old start: the scheduler switches the status again at the new start.
 */
export async function updateSlot(
  write: ScheduleWrite,
  slot: SlotRow,
  patch: { startedAt?: Date; endedAt?: Date; statusId?: number | null },
): Promise<SlotRow> {
  const { db, now } = write;
  const startedAt = patch.startedAt ?? slot.startedAt;
  const endedAt = patch.endedAt ?? slot.endedAt;
  assertSlotTimes(startedAt, endedAt);
  await assertSpaceStatuses(db, slot.spaceId, [patch.statusId], 'status');
  const updated = await db.transaction(async (tx) => {
    await lockUserSchedule(tx, slot.userId);
    await assertNoOverlap(tx, { ...slot, startedAt, endedAt, exceptId: slot.id });
    const [row] = await tx
      .update(workinghoursItems)
      .set({
        startedAt,
        endedAt,
        ...(patch.statusId !== undefined ? { statusId: patch.statusId } : {}),
        ...(startedAt > now ? { appliedAt: null } : {}),
        updatedAt: now,
      })
      .where(eq(workinghoursItems.id, slot.id))
      .returning();
    return row!;
  });
  await publishScheduleChanged(write, slot.spaceId, [slot.userId]);
  return updated;
}

export async function deleteSlot(write: ScheduleWrite, slot: SlotRow) {
  await write.db
    .delete(workinghoursItems)
    .where(and(eq(workinghoursItems.id, slot.id), eq(workinghoursItems.spaceId, slot.spaceId)));
  await publishScheduleChanged(write, slot.spaceId, [slot.userId]);
}

/** Not-yet-started slots of a user in [from, to): what applying a template replaces. */
export async function deleteUpcomingSlots(
  tx: Executor,
  filter: { spaceId: number; userId: number; from: Date; to: Date; now: Date },
) {
  await tx
    .delete(workinghoursItems)
    .where(
      and(
        eq(workinghoursItems.spaceId, filter.spaceId),
        eq(workinghoursItems.userId, filter.userId),
        gt(workinghoursItems.startedAt, filter.now),
        gte(workinghoursItems.startedAt, filter.from),
        lt(workinghoursItems.startedAt, filter.to),
      ),
    );
}
