import { DEFAULT_CHAT_STATUSES, DEFAULT_ITEM_STATUSES } from '@otklik/shared';
import type { Db } from '../../../db/client';
import type { ServerActor } from '../../spaces/actor';
import { registerCounter } from '../../spaces/counts';
import { sumInboxCounters } from './queries';
import { scopeFor } from './scope';

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
