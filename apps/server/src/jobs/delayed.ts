import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { activity, chats, items } from '../db/schema';
import type { Logger } from '../lib/logger';
import { PeriodicTask } from '../lib/periodic';
import { presentChats, presentItems, publishBySpace } from '../modules/inbox/actions/present';
import type { EventBus } from '../realtime/bus';

export const DELAY_TICK_MS = 30_000;
/** Rows returned per statement; a tick takes further batches while they come back full. */
const BATCH = 500;
const MAX_ROUNDS = 20;
const SYSTEM = { kind: 'system' as const };

export interface DelayedReturnsDeps {
  db: Db;
  bus: EventBus;
  log: Logger;
  /** Only these spaces' rows (tests share one database between files running at once); all by default. */
  spaceIds?: number[];
}

type Table = typeof items | typeof chats;

/**
 * docs/product/states.md `delayed`: a comment or chat put off until a moment comes back into the queue when that moment
 * passes. It returns to work in progress when someone already took it (assigned, or already answered),
 * otherwise to `new` — both are default queue statuses, so it shows in the lists and badges again.
 */
const statusAfterDelay = (table: Table) =>
  sql<
    'new' | 'inprogress'
  >`CASE WHEN ${table.assignedUserId} IS NOT NULL OR ${table.firstReplyAt} IS NOT NULL THEN 'inprogress' ELSE 'new' END`;

/**
 * Brings delayed items and chats back when `delayed_until` passes. Each batch is one UPDATE over a
 * `FOR UPDATE SKIP LOCKED` sub-select (the outbox worker's claim), so several nodes never return the
 * same row twice; the activity rows go in the same transaction, the badge counters follow by their
 * triggers (migration 0005), and the lists hear `items.updated` / `chats.updated` as for a manual change.
 */
export class DelayedReturns {
  private readonly task: PeriodicTask;

  constructor(private readonly deps: DelayedReturnsDeps) {
    this.task = new PeriodicTask('Delayed returns', () => this.tick(), deps.log);
  }

  start(intervalMs = DELAY_TICK_MS) {
    this.task.start(intervalMs);
  }

  stop() {
    return this.task.stop();
  }

  /** Returns everything due at `now`; the counts of items and chats brought back. */
  async tick(now = new Date()): Promise<{ items: number; chats: number }> {
    let itemCount = 0;
    let chatCount = 0;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const back = await this.returnItems(now);
      itemCount += back;
      if (back < BATCH) break;
    }
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const back = await this.returnChats(now);
      chatCount += back;
      if (back < BATCH) break;
    }
    return { items: itemCount, chats: chatCount };
  }

  /** `status = 'delayed' AND delayed_until <= now`, oldest first, one batch, locked rows skipped. */
  private due(table: Table, now: Date) {
    return this.deps.db
      .select({ id: table.id })
      .from(table)
      .where(
        and(
          eq(table.status, 'delayed'),
          lte(table.delayedUntil, now),
          this.deps.spaceIds ? inArray(table.spaceId, this.deps.spaceIds) : undefined,
        ),
      )
      .orderBy(asc(table.delayedUntil))
      .limit(BATCH)
      .for('update', { skipLocked: true });
  }

  private async returnItems(now: Date) {
    const updated = await this.deps.db.transaction(async (tx) => {
      const rows = await tx
        .update(items)
        .set({ status: statusAfterDelay(items), delayedUntil: null, returnedAt: now, updatedAt: now })
        // The sub-select locked the rows (re-checked after any wait), so no second test is needed.
        .where(inArray(items.id, this.due(items, now)))
        .returning();
      await recordReturns(tx as unknown as Db, 'item', rows, now);
      return rows;
    });
    if (updated.length > 0)
      await publishBySpace(this.deps.bus, 'items.updated', await presentItems(this.deps.db, updated), SYSTEM);
    return updated.length;
  }

  private async returnChats(now: Date) {
    const updated = await this.deps.db.transaction(async (tx) => {
      const rows = await tx
        .update(chats)
        .set({ status: statusAfterDelay(chats), delayedUntil: null, returnedAt: now, updatedAt: now })
        .where(inArray(chats.id, this.due(chats, now)))
        .returning();
      await recordReturns(tx as unknown as Db, 'chat', rows, now);
      return rows;
    });
    if (updated.length > 0)
      await publishBySpace(this.deps.bus, 'chats.updated', await presentChats(this.deps.db, updated), SYSTEM);
    return updated.length;
  }
}

/** The activity of rows brought back: a system status change from `delayed`, as workflow.ts records one. */
async function recordReturns(
  db: Db,
  kind: 'item' | 'chat',
  rows: Array<{ id: number; spaceId: number; objectId: number; status: string }>,
  now: Date,
) {
  if (rows.length === 0) return;
  await db.insert(activity).values(
    rows.map((row) => ({
      spaceId: row.spaceId,
      objectId: row.objectId,
      ...(kind === 'item' ? { itemId: row.id } : { chatId: row.id }),
      type: `${kind}.status` as const,
      causeKind: SYSTEM.kind,
      causeId: null,
      userId: null,
      data: { from: 'delayed', to: row.status, close_reason: null, reason: 'delay_ended' },
      at: now,
    })),
  );
}
