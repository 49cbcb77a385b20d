import { AUDIT_RETENTION_DEFAULT_DAYS } from '@otklik/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Logger } from '../../lib/logger';
import { PeriodicTask } from '../../lib/periodic';

const EVERY_MS = 3_600_000;
const BATCH = 5_000;
const MAX_ROUNDS = 40;
/** One node prunes at a time: the transaction-scoped advisory lock is the lease (released at commit). */
const LEASE_KEY = 724_310_016;

/**
 * Deletes action-log entries older than each space's retention (audit_settings, else the default).
 * The only deleter the table's trigger lets through: its transaction sets `otklik.audit_prune`. Per
 * space over audit_log_space_at_idx, in bounded batches.
 */
export class AuditRetentionJob {
  private readonly task: PeriodicTask;

  constructor(private readonly deps: { db: Db; log: Logger }) {
    this.task = new PeriodicTask('Action log retention', () => this.prune(), deps.log);
  }

  start(intervalMs = EVERY_MS) {
    this.task.start(intervalMs);
  }

  stop() {
    return this.task.stop();
  }

  /** Deletes what is past retention at `now`; how many entries went (0 when another node holds the lease). */
  async prune(now = new Date()): Promise<number> {
    let deleted = 0;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const n = await this.deps.db.transaction(async (tx) => {
        const lease = (await tx.execute(
          sql`SELECT pg_try_advisory_xact_lock(${LEASE_KEY}) AS ok`,
        )) as unknown as { rows: Array<{ ok: boolean }> };
        if (!lease.rows[0]?.ok) return -1;
        await tx.execute(sql`SELECT set_config('otklik.audit_prune', 'on', true)`);
        const result = (await tx.execute(sql`
          DELETE FROM audit_log WHERE id IN (
            SELECT old.id FROM spaces sp
            LEFT JOIN audit_settings s ON s.space_id = sp.id
            CROSS JOIN LATERAL (
              SELECT a.id FROM audit_log a
              WHERE a.space_id = sp.id
                AND a.at < ${now.toISOString()}::timestamptz
                  - make_interval(days => coalesce(s.retention_days, ${AUDIT_RETENTION_DEFAULT_DAYS}::int))
              LIMIT ${BATCH}
            ) old
            LIMIT ${BATCH})`)) as unknown as { rowCount?: number | null; affectedRows?: number };
        return Number(result.rowCount ?? result.affectedRows ?? 0);
      });
      if (n < 0) break;
      deleted += n;
      if (n < BATCH) break;
    }
    if (deleted > 0) this.deps.log.info({ deleted }, 'Pruned action log entries past retention');
    return deleted;
  }
}
