import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Logger } from '../lib/logger';
import { PeriodicTask } from '../lib/periodic';

/** Carried-out network calls are kept this long (a reply a collector refused can be sent again meanwhile). */
export const OUTBOX_DONE_KEEP_DAYS = 30;
/** Finished webhook deliveries (sent or given up) stay in settings/webhooks' delivery log this long. */
export const WEBHOOK_DELIVERY_KEEP_DAYS = 30;
const PRUNE_EVERY_MS = 3_600_000;
/** Rows deleted per statement; a run takes further batches while they come back full. */
const BATCH = 5_000;
const MAX_ROUNDS = 40;

/**
 * Every reply, like and ban leaves an outbox row, and every event an outgoing webhook delivery; without
 * pruning both tables grow with all the work ever done. Outbox rows the networks carried out (`done`) go
 * after OUTBOX_DONE_KEEP_DAYS, in bounded batches over outbox_done_idx; pending rows are work, and
 * `failed` ones are what settings/errors and Retry read, so both stay. Webhook deliveries that are
 * finished (`done` or `failed`: the log shows both, and "send again" makes a new attempt of a recent one)
 * go after WEBHOOK_DELIVERY_KEEP_DAYS, over webhook_deliveries_finished_idx; pending ones stay.
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

  /** Deletes what is past its keeping time at `now`; how many rows went (outbox and deliveries). */
  async prune(now = new Date()): Promise<number> {
    const daysBefore = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
    const outboxRows = await this.batches(
      (before) => sql`DELETE FROM outbox WHERE id IN (
          SELECT id FROM outbox WHERE state = 'done' AND done_at < ${before}::timestamptz
          ORDER BY done_at LIMIT ${BATCH})`,
      daysBefore(OUTBOX_DONE_KEEP_DAYS),
    );
    const deliveries = await this.batches(
      (before) => sql`DELETE FROM webhook_deliveries WHERE id IN (
          SELECT id FROM webhook_deliveries WHERE state <> 'pending' AND created_at < ${before}::timestamptz
          ORDER BY created_at LIMIT ${BATCH})`,
      daysBefore(WEBHOOK_DELIVERY_KEEP_DAYS),
    );
    if (outboxRows > 0) this.deps.log.info({ deleted: outboxRows }, 'Pruned carried-out outbox rows');
    if (deliveries > 0) this.deps.log.info({ deleted: deliveries }, 'Pruned finished webhook deliveries');
    return outboxRows + deliveries;
  }

  /** Runs one bounded DELETE again while it comes back full. */
  private async batches(statement: (before: string) => SQL, before: string): Promise<number> {
    let deleted = 0;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const result = (await this.deps.db.execute(statement(before))) as unknown as {
        rowCount?: number | null;
        affectedRows?: number;
      };
      const n = Number(result.rowCount ?? result.affectedRows ?? 0);
      deleted += n;
      if (n < BATCH) break;
    }
    return deleted;
  }
}
