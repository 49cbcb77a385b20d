import { and, asc, inArray, isNull, lte, ne } from 'drizzle-orm';
import type { Db } from '../db/client';
import { issueHistory, issues } from '../db/schema';
import { taskClock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import { PeriodicTask } from '../lib/periodic';
import { notify, publishChanged } from '../modules/issues/service';
import type { EventBus } from '../realtime/bus';

export const ISSUES_DUE_TICK_MS = 15_000;
const BATCH = 200;

export interface IssuesDueDeps {
  db: Db;
  bus: EventBus;
  log: Logger;
  /** Only these spaces' tasks (tests share one database between files running at once); all by default. */
  spaceIds?: number[];
}

/**
 * Tasks reaching their due moment while open (issue 16): each is marked once (`due_notified_at`, claimed
 * with `FOR UPDATE SKIP LOCKED` like jobs/delayed.ts, so several nodes never notify twice), its history
 * gets an "expired" row, its assignee the socket `notify` and the space `issues.changed` (the top-bar
 * expired counter reloads).
 */
export class IssuesDueJob {
  private readonly task: PeriodicTask;

  constructor(private readonly deps: IssuesDueDeps) {
    this.task = new PeriodicTask('Task due dates', () => this.tick(), deps.log);
  }

  start(intervalMs = ISSUES_DUE_TICK_MS) {
    this.task.start(intervalMs);
  }

  stop() {
    return this.task.stop();
  }

  /** Marks everything due at `now`; the number of tasks that became expired. */
  async tick(now = taskClock.now()): Promise<number> {
    const { db } = this.deps;
    const due = db
      .select({ id: issues.id })
      .from(issues)
      .where(
        and(
          ne(issues.status, 'closed'),
          isNull(issues.dueNotifiedAt),
          lte(issues.dueAt, now),
          this.deps.spaceIds ? inArray(issues.spaceId, this.deps.spaceIds) : undefined,
        ),
      )
      .orderBy(asc(issues.dueAt))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const rows = await db.transaction(async (tx) => {
      const marked = await tx
        .update(issues)
        .set({ dueNotifiedAt: now })
        .where(inArray(issues.id, due))
        .returning();
      if (marked.length > 0)
        await tx.insert(issueHistory).values(
          marked.map((r) => ({
            issueId: r.id,
            spaceId: r.spaceId,
            userId: null,
            field: 'expired',
            before: null,
            after: r.dueAt?.toISOString() ?? null,
            createdAt: now,
          })),
        );
      return marked;
    });
    for (const row of rows) {
      await publishChanged(this.deps, row, null);
      if (row.assignedUserId !== null)
        await notify(this.deps, [row.assignedUserId], row, 'issues.notify.due', {});
    }
    return rows.length;
  }
}
