import { TRIAL_DAYS } from '@otklik/shared';
import { presetFor } from '@otklik/shared/access/roles';
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { memberships, spaces, tariffs, userStatuses, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { seedDefaultStatuses } from '../statuses/service';

/** Tariff a new space starts on when signup names none or an unknown one. */
export const DEFAULT_SIGNUP_TARIFF_ID = 10;

/** A new space on the 14-day trial (docs/product/overview.md, limits.md), named after the company, with its creator as admin. */
export async function createTrialSpace(
  db: Db,
  opts: { name: string; ownerId: number; tariffId?: number; promocode?: string; locale?: string },
): Promise<typeof spaces.$inferSelect> {
  let tariffId = DEFAULT_SIGNUP_TARIFF_ID;
  if (opts.tariffId !== undefined) {
    const [tariff] = await db
      .select({ id: tariffs.id })
      .from(tariffs)
      .where(eq(tariffs.id, opts.tariffId))
      .limit(1);
    if (tariff) tariffId = tariff.id;
  }
  const [space] = await db
    .insert(spaces)
    .values({
      name: opts.name,
      tariffId,
      isTrial: true,
      expiresAt: new Date(Date.now() + TRIAL_DAYS * 86_400_000),
      promocode: opts.promocode || null,
      createdBy: opts.ownerId,
    })
    .returning();
  const [online] = await seedDefaultStatuses(db, space!.id, opts.locale ?? 'ru');
  await db.insert(memberships).values({
    spaceId: space!.id,
    userId: opts.ownerId,
    roles: presetFor('administrator'),
    statusId: online?.id ?? null,
  });
  // docs/product/entities.md User.status is the current status id; a user without one takes the new space's.
  if (online) {
    await db
      .update(users)
      .set({ status: online.id })
      .where(and(eq(users.id, opts.ownerId), isNull(users.status)));
  }
  return space!;
}

/** Adds a member unless the space's tariff user limit is reached (docs/product/errors.md 'Достигнут лимит пользователей…'). */
export async function addMember(
  db: Db,
  spaceId: number,
  userId: number,
  roles: Record<string, boolean>,
  placement: { groupId?: number | null; departmentIds?: number[] } = {},
) {
  await assertUserLimit(db, spaceId);
  // A new member starts "offline": on first sign-in the status dialog asks them to pick one (docs/product/states.md).
  const [offline] = await db
    .select({ id: userStatuses.id })
    .from(userStatuses)
    .where(and(eq(userStatuses.spaceId, spaceId), eq(userStatuses.offline, true)))
    .orderBy(asc(userStatuses.position))
    .limit(1);
  await db
    .insert(memberships)
    .values({
      spaceId,
      userId,
      roles,
      statusId: offline?.id ?? null,
      groupId: placement.groupId ?? null,
      departmentIds: placement.departmentIds ?? [],
    })
    .onConflictDoNothing();
  if (offline) {
    await db
      .update(users)
      .set({ status: offline.id })
      .where(and(eq(users.id, userId), isNull(users.status)));
  }
}

export async function assertUserLimit(db: Db, spaceId: number): Promise<void> {
  const [row] = await db
    .select({ maxUsers: tariffs.maxUsers })
    .from(spaces)
    .innerJoin(tariffs, eq(tariffs.id, spaces.tariffId))
    .where(eq(spaces.id, spaceId))
    .limit(1);
  if (!row) throw new AppError(404, 'error.notFound');
  if (row.maxUsers === null) return;
  const [members] = await db.select({ n: count() }).from(memberships).where(eq(memberships.spaceId, spaceId));
  if ((members?.n ?? 0) >= row.maxUsers)
    throw new AppError(400, 'error.userLimit', { errorType: 'user_limit' });
}
