import {
  DEFAULT_CHAT_STATUSES,
  DEFAULT_ITEM_STATUSES,
  type InboxViewCountsWire,
  type ViewCounts,
} from '@otklik/shared';
import { and, count, eq, inArray, isNotNull, not, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { chats, items } from '../../../db/schema';
import { mentionCounts } from '../../notes/service';
import type { ServerActor } from '../../spaces/actor';
import { sumInboxCounters } from './counters';
import { type InboxScope, scopeCondition, scopeFor } from './scope';

// The inbox views' counters (GET /v1/counts?views=1): All, Mine and Unassigned for comments and chats,
// over the default statuses like the badges. All comes from the trigger-kept inbox_counters; the
// assigned work is counted on the partial indexes items_assigned_open_idx / chats_assigned_open_idx
// (space_id, assigned_user_id, object_id — migration 0020), which hold only assigned waiting rows,
// so Unassigned = All − assigned never scans the unassigned queue. Mentions of me is read from the
// small note_mentions table by its partial index on (user_id) over unseen rows (notes/service.ts).

async function assigned(db: Db, kind: 'items' | 'chats', scope: InboxScope, userId: number) {
  if (scope.spaces.size === 0) return { mine: 0, any: 0 };
  // The predicates repeat the partial indexes' WHERE so the planner can use them.
  const where =
    kind === 'items'
      ? and(
          not(items.isOwn),
          isNotNull(items.assignedUserId),
          inArray(items.status, [...DEFAULT_ITEM_STATUSES]),
          scopeCondition(scope, items.spaceId, items.objectId),
        )
      : and(
          isNotNull(chats.assignedUserId),
          inArray(chats.status, [...DEFAULT_CHAT_STATUSES]),
          scopeCondition(scope, chats.spaceId, chats.objectId),
        );
  const table = kind === 'items' ? items : chats;
  const [row] = await db
    .select({
      any: count(),
      mine: sql<number>`count(*) FILTER (WHERE ${eq(table.assignedUserId, userId)})`.mapWith(Number),
    })
    .from(table)
    .where(where);
  return { mine: row?.mine ?? 0, any: row?.any ?? 0 };
}

export async function readViewCounts(db: Db, actor: ServerActor): Promise<InboxViewCountsWire> {
  const [itemScope, chatScope] = await Promise.all([
    scopeFor(db, actor, 'items.view'),
    scopeFor(db, actor, 'messages.view'),
  ]);
  const [[allItems = 0, allChats = 0], itemAssigned, chatAssigned, mentions] = await Promise.all([
    sumInboxCounters(db, [
      { scope: itemScope, kind: 'items', statuses: DEFAULT_ITEM_STATUSES },
      { scope: chatScope, kind: 'chats', statuses: DEFAULT_CHAT_STATUSES },
    ]),
    assigned(db, 'items', itemScope, actor.userId),
    assigned(db, 'chats', chatScope, actor.userId),
    mentionCounts(db, actor),
  ]);
  const view = (all: number, a: { mine: number; any: number }, mentioned: number): ViewCounts => ({
    all,
    mine: a.mine,
    unassigned: Math.max(0, all - a.any),
    mentions: mentioned,
  });
  return {
    items: view(allItems, itemAssigned, mentions.items),
    chats: view(allChats, chatAssigned, mentions.chats),
  };
}
