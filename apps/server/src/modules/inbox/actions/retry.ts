import { and, desc, eq, inArray } from 'drizzle-orm';
import { items, messages, outbox } from '../../../db/schema';
import { AppError } from '../../../lib/errors';
import { returnRefusedReply } from '../../channels/generic-service';
import { kickOutbox } from '../../outbox/queue';
import { presentMessage } from '../read/presenter';
import { causeOf, loadItemFor, loadMessageFor, type Performer } from './policy';
import { presentItems, publishBySpace } from './present';
import { type ActionDeps, transaction } from './send';

// Re-queue a send the network refused (delivery 'failed'): the same outbox row runs again from the
// first attempt, with the reply's current text.

async function requeue(deps: ActionDeps, where: ReturnType<typeof and>) {
  const [row] = await deps.db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(where, eq(outbox.state, 'failed')))
    .orderBy(desc(outbox.id))
    .limit(1);
  if (!row) throw new AppError(400, 'reply.notFailed');
  await deps.db
    .update(outbox)
    .set({ state: 'pending', attempts: 0, runAt: new Date(), lastError: null, doneAt: null })
    .where(eq(outbox.id, row.id));
}

export async function retryItemSend(deps: ActionDeps, performer: Performer, itemId: number) {
  const item = await loadItemFor(deps.db, performer, itemId, 'items.reply');
  if (!item.isOwn || item.delivery !== 'failed') throw new AppError(400, 'reply.notFailed');
  // A reply a collector refused was delivered to its feed (the outbox row is done): back to the feed.
  const returned = await returnRefusedReply(deps.db, item, new Date());
  if (returned) {
    const [presented] = await presentItems(deps.db, [returned]);
    await publishBySpace(deps.bus, 'items.updated', [presented!], causeOf(performer));
    return presented!;
  }
  const updated = await transaction(deps.db, async (tx) => {
    await requeue({ ...deps, db: tx }, and(eq(outbox.itemId, item.id), eq(outbox.action, 'reply')));
    const [row] = await tx
      .update(items)
      .set({ delivery: 'queued', deliveryError: null, updatedAt: new Date() })
      .where(eq(items.id, item.id))
      .returning();
    return row!;
  });
  const [presented] = await presentItems(deps.db, [updated]);
  await publishBySpace(deps.bus, 'items.updated', [presented!], causeOf(performer));
  await kickOutbox(deps.bus);
  return presented!;
}

export async function retryMessageSend(deps: ActionDeps, performer: Performer, messageId: number) {
  const { message, chat } = await loadMessageFor(deps.db, performer, messageId, 'messages.reply');
  if (!message.isOwn || message.delivery !== 'failed') throw new AppError(400, 'reply.notFailed');
  const updated = await transaction(deps.db, async (tx) => {
    await requeue(
      { ...deps, db: tx },
      and(eq(outbox.messageId, message.id), inArray(outbox.action, ['message', 'direct'])),
    );
    const [row] = await tx
      .update(messages)
      .set({ delivery: 'queued', deliveryError: null })
      .where(eq(messages.id, message.id))
      .returning();
    return row!;
  });
  const presented = presentMessage(updated);
  await deps.bus.publish({
    type: 'messages.updated',
    spaceId: chat.spaceId,
    payload: { object_id: chat.objectId, messages: [presented] },
    cause: causeOf(performer),
  });
  await kickOutbox(deps.bus);
  return presented;
}
