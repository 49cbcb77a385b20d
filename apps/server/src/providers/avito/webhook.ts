import { timingSafeEqual } from 'node:crypto';
import { WebhookRejected, type WebhookRequest } from '../types';

/**
 * PROVIDERS.md §7a: Avito documents no webhook signature (UNCONFIRMED), and advises a secret URL. We
 * subscribe with our per-account secret in the query (`?secret=…`) and accept only calls that carry it,
 * compared in constant time; anyone else who learns the account id still cannot post to it.
 */
export function webhookAddress(webhookUrl: string, secret: string): string {
  return `${webhookUrl}?secret=${encodeURIComponent(secret)}`;
}

export function verifySecret(request: WebhookRequest, secret: string): void {
  const raw = request.query.secret;
  const given = Buffer.from((Array.isArray(raw) ? raw[0] : raw) ?? '');
  const expected = Buffer.from(secret);
  if (!secret || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new WebhookRejected('Avito webhook: missing or wrong secret');
  }
}
