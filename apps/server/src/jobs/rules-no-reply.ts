import { and, asc, eq, gte, inArray, isNull, lte, ne, notExists, sql } from 'drizzle-orm';
import { items, ruleMatches, rules } from '../db/schema';
import { taskClock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import { type EngineDeps, runRules } from '../modules/rules/engine';
import { PeriodicTask } from './periodic';

export const RULES_NO_REPLY_TICK_MS = 30_000;
const BATCH = 200;

export interface RulesNoReplyDeps extends EngineDeps {
  log: Logger;
  /** Only these spaces' rules (tests share one database between files); all by default. */
  spaceIds?: number[];
}

/**
 * The time-based auto-rules (issue 17): "no reply for N minutes". For each active rule, the customer
 * items of its space still open and unanswered N minutes after they arrived — found on the partial index
 * items_unreplied_idx (space, received_at), never a scan — that the rule has not run on yet. Items that
 * arrived before the rule existed count only if their N minutes ended after it was created. Time is the
 * task clock (tests move it: TEST_CLOCK=1 and POST /v1/test/clock).
 */
export class RulesNoReplyJob {
  private readonly task: PeriodicTask;

  constructor(private readonly deps: RulesNoReplyDeps) {
    this.task = new PeriodicTask('Auto-rules: no reply', () => this.tick(), deps.log);
  }

  start(intervalMs = RULES_NO_REPLY_TICK_MS) {
    this.task.start(intervalMs);
  }

  stop() {
    return this.task.stop();
  }

  /** The items found due at `now` and run; the number of rule runs. */
  async tick(now = taskClock.now()): Promise<number> {
    const { db } = this.deps;
    const list = await db
      .select()
      .from(rules)
      .where(
        and(
          eq(rules.trigger, 'no_reply'),
          eq(rules.paused, false),
          this.deps.spaceIds ? inArray(rules.spaceId, this.deps.spaceIds) : undefined,
        ),
      )
      .orderBy(asc(rules.spaceId), asc(rules.position), asc(rules.id));
    let runs = 0;
    for (const rule of list) {
      const ms = (rule.minutes ?? 0) * 60_000;
      if (ms <= 0) continue;
      const due = await dueItems(this.deps, rule, now, ms);
      for (const itemId of due) {
        try {
          runs += (await runRules(this.deps, itemId, 'no_reply', { only: rule, now })).length;
        } catch (error) {
          this.deps.log.error({ err: String(error), rule: rule.id, item: itemId }, 'No-reply rule failed');
        }
      }
    }
    return runs;
  }
}

/** The query the benchmark explains: items of one rule's space unanswered for `ms` at `now`. */
export function dueItemsQuery(
  deps: Pick<EngineDeps, 'db'>,
  rule: typeof rules.$inferSelect,
  now: Date,
  ms: number,
) {
  return deps.db
    .select({ id: items.id })
    .from(items)
    .where(
      and(
        eq(items.spaceId, rule.spaceId),
        sql`NOT ${items.isOwn}`,
        isNull(items.firstReplyAt),
        // Literal, as in the partial index's predicate, so the planner can use it.
        sql`${items.status} IN ('new', 'inprogress', 'open')`,
        lte(items.receivedAt, new Date(now.getTime() - ms)),
        gte(items.receivedAt, new Date(rule.createdAt.getTime() - ms)),
        ne(items.isDeleted, true),
        notExists(
          deps.db
            .select({ one: sql`1` })
            .from(ruleMatches)
            .where(and(eq(ruleMatches.ruleId, rule.id), eq(ruleMatches.itemId, items.id))),
        ),
      ),
    )
    .orderBy(asc(items.receivedAt))
    .limit(BATCH);
}

async function dueItems(deps: EngineDeps, rule: typeof rules.$inferSelect, now: Date, ms: number) {
  return (await dueItemsQuery(deps, rule, now, ms)).map((r) => r.id);
}
