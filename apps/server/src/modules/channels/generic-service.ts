import { getProvider, isProviderId } from '@otklik/shared';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { activity, items, objects, outbox } from '../../db/schema';
import { sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { INVALID, type IngestItem } from '../../providers/generic/schemas';
import type { InboundEvent } from '../../providers/inbound';
import { capabilitiesOf } from '../../providers/registry';
import type { ObjectRow } from '../../providers/types';
import type { EventBus } from '../../realtime/bus';
import { activityCause, type Performer } from '../inbox/actions/policy';
import type { Cause } from '../inbox/actions/present';
import { ingest } from '../inbox/ingest/ingest';
import { presentItems } from '../inbox/read/read-present';

export interface IngestDeps {
  db: Db;
  bus: EventBus;
}

/** The account an ingestion token belongs to; 401 for anything else (same answer for every failure). */
export async function getIngestObject(db: Db, token: string | undefined): Promise<ObjectRow> {
  if (!token) throw new AppError(401, 'ingest.invalidToken');
  const [row] = await db
    .select()
    .from(objects)
    .where(eq(objects.ingestTokenDigest, sha256(token)))
    .limit(1);
  if (!row?.isActive || !capabilitiesOf(row.provider).collectorFeed)
    throw new AppError(401, 'ingest.invalidToken');
  return row;
}

function toInboundEvent(item: IngestItem): InboundEvent {
  return {
    type: 'item',
    kind: item.kind,
    externalId: item.external_id,
    ...(item.post
      ? { post: { externalId: item.post.external_id, text: item.post.text ?? '', url: item.post.url } }
      : {}),
    parentExternalId: item.parent_external_id,
    author: { externalId: item.author.id, name: item.author.name, url: item.author.url },
    text: item.text,
    rating: item.rating,
    url: item.url,
    createdAt:
      typeof item.created_at === 'number' ? new Date(item.created_at * 1000) : new Date(item.created_at),
  };
}

/** Stores a collector's batch through the one ingestion pipeline; idempotent by external_id. */
export async function ingestItems(deps: IngestDeps, object: ObjectRow, batch: IngestItem[]) {
  const kinds = isProviderId(object.provider) ? getProvider(object.provider).comments : [];
  const invalid: Array<{ index: number; error: string }> = [];
  const events: InboundEvent[] = [];
  const positions: number[] = [];
  batch.forEach((item, index) => {
    const error = item[INVALID];
    if (error !== undefined) invalid.push({ index, error });
    else if (!kinds.includes(item.kind))
      invalid.push({ index, error: `kind: ${object.provider} does not carry ${item.kind}` });
    else {
      events.push(toInboundEvent(item));
      positions.push(index);
    }
  });
  // Text is cleaned and bad items isolated by ingest() (issue #11): the collector learns of every one
  // in `invalid`, and only those the database refused also become the account's error.
  const result = await ingest(deps, object, events, { sendsInvalidBack: true });
  for (const entry of result.invalid)
    invalid.push({ index: positions[entry.index] ?? entry.index, error: entry.error });
  return {
    created: result.created,
    duplicates: result.duplicates,
    excluded: result.excluded,
    invalid: invalid.sort((a, b) => a.index - b.index),
  };
}

const parent = alias(items, 'parent');
type ItemRow = typeof items.$inferSelect;
const unix = (at: Date | null) => (at ? Math.floor(at.getTime() / 1000) : null);

/**
 * Replies operators wrote that the collector has yet to act on: handed to the collector (delivery
 * `sent`) and not yet reported back. New ones have no site id; an edited one that is already on the
 * site carries its `external_id`, and the collector changes it there to the new text.
 */
export async function findPendingReplies(db: Db, object: ObjectRow) {
  const rows = await db
    .select({ reply: items, parentExternalId: parent.externalId })
    .from(items)
    .leftJoin(parent, eq(parent.id, items.parentId))
    .where(and(eq(items.objectId, object.id), eq(items.isOwn, true), eq(items.delivery, 'sent')))
    .orderBy(asc(items.id))
    .limit(500);
  return rows.map(({ reply, parentExternalId }) => ({
    id: reply.id,
    in_reply_to: parentExternalId,
    external_id: reply.externalId,
    text: reply.text,
    attachments: reply.attachments,
    created_at: unix(reply.createdAt)!,
    edited: reply.editedAt !== null,
    edited_at: unix(reply.editedAt),
  }));
}

/** What the site shows for a posted reply an operator is editing: kept to undo an edit the site refuses. */
async function siteTextOf(db: Db, reply: ItemRow): Promise<string> {
  if (reply.delivery === 'delivered') return reply.text;
  const [last] = await db
    .select({ data: activity.data })
    .from(activity)
    .where(
      and(
        eq(activity.itemId, reply.id),
        eq(activity.type, 'item.moderated'),
        sql`${activity.data}->>'action' = 'edit'`,
      ),
    )
    .orderBy(desc(activity.id))
    .limit(1);
  const text = last?.data.site_text;
  return typeof text === 'string' ? text : reply.text;
}

/**
 * Editing our reply on a collector's site (moderation.ts checks the edit window first): the new text goes
 * back to the feed at once — no outbox call, the feed is the delivery — and the collector reports back as
 * for a new reply. The site's current text is kept in the activity row, to undo an edit the site
 * refuses. The caller publishes the change.
 */
export async function editCollectorReply(
  deps: Pick<IngestDeps, 'db'>,
  performer: Performer,
  reply: ItemRow,
  text: string,
  now: Date,
) {
  const siteText = reply.externalId ? await siteTextOf(deps.db, reply) : null;
  const updated = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(items)
      .set({ text, editedAt: now, delivery: 'sent', deliveryError: null, updatedAt: now })
      .where(eq(items.id, reply.id))
      .returning();
    await tx.insert(activity).values({
      spaceId: reply.spaceId,
      objectId: reply.objectId,
      itemId: reply.id,
      type: 'item.moderated',
      ...activityCause(performer),
      data: { action: 'edit', from_status: reply.status, site_text: siteText },
      at: now,
    });
    return row!;
  });
  return updated;
}

/**
 * Retry of a reply the collector refused: its outbox row is done (the feed had it), so it goes straight
 * back to the feed. Null when the reply is not one of those (the outbox retry applies).
 */
export async function returnRefusedReply(db: Db, reply: ItemRow, now: Date): Promise<ItemRow | null> {
  if (!reply.isOwn || reply.delivery !== 'failed') return null;
  const [object] = await db
    .select({ provider: objects.provider })
    .from(objects)
    .where(eq(objects.id, reply.objectId));
  if (!object || !capabilitiesOf(object.provider).collectorFeed) return null;
  const [last] = await db
    .select({ state: outbox.state })
    .from(outbox)
    .where(and(eq(outbox.itemId, reply.id), eq(outbox.action, 'reply')))
    .orderBy(desc(outbox.id))
    .limit(1);
  if (last?.state !== 'done') return null;
  const [row] = await db
    .update(items)
    .set({ delivery: 'sent', deliveryError: null, updatedAt: now })
    .where(and(eq(items.id, reply.id), eq(items.delivery, 'failed')))
    .returning();
  return row ?? null;
}

async function publishReply(deps: IngestDeps, row: ItemRow, cause: Cause) {
  await deps.bus.publish({
    type: 'items.updated',
    spaceId: row.spaceId,
    payload: { object_id: row.objectId, items: await presentItems(deps.db, [row]) },
    cause,
  });
}

/**
 * The collector says what happened to a reply: posted (with the site's id) or refused (with its text).
 * A refused new reply fails (Retry puts it back in the feed); a refused edit of a posted reply is undone —
 * the site keeps the posted text, which the reply shows again with the site's error.
 */
export async function acknowledgeReply(
  deps: IngestDeps,
  object: ObjectRow,
  id: number,
  ack: { external_id: string } | { error: string },
) {
  const pending = and(
    eq(items.id, id),
    eq(items.objectId, object.id),
    eq(items.isOwn, true),
    eq(items.delivery, 'sent'),
  );
  const [current] = await deps.db.select().from(items).where(pending).limit(1);
  if (!current) throw new AppError(404, 'error.notFound');
  const set =
    'external_id' in ack
      ? { externalId: ack.external_id, delivery: 'delivered' as const, deliveryError: null }
      : current.externalId
        ? {
            text: await siteTextOf(deps.db, current),
            delivery: 'delivered' as const,
            deliveryError: ack.error,
          }
        : { delivery: 'failed' as const, deliveryError: ack.error };
  const [row] = await deps.db
    .update(items)
    .set({ ...set, updatedAt: new Date() })
    .where(pending)
    .returning();
  if (!row) throw new AppError(404, 'error.notFound');
  await publishReply(deps, row, { kind: 'system' });
  return row;
}
