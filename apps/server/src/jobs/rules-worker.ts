import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { ruleQueue } from '../db/schema';
import type { Logger } from '../lib/logger';
import { BOT_QUEUE_TRIGGER, runBotOn } from '../modules/bots/runtime';
import { MatchCache, NOTIFY_QUEUE_TRIGGER, notifyArrival } from '../modules/notifications/watches';
import { type EngineDeps, runRules } from '../modules/rules/engine';
import { RULES_QUEUED } from '../modules/rules/queue';
import { activeRules, type RuleRow } from '../modules/rules/service';
import { QueueWorkerLoop } from './queue-worker';

export const RULES_POLL_MS = 2_000;
/** A claimed row is the claimer's for this long; then another node takes it again. */
const LEASE_MS = 60_000;
const BATCH = 50;
/** After this many tries an item's rules are given up on (each try's failure is already recorded). */
const MAX_ATTEMPTS = 3;

export interface RulesWorkerDeps extends EngineDeps {
  log: Logger;
  /** Pauses between a bot webhook's tries (modules/bots/webhook-call.ts); tests shorten them. */
  webhookBackoffMs?: number[];
  /** Only these spaces' rows (tests share one PostgreSQL between files running at once); all by default. */
  spaceIds?: number[];
}

/**
 * Runs the arrival rules on queued items (modules/rules/queue.ts). Rows are leased with one UPDATE over a
 * `FOR UPDATE SKIP LOCKED` sub-select, like the outbox worker; a row is deleted once its item's rules
 * ran. Woken by `rules.queued` from any node, and polls as a fallback.
 */
export class RulesWorker extends QueueWorkerLoop {
  constructor(private readonly deps: RulesWorkerDeps) {
    super({
      bus: deps.bus,
      log: deps.log,
      wakeOn: RULES_QUEUED,
      failure: 'Auto-rules run failed',
      wakeAtStart: true,
    });
  }

  override start(intervalMs = RULES_POLL_MS) {
    super.start(intervalMs);
  }

  async tick(): Promise<number> {
    const { db } = this.deps;
    const now = new Date();
    const candidates = db
      .select({ id: ruleQueue.id })
      .from(ruleQueue)
      .where(
        and(
          or(isNull(ruleQueue.lockedUntil), lt(ruleQueue.lockedUntil, now)),
          this.deps.spaceIds ? inArray(ruleQueue.spaceId, this.deps.spaceIds) : undefined,
        ),
      )
      .orderBy(asc(ruleQueue.id))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(ruleQueue)
      .set({ lockedUntil: new Date(now.getTime() + LEASE_MS), attempts: sql`${ruleQueue.attempts} + 1` })
      .where(inArray(ruleQueue.id, candidates))
      .returning();
    claimed.sort((a, b) => a.id - b.id);
    // A space's rules are read once per batch, not once per item; so are the watches and what matching
    // them needs (the items, filters, memberships, groups).
    const bySpace = new Map<string, Promise<RuleRow[]>>();
    const watched = new MatchCache(db);
    const arrivals = claimed.filter((r) => r.trigger === NOTIFY_QUEUE_TRIGGER).map((r) => r.itemId);
    if (arrivals.length > 0) await watched.prefetch(arrivals).catch(() => undefined);
    for (const row of claimed) {
      const rules = (spaceId: number) => {
        const key = `${spaceId}:${row.trigger}`;
        if (row.trigger === NOTIFY_QUEUE_TRIGGER || row.trigger === BOT_QUEUE_TRIGGER)
          return Promise.resolve([]);
        if (!bySpace.has(key)) bySpace.set(key, activeRules(db, spaceId, row.trigger));
        return bySpace.get(key)!;
      };
      const trigger = row.trigger;
      try {
        if (trigger === NOTIFY_QUEUE_TRIGGER) await notifyArrival(this.deps, row.itemId, watched);
        else if (trigger === BOT_QUEUE_TRIGGER) await runBotOn(this.deps, row.itemId);
        else await runRules(this.deps, row.itemId, trigger, { rules, event: row.event });
      } catch (error) {
        this.deps.log.error({ err: String(error), item: row.itemId }, 'Auto-rules failed on an item');
        if (row.attempts < MAX_ATTEMPTS) continue;
      }
      await db.delete(ruleQueue).where(eq(ruleQueue.id, row.id));
    }
    return claimed.length;
  }
}
