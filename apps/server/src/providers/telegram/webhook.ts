import { createHash, timingSafeEqual } from 'node:crypto';
import { WebhookRejected, type WebhookRequest, type WebhookResult } from '../types';
import { updateToEvents } from './mapping';
import type { TgUpdate } from './types';

// Telegram webhooks (PROVIDERS §1 setWebhook): no signature, a static secret. Telegram sends the
// `secret_token` we gave setWebhook back in `X-Telegram-Bot-Api-Secret-Token` on every POST; the body
// is one JSON Update. Any non-2xx makes Telegram retry, so a verified call is always answered 200.

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Constant-time comparison (hashing first makes the lengths equal). */
export function secretMatches(received: string | undefined, expected: string | undefined): boolean {
  if (!received || !expected) return false;
  return timingSafeEqual(digest(received), digest(expected));
}

export function handleTelegramWebhook(
  request: WebhookRequest,
  secret: string | undefined,
  botId: number | null,
): WebhookResult {
  if (request.method !== 'POST') throw new WebhookRejected('Telegram only POSTs updates');
  if (!secretMatches(request.headers['x-telegram-bot-api-secret-token'], secret))
    throw new WebhookRejected('X-Telegram-Bot-Api-Secret-Token does not match');
  let update: TgUpdate;
  try {
    update = JSON.parse(request.rawBody.toString('utf8')) as TgUpdate;
  } catch {
    // Verified but unreadable: answering an error would only make Telegram send it again.
    return { status: 200, body: 'ok', events: [] };
  }
  if (!update || typeof update !== 'object' || typeof update.update_id !== 'number')
    return { status: 200, body: 'ok', events: [] };
  const events = updateToEvents(update, botId);
  // A button press is answered in the webhook's reply itself (Bot API "making requests when getting updates").
  if (update.callback_query)
    return {
      status: 200,
      body: { method: 'answerCallbackQuery', callback_query_id: update.callback_query.id },
      events,
    };
  return { status: 200, body: 'ok', events };
}
