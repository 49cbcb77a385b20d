import { can } from '@otklik/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { memberships, userStatuses } from '../../db/schema';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors';
import { authorize, isMember, type ServerActor, spaceIdsWhere } from '../spaces/actor';

// Who may do what with schedules (docs/product/screens-and-routes.md settings users/workinghours, §6):
// - slots, templates, absences of anyone in a space: 'schedule.manage' (administrators, space feature
//   user_workinghours);
// - a member reads their own slots and absences with 'schedule.viewOwn';
// - holidays are the space's calendar: every member reads them, 'workinghours.manage' edits them.
// A record of a space the caller is not a member of is "not found"; of their space without the
// right, "no access" (same split as settings → user statuses).

export function requireMembership(actor: ServerActor, spaceId: number): void {
  if (!isMember(actor, spaceId)) throw forbidden();
}

export function authorizeScheduleWrite(actor: ServerActor, spaceId: number): void {
  authorize(actor, 'schedule.manage', spaceId);
}

/** Reading a schedule: managers read anyone's, members their own. */
export function authorizeScheduleRead(actor: ServerActor, spaceId: number, userId: number): void {
  if (can(actor, 'schedule.manage', spaceId)) return;
  if (userId === actor.userId && can(actor, 'schedule.viewOwn', spaceId)) return;
  throw forbidden();
}

export function canManageSchedule(actor: ServerActor, spaceId: number): boolean {
  return can(actor, 'schedule.manage', spaceId);
}

/**
 * Whose slots or absences a list reads: `user_id` when given, else everyone's for a manager and the
 * caller's own for a member; checked with authorizeScheduleRead.
 */
export function scheduleReadFilter(actor: ServerActor, query: { space_id: number; user_id?: number }) {
  const { space_id: spaceId } = query;
  const userId = query.user_id ?? (canManageSchedule(actor, spaceId) ? undefined : actor.userId);
  authorizeScheduleRead(actor, spaceId, userId ?? actor.userId);
  return { spaceId, userId };
}

/** A record by id: 404 outside the caller's spaces, 403 without the ability in its space. */
export function authorizeRecord<T extends { spaceId: number }>(
  actor: ServerActor,
  record: T | undefined,
  check: (spaceId: number) => void,
): T {
  if (!record || !isMember(actor, record.spaceId)) throw notFound();
  check(record.spaceId);
  return record;
}

/** A slot, template or absence by id, to change it: authorizeRecord with 'schedule.manage'. */
export function authorizeScheduleRecord<T extends { spaceId: number }>(
  actor: ServerActor,
  record: T | undefined,
): T {
  return authorizeRecord(actor, record, (spaceId) => authorizeScheduleWrite(actor, spaceId));
}

export function manageableSpaceIds(actor: ServerActor): number[] {
  return spaceIdsWhere(actor, 'schedule.manage');
}

export function memberSpaceIds(actor: ServerActor): number[] {
  return actor.rows.map((row) => row.space.id);
}

/** The space's IANA time zone (schedules and templates are laid out in it). */
export function spaceTimeZone(actor: ServerActor, spaceId: number): string {
  const row = actor.rows.find((r) => r.space.id === spaceId);
  if (!row) throw forbidden();
  return row.space.timezone;
}

/** Every user must be a member of the space: a schedule is per membership. */
export async function assertMembers(db: Db, spaceId: number, userIds: number[], field: string) {
  const unique = [...new Set(userIds)];
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.spaceId, spaceId), inArray(memberships.userId, unique)));
  if (rows.length !== unique.length) {
    throw badRequest('error.userNotFound', {
      errorType: 'not_member',
      fields: { [field]: 'error.userNotFound' },
    });
  }
}

/** Statuses a schedule switches to must be the space's own. */
export async function assertSpaceStatuses(
  db: Db,
  spaceId: number,
  statusIds: Array<number | null | undefined>,
  field: string,
): Promise<void> {
  const wanted = [...new Set(statusIds.filter((id): id is number => typeof id === 'number'))];
  if (wanted.length === 0) return;
  const rows = await db
    .select({ id: userStatuses.id })
    .from(userStatuses)
    .where(and(eq(userStatuses.spaceId, spaceId), inArray(userStatuses.id, wanted)));
  if (rows.length !== wanted.length) {
    throw new AppError(400, 'error.validation', {
      errorType: 'unknown_status',
      fields: { [field]: 'field.invalid' },
    });
  }
}
