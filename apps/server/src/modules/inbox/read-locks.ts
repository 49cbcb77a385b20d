import type { Ability } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chats, items, users } from '../../db/schema';
import type { RealtimeHub } from '../../realtime/hub';
import { loadActor } from '../spaces/actor';
import { inScope, scopeFor } from './scope';

/**
 * "Who is answering this" locks over the socket (SPEC §7 lock/unlock): `item:ID` and `chat:ID`. Only
 * someone who may reply may hold one — a viewer locking an item would block the operators for nothing.
 * Anyone who may see the item may ask who holds it ('watch'). The resolver answers the space the lock
 * belongs to (its locked/unlocked events go to that space). The send path refuses a reply to what
 * another user holds (actions/reply-locks.ts).
 */
export function registerInboxLockTargets(hub: RealtimeHub, db: Db) {
  hub.registerLockTarget('item', async (conn, id, purpose) => {
    const [row] = await db
      .select({ spaceId: items.spaceId, objectId: items.objectId })
      .from(items)
      .where(eq(items.id, id))
      .limit(1);
    return row ? lockSpace(db, conn.userId, row, purpose === 'hold' ? 'items.reply' : 'items.view') : null;
  });
  hub.registerLockTarget('chat', async (conn, id, purpose) => {
    const [row] = await db
      .select({ spaceId: chats.spaceId, objectId: chats.objectId })
      .from(chats)
      .where(eq(chats.id, id))
      .limit(1);
    return row
      ? lockSpace(db, conn.userId, row, purpose === 'hold' ? 'messages.reply' : 'messages.view')
      : null;
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
