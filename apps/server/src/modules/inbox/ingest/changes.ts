import type { AccountSettings } from '@otklik/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { items, messages } from '../../../db/schema';
import type { InboundChange } from '../../../providers/inbound';
import { type EmotionReader, emotionColumns } from '../../emotions/service';
import { queueArrivals, rulesQueuedEvent } from '../../rules/queue';
import { presentMessage } from '../read/presenter';
import { presentItems } from '../read/read-present';
import type { IngestResult, ObjectRow } from './ingest';
import type { Published } from './ingest-batch';

// Changes to what is already stored (edits, deletions, restorations, reactions, delivery receipts) of an
// ingestion batch (ingest.ts storeBatch): applied in the batch's transaction, one statement per change,
// then the authors' and the lists' events.

type ItemRow = typeof items.$inferSelect;

/** Applies a batch's change events; counts them in `result.updated` and queues their events in `published`. */
export async function applyChanges(
  db: Db,
  object: ObjectRow,
  settings: AccountSettings,
  readEmotion: EmotionReader | null,
  events: InboundChange[],
  result: IngestResult,
  published: Published[],
) {
  const changedItems: ItemRow[] = [];
  const changedMessages: Array<typeof messages.$inferSelect> = [];
  for (const e of events) {
    if (e.change === 'reactions' && !settings.reactions) continue;
    if (e.change === 'delivery') {
      if (e.target === 'message') changedMessages.push(...(await applyDelivery(db, object, e)));
      continue;
    }
    if (e.target === 'item') changedItems.push(...(await changeItem(db, object, readEmotion, e)));
    else changedMessages.push(...(await changeMessage(db, object, readEmotion, e)));
  }
  result.updated += changedItems.length + changedMessages.length;
  await queueAuthorChanges(db, object, events, changedItems, published);
  publishChanges(object, changedItems, changedMessages, published);
}

/** The update of one changed item (edited, deleted, restored, reactions); returns the rows changed. */
function changeItem(db: Db, object: ObjectRow, readEmotion: EmotionReader | null, e: InboundChange) {
  // An edited text is read again (our own replies keep none).
  const reread = emotionColumns(readEmotion, e.text ?? '', false);
  const set =
    e.change === 'edited'
      ? {
          text: e.text ?? '',
          ...(e.rating === undefined ? {} : { rating: e.rating }),
          editedAt: e.at ?? new Date(),
          sentiment: sql`CASE WHEN ${items.isOwn} THEN NULL ELSE ${reread.sentiment}::text END`,
          emotion: sql`CASE WHEN ${items.isOwn} THEN NULL ELSE ${reread.emotion}::text END`,
        }
      : e.change === 'deleted'
        ? { isDeleted: true, status: 'deleted' as const }
        : e.change === 'restored'
          ? {
              isDeleted: false,
              status: sql`CASE WHEN ${items.status} = 'deleted' THEN 'new' ELSE ${items.status} END`,
            }
          : { reactions: e.reactions ?? [] };
  return db
    .update(items)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(items.objectId, object.id), eq(items.externalId, e.externalId), changeNeeded(e)))
    .returning();
}

/** The update of one changed message (edited, deleted, restored, reactions); returns the rows changed. */
function changeMessage(db: Db, object: ObjectRow, readEmotion: EmotionReader | null, e: InboundChange) {
  const chatFilter = e.chatExternalId
    ? sql`${messages.chatId} IN (SELECT id FROM chats WHERE object_id = ${object.id} AND external_id = ${e.chatExternalId})`
    : sql`${messages.chatId} IN (SELECT id FROM chats WHERE object_id = ${object.id})`;
  const reread = emotionColumns(readEmotion, e.text ?? '', false);
  const set =
    e.change === 'edited'
      ? {
          text: e.text ?? '',
          editedAt: e.at ?? new Date(),
          sentiment: sql`CASE WHEN ${messages.isOwn} THEN NULL ELSE ${reread.sentiment}::text END`,
          emotion: sql`CASE WHEN ${messages.isOwn} THEN NULL ELSE ${reread.emotion}::text END`,
        }
      : e.change === 'deleted'
        ? { isDeleted: true }
        : e.change === 'restored'
          ? { isDeleted: false }
          : { reactions: e.reactions ?? [] };
  return db
    .update(messages)
    .set(set)
    .where(and(eq(messages.externalId, e.externalId), chatFilter, changeNeededMessage(e)))
    .returning();
}

/** Auto-rules on the author's edits and deletions (issue 17), queued like arrivals. */
async function queueAuthorChanges(
  db: Db,
  object: ObjectRow,
  events: InboundChange[],
  changedItems: ItemRow[],
  published: Published[],
) {
  const byAuthor = changedItems.filter((r) => !r.isOwn);
  const edited = byAuthor.filter((r) => r.editedAt !== null && !r.isDeleted);
  const deleted = byAuthor.filter((r) => r.isDeleted && r.status === 'deleted');
  const editedAt = new Map(edited.map((r) => [r.id, r.editedAt!.getTime()]));
  const editIds = events.filter((e) => e.target === 'item' && e.change === 'edited').map((e) => e.externalId);
  const deleteIds = events
    .filter((e) => e.target === 'item' && e.change === 'deleted')
    .map((e) => e.externalId);
  const queuedEdits = await queueArrivals(
    db,
    object.spaceId,
    edited.filter((r) => editIds.includes(r.externalId!)).map((r) => r.id),
    'item_edited',
    (id) => `edit:${editedAt.get(id)}`,
  );
  const queuedDeletes = await queueArrivals(
    db,
    object.spaceId,
    deleted.filter((r) => deleteIds.includes(r.externalId!)).map((r) => r.id),
    'item_deleted',
    () => 'deleted',
  );
  if (queuedEdits || queuedDeletes) published.push(rulesQueuedEvent());
}

/** The `items.updated` and `messages.updated` events of the rows changed. */
function publishChanges(
  object: ObjectRow,
  changedItems: ItemRow[],
  changedMessages: Array<typeof messages.$inferSelect>,
  published: Published[],
) {
  if (changedItems.length > 0) {
    // Full rows (author, tags), the same as lists show, so a pushed update never blanks a row. Read after
    // commit, on the pool: the presenter's parallel reads must not share the transaction's connection.
    published.push(async (outer) => ({
      type: 'items.updated',
      spaceId: object.spaceId,
      payload: { object_id: object.id, items: await presentItems(outer, changedItems) },
      cause: { kind: 'system' },
    }));
  }
  if (changedMessages.length > 0) {
    published.push({
      type: 'messages.updated',
      spaceId: object.spaceId,
      payload: { object_id: object.id, messages: changedMessages.map(presentMessage) },
      cause: { kind: 'system' },
    });
  }
}

/**
 * A delivery status of a message we sent. States only move forward (sent → delivered → read), so a late
 * or redelivered status changes nothing; 'failed' shows the network's reason unless the message was
 * already delivered or read.
 */
async function applyDelivery(db: Db, object: ObjectRow, e: InboundChange) {
  if (!e.delivery) return [];
  const state = e.delivery;
  const order = sql`ARRAY['queued','sending','sent','delivered','read']::text[]`;
  const moves =
    state === 'failed'
      ? sql`${messages.delivery} NOT IN ('delivered', 'read', 'failed')`
      : sql`coalesce(array_position(${order}, ${messages.delivery}), 0) < array_position(${order}, ${state}::text)`;
  const chatFilter = e.chatExternalId
    ? sql`${messages.chatId} IN (SELECT id FROM chats WHERE object_id = ${object.id} AND external_id = ${e.chatExternalId})`
    : sql`${messages.chatId} IN (SELECT id FROM chats WHERE object_id = ${object.id})`;
  return db
    .update(messages)
    .set({ delivery: state, deliveryError: state === 'failed' ? (e.error ?? null) : null })
    .where(and(eq(messages.externalId, e.externalId), eq(messages.isOwn, true), chatFilter, moves))
    .returning();
}

/** Redelivered changes (same edit text, already deleted) match no row and so change nothing. */
function changeNeeded(e: InboundChange) {
  switch (e.change) {
    case 'edited':
      return e.rating === undefined
        ? sql`${items.text} IS DISTINCT FROM ${e.text ?? ''}`
        : sql`(${items.text} IS DISTINCT FROM ${e.text ?? ''} OR ${items.rating} IS DISTINCT FROM ${e.rating})`;
    case 'deleted':
      return eq(items.isDeleted, false);
    case 'restored':
      return eq(items.isDeleted, true);
    case 'reactions':
      return sql`${items.reactions} IS DISTINCT FROM ${JSON.stringify(e.reactions ?? [])}::jsonb`;
  }
}

function changeNeededMessage(e: InboundChange) {
  switch (e.change) {
    case 'edited':
      return sql`${messages.text} IS DISTINCT FROM ${e.text ?? ''}`;
    case 'deleted':
      return eq(messages.isDeleted, false);
    case 'restored':
      return eq(messages.isDeleted, true);
    case 'reactions':
      return sql`${messages.reactions} IS DISTINCT FROM ${JSON.stringify(e.reactions ?? [])}::jsonb`;
  }
}
