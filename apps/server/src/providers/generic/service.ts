import { getProvider, isProviderId } from '@otklik/shared';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { items, objects } from '../../db/schema';
import { AppError } from '../../http/errors';
import { sha256 } from '../../lib/crypto';
import type { InboundEvent } from '../../modules/inbox/inbound';
import { ingest } from '../../modules/inbox/ingest';
import { presentItems } from '../../modules/inbox/read-present';
import type { EventBus } from '../../realtime/bus';
import type { ObjectRow } from '../types';
import { INVALID, type IngestItem } from './schemas';

export interface IngestDeps {
  db: Db;
  bus: EventBus;
}

const acceptsIngestToken = (provider: string) =>
  isProviderId(provider) && getProvider(provider).connect === 'ingest_token';

/** The account an ingestion token belongs to; 401 for anything else (same answer for every failure). */
export async function getIngestObject(db: Db, token: string | undefined): Promise<ObjectRow> {
  if (!token) throw new AppError(401, 'ingest.invalidToken');
  const [row] = await db
    .select()
    .from(objects)
    .where(eq(objects.ingestTokenDigest, sha256(token)))
    .limit(1);
  if (!row?.isActive || !acceptsIngestToken(row.provider)) throw new AppError(401, 'ingest.invalidToken');
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
  const result = await ingest(deps, object, events);
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

/**
 * Replies operators wrote that the collector has yet to post on the site: sent to the collector (the
 * outbox delivered them to this feed) but without the site's id.
 */
export async function findPendingReplies(db: Db, object: ObjectRow) {
  const rows = await db
    .select({ reply: items, parentExternalId: parent.externalId })
    .from(items)
    .leftJoin(parent, eq(parent.id, items.parentId))
    .where(
      and(
        eq(items.objectId, object.id),
        eq(items.isOwn, true),
        eq(items.delivery, 'sent'),
        isNull(items.externalId),
      ),
    )
    .orderBy(asc(items.id))
    .limit(500);
  return rows.map(({ reply, parentExternalId }) => ({
    id: reply.id,
    in_reply_to: parentExternalId,
    text: reply.text,
    attachments: reply.attachments,
    created_at: Math.floor(reply.createdAt.getTime() / 1000),
  }));
}

/** The collector says what happened to a reply: posted (with the site's id) or refused (with its text). */
export async function acknowledgeReply(
  deps: IngestDeps,
  object: ObjectRow,
  id: number,
  ack: { external_id: string } | { error: string },
) {
  const set =
    'external_id' in ack
      ? { externalId: ack.external_id, delivery: 'delivered' as const, deliveryError: null }
      : { delivery: 'failed' as const, deliveryError: ack.error };
  const [row] = await deps.db
    .update(items)
    .set({ ...set, updatedAt: new Date() })
    .where(
      and(eq(items.id, id), eq(items.objectId, object.id), eq(items.isOwn, true), eq(items.delivery, 'sent')),
    )
    .returning();
  if (!row) throw new AppError(404, 'error.notFound');
  await deps.bus.publish({
    type: 'items.updated',
    spaceId: object.spaceId,
    payload: { items: await presentItems(deps.db, [row]) },
    cause: { kind: 'system' },
  });
  return row;
}
