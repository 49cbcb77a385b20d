import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Logger } from '../lib/logger';
import { PeriodicTask } from './periodic';

/** Carried-out network calls are kept this long (a reply a collector refused can be sent again meanwhile). */
export const OUTBOX_DONE_KEEP_DAYS = 30;
const PRUNE_EVERY_MS = 3_600_000;
/** Rows deleted per statement; a run takes further batches while they come back full. */
const BATCH = 5_000;
const MAX_ROUNDS = 40;

/**
 * Every reply, like and ban leaves an outbox row; without pruning the table grows with all the work
 * ever done. Rows the networks carried out (`done`) go after OUTBOX_DONE_KEEP_DAYS, in bounded batches
 * over outbox_done_idx. Pending rows are work, and `failed` ones are what settings/errors and Retry read,
 * so both stay.
 */
export class OutboxPruner {
  private readonly task: PeriodicTask;

  constructor(private readonly deps: { db: Db; log: Logger }) {
    this.task = new PeriodicTask('Outbox pruning', () => this.prune(), deps.log);
  }

  start(intervalMs = PRUNE_EVERY_MS) {
    this.task.start(intervalMs);
  }

  stop() {
    return this.task.stop();
  }

  /** Deletes the carried-out rows older than the keeping time at `now`; how many went. */
  async prune(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - OUTBOX_DONE_KEEP_DAYS * 86_400_000);
    let deleted = 0;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const result = (await this.deps.db.execute(sql`DELETE FROM outbox WHERE id IN (
          SELECT id FROM outbox WHERE state = 'done' AND done_at < ${before.toISOString()}::timestamptz
          ORDER BY done_at LIMIT ${BATCH})`)) as unknown as {
        rowCount?: number | null;
        affectedRows?: number;
      };
      const n = Number(result.rowCount ?? result.affectedRows ?? 0);
      deleted += n;
      if (n < BATCH) break;
    }
    if (deleted > 0) this.deps.log.info({ deleted }, 'Pruned carried-out outbox rows');
    return deleted;
  }
}
