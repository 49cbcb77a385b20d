import { badAnswer } from '../http';
import { type Connector, type ConnectorContext, ConnectorError, WebhookRejected } from '../types';
import { webhookUrl } from '../updates';
import { getInfo, NETWORK, type OkAuth, sendToChat, subscribe, unsubscribe } from './client';
import { toEvents, verifySecret, webhookAddress, webhookSchema } from './webhook';

// OK (Odnoklassniki) group through the group Bot API (PROVIDERS.md §7d). Connected with the group's access
// key (Group settings → Management → "Get access key"; a new key invalidates the old one), checked with
// `GET /graph/me/info`. Updates come by webhook (`/graph/me/subscribe` on connect, `/graph/me/unsubscribe`
// on removal) with the account's secret in the URL, since OK signs nothing (webhook.ts). Replies go to the
// chat with `POST /graph/me/messages/{chat_id}`. The Bot API has no group comments, so comments are not
// fed and cannot be answered (README says so); the OAuth popup gives a user token, not a group key, so
// the key is the one way to connect (README).

const authOf = (ctx: Pick<ConnectorContext, 'config' | 'fetch'>, token: string): OkAuth => ({
  config: ctx.config,
  fetch: ctx.fetch,
  token,
});

function tokenOf(ctx: ConnectorContext): string {
  const token = ctx.credentials.access_token;
  if (!token)
    throw new ConnectorError('auth', 'OK: no group key stored', {
      reason: { key: 'failure.reconnect', params: { network: NETWORK } },
    });
  return token;
}

const subscribedUrl = (ctx: ConnectorContext) =>
  webhookAddress(webhookUrl(ctx.config, ctx.object), ctx.credentials.webhook_secret ?? '');

const notSupported = () =>
  new ConnectorError('permanent', 'OK: the group Bot API has no comments', {
    reason: { key: 'failure.notSupported', params: { network: NETWORK } },
  });

export const okConnector: Connector = {
  id: 'ok',

  async verifyCredentials(ctx, input) {
    const token = (input.access_token ?? '').trim();
    const info = await getInfo(authOf(ctx, token));
    const id = info.group_id ?? info.user_id;
    if (!id)
      throw new ConnectorError('permanent', 'OK gave no group id', {
        reason: { key: 'failure.badAnswer', params: { network: NETWORK } },
      });
    const groupId = String(id).replace(/^group:/, '');
    return {
      externalId: groupId,
      name: info.name || `OK ${groupId}`,
      image: info.avatar_url,
      url: info.url ?? `https://ok.ru/group/${groupId}`,
      credentials: { access_token: token, group_id: String(id) },
    };
  },

  /** The webhook with our secret in the URL; OK's long poll is not used, so there is nothing else to do. */
  async activate(ctx, opts) {
    if (opts.mode !== 'webhook') return;
    await subscribe(authOf(ctx, tokenOf(ctx)), webhookAddress(opts.webhookUrl, opts.webhookSecret));
  },

  async deactivate(ctx) {
    await unsubscribe(authOf(ctx, tokenOf(ctx)), subscribedUrl(ctx));
  },

  async handleWebhook(ctx, request) {
    verifySecret(request, ctx.credentials.webhook_secret ?? '');
    let json: unknown;
    try {
      json = request.rawBody.length > 0 ? JSON.parse(request.rawBody.toString('utf8')) : {};
    } catch {
      throw new WebhookRejected('OK webhook: body is not JSON');
    }
    const parsed = webhookSchema.safeParse(json);
    // OK wants 200 within 5 s for everything, or it retries and may drop the subscription.
    if (!parsed.success) return { status: 200, body: { success: true }, events: [] };
    return {
      status: 200,
      body: { success: true },
      events: toEvents(parsed.data, ctx.credentials.group_id, ctx.now()),
    };
  },

  async sendReply() {
    throw notSupported();
  },

  async sendMessage(ctx, chat, content) {
    // One attachment per message (docs/product/limits.md ok message 1): an image goes as IMAGE by its
    // address, anything else as a link in the text.
    const image = content.attachments.find((a) => a.type === 'image');
    const links = content.attachments.filter((a) => a !== image).map((a) => a.url);
    const text = [content.text, ...links].filter(Boolean).join('\n');
    const message: Record<string, unknown> = { text };
    if (image) message.attachments = [{ type: 'IMAGE', payload: { url: image.url } }];
    const sent = await sendToChat(authOf(ctx, tokenOf(ctx)), chat.externalId, message);
    // OK answers a sent message with its id; an answer without one is not OK's.
    if (!sent?.message_id) throw badAnswer('OK', 'a sent message without its message_id');
    return { externalId: String(sent.message_id) };
  },
};
