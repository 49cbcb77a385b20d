import {
  WEBHOOK_DISABLE_AFTER,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_SECONDS,
  WEBHOOK_TIMEOUT_S,
} from '@otklik/shared';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { Agent, request } from 'undici';
import type { Db } from '../db/client';
import { webhookDeliveries, webhookEndpoints } from '../db/schema';
import type { Sealer } from '../lib/crypto';
import type { Logger } from '../lib/logger';
import { noteRuleWebhookFailed } from '../modules/rules/webhook-failures';
import { WEBHOOKS_QUEUED } from '../modules/webhooks/events';
import {
  noteEndpointFailure,
  noteEndpointSuccess,
  type WebhookDeliveryRow,
} from '../modules/webhooks/service';
import { webhookHeaders } from '../modules/webhooks/signing';
import { guardedConnector } from '../providers/media';
import { type MediaNetwork, systemNetwork } from '../providers/public-network';
import type { EventBus } from '../realtime/bus';
import { QueueWorkerLoop } from './queue-worker';

export const WEBHOOK_POLL_MS = 1_000;
/** A claimed delivery is the claimer's for this long (the call times out well before); then due again. */
const LEASE_MS = 2 * 60_000;
const BATCH = 20;
/** How much of a failing answer the delivery log keeps. */
const ERROR_EXCERPT = 300;

export interface WebhookWorkerDeps {
  db: Db;
  bus: EventBus;
  sealer: Sealer;
  log: Logger;
  /** WEBHOOKS_ALLOW_PRIVATE: endpoints on the operator's own network (and loopback in tests). */
  allowPrivate: boolean;
  network?: MediaNetwork;
  /** The worker's clock; tests move it forward to reach retries. */
  now?: () => Date;
  /** Only these spaces' deliveries (tests share one PostgreSQL between files); all by default. */
  spaceIds?: number[];
  disableAfter?: number;
}

type Outcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/**
 * Delivers queued webhook events (modules/webhooks) with the outbox worker's pattern: rows claimed with
 * one UPDATE over a `FOR UPDATE SKIP LOCKED` sub-select, the claim a lease (run_at pushed ahead, one
 * more attempt), failures rescheduled on the Standard Webhooks backoff, woken by `webhooks.queued` from
 * any node and polling as a fallback.
 */
export class WebhookWorker extends QueueWorkerLoop {
  constructor(private readonly deps: WebhookWorkerDeps) {
    super({ bus: deps.bus, log: deps.log, wakeOn: WEBHOOKS_QUEUED, failure: 'Webhook run failed' });
  }

  private now() {
    return this.deps.now?.() ?? new Date();
  }

  override start(intervalMs = WEBHOOK_POLL_MS) {
    super.start(intervalMs);
  }

  async tick(): Promise<number> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((row) => this.run(row)));
    return claimed.length;
  }

  /** The outbox's lease (jobs/outbox-worker.ts): the row stays pending with run_at ahead and one more attempt. */
  private async claim(): Promise<WebhookDeliveryRow[]> {
    const now = this.now();
    const db = this.deps.db;
    const candidates = db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.state, 'pending'),
          lte(webhookDeliveries.runAt, now),
          this.deps.spaceIds ? inArray(webhookDeliveries.spaceId, this.deps.spaceIds) : undefined,
          // A switched-off endpoint's deliveries wait; they go when it is switched on again.
          inArray(
            webhookDeliveries.endpointId,
            db
              .select({ id: webhookEndpoints.id })
              .from(webhookEndpoints)
              .where(eq(webhookEndpoints.isEnabled, true)),
          ),
        ),
      )
      .orderBy(asc(webhookDeliveries.runAt), asc(webhookDeliveries.id))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    return db
      .update(webhookDeliveries)
      .set({ attempts: sqlIncrement(), runAt: new Date(now.getTime() + LEASE_MS) })
      .where(inArray(webhookDeliveries.id, candidates))
      .returning();
  }

  private async run(row: WebhookDeliveryRow) {
    const db = this.deps.db;
    const [endpoint] = await db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, row.endpointId));
    if (!endpoint) return;
    const started = Date.now();
    const outcome = await this.send(endpoint.url, endpoint.secretSealed, row);
    const durationMs = Date.now() - started;
    const now = this.now();
    if (outcome.ok) {
      await db
        .update(webhookDeliveries)
        .set({ state: 'done', doneAt: now, responseStatus: outcome.status, lastError: null, durationMs })
        .where(eq(webhookDeliveries.id, row.id));
      await noteEndpointSuccess(db, endpoint.id);
      return;
    }
    const finalAttempt = row.attempts >= WEBHOOK_MAX_ATTEMPTS;
    const delayS = WEBHOOK_RETRY_SECONDS[Math.min(row.attempts, WEBHOOK_RETRY_SECONDS.length) - 1] ?? 0;
    await db
      .update(webhookDeliveries)
      .set({
        state: finalAttempt ? 'failed' : 'pending',
        runAt: finalAttempt ? now : new Date(now.getTime() + delayS * 1000),
        responseStatus: outcome.status,
        lastError: outcome.error,
        durationMs,
      })
      .where(eq(webhookDeliveries.id, row.id));
    await noteEndpointFailure(db, endpoint.id, this.deps.disableAfter ?? WEBHOOK_DISABLE_AFTER, now);
    // An auto-rule's call that failed for good fails the rule's run (settings/errors, item history).
    if (finalAttempt) await noteRuleWebhookFailed(db, row, outcome.error, now);
    this.deps.log.warn(
      {
        deliveryId: row.id,
        endpointId: endpoint.id,
        status: outcome.status,
        err: outcome.error,
        retryInS: finalAttempt ? null : delayS,
      },
      'Webhook delivery failed',
    );
  }

  /** One signed POST; the address is checked as the socket opens (providers/media.ts guardedConnector). */
  private async send(url: string, sealedSecret: string, row: WebhookDeliveryRow): Promise<Outcome> {
    const body = JSON.stringify(row.payload);
    const timestamp = Math.floor(this.now().getTime() / 1000);
    const agent = new Agent({
      connect: guardedConnector(this.deps.network ?? systemNetwork, this.deps.allowPrivate),
    });
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'https:' && !(this.deps.allowPrivate && parsed.protocol === 'http:'))
        return { ok: false, status: null, error: 'Only https addresses are allowed' };
      // Inside the try: a secret sealed with another SECRET_KEY fails this delivery visibly, not the batch.
      const secret = this.deps.sealer.open(sealedSecret);
      const response = await request(parsed, {
        method: 'POST',
        dispatcher: agent,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_S * 1000),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Otklik-Webhooks',
          ...webhookHeaders(secret, row.messageId, timestamp, body),
        },
        body,
      });
      const text = (await response.body.text().catch(() => '')).slice(0, ERROR_EXCERPT);
      if (response.statusCode >= 200 && response.statusCode <= 299)
        return { ok: true, status: response.statusCode };
      return {
        ok: false,
        status: response.statusCode,
        error: `HTTP ${response.statusCode}${text ? `: ${text}` : ''}`,
      };
    } catch (error) {
      return { ok: false, status: null, error: (error as Error).message.slice(0, ERROR_EXCERPT) };
    } finally {
      await agent.destroy();
    }
  }
}

function sqlIncrement() {
  return sql`${webhookDeliveries.attempts} + 1`;
}
