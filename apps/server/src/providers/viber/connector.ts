import { deliveryChange } from '../inbound';
import {
  type Connector,
  type ConnectorContext,
  ConnectorError,
  type OutgoingContent,
  WebhookRejected,
} from '../types';
import { getAccountInfo, parseViberJson, sendMessage, setWebhook, type ViberAuth } from './client';
import { callbackSchema, mapCallback } from './mapping';
import { verifySignature } from './webhook';

// Viber bot (PROVIDERS.md §7b): private messages only, pushed to our webhook (no polling API). The bot
// API has no delete, edit, reaction or reply-to, so sending text is all there is.

/** PROVIDERS §7b: the API takes up to 7000 characters, the catalogue (docs/product/validation.md) lets operators type 10000. */
const TEXT_LIMIT = 7000;
/** Viber's sender name limit (28 characters, from Viber's docs; UNCONFIRMED in PROVIDERS). */
const SENDER_NAME_LIMIT = 28;

const auth = (ctx: Pick<ConnectorContext, 'config' | 'fetch' | 'credentials'>): ViberAuth => ({
  config: ctx.config,
  fetch: ctx.fetch,
  authToken: ctx.credentials.auth_token ?? '',
});

function chunks(text: string): string[] {
  const parts: string[] = [];
  for (let rest = text; rest.length > 0; rest = rest.slice(TEXT_LIMIT)) parts.push(rest.slice(0, TEXT_LIMIT));
  return parts;
}

/**
 * Answer buttons as a Viber keyboard (REST Bot API keyboards): `reply` buttons, a row of up to six
 * sharing the keyboard's six columns; a tap comes back as a message whose text is the ActionBody (our
 * data), so it needs no mapping.
 */
function keyboardOf(content: OutgoingContent) {
  const rows = content.buttons?.filter((r) => r.length > 0) ?? [];
  if (rows.length === 0) return undefined;
  return {
    Type: 'keyboard',
    DefaultHeight: false,
    Buttons: rows.flatMap((row) =>
      row.map((b) => ({
        Columns: Math.max(1, Math.floor(6 / Math.min(row.length, 6))),
        Rows: 1,
        ActionType: 'reply',
        ActionBody: b.data,
        Text: b.label.slice(0, 250),
      })),
    ),
  };
}

export const viberConnector: Connector = {
  id: 'viber',

  async verifyCredentials(ctx, input) {
    const authToken = input.auth_token ?? '';
    const info = await getAccountInfo({ config: ctx.config, fetch: ctx.fetch, authToken });
    return {
      externalId: info.id ?? info.uri ?? 'viber',
      name: info.name ?? 'Viber bot',
      screenName: info.uri,
      image: info.icon,
      url: info.uri ? `viber://pa?chatURI=${encodeURIComponent(info.uri)}` : undefined,
      credentials: { auth_token: authToken },
    };
  },

  /** `set_webhook`: Viber calls the URL at once with a signed `webhook` event that must get a 200. */
  async activate(ctx, opts) {
    await setWebhook(auth(ctx), opts.mode === 'webhook' ? opts.webhookUrl : '');
  },

  async deactivate(ctx) {
    await setWebhook(auth(ctx), '');
  },

  async handleWebhook(ctx, request) {
    if (request.method !== 'POST') throw new WebhookRejected('Viber webhook: POST only');
    verifySignature(request, ctx.credentials.auth_token ?? '');
    let json: unknown;
    try {
      json = parseViberJson(request.rawBody.toString('utf8'));
    } catch {
      throw new WebhookRejected('Viber webhook: body is not JSON');
    }
    const parsed = callbackSchema.safeParse(json);
    // A signed callback of a shape we do not know: acknowledge it, store nothing.
    if (!parsed.success) return { status: 200, body: 'ok', events: [] };
    const { events, delivery } = mapCallback(parsed.data);
    // `delivered` / `seen` / `failed` of what we sent update our message.
    return { status: 200, body: 'ok', events: delivery ? [...events, deliveryChange(delivery)] : events };
  },

  async sendReply() {
    throw new ConnectorError('permanent', 'Viber has no comments to reply to', {
      reason: { key: 'failure.notSupported', params: { network: 'Viber' } },
    });
  },

  /** Keyboards of `reply` buttons (keyboardOf). */
  buttons: true,

  async sendMessage(ctx, chat, content) {
    const text = [content.text, ...content.attachments.map((a) => a.url)].filter(Boolean).join('\n');
    const sender = {
      name: ctx.object.name.slice(0, SENDER_NAME_LIMIT),
      ...(ctx.object.image ? { avatar: ctx.object.image } : {}),
    };
    let first: string | null = null;
    const parts = chunks(text);
    const keyboard = keyboardOf(content);
    for (const [i, part] of parts.entries()) {
      const token = await sendMessage(auth(ctx), {
        receiver: chat.externalId,
        sender,
        type: 'text',
        text: part,
        // The buttons go with the last part (Viber shows a keyboard until the next message).
        ...(keyboard && i === parts.length - 1 ? { keyboard } : {}),
      });
      first ??= token;
    }
    return { externalId: first };
  },
};
