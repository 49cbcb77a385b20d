import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@otklik/shared';

// Standard Webhooks (standardwebhooks.com): the secret is `whsec_` + base64 of the key bytes; each
// request carries webhook-id, webhook-timestamp (unix seconds) and webhook-signature
// `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the decoded bytes.

export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

function keyOf(secret: string): Buffer {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? secret.slice(WEBHOOK_SECRET_PREFIX.length)
    : secret;
  return Buffer.from(encoded, 'base64');
}

export function signWebhook(secret: string, messageId: string, timestamp: number, body: string): string {
  const digest = createHmac('sha256', keyOf(secret))
    .update(`${messageId}.${timestamp}.${body}`)
    .digest('base64');
  return `v1,${digest}`;
}

/** The three headers of one attempt. */
export function webhookHeaders(secret: string, messageId: string, timestamp: number, body: string) {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, messageId, timestamp, body),
  };
}
