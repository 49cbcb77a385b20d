import {
  DEFAULT_LOCALE,
  factsNeeded,
  matchesRule,
  type RuleActionResult,
  type RuleFacts,
  type RuleTrigger,
  translate,
} from '@otklik/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  activity,
  authorLabels,
  items,
  itemTags,
  objects,
  posts,
  ruleMatches,
  rules,
  users,
} from '../../db/schema';
import type { Logger } from '../../lib/logger';
import { audit } from '../audit/record';
import type { ActionDeps } from '../inbox/actions/send';
import { runActions } from '../macros/runner';
import { loadActor, type ServerActor } from '../spaces/actor';
import { spaceBusinessCalendar, withinBusinessHours } from '../workinghours/business-hours';
import { activeRules, type RuleRow } from './service';

// The auto-rules engine (issue 17). An item that arrived (jobs/rules-worker.ts, fed by the ingestion
// transaction) or that nobody answered in time (jobs/rules-no-reply.ts) is checked against its space's
// active rules in order; a matching rule's actions run through the macro runner (modules/macros/runner.ts)
// — the same inbox services, catalogue checks and outbox — as performer `{ kind: 'rule' }`, so:
// - every change is in the item's history with cause "rule" and the rule, and the run itself is an
//   `item.rule` history row and a `rule.applied` action-log entry with the rule's name and each outcome;
// - a failed action keeps nothing of that item's run and is recorded as failed (never silent);
// - loop guard: only customer arrivals and the clock start rules; what a rule does (status, tags, a
//   reply) goes through the action services, which never enqueue rules, and a rule runs at most once
//   per item (rule_matches' unique key is claimed before anything is done).

export interface EngineDeps extends ActionDeps {
  log?: Logger;
}

type ItemRow = typeof items.$inferSelect;

export async function factsOf(
  db: Db,
  item: ItemRow,
  need = { authorItems: true, authorLabels: true, post: true, businessHours: true },
): Promise<RuleFacts> {
  const [object] = await db
    .select({ provider: objects.provider, companyId: objects.companyId })
    .from(objects)
    .where(eq(objects.id, item.objectId))
    .limit(1);
  const tagRows = await db.select({ id: itemTags.tagId }).from(itemTags).where(eq(itemTags.itemId, item.id));
  // The costlier facts only when a rule reads them (items_author_idx, author_labels, posts by id).
  const [count] =
    need.authorItems && item.authorId !== null
      ? await db
          .select({ n: sql<number>`count(*)::int` })
          .from(items)
          .where(and(eq(items.authorId, item.authorId), eq(items.isOwn, false)))
      : [];
  const labelRows =
    need.authorLabels && item.authorId !== null
      ? await db
          .select({ id: authorLabels.labelId })
          .from(authorLabels)
          .where(eq(authorLabels.authorId, item.authorId))
      : [];
  const [post] =
    need.post && item.postId !== null
      ? await db.select({ text: posts.text }).from(posts).where(eq(posts.id, item.postId)).limit(1)
      : [];
  return {
    text: item.text,
    provider: object?.provider ?? '',
    objectId: item.objectId,
    companyId: object?.companyId ?? null,
    kind: item.kind,
    rating: item.rating,
    sentiment: item.sentiment,
    emotion: item.emotion,
    tagIds: tagRows.map((r) => r.id),
    authorItems: Number(count?.n ?? 0),
    authorLabelIds: labelRows.map((r) => r.id),
    postText: post?.text ?? '',
    withinBusinessHours: need.businessHours
      ? withinBusinessHours(
          await spaceBusinessCalendar(db, item.spaceId),
          object?.companyId ?? null,
          item.createdAt,
        )
      : false,
  };
}

/** The user a rule's templates sign as and its tasks are created by: its author, while a member. */
async function delegateOf(db: Db, rule: RuleRow): Promise<ServerActor | null> {
  if (rule.createdBy === null) return null;
  const [user] = await db.select().from(users).where(eq(users.id, rule.createdBy)).limit(1);
  if (!user) return null;
  const actor = await loadActor(db, user);
  return actor.rows.some((r) => r.space.id === rule.spaceId) ? actor : null;
}

export interface RuleOutcome {
  ruleId: number;
  status: 'ok' | 'skipped' | 'failed';
  results: RuleActionResult[];
}

/** Runs one matching rule on one item, once: claims the (rule, item) pair, runs, records. */
export async function applyRule(
  deps: EngineDeps,
  rule: RuleRow,
  item: ItemRow,
  now = new Date(),
  event = '',
) {
  const { db } = deps;
  const [claimed] = await db
    .insert(ruleMatches)
    .values({
      spaceId: rule.spaceId,
      ruleId: rule.id,
      itemId: item.id,
      event,
      status: 'skipped',
      results: [],
      at: now,
    })
    .onConflictDoNothing({ target: [ruleMatches.ruleId, ruleMatches.itemId, ruleMatches.event] })
    .returning({ id: ruleMatches.id });
  if (!claimed) return null;
  let status: RuleOutcome['status'] = 'failed';
  let results: RuleActionResult[] = [];
  let error: string | null = null;
  try {
    const run = await runActions(
      {
        deps,
        actor: null,
        locale: DEFAULT_LOCALE,
        now,
        performer: { kind: 'rule', id: rule.id, spaceId: rule.spaceId, name: rule.name },
        delegate: await delegateOf(db, rule),
      },
      { id: rule.id, spaceId: rule.spaceId, actions: rule.actions },
      [item.id],
    );
    const report = run.items[0]!;
    status = report.status;
    results = report.actions;
    if (report.status === 'failed') {
      const failed = report.actions.find((a) => a.outcome === 'failed');
      error = failed?.message ?? report.message ?? translate(DEFAULT_LOCALE, 'error.internal');
    }
  } catch (e) {
    // Not an action's refusal (those are in the report) but a failure of the moment: still recorded.
    error = e instanceof Error ? e.message : String(e);
    deps.log?.error({ err: error, rule: rule.id, item: item.id }, 'Auto-rule failed');
  }
  const done = results.filter((r) => r.outcome === 'applied' || r.outcome === 'queued').length;
  await db.transaction(async (tx) => {
    await tx
      .update(ruleMatches)
      .set({ status, results, actionsDone: done, error })
      .where(eq(ruleMatches.id, claimed.id));
    await tx
      .update(rules)
      .set({ matchCount: sql`${rules.matchCount} + 1`, lastMatchedAt: now })
      .where(eq(rules.id, rule.id));
    await tx.insert(activity).values({
      spaceId: item.spaceId,
      objectId: item.objectId,
      itemId: item.id,
      type: 'item.rule',
      causeKind: 'rule',
      causeId: rule.id,
      data: {
        rule: rule.name,
        status,
        ...(error ? { error } : {}),
        actions: results.map((r) => ({ type: r.type, outcome: r.outcome })),
      },
      at: now,
    });
    await audit(
      tx as unknown as Db,
      { userId: null, kind: 'rule', name: rule.name },
      {
        spaceId: rule.spaceId,
        kind: 'rule.applied',
        target: { type: 'item', id: item.id, label: item.text.slice(0, 80) || null },
        after: { rule_id: rule.id, rule: rule.name, status, error, actions: results },
        at: now,
      },
    );
  });
  return { ruleId: rule.id, status, results } satisfies RuleOutcome;
}

/**
 * Whether an item is one the rules look at: a customer's, not ours; still on the network unless the
 * trigger is its deletion.
 */
const eligibleFor = (trigger: RuleTrigger) => (item: ItemRow) =>
  !item.isOwn && (trigger === 'item_deleted' ? item.isDeleted : !item.isDeleted);

/**
 * Runs a space's active rules of `trigger` on one item in order; a matching rule with stop_processing
 * ends the pass. `only` limits it to one rule (the time-based job finds items per rule).
 */
export async function runRules(
  deps: EngineDeps,
  itemId: number,
  trigger: RuleTrigger,
  opts: {
    only?: RuleRow;
    now?: Date;
    /** The event of the item this pass is for (rule_matches.event): `edit:<ms>`, `deleted`, or ''. */
    event?: string;
    /** The space's active rules of `trigger`, when the caller already has them (a worker batch). */
    rules?: (spaceId: number) => Promise<RuleRow[]>;
  } = {},
): Promise<RuleOutcome[]> {
  const { db } = deps;
  const eligible = eligibleFor(trigger);
  const [item] = await db.select().from(items).where(eq(items.id, itemId)).limit(1);
  if (!item || !eligible(item)) return [];
  const list = opts.only
    ? [opts.only]
    : await (opts.rules?.(item.spaceId) ?? activeRules(db, item.spaceId, trigger));
  const out: RuleOutcome[] = [];
  let current: ItemRow | undefined = item;
  let facts: RuleFacts | null = null;
  const need = factsNeeded(list.map((r) => r.conditions));
  for (const rule of list) {
    facts ??= await factsOf(db, current, need);
    if (!matchesRule(rule.conditions, facts)) continue;
    const outcome = await applyRule(deps, rule, current, opts.now, opts.event);
    if (outcome) out.push(outcome);
    if (rule.stopProcessing) break;
    // The rule may have tagged, closed or deleted it: the next rules see it as it is now.
    [current] = await db.select().from(items).where(eq(items.id, itemId)).limit(1);
    if (!current || !eligible(current)) break;
    facts = null;
  }
  return out;
}
