import type { Db } from '../../db/client';
import type { EventBus } from '../../realtime/bus';

/** What a schedule write needs: where to write, where to announce it, who did it and when. */
export interface ScheduleWrite {
  db: Db;
  bus: EventBus;
  performedBy: number;
  now: Date;
}

/** Tells the affected users' browsers to reload their schedule (docs/product/states.md working hours). */
export async function publishScheduleChanged(write: ScheduleWrite, spaceId: number, userIds: number[]) {
  for (const userId of new Set(userIds)) {
    await write.bus.publish({
      type: 'workinghours.changed',
      spaceId,
      userIds: [userId],
      payload: {},
      cause: { kind: 'user', id: write.performedBy },
    });
  }
}

/**
 * A change to the space's schedule settings rather than to someone's slots (templates, holidays): every
 * member connected to the space hears it, with `kind` saying what to reload.
 */
export async function publishSpaceScheduleChanged(
  write: ScheduleWrite,
  spaceId: number,
  kind: 'templates' | 'holidays' | 'business',
) {
  await write.bus.publish({
    type: 'workinghours.changed',
    spaceId,
    payload: { kind },
    cause: { kind: 'user', id: write.performedBy },
  });
}
