import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../../test/harness';
import { absences, memberships, statusChanges, userStatuses, workinghoursItems } from '../../db/schema';
import { WorkinghoursScheduler } from './scheduler';
import { recordBus } from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const MINUTE = 60_000;

/**
 * The moment a test ticks at. tick(now) applies every due slot in the database, and other test files
 * share it (PostgreSQL in CI): a unique instant far from the real clock keeps each test to its own slots.
 */
function virtualNow() {
  return new Date(Date.UTC(2001, 0, 1) + randomInt(0, 3_650) * 86_400_000 + randomInt(0, 86_400) * 1000);
}

/** A user in their own space, currently "online", with a slot switching to "break" at `startedAt`. */
async function userWithSlot(startedAt: Date, endedAt = new Date(startedAt.getTime() + 60 * MINUTE)) {
  const built = await buildUser(t);
  const db = t.deps.database.db;
  const statuses = await db.select().from(userStatuses).where(eq(userStatuses.spaceId, built.space.id));
  const online = statuses.find((s) => s.name === 'На связи')!;
  const pause = statuses.find((s) => s.name === 'Перерыв')!;
  const [slot] = await db
    .insert(workinghoursItems)
    .values({ spaceId: built.space.id, userId: built.user.id, startedAt, endedAt, statusId: pause.id })
    .returning();
  return { ...built, online, pause, slot: slot! };
}

async function changesOf(userId: number) {
  return t.deps.database.db.select().from(statusChanges).where(eq(statusChanges.userId, userId));
}

async function statusOf(spaceId: number, userId: number) {
  const [row] = await t.deps.database.db
    .select({ statusId: memberships.statusId })
    .from(memberships)
    .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, userId)));
  return row?.statusId;
}

async function slotById(id: number) {
  const [row] = await t.deps.database.db.select().from(workinghoursItems).where(eq(workinghoursItems.id, id));
  return row!;
}

describe('working-hours scheduler', () => {
  it('switches each status exactly once when two schedulers tick at the same time', async () => {
    const now = virtualNow();
    const users = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => userWithSlot(new Date(now.getTime() - i * 1000))),
    );
    const db = t.deps.database.db;
    const first = t.deps.schedule;
    const second = new WorkinghoursScheduler(db, t.deps.bus, t.deps.log);

    const [a, b] = await Promise.all([first.tick(now), second.tick(now)]);
    expect(a + b).toBe(users.length);

    for (const user of users) {
      const records = await changesOf(user.user.id);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({
        spaceId: user.space.id,
        statusId: user.pause.id,
        previousStatusId: user.online.id,
        source: 'schedule',
        performedBy: null,
      });
      expect(records[0]!.at.getTime()).toBe(now.getTime());
      expect(await statusOf(user.space.id, user.user.id)).toBe(user.pause.id);
      expect((await slotById(user.slot.id)).appliedAt?.getTime()).toBe(now.getTime());
    }
    // The next ticks find nothing left to do.
    const later = new Date(now.getTime() + 15_000);
    expect(await Promise.all([first.tick(later), second.tick(later)])).toEqual([0, 0]);
  });

  it('does not apply a slot that started more than 10 minutes ago, but does at 9', async () => {
    const now = virtualNow();
    const late = await userWithSlot(new Date(now.getTime() - 11 * MINUTE));
    const onTime = await userWithSlot(new Date(now.getTime() - 9 * MINUTE));
    expect(await t.deps.schedule.tick(now)).toBe(1);
    expect((await slotById(late.slot.id)).appliedAt).toBeNull();
    expect(await changesOf(late.user.id)).toEqual([]);
    expect(await statusOf(late.space.id, late.user.id)).toBe(late.online.id);
    expect(await statusOf(onTime.space.id, onTime.user.id)).toBe(onTime.pause.id);
  });

  it('does not switch the status of a user who is absent at the start', async () => {
    const now = virtualNow();
    const user = await userWithSlot(new Date(now.getTime() - 1000));
    await t.deps.database.db.insert(absences).values({
      spaceId: user.space.id,
      userId: user.user.id,
      startedAt: new Date(now.getTime() - 60 * MINUTE),
      endedAt: new Date(now.getTime() + 60 * MINUTE),
      reason: 'Отпуск',
    });
    expect(await t.deps.schedule.tick(now)).toBe(0);
    expect(await changesOf(user.user.id)).toEqual([]);
    expect(await statusOf(user.space.id, user.user.id)).toBe(user.online.id);
    // Consumed all the same: the slot is done with, not retried every tick.
    expect((await slotById(user.slot.id)).appliedAt?.getTime()).toBe(now.getTime());
  });

  it("sends the 'status' event to the user whose slot started", async () => {
    const now = virtualNow();
    const user = await userWithSlot(new Date(now.getTime()));
    const bus = recordBus(t);
    try {
      expect(await t.deps.schedule.tick(now)).toBe(1);
      const event = await bus.waitFor(
        (e) => e.type === 'status' && e.userIds?.includes(user.user.id) === true,
      );
      expect(event).toMatchObject({
        spaceId: user.space.id,
        userIds: [user.user.id],
        payload: {
          status: user.pause.id,
          user_id: user.user.id,
          source: 'schedule',
          changed_at: Math.floor(now.getTime() / 1000),
        },
        cause: { kind: 'system' },
      });
    } finally {
      bus.stop();
    }
  });

  it('applyDueFor applies only that user', async () => {
    const now = virtualNow();
    const mine = await userWithSlot(new Date(now.getTime() - 1000));
    const theirs = await userWithSlot(new Date(now.getTime() - 1000));
    expect(await t.deps.schedule.applyDueFor(mine.user.id, now)).toBe(1);
    expect(await statusOf(mine.space.id, mine.user.id)).toBe(mine.pause.id);
    expect(await statusOf(theirs.space.id, theirs.user.id)).toBe(theirs.online.id);
    expect(await t.deps.schedule.tick(now)).toBe(1);
  });
});
