import { AppError } from '../../lib/errors';
import { badAnswer } from '../http';
import type { Connector, ConnectorContext, ItemRef } from '../types';
import { ConnectorError } from '../types';
import { accountCall, credentialsOf, exchangeCode, getProfile, NETWORK, type TiktokAuth } from './client';
import { pollComments, recentComments } from './polling';

// TikTok API for Business, comments on a business account's videos (PROVIDERS.md §7g). Connected by
// the OAuth popup (/callback/tiktok, POST v1/tiktok/auth: auth_code → access and refresh tokens with
// the instance's TIKTOK_CLIENT_ID/SECRET), read by polling (the COMMENT webhook is UNCONFIRMED).
// What the API confirms and we do: reply (150 characters), hide/unhide, like/unlike. Delete works only
// on the account's own comments, so customers' comments cannot be deleted (catalogue `delete: false`);
// direct messages are known from one third-party client only, so TikTok has no chats here.

/** The scopes of "Business Comment" management and the account's profile (PROVIDERS §7g). */
const OAUTH_SCOPE = 'user.info.basic,user.info.username,video.list,comment.list,comment.list.manage';

const authOf = (ctx: ConnectorContext): TiktokAuth => ({
  config: ctx.config,
  fetch: ctx.fetch,
  now: ctx.now,
  credentials: ctx.credentials,
});

function videoOf(item: ItemRef): string {
  if (!item.postExternalId)
    throw new ConnectorError('permanent', 'TikTok: the comment has no video', {
      reason: { key: 'failure.noThread', params: { network: NETWORK } },
    });
  return item.postExternalId;
}

export const tiktokConnector: Connector = {
  id: 'tiktok',

  oauth: {
    configured: (config) => Boolean(config.TIKTOK_CLIENT_ID && config.TIKTOK_CLIENT_SECRET),
    authorizeUrl(config, { redirectUri, state }) {
      if (!config.TIKTOK_CLIENT_ID)
        throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
      const url = new URL(config.TIKTOK_OAUTH_URL);
      url.search = new URLSearchParams({
        client_key: config.TIKTOK_CLIENT_ID,
        response_type: 'code',
        scope: OAUTH_SCOPE,
        redirect_uri: redirectUri,
        state,
      }).toString();
      return url.toString();
    },
    async exchange(ctx, { code, redirectUri }) {
      if (!ctx.config.TIKTOK_CLIENT_ID || !ctx.config.TIKTOK_CLIENT_SECRET)
        throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
      const credentials = credentialsOf(await exchangeCode(ctx, code, redirectUri), ctx.now());
      const profile = await getProfile({ ...ctx, credentials });
      const openId = credentials.open_id!;
      return {
        externalId: openId,
        name: profile.display_name || profile.username || `TikTok ${openId}`,
        screenName: profile.username,
        image: profile.profile_image,
        url: profile.username ? `https://www.tiktok.com/@${profile.username}` : undefined,
        credentials,
      };
    },
  },

  /** Nothing to subscribe: comments are polled. Present so the account gets an updates mode. */
  async activate() {},

  poll(ctx, cursor, opts) {
    return pollComments(authOf(ctx), cursor, opts);
  },

  importRecent(ctx, limit) {
    return recentComments(authOf(ctx), limit);
  },

  async sendReply(ctx, target, content) {
    // TikTok comments are text only: files go as links.
    const text = [content.text, ...content.attachments.map((a) => a.url)].filter(Boolean).join('\n');
    const data = await accountCall<{ comment_id?: string | number }>(
      authOf(ctx),
      '/business/comment/reply/create/',
      { body: { video_id: videoOf(target), comment_id: target.externalId, text } },
    );
    if (data.comment_id === undefined) throw badAnswer(NETWORK, 'a created reply without its comment_id');
    return { externalId: String(data.comment_id) };
  },

  async hideItem(ctx, item, hidden) {
    await accountCall(authOf(ctx), '/business/comment/hide/', {
      body: { video_id: videoOf(item), comment_id: item.externalId, action: hidden ? 'HIDE' : 'UNHIDE' },
    });
  },

  async likeItem(ctx, item, liked) {
    await accountCall(authOf(ctx), '/business/comment/like/', {
      body: { comment_id: item.externalId, action: liked ? 'LIKE' : 'UNLIKE' },
    });
  },
};
