import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { activity, items, ruleMatches, rules } from '../../db/schema';

// An auto-rule's webhook action is queued as a webhook delivery (macros/runner.ts, event `rule.action`,
// key `rule:<rule id>:item:<item id>:<ms>`) and retried on the Standard Webhooks backoff by
// jobs/webhook-worker.ts. When its last try fails, the rule's run on the item turns `failed` with the
// reason, so it shows in settings/errors (auto-rule failures) and in the item's history, never silently.

const KEY = /^rule:(\d+):item:(\d+):/;

export async function noteRuleWebhookFailed(
  db: Db,
  delivery: { eventType: string; eventKey: string; spaceId: number },
  error: string,
  now: Date,
) {
  if (delivery.eventType !== 'rule.action') return;
  const found = KEY.exec(delivery.eventKey);
  if (!found) return;
  const ruleId = Number(found[1]);
  const itemId = Number(found[2]);
  const [run] = await db
    .select()
    .from(ruleMatches)
    .where(
      and(
        eq(ruleMatches.ruleId, ruleId),
        eq(ruleMatches.itemId, itemId),
        eq(ruleMatches.spaceId, delivery.spaceId),
      ),
    )
    .orderBy(desc(ruleMatches.at), desc(ruleMatches.id))
    .limit(1);
  const [rule] = await db.select({ name: rules.name }).from(rules).where(eq(rules.id, ruleId));
  const [item] = await db.select({ objectId: items.objectId }).from(items).where(eq(items.id, itemId));
  if (!run || !rule || !item) return;
  const text = `Webhook: ${error}`;
  const results = run.results.map((r) =>
    r.type === 'webhook' && r.outcome === 'queued' ? { ...r, outcome: 'failed' as const, reason: text } : r,
  );
  await db.transaction(async (tx) => {
    await tx
      .update(ruleMatches)
      .set({ status: 'failed', error: text, results })
      .where(eq(ruleMatches.id, run.id));
    await tx.insert(activity).values({
      spaceId: delivery.spaceId,
      objectId: item.objectId,
      itemId,
      type: 'item.rule',
      causeKind: 'rule',
      causeId: ruleId,
      data: { rule: rule.name, status: 'failed', error: text },
      at: now,
    });
  });
}
