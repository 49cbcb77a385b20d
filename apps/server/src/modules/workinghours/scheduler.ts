import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { absences, workinghoursItems } from '../../db/schema';
import type { Logger } from '../../lib/logger';
import type { EventBus } from '../../realtime/bus';
import { setUserStatus } from '../statuses/service';

/** A slot that started longer ago than this is history, not a switch to make now. */
const MAX_LATENESS_MS = 10 * 60_000;
export const SCHEDULE_TICK_MS = 15_000;

/**
 * Switches users' statuses when a working-hours slot starts (issue #3: "the server also switches
 * statuses when a slot starts, so records are right when no browser is open"). Each slot is claimed
 * with a conditional update, so with several nodes exactly one applies it.
 */
export class WorkinghoursScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly log: Logger,
  ) {}

  start(intervalMs = SCHEDULE_TICK_MS) {
    this.timer = setInterval(() => {
      this.running = this.tick().catch((error: unknown) =>
        this.log.error({ err: String(error) }, 'Schedule tick failed'),
      );
    }, intervalMs);
    this.timer.unref();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Applies every due slot; returns how many statuses it switched. */
  tick(now = new Date()): Promise<number> {
    return this.apply(now);
  }

  /** Applies due slots of one user (GET /v1/me/status?auto_update=1). */
  applyDueFor(userId: number, now = new Date()): Promise<number> {
    return this.apply(now, userId);
  }

  private async apply(now: Date, userId?: number): Promise<number> {
    const due = and(
      isNull(workinghoursItems.appliedAt),
      isNotNull(workinghoursItems.statusId),
      lte(workinghoursItems.startedAt, now),
      gt(workinghoursItems.startedAt, new Date(now.getTime() - MAX_LATENESS_MS)),
      gt(workinghoursItems.endedAt, now),
      userId === undefined ? undefined : eq(workinghoursItems.userId, userId),
    );
    const candidates = await this.db
      .select({ id: workinghoursItems.id })
      .from(workinghoursItems)
      .where(due)
      .orderBy(asc(workinghoursItems.startedAt))
      .limit(500);
    if (candidates.length === 0) return 0;
    const claimed = await this.db
      .update(workinghoursItems)
      .set({ appliedAt: now })
      // `due` again: another node may have claimed a slot, or an admin moved it, since the select.
      .where(
        and(
          inArray(
            workinghoursItems.id,
            candidates.map((c) => c.id),
          ),
          due,
        ),
      )
      .returning();
    let switched = 0;
    for (const slot of claimed) {
      // Claimed either way: an absence at the slot's start means this slot never switches.
      if (slot.statusId === null || (await this.isAbsent(slot.spaceId, slot.userId, now))) continue;
      try {
        await setUserStatus(this.db, this.bus, {
          userId: slot.userId,
          statusId: slot.statusId,
          spaceId: slot.spaceId,
          source: 'schedule',
          at: now,
        });
        switched += 1;
      } catch (error) {
        this.log.error({ err: String(error), slotId: slot.id }, 'Could not apply a working-hours slot');
      }
    }
    return switched;
  }

  private async isAbsent(spaceId: number, userId: number, now: Date) {
    const [row] = await this.db
      .select({ one: sql<number>`1` })
      .from(absences)
      .where(
        and(
          eq(absences.spaceId, spaceId),
          eq(absences.userId, userId),
          lte(absences.startedAt, now),
          gt(absences.endedAt, now),
        ),
      )
      .limit(1);
    return row !== undefined;
  }
}
