import type { Ability } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { activity, chats, items, users } from '../../../db/schema';
import type { RealtimeHub } from '../../../realtime/hub';
import { loadActor } from '../../spaces/actor';
import { inScope, scopeFor } from './scope';

const ITEM_ABILITY = { hold: 'items.reply', view: 'items.view', takeover: 'items.takeOver' } as const;
const CHAT_ABILITY = {
  hold: 'messages.reply',
  view: 'messages.view',
  takeover: 'messages.takeOver',
} as const;

/**
 * "Who is answering this" locks over the socket (docs/product/api.md lock/unlock): `item:ID` and `chat:ID`. Only
 * someone who may reply may hold one — a viewer locking an item would block the operators for nothing —
 * and the web takes it when its user starts typing, not when they open the item. Anyone who may see
 * the item may ask who holds it ('watch'); taking it from a colleague is an administrator's
 * ('takeover', items.takeOver / messages.takeOver). The resolver answers the space the lock
 * belongs to (its locked/unlocked events go to that space). The send path refuses a reply to what
 * another user holds (actions/reply-locks.ts).
 */
export function registerInboxLockTargets(hub: RealtimeHub, db: Db) {
  // The item's or chat's history shows who started answering, or took the answer over (history.ts).
  hub.onLockHeld(async (event) => {
    if (event.kind !== 'item' && event.kind !== 'chat') return;
    const table = event.kind === 'item' ? items : chats;
    const [row] = await db
      .select({ objectId: table.objectId })
      .from(table)
      .where(eq(table.id, event.id))
      .limit(1);
    if (!row) return;
    await db.insert(activity).values({
      spaceId: event.spaceId,
      objectId: row.objectId,
      ...(event.kind === 'item' ? { itemId: event.id } : { chatId: event.id }),
      type: 'lock.held',
      userId: event.userId,
      causeKind: 'user',
      causeId: event.userId,
      data: { taken: event.taken },
    });
  });
  hub.registerLockTarget('item', async (conn, id, purpose) => {
    const [row] = await db
      .select({ spaceId: items.spaceId, objectId: items.objectId })
      .from(items)
      .where(eq(items.id, id))
      .limit(1);
    return row ? lockSpace(db, conn.userId, row, ITEM_ABILITY[purpose]) : null;
  });
  hub.registerLockTarget('chat', async (conn, id, purpose) => {
    const [row] = await db
      .select({ spaceId: chats.spaceId, objectId: chats.objectId })
      .from(chats)
      .where(eq(chats.id, id))
      .limit(1);
    return row ? lockSpace(db, conn.userId, row, CHAT_ABILITY[purpose]) : null;
  });
}

async function lockSpace(
  db: Db,
  userId: number,
  target: { spaceId: number; objectId: number },
  ability: Ability,
): Promise<number | null> {
  // Roles can change while a socket stays open, so they are read at each lock, not at connect.
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) return null;
  const scope = await scopeFor(db, await loadActor(db, user), ability);
  return inScope(scope, target.spaceId, target.objectId) ? target.spaceId : null;
}
