import {
  type PresentedWebhook,
  type PresentedWebhookDelivery,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from '@otklik/shared';
import type { webhookDeliveries, webhookEndpoints } from '../../db/schema';

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);
const isEventType = (value: string): value is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

/** An endpoint as the settings screen sees it: never its secret. */
export function presentWebhook(row: typeof webhookEndpoints.$inferSelect): PresentedWebhook {
  return {
    id: row.id,
    space_id: row.spaceId,
    url: row.url,
    description: row.description,
    events: row.events.filter(isEventType),
    is_enabled: row.isEnabled,
    disabled_reason: row.disabledReason,
    disabled_at: unix(row.disabledAt),
    failure_count: row.failureCount,
    created_at: unix(row.createdAt)!,
    updated_at: unix(row.updatedAt)!,
  };
}

export function presentDelivery(row: typeof webhookDeliveries.$inferSelect): PresentedWebhookDelivery {
  return {
    id: row.id,
    endpoint_id: row.endpointId,
    message_id: row.messageId,
    event_type: isEventType(row.eventType) ? row.eventType : 'item.created',
    state: row.state,
    attempts: row.attempts,
    response_status: row.responseStatus,
    error: row.lastError,
    duration_ms: row.durationMs,
    next_attempt_at: row.state === 'pending' ? unix(row.runAt) : null,
    created_at: unix(row.createdAt)!,
    delivered_at: unix(row.doneAt),
  };
}
