import { AppError } from '../../lib/errors';
import { type Connector, type ConnectorContext, ConnectorError, WebhookRejected } from '../types';
import { webhookUrl } from '../updates';
import { type JivoAuth, sendBotMessage } from './client';
import { mapJivoEvent } from './mapping';
import { jivoWebhookAddress, verifySecret } from './webhook';

// Jivo as a bot provider (Jivo Bot API): Jivo hands each client message of the channel to us as a
// `CLIENT_MESSAGE` (pushed to our webhook, no polling API), and operators answer from the inbox with
// `BOT_MESSAGE`s. The Bot API has no history, edit, delete or reactions, so sending text is all there is.

/** Jivo's provider ids and our tokens go into a URL path: plain characters only. */
const URL_SAFE = /^[A-Za-z0-9_-]{1,128}$/;

const auth = (ctx: Pick<ConnectorContext, 'config' | 'fetch' | 'credentials'>): JivoAuth => ({
  config: ctx.config,
  fetch: ctx.fetch,
  providerId: ctx.credentials.provider_id ?? '',
  token: ctx.credentials.token ?? '',
});

/** A field that cannot be part of Jivo's endpoint: the form marks it, in the reader's language. */
const invalidField = (name: string) =>
  new AppError(400, 'field.invalid', {
    errorType: 'validation',
    fields: { [`credentials.${name}`]: 'field.invalid' },
  });

export const jivoConnector: Connector = {
  id: 'jivo',

  /**
   * The Bot API has no call that checks a token without writing to a chat, so connecting checks the shape
   * only; a wrong or revoked token shows on the first answer (401/403/404 → the account's error).
   */
  async verifyCredentials(_ctx, input) {
    const providerId = input.provider_id ?? '';
    const token = input.token ?? '';
    if (!URL_SAFE.test(providerId)) throw invalidField('provider_id');
    if (!URL_SAFE.test(token) || token.length < 8) throw invalidField('token');
    return {
      externalId: providerId,
      name: `Jivo ${providerId}`,
      credentials: { provider_id: providerId, token },
    };
  },

  /** The address an administrator gives Jivo (with the provider id) for this account's events. */
  setupInstructions(ctx) {
    return {
      webhook_url: jivoWebhookAddress(
        webhookUrl(ctx.config, ctx.object),
        ctx.credentials.webhook_secret ?? '',
      ),
    };
  },

  async handleWebhook(ctx, request) {
    if (request.method !== 'POST') throw new WebhookRejected('Jivo webhook: POST only');
    verifySecret(request, ctx.credentials.webhook_secret ?? '');
    let json: unknown;
    try {
      json = JSON.parse(request.rawBody.toString('utf8'));
    } catch {
      throw new WebhookRejected('Jivo webhook: body is not JSON');
    }
    // Jivo wants a plain 200 quickly (3-second timeout, then two retries); the events are stored first.
    return { status: 200, body: {}, events: mapJivoEvent(json, ctx.now()) };
  },

  async sendReply() {
    throw new ConnectorError('permanent', 'Jivo has no comments to reply to', {
      reason: { key: 'failure.notSupported', params: { network: 'Jivo' } },
    });
  },

  async sendMessage(ctx, chat, content) {
    if (!chat.authorExternalId)
      throw new ConnectorError('permanent', 'Jivo: the chat has no client id', {
        reason: { key: 'failure.notSupported', params: { network: 'Jivo' } },
      });
    const text = [content.text, ...content.attachments.map((a) => a.url)].filter(Boolean).join('\n');
    const id = await sendBotMessage(auth(ctx), {
      clientId: chat.authorExternalId,
      chatId: chat.externalId,
      text,
      id: content.idempotencyKey,
      now: ctx.now(),
    });
    return { externalId: id };
  },
};
