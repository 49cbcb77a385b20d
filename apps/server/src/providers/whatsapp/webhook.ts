import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookRejected, type WebhookRequest } from '../types';

// Meta's two checks (PROVIDERS.md §3 "Webhook verification (GET)" and "Webhook signature (POST)").

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Constant-time equality of two strings (different lengths are simply unequal). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The subscription handshake Meta does when the callback is saved in the app dashboard:
 * `hub.mode=subscribe&hub.verify_token=…&hub.challenge=…` → the challenge as the plain body, else 403.
 */
export function answerHandshake(request: WebhookRequest, verifyToken: string): string {
  const mode = first(request.query['hub.mode']);
  const token = first(request.query['hub.verify_token']) ?? '';
  const challenge = first(request.query['hub.challenge']);
  if (mode !== 'subscribe' || !verifyToken || !safeEqual(token, verifyToken) || challenge === undefined) {
    throw new WebhookRejected('WhatsApp handshake: wrong hub.mode or hub.verify_token');
  }
  return challenge;
}

/**
 * `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(app secret, raw body)>`. Meta signs the exact bytes it
 * sends (with `\uXXXX` escapes), so the HMAC is taken over the raw body, never a re-serialised one.
 */
export function verifySignature(request: WebhookRequest, appSecret: string): void {
  const header = request.headers['x-hub-signature-256'] ?? '';
  if (!appSecret || !header.startsWith('sha256=')) {
    throw new WebhookRejected('WhatsApp webhook: missing X-Hub-Signature-256');
  }
  const expected = createHmac('sha256', appSecret).update(request.rawBody).digest('hex');
  if (!safeEqual(header.slice('sha256='.length).toLowerCase(), expected)) {
    throw new WebhookRejected('WhatsApp webhook: signature mismatch');
  }
}
