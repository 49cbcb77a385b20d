import type { RuleTrigger } from '@otklik/shared';
import { and, asc, eq, gte, inArray, isNull, lte, ne, notExists, sql } from 'drizzle-orm';
import { issueLinks, issues, items, ruleMatches, rules } from '../db/schema';
import { taskClock } from '../lib/clock';
import type { Logger } from '../lib/logger';
import { PeriodicTask } from '../lib/periodic';
import { type EngineDeps, runRules } from '../modules/rules/engine';
import type { RuleRow } from '../modules/rules/service';

export const RULES_NO_REPLY_TICK_MS = 30_000;
const BATCH = 200;

export interface RulesNoReplyDeps extends EngineDeps {
  log: Logger;
  /** Only these spaces' rules (tests share one database between files); all by default. */
  spaceIds?: number[];
}

/** The triggers the clock starts (the others come from the ingestion queue). */
export const TIMED_TRIGGERS = [
  'no_reply',
  'waiting_customer',
  'task_due',
] as const satisfies readonly RuleTrigger[];

/**
 * The time-based auto-rules (issue 17). "No reply for N minutes": for each active rule, the customer
 * items of its space still open and unanswered N minutes after they arrived — found on the partial index
 * items_unreplied_idx (space, received_at), never a scan — that the rule has not run on yet. Items that
 * arrived before the rule existed count only if their N minutes ended after it was created. Time is the
 * task clock (tests move it: TEST_CLOCK=1 and POST /v1/test/clock).
 *
 * "Waiting for the customer more than N hours" (waiting_customer, `minutes` = hours × 60): items in status
 * `waiting` (items_queue_idx on space and status) that entered it — their latest `item.status` history
 * row to `waiting` (activity_item_idx), else their last change — N hours ago or more; once per rule and
 * time the item entered waiting (event `waiting:<history id>`), so what the rule itself does to the item
 * does not start it again, and a later wait does.
 *
 * "A task is due" (task_due): open tasks of the space whose due moment has come (issues_open_due_idx on
 * space and due_at) and that came due after the rule existed; the rule runs on each customer item the task
 * is about (issue_links), once per task and due moment (event `task:<task id>:<due ms>`, so a moved due
 * date counts again).
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
          inArray(rules.trigger, [...TIMED_TRIGGERS]),
          eq(rules.paused, false),
          this.deps.spaceIds ? inArray(rules.spaceId, this.deps.spaceIds) : undefined,
        ),
      )
      .orderBy(asc(rules.spaceId), asc(rules.position), asc(rules.id));
    let runs = 0;
    for (const rule of list) {
      const due = await this.due(rule, now);
      for (const { itemId, event } of due) {
        try {
          runs += (await runRules(this.deps, itemId, rule.trigger, { only: rule, now, event })).length;
        } catch (error) {
          this.deps.log.error({ err: String(error), rule: rule.id, item: itemId }, 'Time-based rule failed');
        }
      }
    }
    return runs;
  }

  private async due(rule: RuleRow, now: Date): Promise<Array<{ itemId: number; event: string }>> {
    if (rule.trigger === 'task_due')
      return (await dueTasksQuery(this.deps, rule, now)).map((r) => ({
        itemId: Number(r.itemId),
        event: r.event,
      }));
    const ms = (rule.minutes ?? 0) * 60_000;
    if (ms <= 0) return [];
    if (rule.trigger === 'waiting_customer')
      return (await dueWaitingQuery(this.deps, rule, now, ms)).map((r) => ({ itemId: r.id, event: r.event }));
    return (await dueItems(this.deps, rule, now, ms)).map((itemId) => ({ itemId, event: '' }));
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

/** When an item entered `waiting`: its latest history row to waiting, else its last change. */
const waitingEntry = sql<string>`(SELECT max(a.id) FROM activity a WHERE a.item_id = ${items.id} AND a.type = 'item.status' AND a.data->>'to' = 'waiting')`;
const waitingSince = sql`coalesce((SELECT a.at FROM activity a WHERE a.id = ${waitingEntry}), ${items.updatedAt})`;
const waitingEvent = sql<string>`'waiting:' || coalesce(${waitingEntry}::text, '0')`;

/** waiting_customer: items of the rule's space waiting for the customer `ms` or more at `now`. */
export function dueWaitingQuery(
  deps: Pick<EngineDeps, 'db'>,
  rule: typeof rules.$inferSelect,
  now: Date,
  ms: number,
) {
  const due = deps.db
    .select({ id: items.id, event: waitingEvent.as('event'), since: sql<Date>`${waitingSince}`.as('since') })
    .from(items)
    .where(
      and(
        eq(items.spaceId, rule.spaceId),
        sql`NOT ${items.isOwn}`,
        eq(items.status, 'waiting'),
        ne(items.isDeleted, true),
      ),
    )
    .as('due');
  return deps.db
    .select({ id: due.id, event: due.event })
    .from(due)
    .where(
      and(
        sql`${due.since} <= ${new Date(now.getTime() - ms).toISOString()}::timestamptz`,
        sql`${due.since} >= ${new Date(rule.createdAt.getTime() - ms).toISOString()}::timestamptz`,
        notExists(
          deps.db
            .select({ one: sql`1` })
            .from(ruleMatches)
            .where(
              and(
                eq(ruleMatches.ruleId, rule.id),
                eq(ruleMatches.itemId, due.id),
                eq(ruleMatches.event, due.event),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(due.since))
    .limit(BATCH);
}

/** task_due: (item, event) pairs of open tasks of the rule's space that came due by `now`. */
export function dueTasksQuery(deps: Pick<EngineDeps, 'db'>, rule: typeof rules.$inferSelect, now: Date) {
  const event = sql<string>`'task:' || ${issues.id}::text || ':' || (extract(epoch from ${issues.dueAt}) * 1000)::bigint::text`;
  return deps.db
    .select({ itemId: issueLinks.targetId, event: event.as('event') })
    .from(issues)
    .innerJoin(issueLinks, and(eq(issueLinks.issueId, issues.id), eq(issueLinks.kind, 'item')))
    .where(
      and(
        eq(issues.spaceId, rule.spaceId),
        // Literal, as in issues_open_due_idx's predicate.
        sql`${issues.status} <> 'closed'`,
        lte(issues.dueAt, now),
        gte(issues.dueAt, rule.createdAt),
        notExists(
          deps.db
            .select({ one: sql`1` })
            .from(ruleMatches)
            .where(
              and(
                eq(ruleMatches.ruleId, rule.id),
                eq(ruleMatches.itemId, issueLinks.targetId),
                sql`${ruleMatches.event} = ${event}`,
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(issues.dueAt))
    .limit(BATCH);
}

async function dueItems(deps: EngineDeps, rule: typeof rules.$inferSelect, now: Date, ms: number) {
  return (await dueItemsQuery(deps, rule, now, ms)).map((r) => r.id);
}
