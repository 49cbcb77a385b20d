import { AppError } from '../../lib/errors';
import { badAnswer } from '../http';
import type { InboundEvent } from '../inbound';
import { downloadMedia } from '../media';
import {
  type Connector,
  type ConnectorContext,
  ConnectorError,
  type VerifyContext,
  WebhookRejected,
} from '../types';
import { webhookUrl } from '../updates';
import {
  type AvitoAuth,
  type AvitoGrant,
  avitoErrorText,
  avitoFailure,
  deleteMessage,
  getChat,
  getSelf,
  getVoiceFiles,
  sendText,
  subscribeWebhook,
  tokenRequest,
  unsubscribeWebhook,
} from './client';
import { namesOf, toEvent, webhookSchema } from './mapping';
import { pollChats, recentMessages } from './polling';
import { verifySecret, webhookAddress } from './webhook';

// Avito Messenger (PROVIDERS.md §7a): chats about listings, by webhook v3 or by listing chats. Connected
// by OAuth (docs/product/screens-and-routes.md /callback/avito, §7 POST v1/avito/auth: the authorization-code grant with the
// instance's AVITO_CLIENT_ID/SECRET; the account's refresh token is kept) or, as before, with an
// account's own client-credentials keys. Text only; reviews have no API in PROVIDERS, so
// `comments: ['review']` stays unfed.

/** Scopes the connector needs: chats and messages, and the account's own id (GET /core/v1/accounts/self). */
const OAUTH_SCOPE = 'messenger:read,messenger:write,user:read';

const authOf = (ctx: VerifyContext, credentials: Record<string, string>): AvitoAuth =>
  credentials.refresh_token
    ? {
        config: ctx.config,
        fetch: ctx.fetch,
        now: ctx.now,
        clientId: ctx.config.AVITO_CLIENT_ID ?? '',
        clientSecret: ctx.config.AVITO_CLIENT_SECRET ?? '',
        refreshToken: credentials.refresh_token,
      }
    : {
        config: ctx.config,
        fetch: ctx.fetch,
        now: ctx.now,
        clientId: credentials.client_id ?? '',
        clientSecret: credentials.client_secret ?? '',
      };

function userIdOf(ctx: ConnectorContext): string {
  const id = ctx.credentials.user_id ?? ctx.object.externalId;
  if (!id)
    throw new ConnectorError('auth', 'Avito: the account id is missing, reconnect the account', {
      reason: { key: 'failure.reconnect', params: { network: 'Avito' } },
    });
  return id;
}

const subscribedUrl = (ctx: ConnectorContext) =>
  webhookAddress(webhookUrl(ctx.config, ctx.object), ctx.credentials.webhook_secret ?? '');

/** Deletes one of our messages; Avito allows it only within an hour of sending (PROVIDERS §7a). */
export function deleteOwnMessage(ctx: ConnectorContext, chatId: string, messageId: string) {
  return deleteMessage(authOf(ctx, ctx.credentials), userIdOf(ctx), chatId, messageId);
}

const VOICE_REF = 'avito-voice:';

export const avitoConnector: Connector = {
  id: 'avito',

  /** `avito-voice:<voice_id>` → getVoiceFiles → the file at the link it gives. */
  async fetchMedia(ctx, ref, opts) {
    if (!ref.startsWith(VOICE_REF))
      throw new ConnectorError('permanent', `Avito: not a voice reference: ${ref}`, {
        reason: { key: 'failure.badReference', params: { network: 'Avito' }, detail: ref },
      });
    const voiceId = ref.slice(VOICE_REF.length);
    const answer = await getVoiceFiles(authOf(ctx, ctx.credentials), userIdOf(ctx), [voiceId]);
    const url = answer.voices_urls?.[voiceId];
    if (!url)
      throw new ConnectorError('permanent', 'Avito gave no link for the voice message', {
        reason: { key: 'failure.badAnswer', params: { network: 'Avito' } },
      });
    return downloadMedia(ctx.fetch, url, { maxBytes: opts.maxBytes, what: 'Avito' });
  },

  oauth: {
    configured: (config) => Boolean(config.AVITO_CLIENT_ID && config.AVITO_CLIENT_SECRET),
    authorizeUrl(config, { redirectUri, state }) {
      if (!config.AVITO_CLIENT_ID)
        throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
      const url = new URL(config.AVITO_OAUTH_URL);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: config.AVITO_CLIENT_ID,
        scope: OAUTH_SCOPE,
        redirect_uri: redirectUri,
        state,
      }).toString();
      return url.toString();
    },
    /** grant_type=authorization_code → the account's tokens; who it is comes from accounts/self. */
    async exchange(ctx, { code, redirectUri }) {
      const { AVITO_CLIENT_ID, AVITO_CLIENT_SECRET } = ctx.config;
      if (!AVITO_CLIENT_ID || !AVITO_CLIENT_SECRET)
        throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
      const app = { ...ctx, clientId: AVITO_CLIENT_ID, clientSecret: AVITO_CLIENT_SECRET };
      const { response, body } = await tokenRequest(app, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
      });
      const granted = body as AvitoGrant | undefined;
      if (response.status === 429 || response.status >= 500) throw avitoFailure(response, body);
      if (!response.ok || !granted?.refresh_token)
        throw new ConnectorError('permanent', avitoErrorText(body, response.status));
      const credentials = { refresh_token: granted.refresh_token };
      const self = await getSelf(authOf(ctx, credentials));
      const userId = String(self.id);
      return {
        externalId: userId,
        name: self.name || `Avito ${userId}`,
        url: self.profile_url,
        credentials: { ...credentials, user_id: userId },
      };
    },
  },

  async verifyCredentials(ctx, input) {
    const credentials = { client_id: input.client_id ?? '', client_secret: input.client_secret ?? '' };
    const self = await getSelf(authOf(ctx, credentials));
    const userId = String(self.id);
    return {
      externalId: userId,
      name: self.name || `Avito ${userId}`,
      url: self.profile_url,
      credentials: { ...credentials, user_id: userId },
    };
  },

  /** Webhook v3 subscription with our secret in the URL; for polling, any earlier subscription goes. */
  async activate(ctx, opts) {
    const auth = authOf(ctx, ctx.credentials);
    const url = webhookAddress(opts.webhookUrl, opts.webhookSecret);
    if (opts.mode === 'webhook') {
      await subscribeWebhook(auth, url);
      return;
    }
    await unsubscribeWebhook(auth, url).catch((error: unknown) => {
      // Nothing was subscribed: Avito refuses, which is what polling wants anyway.
      if (!(error instanceof ConnectorError && error.kind === 'permanent')) throw error;
    });
  },

  async deactivate(ctx) {
    await unsubscribeWebhook(authOf(ctx, ctx.credentials), subscribedUrl(ctx));
  },

  async handleWebhook(ctx, request) {
    verifySecret(request, ctx.credentials.webhook_secret ?? '');
    let json: unknown;
    try {
      json = request.rawBody.length > 0 ? JSON.parse(request.rawBody.toString('utf8')) : {};
    } catch {
      throw new WebhookRejected('Avito webhook: body is not JSON');
    }
    const parsed = webhookSchema.safeParse(json);
    // Avito's own check (`curl <url> -d '{}'`) and types we do not handle: 200, nothing stored.
    const value =
      parsed.success && parsed.data.payload.type === 'message' ? parsed.data.payload.value : undefined;
    if (!value) return { status: 200, body: { ok: true }, events: [] };
    const ownUserId = userIdOf(ctx);
    const isOwn = String(value.author_id) === ownUserId;
    // PROVIDERS §7a: our own messages (author_id == user_id) are ignored, except that one was deleted.
    if (isOwn && value.type !== 'deleted') return { status: 200, body: { ok: true }, events: [] };
    // v3 payloads carry no names: the chat has them. Best effort — the message is stored either way.
    const chatInfo =
      isOwn || value.type === 'deleted'
        ? undefined
        : await getChat(authOf(ctx, ctx.credentials), ownUserId, value.chat_id).catch(() => undefined);
    const nameOf = namesOf(chatInfo);
    const event = toEvent(value.chat_id, value, { ownUserId, accountName: ctx.object.name, nameOf });
    return { status: 200, body: { ok: true }, events: event ? [event] : [] };
  },

  poll(ctx, cursor, opts) {
    return pollChats(ctx, authOf(ctx, ctx.credentials), userIdOf(ctx), cursor, opts);
  },

  importRecent(ctx, limit): Promise<InboundEvent[]> {
    return recentMessages(ctx, authOf(ctx, ctx.credentials), userIdOf(ctx), limit);
  },

  async sendReply() {
    throw new ConnectorError('permanent', 'Avito reviews cannot be answered through the API yet', {
      reason: { key: 'failure.notSupported', params: { network: 'Avito' } },
    });
  },

  async sendMessage(ctx, chat, content) {
    // Image sending needs an upload whose paths are UNCONFIRMED (PROVIDERS §7a): files go as links.
    const text = [content.text, ...content.attachments.map((a) => a.url)].filter(Boolean).join('\n');
    const sent = await sendText(authOf(ctx, ctx.credentials), userIdOf(ctx), chat.externalId, text);
    // Avito answers a sent message with it (its id); an answer without one is not Avito's.
    if (!sent?.id) throw badAnswer('Avito', 'a sent message without its id');
    return { externalId: String(sent.id) };
  },
};
