import type { WebhookEventType, WebhookForm } from '@otklik/shared';
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema';
import type { Sealer } from '../../lib/crypto';
import { badRequest, conflict } from '../../lib/errors';
import { assertPublicUrl, type MediaNetwork } from '../../providers/public-network';
import { newMessageId, newWebhookSecret } from './signing';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Where endpoints may point: https at a public address, unless the operator opened their own network. */
export interface WebhookNetworkPolicy {
  allowPrivate: boolean;
  network?: MediaNetwork;
}

/** Refuses an address the server must not call (http, or a host that is or resolves to a private address). */
export async function assertEndpointUrl(url: string, policy: WebhookNetworkPolicy): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && !(policy.allowPrivate && parsed.protocol === 'http:'))
    throw badRequest('webhooks.url.notHttps', { fields: { url: 'webhooks.url.notHttps' } });
  try {
    await assertPublicUrl(parsed, { network: policy.network, allowPrivate: policy.allowPrivate });
  } catch {
    throw badRequest('webhooks.url.private', { fields: { url: 'webhooks.url.private' } });
  }
}

export async function listWebhooks(db: Db, spaceIds: number[]) {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(webhookEndpoints)
    .where(inArray(webhookEndpoints.spaceId, spaceIds))
    .orderBy(desc(webhookEndpoints.id));
}

export async function getWebhook(db: Db, id: number): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).limit(1);
  return row;
}

/** A new endpoint and its signing secret, which is returned this once. */
export async function createWebhook(
  db: Db,
  sealer: Sealer,
  input: WebhookForm & { space_id: number },
  userId: number,
) {
  const secret = newWebhookSecret();
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      spaceId: input.space_id,
      url: input.url,
      description: input.description,
      events: input.events,
      isEnabled: input.is_enabled,
      secretSealed: sealer.seal(secret),
      createdBy: userId,
    })
    .returning();
  return { row: row!, secret };
}

/** Switching an endpoint on again clears the failure streak and the reason it was switched off. */
export async function updateWebhook(db: Db, row: WebhookEndpointRow, input: Partial<WebhookForm>) {
  const enabling = input.is_enabled === true && !row.isEnabled;
  const [updated] = await db
    .update(webhookEndpoints)
    .set({
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.events !== undefined ? { events: input.events } : {}),
      ...(input.is_enabled !== undefined ? { isEnabled: input.is_enabled } : {}),
      ...(enabling ? { failureCount: 0, disabledReason: null, disabledAt: null } : {}),
      ...(input.is_enabled === false ? { disabledReason: null, disabledAt: new Date() } : {}),
      updatedAt: new Date(),
    })
    .where(eq(webhookEndpoints.id, row.id))
    .returning();
  return updated!;
}

export async function deleteWebhook(db: Db, id: number) {
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
}

export async function listDeliveries(db: Db, endpointId: number, opts: { before?: number; limit: number }) {
  return db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        opts.before ? lt(webhookDeliveries.id, opts.before) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(opts.limit);
}

export async function getDelivery(db: Db, id: number): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1);
  return row;
}

/**
 * Sends a delivery again, with the same webhook-id (receivers deduplicate by it) and a fresh count of
 * attempts. A delivery being tried right now (claimed, attempts > 0 and still pending) is left alone.
 */
export async function redeliver(db: Db, row: WebhookDeliveryRow, now = new Date()) {
  if (row.state === 'pending' && row.attempts > 0 && row.runAt.getTime() > now.getTime())
    throw conflict('webhooks.notPending');
  const [updated] = await db
    .update(webhookDeliveries)
    .set({ state: 'pending', attempts: 0, runAt: now, doneAt: null })
    .where(eq(webhookDeliveries.id, row.id))
    .returning();
  return updated!;
}

export interface WebhookEvent {
  type: WebhookEventType;
  spaceId: number;
  /** Identifies the change: the same change published twice is delivered once per endpoint. */
  key: string;
  data: Record<string, unknown>;
}

/**
 * Queues one delivery to one endpoint whatever it subscribed to: an auto-rule's "call a webhook" action
 * (issue 17, type `rule.action`). The worker signs, sends and retries it like any delivery. Returns the
 * delivery's id, or null when the same key was queued already.
 */
export async function enqueueDirectDelivery(
  db: Db,
  endpoint: Pick<WebhookEndpointRow, 'id' | 'spaceId'>,
  event: { type: string; key: string; data: Record<string, unknown> },
  now = new Date(),
): Promise<number | null> {
  const [row] = await db
    .insert(webhookDeliveries)
    .values({
      spaceId: endpoint.spaceId,
      endpointId: endpoint.id,
      messageId: newMessageId(),
      eventKey: event.key,
      eventType: event.type,
      payload: { type: event.type, timestamp: now.toISOString(), data: event.data },
      runAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: webhookDeliveries.id });
  return row?.id ?? null;
}

/**
 * Queues one delivery per enabled endpoint of the event's space that subscribed to its type. Returns
 * how many were queued.
 */
export async function enqueueWebhookEvents(
  db: Db,
  events: WebhookEvent[],
  now = new Date(),
): Promise<number> {
  let queued = 0;
  const spaceIds = [...new Set(events.map((e) => e.spaceId))];
  if (spaceIds.length === 0) return 0;
  const endpoints = await db
    .select({ id: webhookEndpoints.id, spaceId: webhookEndpoints.spaceId, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(inArray(webhookEndpoints.spaceId, spaceIds), eq(webhookEndpoints.isEnabled, true)));
  if (endpoints.length === 0) return 0;
  const rows: Array<typeof webhookDeliveries.$inferInsert> = [];
  for (const event of events) {
    const messageId = newMessageId();
    const payload = { type: event.type, timestamp: now.toISOString(), data: event.data };
    for (const endpoint of endpoints) {
      if (endpoint.spaceId !== event.spaceId || !endpoint.events.includes(event.type)) continue;
      rows.push({
        spaceId: event.spaceId,
        endpointId: endpoint.id,
        messageId,
        eventKey: event.key,
        eventType: event.type,
        payload,
        runAt: now,
      });
    }
  }
  if (rows.length === 0) return 0;
  const inserted = await db
    .insert(webhookDeliveries)
    .values(rows)
    .onConflictDoNothing()
    .returning({ id: webhookDeliveries.id });
  queued += inserted.length;
  return queued;
}

/** Counts a failed attempt against the endpoint; switches it off at `disableAfter` in a row. */
export async function noteEndpointFailure(db: Db, endpointId: number, disableAfter: number, now: Date) {
  await db
    .update(webhookEndpoints)
    .set({
      failureCount: sql`${webhookEndpoints.failureCount} + 1`,
      isEnabled: sql`CASE WHEN ${webhookEndpoints.failureCount} + 1 >= ${disableAfter} THEN false ELSE ${webhookEndpoints.isEnabled} END`,
      disabledReason: sql`CASE WHEN ${webhookEndpoints.failureCount} + 1 >= ${disableAfter} AND ${webhookEndpoints.isEnabled} THEN 'failures' ELSE ${webhookEndpoints.disabledReason} END`,
      disabledAt: sql`CASE WHEN ${webhookEndpoints.failureCount} + 1 >= ${disableAfter} AND ${webhookEndpoints.isEnabled} THEN ${now.toISOString()}::timestamptz ELSE ${webhookEndpoints.disabledAt} END`,
    })
    .where(eq(webhookEndpoints.id, endpointId));
}

export async function noteEndpointSuccess(db: Db, endpointId: number) {
  await db
    .update(webhookEndpoints)
    .set({ failureCount: 0 })
    .where(and(eq(webhookEndpoints.id, endpointId), sql`${webhookEndpoints.failureCount} <> 0`));
}
