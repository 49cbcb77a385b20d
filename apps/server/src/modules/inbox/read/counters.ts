import { DEFAULT_CHAT_STATUSES, DEFAULT_ITEM_STATUSES } from '@otklik/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { executeBuilt, KeptStatements } from '../../../db/rows';
import { type InboxStatus, inboxCounters } from '../../../db/schema';
import type { ServerActor } from '../../spaces/actor';
import { registerCounter } from '../../spaces/counts';
import { type InboxScope, scopeCondition, scopeFor } from './scope';

/**
 * The inbox's badge counters for GET /v1/counts and /v1/config: the work waiting in the caller's
 * scope — comments in the default item statuses, chats in the default chat statuses (docs/product/limits.md) — read
 * from the trigger-maintained inbox_counters rows, never by counting items.
 */
export function registerInboxCounters() {
  registerCounter('items_count', async (db, actor) => (await inboxCounts(db, actor)).items);
  registerCounter('chats_count', async (db, actor) => (await inboxCounts(db, actor)).chats);
}

// readCounts asks for both counters of one caller side by side; one statement answers both. Only
// calls in flight share a result (the entry goes when it settles), so a counter is never stale.
const inFlight = new WeakMap<ServerActor, Promise<{ items: number; chats: number }>>();

function inboxCounts(db: Db, actor: ServerActor) {
  let counts = inFlight.get(actor);
  if (!counts) {
    counts = readInboxCounts(db, actor).finally(() => inFlight.delete(actor));
    inFlight.set(actor, counts);
  }
  return counts;
}

async function readInboxCounts(db: Db, actor: ServerActor) {
  const [itemScope, chatScope] = await Promise.all([
    scopeFor(db, actor, 'items.view'),
    scopeFor(db, actor, 'messages.view'),
  ]);
  const [items, chats] = await sumInboxCounters(db, [
    { scope: itemScope, kind: 'items', statuses: DEFAULT_ITEM_STATUSES },
    { scope: chatScope, kind: 'chats', statuses: DEFAULT_CHAT_STATUSES },
  ]);
  return { items: items ?? 0, chats: chats ?? 0 };
}

export interface CounterSum {
  scope: InboxScope;
  kind: 'items' | 'chats';
  statuses: readonly InboxStatus[];
}

/** Counter statements by the sums they answer (kinds, statuses, scopes): a member's counters repeat. */
const counterStatements = new KeptStatements(256);

/**
 * Sums of the trigger-maintained counters (migration 0005), one per request in `sums`, in one
 * statement: a few rows per account read through inbox_counters_space_idx, never COUNT(*) over items.
 *
 *   SELECT coalesce(sum(count) FILTER (WHERE kind = 'items' AND status IN (…) AND <items scope>), 0), …
 *   FROM inbox_counters WHERE space_id IN (<every space of the scopes>)
 */
export async function sumInboxCounters(db: Db, sums: CounterSum[]): Promise<number[]> {
  const spaceIds = [...new Set(sums.flatMap((s) => [...s.scope.spaces.keys()]))];
  if (spaceIds.length === 0) return sums.map(() => 0);
  const key = JSON.stringify(sums.map((s) => [s.kind, s.statuses, [...s.scope.spaces]]));
  const statement = counterStatements.get(key, () => {
    const columns = sums.map(
      (s, i) =>
        sql`coalesce(sum(${inboxCounters.count}) FILTER (WHERE ${and(
          eq(inboxCounters.kind, s.kind),
          inArray(inboxCounters.status, [...s.statuses]),
          scopeCondition(s.scope, inboxCounters.spaceId, inboxCounters.objectId),
        )}), 0) AS ${sql.identifier(`sum${i}`)}`,
    );
    return sql`SELECT ${sql.join(columns, sql`, `)} FROM ${inboxCounters} WHERE ${inArray(inboxCounters.spaceId, spaceIds)}`;
  });
  const {
    rows: [row],
  } = await executeBuilt<Record<string, string | number | null>>(db, statement!, true);
  return sums.map((_, i) => Number(row?.[`sum${i}`] ?? 0));
}
