import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { objects } from '../../db/schema';
import type { EventBus } from '../../realtime/bus';
import { notifyAccountError } from '../notifications/events';
import { presentAccount } from './presenter';

/**
 * Sets an account's error — what the errors dropdown and settings/errors show until an administrator
 * dismisses it (POST /v1/objects/:id/clear_error) — and pushes the account to those who see it.
 */
export async function recordAccountError(
  deps: { db: Db; bus: EventBus },
  objectId: number,
  message: string,
  now = new Date(),
) {
  const [before] = await deps.db
    .select({ error: objects.error })
    .from(objects)
    .where(eq(objects.id, objectId))
    .limit(1);
  const [object] = await deps.db
    .update(objects)
    .set({ error: message, errorAt: now })
    .where(eq(objects.id, objectId))
    .returning();
  if (!object) return;
  // Issue 18: a newly broken account notifies the administrators (not every repeat of the same error).
  if (!before?.error) await notifyAccountError(deps, object, message);
  await deps.bus.publish({
    type: 'objects.updated',
    spaceId: object.spaceId,
    payload: { objects: [presentAccount(object)] },
    cause: { kind: 'system' },
  });
}
