import type { RuleTrigger } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ruleQueue, rules } from '../../db/schema';
import type { PublishedEvent } from '../../realtime/bus';

// The ingestion pipeline's hand-off to the auto-rules (issue 17). Called inside the ingestion transaction
// with the customer items that just arrived: when the space has an active arrival rule, they are queued
// in the same commit (nothing that arrived can be missed) and the rules worker is woken after it. Intake
// itself never waits for a rule.

export const RULES_QUEUED = 'rules.queued';

export const rulesQueuedEvent = (): PublishedEvent => ({
  type: RULES_QUEUED,
  userIds: [],
  payload: {},
  cause: { kind: 'system' },
});

/**
 * Queues items for the rules of `trigger` (an arrival by default; an author's edit or deletion, with the
 * event that tells two edits apart); true when something was queued (wake the worker).
 */
export async function queueArrivals(
  db: Db,
  spaceId: number,
  itemIds: number[],
  trigger: RuleTrigger = 'item_created',
  eventOf: (itemId: number) => string = () => '',
): Promise<boolean> {
  if (itemIds.length === 0) return false;
  const [active] = await db
    .select({ id: rules.id })
    .from(rules)
    .where(and(eq(rules.trigger, trigger), eq(rules.spaceId, spaceId), eq(rules.paused, false)))
    .limit(1);
  if (!active) return false;
  await db
    .insert(ruleQueue)
    .values(itemIds.map((itemId) => ({ spaceId, itemId, trigger, event: eventOf(itemId) })));
  return true;
}
