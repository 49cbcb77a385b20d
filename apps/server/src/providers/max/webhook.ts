import { createHash, timingSafeEqual } from 'node:crypto';
import { WebhookRejected, type WebhookRequest, type WebhookResult } from '../types';
import { updateToEvents } from './mapping';
import type { MaxUpdate } from './types';

// MAX webhooks (PROVIDERS §7e): the `secret` given to POST /subscriptions comes back in the
// `X-Max-Bot-Api-Secret` header of every POST; the body is one Update. A verified call is answered 200
// whatever it holds, so MAX does not redeliver it.

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

export function secretMatches(received: string | undefined, expected: string | undefined): boolean {
  if (!received || !expected) return false;
  return timingSafeEqual(digest(received), digest(expected));
}

export function handleMaxWebhook(
  request: WebhookRequest,
  secret: string | undefined,
  botId: number | null,
): WebhookResult {
  if (request.method !== 'POST') throw new WebhookRejected('MAX only POSTs updates');
  if (!secretMatches(request.headers['x-max-bot-api-secret'], secret))
    throw new WebhookRejected('X-Max-Bot-Api-Secret does not match');
  let parsed: unknown;
  try {
    parsed = JSON.parse(request.rawBody.toString('utf8'));
  } catch {
    return { status: 200, body: { ok: true }, events: [] };
  }
  // One Update per POST; a batch `{updates:[…]}` (the long-poll shape) is accepted too.
  const updates = (
    parsed && typeof parsed === 'object' && Array.isArray((parsed as { updates?: unknown }).updates)
      ? (parsed as { updates: MaxUpdate[] }).updates
      : [parsed as MaxUpdate]
  ).filter((u) => u && typeof u === 'object');
  return { status: 200, body: { ok: true }, events: updates.flatMap((u) => updateToEvents(u, botId)) };
}
