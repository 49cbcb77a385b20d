import { and, eq, sql } from 'drizzle-orm';
import { posts } from '../../db/schema';
import { downloadMedia, MediaTooLarge } from '../media';
import { type Connector, type ConnectorContext, ConnectorError } from '../types';
import { telegramApi } from './client';
import { updateToEvents } from './mapping';
import { locate, sendContent } from './outgoing';
import { ALLOWED_UPDATES } from './types';
import { handleTelegramWebhook } from './webhook';

// Telegram bot accounts (PROVIDERS §1; catalogue: delete, reply, edit_comment, block, react).
// Credentials: `bot_token` (typed by the administrator), `bot_id` (from getMe), `webhook_secret`.
// What the Bot API cannot do, so neither can we: hide a comment, like, restore a deleted message,
// tell us about deletions, or give a bot the chat history (no import on connect).

const api = (ctx: Pick<ConnectorContext, 'config' | 'fetch' | 'credentials'>) =>
  telegramApi(ctx, ctx.credentials.bot_token ?? '');

const botIdOf = (ctx: ConnectorContext) => {
  const id = Number(ctx.credentials.bot_id);
  return Number.isFinite(id) && id > 0 ? id : null;
};

/**
 * The groups where this account's comments live (discussion groups and plain groups), from the posts we
 * stored for it (post ids begin with the group's chat id, mapping.ts). banChatMember needs a chat, and
 * the outbox gives blockAuthor only the author's id.
 */
async function knownGroups(ctx: ConnectorContext): Promise<string[]> {
  const rows = await ctx.db
    .selectDistinct({ chat: sql<string>`split_part(${posts.externalId}, ':', 1)` })
    .from(posts)
    .where(and(eq(posts.objectId, ctx.object.id), sql`${posts.externalId} ~ '^-[0-9]+(:[0-9]+)?$'`));
  return rows.map((r) => r.chat);
}

const FILE_REF = 'tg-file:';

export const telegramConnector: Connector = {
  /** `tg-file:<file_id>` → getFile → `{base}/file/bot{token}/{file_path}` (PROVIDERS §1 file download). */
  async fetchMedia(ctx, ref, opts) {
    if (!ref.startsWith(FILE_REF))
      throw new ConnectorError('permanent', `Telegram: not a file reference: ${ref}`, {
        reason: { key: 'failure.badReference', params: { network: 'Telegram' }, detail: ref },
      });
    const file = await api(ctx).getFile({ file_id: ref.slice(FILE_REF.length) });
    if ((file.file_size ?? 0) > opts.maxBytes) throw new MediaTooLarge(opts.maxBytes);
    if (!file.file_path)
      throw new ConnectorError('permanent', 'Telegram gave no path for the file', {
        reason: { key: 'failure.badAnswer', params: { network: 'Telegram' } },
      });
    const base = ctx.config.TELEGRAM_API_URL.replace(/\/$/, '');
    const token = ctx.credentials.bot_token ?? '';
    return downloadMedia(ctx.fetch, `${base}/file/bot${token}/${file.file_path}`, {
      maxBytes: opts.maxBytes,
      what: 'Telegram',
    });
  },

  id: 'telegram',
  buttons: true,

  async verifyCredentials(ctx, input) {
    const token = input.bot_token ?? '';
    const me = await telegramApi(ctx, token).getMe();
    return {
      externalId: String(me.id),
      name: me.first_name,
      screenName: me.username,
      url: me.username ? `https://t.me/${me.username}` : undefined,
      credentials: { bot_token: token, bot_id: String(me.id) },
    };
  },

  async activate(ctx, { mode, webhookUrl, webhookSecret }) {
    if (mode === 'webhook') {
      await api(ctx).setWebhook({
        url: webhookUrl,
        secret_token: webhookSecret,
        allowed_updates: ALLOWED_UPDATES,
      });
    } else {
      // getUpdates answers 409 while a webhook is set (PROVIDERS §1); pending updates are kept for polling.
      await api(ctx).deleteWebhook({ drop_pending_updates: false });
    }
  },

  async deactivate(ctx) {
    await api(ctx).deleteWebhook({ drop_pending_updates: false });
  },

  async handleWebhook(ctx, request) {
    return handleTelegramWebhook(request, ctx.credentials.webhook_secret, botIdOf(ctx));
  },

  async poll(ctx, cursor, { timeoutSeconds, signal }) {
    // The offset confirms every update below it (PROVIDERS §1 getUpdates); the cursor is saved only after
    // the events are stored, so a crash redelivers and ingestion deduplicates.
    const offset = cursor ? Number(cursor) : undefined;
    const updates = await api(ctx).getUpdates(
      { offset, timeout: timeoutSeconds, limit: 100, allowed_updates: ALLOWED_UPDATES },
      signal,
    );
    const botId = botIdOf(ctx);
    const events = updates.flatMap((u) => updateToEvents(u, botId));
    // Button presses stop spinning on the customer's screen once answered (best effort).
    for (const u of updates) {
      if (!u.callback_query) continue;
      await api(ctx)
        .answerCallbackQuery({ callback_query_id: u.callback_query.id })
        .catch(() => undefined);
    }
    const last = updates.reduce((max, u) => Math.max(max, u.update_id), -1);
    return { events, cursor: last >= 0 ? String(last + 1) : cursor };
  },

  /** A reply under a comment, threaded in the discussion group (reply_parameters). */
  async sendReply(ctx, target, content) {
    const { chat_id, message_id } = locate(target.externalId);
    return sendContent(api(ctx), { chat_id, reply_parameters: { message_id } }, content);
  },

  /**
   * 'Direct' to a commenter: a private message to the user. A bot may only write to users who started
   * it; otherwise Telegram answers 403 "bot can't initiate conversation with a user", which fails the
   * message with that text.
   */
  async sendDirect(ctx, target, content) {
    const userId = Number(target.authorExternalId);
    if (!Number.isInteger(userId) || userId <= 0)
      throw new ConnectorError('permanent', 'Telegram: the author is a channel or group, not a user', {
        reason: { key: 'failure.noAuthor', params: { network: 'Telegram' } },
      });
    return sendContent(api(ctx), { chat_id: userId }, content);
  },

  async sendMessage(ctx, chat, content) {
    return sendContent(api(ctx), { chat_id: chat.externalId }, content);
  },

  /** deleteMessage: only within 48 h, others' messages need admin rights (the network's text surfaces). */
  async deleteItem(ctx, item) {
    await api(ctx).deleteMessage(locate(item.externalId));
  },

  async react(ctx, target, value) {
    const where = locate(target.kind === 'item' ? target.item.externalId : target.messageExternalId);
    // A bot sets one reaction per message; an empty list takes it back (PROVIDERS §1 setMessageReaction).
    await api(ctx).setMessageReaction({
      ...where,
      reaction: value ? [{ type: 'emoji', emoji: value }] : [],
    });
  },

  async editReply(ctx, reply, content) {
    const where = locate(reply.externalId);
    if (content.attachments.length > 0)
      await api(ctx).editMessageCaption({ ...where, caption: content.text });
    else await api(ctx).editMessageText({ ...where, text: content.text });
  },

  /** banChatMember in every group of the account; `until_date` in unix seconds, absent = forever. */
  async blockAuthor(ctx, author, block) {
    const userId = Number(author.externalId);
    if (!Number.isInteger(userId) || userId <= 0)
      throw new ConnectorError('permanent', 'Telegram: only users can be banned', {
        reason: { key: 'failure.banUsersOnly', params: { network: 'Telegram' } },
      });
    const groups = await knownGroups(ctx);
    if (groups.length === 0)
      throw new ConnectorError('permanent', 'Telegram: no group of this bot is known to ban the user in', {
        reason: { key: 'failure.noBanGroup', params: { network: 'Telegram' } },
      });
    for (const chat_id of groups) {
      if (block.blocked) {
        await api(ctx).banChatMember({
          chat_id,
          user_id: userId,
          ...(block.until ? { until_date: Math.floor(block.until.getTime() / 1000) } : {}),
        });
      } else {
        await api(ctx).unbanChatMember({ chat_id, user_id: userId, only_if_banned: true });
      }
    }
  },
};
