import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookRejected, type WebhookRequest } from '../types';

/**
 * PROVIDERS.md §7b: `X-Viber-Content-Signature` is the lower-case hex HMAC-SHA256 of the raw body keyed
 * with the bot's auth token, no prefix. Compared in constant time over the bytes as received.
 */
export function verifySignature(request: WebhookRequest, authToken: string): void {
  const given = Buffer.from((request.headers['x-viber-content-signature'] ?? '').toLowerCase());
  if (!authToken || given.length === 0) throw new WebhookRejected('Viber webhook: missing signature');
  const expected = Buffer.from(createHmac('sha256', authToken).update(request.rawBody).digest('hex'));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new WebhookRejected('Viber webhook: signature mismatch');
  }
}
