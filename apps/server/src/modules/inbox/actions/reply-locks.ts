import { AppError } from '../../../lib/errors';
import type { LockStore } from '../../../realtime/locks';
import type { Performer } from './policy';

// "Who is answering this" (docs/product/api.md lock/unlock) enforced on the send path: the socket hub takes the
// locks (realtime/hub.ts, targets in ../read-locks.ts); a reply to an item or chat someone else holds
// is refused here, so two colleagues never send conflicting answers.

/** The lock keys the socket hub uses for inbox records. */
export const itemLockKey = (id: number) => `item:${id}`;
export const chatLockKey = (id: number) => `chat:${id}`;

/**
 * 409 `locked` when another user holds any of `keys`, naming who is answering. The holder (from any of
 * their tabs) and anyone when nothing is held may send. Automation (rules, bots, the system) holds no
 * socket and is not refused: it is not a colleague typing an answer.
 */
export async function assertNotLockedByOther(locks: LockStore, performer: Performer, keys: string[]) {
  if (performer.kind !== 'user') return;
  for (const key of keys) {
    const holder = await locks.get(key);
    if (holder && holder.userId !== performer.actor.userId) {
      throw new AppError(409, 'reply.locked', {
        errorType: 'locked',
        params: { name: holder.name },
        body: { key, holder: { id: holder.userId, name: holder.name } },
      });
    }
  }
}
