import { type Connector, type ConnectorContext, ConnectorError, type OutgoingContent } from '../types';
import { webhookUrl } from '../updates';
import { type MaxSendBody, maxApi } from './client';
import { updateToEvents } from './mapping';
import { type MaxMessage, UPDATE_TYPES } from './types';
import { handleMaxWebhook } from './webhook';

// MAX bot accounts (PROVIDERS §7e; catalogue: delete, reply, edit_comment). Credentials: `access_token`
// (typed by the administrator), `bot_id` (from GET /me), `webhook_secret`.
// Not done, because PROVIDERS §7e marks it UNCONFIRMED or the catalogue leaves it off: reactions,
// receiving comments on channel posts.

const api = (ctx: Pick<ConnectorContext, 'config' | 'fetch' | 'credentials'>) =>
  maxApi(ctx, ctx.credentials.access_token ?? '');

const botIdOf = (ctx: ConnectorContext) => {
  const id = Number(ctx.credentials.bot_id);
  return Number.isFinite(id) && id > 0 ? id : null;
};

/**
 * Images go as `{type:'image', payload:{url}}`, which MAX downloads itself (UNCONFIRMED: the official
 * client uploads first via /uploads); other files travel as links under the text.
 */
function bodyOf(content: OutgoingContent, extra: Partial<MaxSendBody> = {}): MaxSendBody {
  const images = content.attachments.filter((a) => a.type === 'image');
  const links = content.attachments.filter((a) => a.type !== 'image').map((a) => a.url);
  return {
    text: [content.text, ...links].filter(Boolean).join('\n'),
    ...(images.length > 0
      ? { attachments: images.map((a) => ({ type: 'image', payload: { url: a.url } })) }
      : {}),
    ...extra,
  };
}

const groupOf = (postExternalId: string | null) => {
  const match = /^chat:(-?\d+)$/.exec(postExternalId ?? '');
  if (!match)
    throw new ConnectorError('permanent', 'MAX: the comment has no group chat to answer in', {
      reason: { key: 'failure.noThread', params: { network: 'MAX' } },
    });
  return match[1]!;
};

export const maxConnector: Connector = {
  id: 'max',

  async verifyCredentials(ctx, input) {
    const token = input.access_token ?? '';
    const me = await maxApi(ctx, token).me();
    const name =
      me.name || [me.first_name, me.last_name].filter(Boolean).join(' ') || me.username || 'MAX bot';
    return {
      externalId: String(me.user_id),
      name,
      screenName: me.username ?? undefined,
      image: me.avatar_url,
      credentials: { access_token: token, bot_id: String(me.user_id) },
    };
  },

  async activate(ctx, { mode, webhookUrl: url, webhookSecret }) {
    if (mode === 'webhook') {
      await api(ctx).subscribe({ url, update_types: UPDATE_TYPES, secret: webhookSecret });
      return;
    }
    // Long polling is for bots without webhook subscriptions: remove them (DELETE /subscriptions?url=).
    const { subscriptions } = await api(ctx).subscriptions();
    for (const s of subscriptions ?? []) await api(ctx).unsubscribe(s.url);
  },

  async deactivate(ctx) {
    await api(ctx).unsubscribe(webhookUrl(ctx.config, ctx.object));
  },

  async handleWebhook(ctx, request) {
    return handleMaxWebhook(request, ctx.credentials.webhook_secret, botIdOf(ctx));
  },

  /** GET /updates with the marker as our cursor; the next call with it confirms what we stored. */
  async poll(ctx, cursor, { timeoutSeconds, signal }) {
    const { updates, marker } = await api(ctx).updates(
      { marker: cursor ?? undefined, timeout: timeoutSeconds, limit: 100, types: UPDATE_TYPES.join(',') },
      signal,
    );
    const botId = botIdOf(ctx);
    return {
      events: (updates ?? []).flatMap((u) => updateToEvents(u, botId)),
      cursor: marker === null || marker === undefined ? cursor : String(marker),
    };
  },

  /** A reply in the group chat, quoting the comment (`link: {type:'reply', mid}`). */
  async sendReply(ctx, target, content) {
    const sent = await api(ctx).send(
      { chat_id: groupOf(target.postExternalId) },
      bodyOf(content, { link: { type: 'reply', mid: target.externalId } }),
    );
    return { externalId: sent.message.body.mid };
  },

  /** 'Direct': POST /messages?user_id= opens (or continues) the dialog with the commenter. */
  async sendDirect(ctx, target, content) {
    if (!target.authorExternalId)
      throw new ConnectorError('permanent', 'MAX: the comment has no author', {
        reason: { key: 'failure.noAuthor', params: { network: 'MAX' } },
      });
    const sent = await api(ctx).send({ user_id: target.authorExternalId }, bodyOf(content));
    return { externalId: sent.message.body.mid };
  },

  async sendMessage(ctx, chat, content) {
    const sent = await api(ctx).send({ chat_id: chat.externalId }, bodyOf(content));
    return { externalId: sent.message.body.mid };
  },

  /**
   * The import on connect (docs/product/limits.md): the newest messages of the bot's dialogs and group chats
   * (GET /chats, then GET /messages?chat_id=&count= per chat), mapped as if they had just arrived.
   */
  async importRecent(ctx, limit) {
    const { chats } = await api(ctx).chats(100);
    const botId = botIdOf(ctx);
    const found: MaxMessage[] = [];
    for (const chat of chats ?? []) {
      if (chat.type === 'channel') continue; // a channel's own posts are not inbox items
      const { messages } = await api(ctx).history(chat.chat_id, limit);
      found.push(...(messages ?? []));
    }
    // Oldest first, so replies come after what they quote; the newest `limit` overall.
    const newest = found
      .sort((a, b) => b.timestamp - a.timestamp)
      .slice(0, limit)
      .reverse();
    return newest.flatMap((message) =>
      updateToEvents({ update_type: 'message_created', timestamp: message.timestamp, message }, botId),
    );
  },

  async deleteItem(ctx, item) {
    await api(ctx).remove(item.externalId);
  },

  async editReply(ctx, reply, content) {
    await api(ctx).edit(reply.externalId, bodyOf(content));
  },
};
