import { timingSafeEqual } from 'node:crypto';
import { WebhookRejected, type WebhookRequest } from '../types';

/**
 * Jivo signs nothing (the Bot API docs name no signature; UNCONFIRMED that none exists): the provider's
 * endpoint URL is its own to form, so ours carries the account's random secret, `?secret=…`, and a call
 * without it is refused. Compared in constant time.
 */
export function verifySecret(request: WebhookRequest, secret: string): void {
  const raw = request.query.secret;
  const given = Buffer.from(typeof raw === 'string' ? raw : '');
  const expected = Buffer.from(secret);
  if (!secret || given.length === 0) throw new WebhookRejected('Jivo webhook: missing secret');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new WebhookRejected('Jivo webhook: secret mismatch');
}

/** The address to give Jivo for this account's events (the account's setup, Connector.setupInstructions). */
export const jivoWebhookAddress = (webhookUrl: string, secret: string) =>
  `${webhookUrl}?secret=${encodeURIComponent(secret)}`;
