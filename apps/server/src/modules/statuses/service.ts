import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { memberships, type StatusChangeSource, statusChanges, userStatuses, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../realtime/bus';
import { presentUserStatus } from '../spaces/presenter';

/** The statuses every new space starts with; administrators edit them in settings. */
export function defaultStatuses(locale: string) {
  const ru = locale !== 'en';
  return [
    {
      name: ru ? 'На связи' : 'Online',
      color: '#40c057',
      hidden: false,
      offline: false,
      workinghours: true,
      position: 0,
    },
    {
      name: ru ? 'Перерыв' : 'Break',
      color: '#fab005',
      hidden: false,
      offline: false,
      workinghours: false,
      position: 1,
    },
    {
      name: ru ? 'Не в сети' : 'Offline',
      color: '#868e96',
      hidden: false,
      offline: true,
      workinghours: false,
      position: 2,
    },
  ];
}

export async function seedDefaultStatuses(db: Db, spaceId: number, locale: string) {
  return db
    .insert(userStatuses)
    .values(defaultStatuses(locale).map((s) => ({ ...s, spaceId })))
    .returning();
}

export async function listStatuses(db: Db, spaceIds: number[]) {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(userStatuses)
    .where(inArray(userStatuses.spaceId, spaceIds))
    .orderBy(asc(userStatuses.spaceId), asc(userStatuses.position), asc(userStatuses.id));
}

export interface StatusChange {
  userId: number;
  statusId: number;
  /** Defaults to the status's own space. */
  spaceId?: number;
  source: StatusChangeSource;
  performedBy?: number;
  at?: Date;
}

/**
 * Sets a user's status in a space: membership state, the user's current status, an append-only record
 * with time (statistics read it), and a socket event to the user's browsers and their colleagues.
 */
export async function setUserStatus(db: Db, bus: Pick<EventBus, 'publish'>, change: StatusChange) {
  const [status] = await db.select().from(userStatuses).where(eq(userStatuses.id, change.statusId)).limit(1);
  if (!status || (change.spaceId !== undefined && status.spaceId !== change.spaceId)) {
    throw new AppError(400, 'error.statusSaveFailed', { errorType: 'unknown_status' });
  }
  const spaceId = status.spaceId;
  const at = change.at ?? new Date();
  const [membership] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, change.userId)))
    .limit(1);
  if (!membership) throw new AppError(403, 'error.noAccess');
  if (membership.statusId !== status.id) {
    await db.transaction(async (tx) => {
      await tx
        .update(memberships)
        .set({
          statusId: status.id,
          statusChangedAt: at,
          ...(change.source === 'manual' ? { statusManualAt: at } : {}),
        })
        .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, change.userId)));
      await tx.update(users).set({ status: status.id }).where(eq(users.id, change.userId));
      await tx.insert(statusChanges).values({
        spaceId,
        userId: change.userId,
        statusId: status.id,
        previousStatusId: membership.statusId,
        source: change.source,
        performedBy: change.performedBy,
        at,
      });
    });
  } else if (change.source === 'manual') {
    await db
      .update(memberships)
      .set({ statusManualAt: at })
      .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, change.userId)));
  }
  const cause = change.performedBy
    ? { kind: 'user' as const, id: change.performedBy }
    : { kind: 'system' as const };
  const payload = {
    status: status.id,
    user_id: change.userId,
    source: change.source,
    changed_at: Math.floor(at.getTime() / 1000),
  };
  // docs/product/api.md: the user's own sockets receive `status`; colleagues' lists get `user_status`.
  await bus.publish({ type: 'status', spaceId, userIds: [change.userId], payload, cause });
  await bus.publish({ type: 'user_status', spaceId, payload, cause });
  return { status: presentUserStatus(status), changedAt: at };
}

/** The user's current status in a space (or their first space), for GET /v1/me/status. */
export async function currentStatus(db: Db, userId: number, spaceId?: number) {
  const rows = await db
    .select()
    .from(memberships)
    .where(
      spaceId === undefined
        ? eq(memberships.userId, userId)
        : and(eq(memberships.userId, userId), eq(memberships.spaceId, spaceId)),
    )
    .orderBy(asc(memberships.spaceId))
    .limit(1);
  const row = rows[0];
  if (!row) throw new AppError(403, 'error.noAccess');
  return {
    status: row.statusId,
    space_id: row.spaceId,
    changed_at: row.statusChangedAt ? Math.floor(row.statusChangedAt.getTime() / 1000) : null,
    manual_at: row.statusManualAt ? Math.floor(row.statusManualAt.getTime() / 1000) : null,
  };
}

/**
 * "My settings" `status` (docs/product/entities.md User.settings: the status to start the day with): a sign-in sets it,
 * recorded like any other change (source `system`). A status that no longer exists, is hidden or is in
 * a space the user left is ignored: the sign-in never fails because of a stale default.
 */
export async function startWithDefaultStatus(db: Db, bus: Pick<EventBus, 'publish'>, userId: number) {
  const [user] = await db.select({ settings: users.settings }).from(users).where(eq(users.id, userId));
  const statusId = user?.settings.status;
  if (typeof statusId !== 'number') return;
  const [status] = await db.select().from(userStatuses).where(eq(userStatuses.id, statusId)).limit(1);
  if (!status || status.hidden) return;
  const [membership] = await db
    .select({ spaceId: memberships.spaceId })
    .from(memberships)
    .where(and(eq(memberships.spaceId, status.spaceId), eq(memberships.userId, userId)))
    .limit(1);
  if (!membership) return;
  await setUserStatus(db, bus, { userId, statusId, source: 'system' });
}
