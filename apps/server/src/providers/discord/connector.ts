import type { InboundEvent } from '../inbound';
import type { Connector, ConnectorContext } from '../types';
import { ConnectorError } from '../types';
import { createMessage, type DiscordAuth, type DiscordMessage, discordCall, getMe, NETWORK } from './client';
import { GatewaySession, readGatewayCursor, writeGatewayCursor } from './gateway';

// Discord bot (PROVIDERS.md §7c): connected with a bot token (checked with GET /users/@me), messages
// heard on the Gateway (gateway.ts) — in the chosen channels (`channel_ids`, all the bot sees when
// empty) as comments under their channel, and direct messages as chats. Replies go over REST
// (POST /channels/{id}/messages, a reply reference to the customer's message) honouring the per-route
// rate limits (client.ts).

const authOf = (
  ctx: { config: DiscordAuth['config']; fetch: typeof fetch; now: () => Date },
  token: string,
) => ({
  config: ctx.config,
  fetch: ctx.fetch,
  now: ctx.now,
  token,
});

function tokenOf(ctx: ConnectorContext): string {
  const token = ctx.credentials.bot_token;
  if (!token)
    throw new ConnectorError('auth', 'Discord: no bot token stored', {
      reason: { key: 'failure.reconnect', params: { network: NETWORK } },
    });
  return token;
}

/** Sessions this process keeps, by account; dropped when the poll loop is aborted or fails. */
const sessions = new Map<number, GatewaySession>();

const channelsOf = (ctx: ConnectorContext) =>
  new Set(
    (ctx.credentials.channel_ids ?? '')
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean),
  );

export function toEvent(m: DiscordMessage, botUserId: string): InboundEvent {
  const author = {
    externalId: m.author.id,
    name: m.author.global_name || m.author.username,
    screenName: m.author.username,
  };
  const attachments = (m.attachments ?? []).map((a) => ({
    type: a.content_type?.startsWith('image/') ? ('image' as const) : ('document' as const),
    url: a.url,
    name: a.filename,
    mime: a.content_type,
    size: a.size,
  }));
  const isOwn = m.author.id === botUserId;
  if (!m.guild_id)
    return {
      type: 'message',
      chatExternalId: m.channel_id,
      externalId: m.id,
      author,
      isOwn,
      text: m.content,
      attachments,
      createdAt: m.timestamp,
    };
  return {
    type: 'item',
    kind: 'comment',
    externalId: m.id,
    post: { externalId: m.channel_id, text: '' },
    parentExternalId: m.message_reference?.message_id,
    author,
    isOwn,
    text: m.content,
    attachments,
    url: `https://discord.com/channels/${m.guild_id}/${m.channel_id}/${m.id}`,
    createdAt: m.timestamp,
  };
}

const textOf = (content: { text: string; attachments: Array<{ url: string }> }) =>
  [content.text, ...content.attachments.map((a) => a.url)].filter(Boolean).join('\n');

export const discordConnector: Connector = {
  id: 'discord',

  async verifyCredentials(ctx, input) {
    const token = (input.bot_token ?? '').trim();
    const me = await getMe(authOf(ctx, token));
    return {
      externalId: me.id,
      name: me.global_name || me.username,
      screenName: me.username,
      credentials: { bot_token: token, bot_user_id: me.id, channel_ids: (input.channel_ids ?? '').trim() },
    };
  },

  /** Nothing to subscribe: the gateway session is opened by the node polling the account. */
  async activate() {},

  async deactivate(ctx) {
    sessions.get(ctx.object.id)?.close();
    sessions.delete(ctx.object.id);
  },

  async poll(ctx, cursor, opts) {
    const id = ctx.object.id;
    let session = sessions.get(id);
    if (!session) {
      session = new GatewaySession(tokenOf(ctx), ctx.config.DISCORD_GATEWAY_URL, readGatewayCursor(cursor));
      sessions.set(id, session);
    }
    const current = session;
    const stop = () => {
      current.close();
      if (sessions.get(id) === current) sessions.delete(id);
    };
    opts.signal.addEventListener('abort', stop, { once: true });
    try {
      const { messages, cursor: next } = await current.take(
        Math.max(opts.timeoutSeconds, 1) * 1000,
        opts.signal,
      );
      const chosen = channelsOf(ctx);
      const botUserId = ctx.credentials.bot_user_id ?? current.botUserId;
      const events = messages
        .filter((m) => !m.guild_id || chosen.size === 0 || chosen.has(m.channel_id))
        .filter((m) => m.author.id !== botUserId)
        .map((m) => toEvent(m, botUserId));
      return { events, cursor: next ? writeGatewayCursor(next) : cursor };
    } catch (error) {
      stop();
      throw error;
    } finally {
      opts.signal.removeEventListener('abort', stop);
    }
  },

  async sendReply(ctx, target, content) {
    if (!target.postExternalId)
      throw new ConnectorError('permanent', 'Discord: the message has no channel', {
        reason: { key: 'failure.noThread', params: { network: NETWORK } },
      });
    const sent = await createMessage(
      authOf(ctx, tokenOf(ctx)),
      target.postExternalId,
      textOf(content),
      target.externalId,
    );
    return { externalId: sent.id };
  },

  /** Deleting another user's message needs MANAGE_MESSAGES in the channel (PROVIDERS §7c). */
  async deleteItem(ctx, item) {
    if (!item.postExternalId) return;
    await discordCall(
      authOf(ctx, tokenOf(ctx)),
      'DELETE',
      `/channels/${item.postExternalId}/messages/${item.externalId}`,
    );
  },

  /** Our own reply's text (Discord edits only the bot's own messages' content). */
  async editReply(ctx, reply, content) {
    if (!reply.postExternalId) return;
    await discordCall(
      authOf(ctx, tokenOf(ctx)),
      'PATCH',
      `/channels/${reply.postExternalId}/messages/${reply.externalId}`,
      { content: textOf(content) },
    );
  },

  async sendMessage(ctx, chat, content) {
    const sent = await createMessage(authOf(ctx, tokenOf(ctx)), chat.externalId, textOf(content));
    return { externalId: sent.id };
  },
};
