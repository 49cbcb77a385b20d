import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { objects } from '../db/schema';
import { refusalMessage } from '../db/sqlstate';
import type { Config } from '../lib/config';
import type { Sealer } from '../lib/crypto';
import type { Logger } from '../lib/logger';
import { ingest } from '../modules/inbox/ingest/ingest';
import {
  type IntakeFailure,
  isIntakeError,
  recordIntakeFailures,
} from '../modules/inbox/ingest/intake-errors';
import { notifyAccountError } from '../modules/notifications/events';
import { connectorContext } from '../providers/context';
import { getConnector } from '../providers/registry';
import { ConnectorError, failureParam, type ObjectRow, storedFailure } from '../providers/types';
import type { EventBus } from '../realtime/bus';
import { addUnits, afterScheduledRound, withJitter } from './poll-quota';

export interface PollingDeps {
  db: Db;
  bus: EventBus;
  sealer: Sealer;
  config: Config;
  log: Logger;
  fetch?: typeof fetch;
}

const LEASE_MS = 90_000;
const SCAN_MS = 5_000;
const MAX_BACKOFF_MS = 60_000;
/**
 * A network that keeps failing (5xx, timeouts, answers that are not its own) is retried with backoff for
 * as long as it fails; once it has failed for this long without one good round, the account shows the
 * last failure as its error (errors dropdown, settings/errors) and the administrators are told. Polling
 * goes on, and the first good round clears the error (docs/product/errors.md "When a network fails").
 */
export const POLL_FAILING_ERROR_AFTER_MS = 10 * 60_000;
/**
 * Tries at storing one poll's events before they go one by one and those that still fail are skipped.
 * ingest() already isolates events whose data the database refuses; this is for the rest (a trigger, a
 * bug), so one event cannot stop an account's intake forever.
 */
const STORE_ATTEMPTS = 5;

/**
 * Long-polls the networks of accounts in 'polling' mode (Telegram getUpdates, VK Bots Long Poll, MAX
 * GET /updates), asks those without a long poll (YouTube, `connector.polling`) on a schedule: a
 * per-account interval with jitter, paced by the network's daily quota (poll-quota.ts), and polls app
 * stores (Google Play, RuStore) on the interval their round asks for (PollResult.waitSeconds). Each
 * account is polled by one node at a time: a lease on the account row that the
 * polling node keeps renewing, so another node takes over when that node dies. The cursor is saved
 * after the events are committed; a redelivery after a crash is deduplicated by ingestion.
 */
export class PollingManager {
  private readonly loops = new Map<number, AbortController>();
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly deps: PollingDeps,
    private readonly nodeId: string,
    private readonly opts: {
      /** Only the accounts of these spaces (tests share one database); every space when absent. */
      spaceIds?: number[];
      /** How a retry or a scheduled round waits (tests move on when they choose instead of sleeping). */
      wait?: (ms: number, signal: AbortSignal) => Promise<void>;
      /** The clock of quota days (tests move it). */
      now?: () => Date;
      /** Jitter's randomness (tests fix it). */
      random?: () => number;
    } = {},
  ) {}

  start() {
    this.timer = setInterval(() => {
      this.scanning = this.scan().catch((error: unknown) =>
        this.deps.log.error({ err: String(error) }, 'Polling scan failed'),
      );
    }, SCAN_MS);
    this.timer.unref();
    this.scanning = this.scan().catch((error: unknown) =>
      this.deps.log.error({ err: String(error) }, 'Polling scan failed'),
    );
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.scanning;
    for (const controller of this.loops.values()) controller.abort();
    // Give the leases back so another node (or the next start) takes over at once.
    await this.deps.db
      .update(objects)
      .set({ pollLeaseNode: null, pollLeaseUntil: null })
      .where(eq(objects.pollLeaseNode, this.nodeId))
      .catch(() => {});
  }

  /** Resolves when every account's loop has ended (stopped, or paused by a refusal). */
  async idle() {
    await Promise.all([...this.running]);
  }

  /** Claims accounts in polling mode that nobody polls and starts a loop for each. */
  async scan() {
    if (this.stopped) return;
    const claimed = await this.deps.db
      .update(objects)
      .set({
        pollLeaseNode: this.nodeId,
        pollLeaseUntil: sql`now() + ${`${LEASE_MS} milliseconds`}::interval`,
      })
      .where(
        and(
          eq(objects.isActive, true),
          eq(objects.updatesMode, 'polling'),
          this.opts.spaceIds ? inArray(objects.spaceId, this.opts.spaceIds) : undefined,
          or(
            isNull(objects.pollLeaseUntil),
            lt(objects.pollLeaseUntil, sql`now()`),
            eq(objects.pollLeaseNode, this.nodeId),
          ),
        ),
      )
      .returning({ id: objects.id });
    for (const { id } of claimed) {
      if (!this.loops.has(id)) {
        const controller = new AbortController();
        this.loops.set(id, controller);
        const running = this.loop(id, controller.signal).finally(() => {
          this.loops.delete(id);
          this.running.delete(running);
        });
        this.running.add(running);
      }
    }
  }

  private async loop(objectId: number, signal: AbortSignal) {
    let backoff = 1_000;
    let storeFailures = 0;
    /** When the current run of failed rounds began (this loop's clock); null after a good round. */
    let failingSince: number | null = null;
    while (!signal.aborted && !this.stopped) {
      const object = await this.renewLease(objectId);
      if (!object) return;
      const connector = getConnector(object.provider);
      if (!connector?.poll) return;
      try {
        const round = await connector.poll(connectorContext(this.deps, object), object.pollCursor, {
          timeoutSeconds: this.deps.config.POLL_TIMEOUT_S,
          signal,
        });
        const { events, cursor, units } = round;
        if (events.length > 0) {
          const apart = storeFailures + 1 >= STORE_ATTEMPTS;
          const result = await (apart
            ? this.storeApart(object, events)
            : ingest(this.deps, object, events)
          ).catch((error: unknown) => {
            storeFailures += 1;
            throw error;
          });
          storeFailures = 0;
          if (result.invalid.length > 0) {
            this.deps.log.warn({ objectId, invalid: result.invalid }, 'Polled events we could not store');
          }
        }
        if (cursor !== object.pollCursor) {
          await this.deps.db.update(objects).set({ pollCursor: cursor }).where(eq(objects.id, objectId));
        }
        // The network answers again; an intake error (events it sent that we could not store) stays
        // until an administrator dismisses it.
        if (object.error && !isIntakeError(object.error)) await this.clearPollingError(object);
        backoff = 1_000;
        failingSince = null;
        if (connector.polling) {
          const wait = await afterScheduledRound(
            this.deps,
            object,
            connector.polling,
            units ?? 0,
            this.now(),
            this.opts.random,
          );
          await this.pause(objectId, wait, signal);
        } else if (round.waitSeconds) {
          await this.pause(objectId, withJitter(round.waitSeconds * 1000, this.opts.random), signal);
        }
      } catch (error) {
        if (signal.aborted) return;
        await this.countFailedUnits(object, error);
        const wait = await this.handleFailure(object, error, backoff);
        if (wait === null) return;
        // A network asking us to wait (429, a spent quota) is not failing: only other failures count.
        if (!(error instanceof ConnectorError && error.kind === 'rate_limited')) {
          failingSince ??= this.now().getTime();
          if (this.now().getTime() - failingSince >= POLL_FAILING_ERROR_AFTER_MS) {
            await this.showLongFailure(object, error);
          }
        }
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        await (this.opts.wait ?? sleep)(
          connector.polling ? withJitter(wait, this.opts.random) : wait,
          signal,
        );
      }
    }
  }

  private now() {
    return this.opts.now?.() ?? new Date();
  }

  /** A failed round still spent units (Google counts refused calls): the connector says how many. */
  private async countFailedUnits(object: ObjectRow, error: unknown) {
    const quota = getConnector(object.provider)?.polling?.quota;
    const units = (error as { units?: unknown } | null)?.units;
    if (!quota || typeof units !== 'number' || units <= 0) return;
    await addUnits(this.deps.db, object.id, quota.day(this.now()), units, quota.daily(this.deps.config));
  }

  /**
   * The last try at events that failed to store STORE_ATTEMPTS - 1 times: each on its own; one that still
   * fails is recorded as the account's error and skipped, so the cursor moves on.
   */
  private async storeApart(object: ObjectRow, events: unknown[]) {
    const invalid: Array<{ index: number; error: string }> = [];
    const failed: IntakeFailure[] = [];
    for (const [index, event] of events.entries()) {
      try {
        const one = await ingest(this.deps, object, [event]);
        invalid.push(...one.invalid.map((i) => ({ ...i, index })));
      } catch (error) {
        const failure = {
          index,
          error: `not stored: ${refusalMessage(error)}`,
        };
        invalid.push(failure);
        failed.push({ ...failure, event });
      }
    }
    if (failed.length > 0) await recordIntakeFailures(this.deps, object, failed, events.length);
    return { invalid };
  }

  /**
   * The pause between two rounds of an interval-polled network: waited in steps shorter than the lease,
   * renewing it after each, so no other node takes the account over meanwhile.
   */
  private async pause(objectId: number, ms: number, signal: AbortSignal) {
    // Tests move on at once: the whole pause is one wait.
    if (this.opts.wait) return this.opts.wait(ms, signal);
    const until = Date.now() + ms;
    for (let left = ms; left > 0 && !signal.aborted && !this.stopped; left = until - Date.now()) {
      await sleep(Math.min(left, LEASE_MS / 3), signal);
      if (!(await this.renewLease(objectId))) return;
    }
  }

  /** Keeps this node's lease; undefined when the account is gone, switched to webhooks, or taken over. */
  private async renewLease(objectId: number): Promise<ObjectRow | undefined> {
    const [row] = await this.deps.db
      .update(objects)
      .set({ pollLeaseUntil: sql`now() + ${`${LEASE_MS} milliseconds`}::interval` })
      .where(
        and(
          eq(objects.id, objectId),
          eq(objects.pollLeaseNode, this.nodeId),
          eq(objects.isActive, true),
          eq(objects.updatesMode, 'polling'),
        ),
      )
      .returning();
    return row;
  }

  /** Returns how long to wait before the next try, or null to stop polling this account. */
  private async handleFailure(object: ObjectRow, error: unknown, backoff: number): Promise<number | null> {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof ConnectorError && error.kind === 'rate_limited') {
      return (error.retryAfterSeconds ?? 5) * 1000;
    }
    if (error instanceof ConnectorError && (error.kind === 'auth' || error.kind === 'permanent')) {
      // A revoked token or a blocked bot: the administrator must act; the errors dropdown says so.
      // The lease is parked for 10 minutes, after which polling tries again by itself.
      this.deps.log.warn({ objectId: object.id, err: message }, 'Polling paused: the network refused');
      const [before] = await this.deps.db
        .select({ error: objects.error })
        .from(objects)
        .where(eq(objects.id, object.id))
        .limit(1);
      await this.deps.db
        .update(objects)
        .set({
          error: storedFailure(error),
          errorAt: sql`now()`,
          pollLeaseNode: 'paused',
          pollLeaseUntil: sql`now() + interval '10 minutes'`,
        })
        .where(eq(objects.id, object.id));
      await this.deps.bus.publish({
        type: 'objects.updated',
        spaceId: object.spaceId,
        payload: { ids: [object.id] },
      });
      // Issue 18: the administrators are told once per breakage.
      if (!before?.error) await notifyAccountError(this.deps, object, storedFailure(error));
      return null;
    }
    this.deps.log.warn({ objectId: object.id, err: message }, 'Polling failed, retrying');
    return backoff;
  }

  /** A run of temporary failures grew long: the account shows it (once) while polling goes on. */
  private async showLongFailure(object: ObjectRow, error: unknown) {
    const stored = failureParam(error);
    const [changed] = await this.deps.db
      .update(objects)
      .set({ error: stored, errorAt: sql`now()` })
      .where(and(eq(objects.id, object.id), isNull(objects.error)))
      .returning({ id: objects.id });
    if (!changed) return;
    this.deps.log.warn(
      { objectId: object.id, err: stored },
      'Polling has failed for long: shown on the account',
    );
    await this.deps.bus.publish({
      type: 'objects.updated',
      spaceId: object.spaceId,
      payload: { ids: [object.id] },
    });
    await notifyAccountError(this.deps, object, stored);
  }

  private async clearPollingError(object: ObjectRow) {
    await this.deps.db.update(objects).set({ error: null, errorAt: null }).where(eq(objects.id, object.id));
    await this.deps.bus.publish({
      type: 'objects.updated',
      spaceId: object.spaceId,
      payload: { ids: [object.id] },
    });
  }
}

function sleep(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
