import { safeEqual } from '../../lib/crypto';
import { type ConnectorContext, WebhookRejected, type WebhookRequest, type WebhookResult } from '../types';
import { callbackSecret, communityToken, groupIdOf, vkApi } from './client';
import { callbackEventSchema, mapUpdate, type VkAccount } from './mapping';
import { withProfiles } from './profiles';

// The Callback API (PROVIDERS §2 "Callback API"): JSON POSTs with a `secret` field (no HMAC), a
// `confirmation` handshake answered with the community's current code as text/plain, every other event
// answered with the literal `ok`. Redeliveries are harmless: ingestion dedupes by the item and message
// ids the event carries (its `event_id` names the same thing again).

export function accountOf(ctx: ConnectorContext): VkAccount {
  return {
    groupId: groupIdOf(ctx.credentials, ctx.object.externalId),
    name: ctx.object.name,
    image: ctx.object.image,
  };
}

export async function handleVkWebhook(
  ctx: ConnectorContext,
  request: WebhookRequest,
): Promise<WebhookResult> {
  if (request.method !== 'POST') throw new WebhookRejected('VK posts its callbacks');
  let json: unknown;
  try {
    json = JSON.parse(request.rawBody.toString('utf8'));
  } catch {
    throw new WebhookRejected('body is not JSON');
  }
  const parsed = callbackEventSchema.safeParse(json);
  if (!parsed.success) throw new WebhookRejected('not a VK callback');
  const event = parsed.data;
  const account = accountOf(ctx);
  if (event.group_id !== account.groupId) throw new WebhookRejected('callback for another community');

  const expected = callbackSecret(ctx.credentials.webhook_secret ?? '');
  const secretMatches = event.secret !== undefined && safeEqual(event.secret, expected);

  if (event.type === 'confirmation') {
    // The handshake may come without `secret` (PROVIDERS §2); a wrong one is still refused. The code
    // "changes over time", so it is asked for each time instead of being kept.
    if (event.secret !== undefined && !secretMatches) throw new WebhookRejected('wrong secret');
    const api = vkApi(ctx, communityToken(ctx.credentials));
    const { code } = await api<{ code: string }>('groups.getCallbackConfirmationCode', {
      group_id: account.groupId,
    });
    return { status: 200, body: code, events: [] };
  }

  if (!secretMatches) throw new WebhookRejected('wrong secret');
  const events = mapUpdate(event, account);
  const named =
    events.length > 0
      ? await withProfiles(vkApi(ctx, communityToken(ctx.credentials)), events, ctx.config.VK_API_URL)
      : events;
  return { status: 200, body: 'ok', events: named };
}
