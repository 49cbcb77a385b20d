import { setTimeout as delay } from 'node:timers/promises';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { objects, outbox } from '../db/schema';
import type { Config } from '../lib/config';
import type { Sealer } from '../lib/crypto';
import type { Logger } from '../lib/logger';
import { OUTBOX_QUEUED } from '../modules/outbox/queue';
import { connectorContext } from '../providers/context';
import { type ConnectorLookup, connectedProviders, getConnector } from '../providers/registry';
import { ConnectorError, type SentRef } from '../providers/types';
import type { EventBus } from '../realtime/bus';
import { recordFailure, recordSuccess } from './outbox-effects';
import { type OutboxRow, performOutboxCall } from './outbox-targets';
import { chargeOutboxCall } from './poll-quota';
import { QueueWorkerLoop } from './queue-worker';

export const OUTBOX_POLL_MS = 1_000;
/** A claimed row is the claimer's for this long (connectors time out well before); then it is due again. */
const LEASE_MS = 5 * 60_000;
const BATCH = 20;
/** Writing an outcome down is retried after 250 ms, 500 ms, ... at most 10 s apart (see persist()). */
const PERSIST_FIRST_DELAY_MS = 250;
const PERSIST_MAX_DELAY_MS = 10_000;

export interface OutboxWorkerDeps {
  db: Db;
  bus: EventBus;
  sealer: Sealer;
  config: Config;
  log: Logger;
  /** Tests put a failing network in here; the registry otherwise. */
  connectorFor?: ConnectorLookup;
  /** The worker's clock; tests move it forward to reach rescheduled rows. */
  now?: () => Date;
  fetch?: typeof fetch;
  /** Only these spaces' rows (tests share one PostgreSQL between files running at once); all by default. */
  spaceIds?: number[];
  /** How long an outcome the database cannot take is retried (default: the lease minus a minute). */
  persistForMs?: number;
}

/**
 * Makes the network calls the send path queued (modules/outbox/queue.ts). Rows are claimed with one UPDATE over
 * a `FOR UPDATE SKIP LOCKED` sub-select, so several nodes (and PGlite's single connection) never take
 * the same row; a chat's messages go out in order. Woken by `outbox.queued` events from any node, and
 * polls as a fallback.
 */
export class OutboxWorker extends QueueWorkerLoop {
  private readonly persistForMs: number;

  constructor(private readonly deps: OutboxWorkerDeps) {
    super({ bus: deps.bus, log: deps.log, wakeOn: OUTBOX_QUEUED, failure: 'Outbox run failed' });
    this.persistForMs = deps.persistForMs ?? LEASE_MS - 60_000;
  }

  private now() {
    return this.deps.now?.() ?? new Date();
  }

  override start(intervalMs = OUTBOX_POLL_MS) {
    super.start(intervalMs);
  }

  /** Claims one batch of due rows and runs them (different chats in parallel). */
  async tick(): Promise<number> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((row) => this.run(row)));
    return claimed.length;
  }

  /**
   * A claim is a lease, not a state change: the row stays `pending` with `run_at` pushed LEASE_MS ahead
   * and one more attempt. If the node dies mid-call the row simply comes due again; and every query here
   * stays on the partial index of pending rows (outbox_due_idx), however many done rows pile up.
   */
  private async claim(): Promise<OutboxRow[]> {
    const now = this.now();
    const candidates = this.deps.db
      .select({ id: outbox.id })
      .from(outbox)
      .where(
        and(
          eq(outbox.state, 'pending'),
          lte(outbox.runAt, now),
          this.deps.spaceIds ? inArray(outbox.spaceId, this.deps.spaceIds) : undefined,
          // A node without a connector for the network (an older version mid-deploy) leaves the row to one
          // that has it, instead of failing it.
          this.deps.connectorFor
            ? undefined
            : inArray(
                outbox.objectId,
                this.deps.db
                  .select({ id: objects.id })
                  .from(objects)
                  .where(inArray(objects.provider, connectedProviders())),
              ),
          // A chat's messages go out in order: not while an earlier one of the chat is still pending.
          sql`NOT EXISTS (SELECT 1 FROM outbox AS earlier WHERE earlier.state = 'pending' AND ${outbox.chatId} IS NOT NULL AND earlier.chat_id = ${outbox.chatId} AND earlier.id < ${outbox.id})`,
        ),
      )
      .orderBy(asc(outbox.runAt), asc(outbox.id))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    // The sub-select locked the rows (and re-checked them after any wait), so the update needs no second test.
    return this.deps.db
      .update(outbox)
      .set({ attempts: sql`${outbox.attempts} + 1`, runAt: new Date(now.getTime() + LEASE_MS) })
      .where(inArray(outbox.id, candidates))
      .returning();
  }

  private async run(row: OutboxRow) {
    const effects = { db: this.deps.db, bus: this.deps.bus };
    let sent: SentRef | null;
    try {
      const [object] = await this.deps.db.select().from(objects).where(eq(objects.id, row.objectId)).limit(1);
      if (!object?.isActive)
        throw new ConnectorError('permanent', 'The account is disconnected', {
          reason: { key: 'failure.accountOff' },
        });
      const connector = (this.deps.connectorFor ?? getConnector)(object.provider);
      if (!connector)
        throw new ConnectorError('permanent', `${object.provider}: not connected on this server`, {
          reason: { key: 'failure.notConnectedHere', params: { network: object.provider } },
        });
      const ctx = connectorContext({ ...this.deps, now: () => this.now() }, object);
      sent = await performOutboxCall(this.deps.db, ctx, connector, row).finally(() =>
        // Counting the call must not turn a call the network has made into a failure (and a resend).
        chargeOutboxCall(this.deps, object, connector.polling, row.action, this.now()).catch(
          (error: unknown) =>
            this.deps.log.warn({ outboxId: row.id, err: String(error) }, 'Outbox call not counted'),
        ),
      );
    } catch (error) {
      const { retryIn } = await this.persist(row, () => recordFailure(effects, row, error, this.now()));
      this.deps.log.warn(
        {
          outboxId: row.id,
          action: row.action,
          err: error instanceof Error ? error.message : String(error),
          retryIn,
        },
        'Outbox call failed',
      );
      return;
    }
    // The network has done it; only writing that down is left. A database away at this moment must not
    // leave the row to come due again when its lease ends — it would be sent twice (found by
    // e2e/faults/postgres-restart.faults.ts): keep trying while the lease lasts.
    await this.persist(row, () => recordSuccess(effects, row, sent, this.now()));
  }

  /**
   * Writes a call's outcome, retrying with backoff while the database cannot take it (a restart, a
   * failover), for at most the lease minus a minute. Throws the last error after that.
   */
  private async persist<T>(row: OutboxRow, write: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.persistForMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        const wait = Math.min(PERSIST_MAX_DELAY_MS, PERSIST_FIRST_DELAY_MS * 2 ** attempt);
        if (Date.now() + wait > deadline) throw error;
        this.deps.log.warn(
          { outboxId: row.id, err: error instanceof Error ? error.message : String(error), retryInMs: wait },
          'Outbox outcome not written yet; retrying',
        );
        await delay(wait);
      }
    }
  }
}
