import { AppError } from '../../lib/errors';
import { googleAuthorizeUrl, googleExchangeCode } from '../google/oauth';
import { badAnswer } from '../http';
import { type Connector, type ConnectorContext, ConnectorError, type VerifyContext } from '../types';
import {
  deleteComment,
  googleClientOf,
  insertReply,
  myChannel,
  quotaDay,
  setModerationStatus,
  UNITS,
  updateComment,
  type YouTubeAuth,
} from './client';
import { pollThreads, recentComments } from './polling';

// YouTube (PROVIDERS.md §5): a channel connected through Google OAuth (/callback/youtube, POST
// v1/youtube/auth); comments on its videos by polling commentThreads.list within the project's daily
// quota; replies (comments.insert), moderation of others' comments (setModerationStatus: hide =
// heldForReview, unhide = published, delete = rejected), deleting and editing our own replies.

const SCOPE = 'https://www.googleapis.com/auth/youtube.force-ssl';
/** The first poll looks back this far before the connect, so nothing between import and poll is lost. */
const START_OVERLAP_MS = 5 * 60_000;

const authOf = (ctx: VerifyContext, refreshToken: string, meter?: { units: number }): YouTubeAuth => ({
  config: ctx.config,
  fetch: ctx.fetch,
  now: ctx.now,
  refreshToken,
  meter,
});

function channelOf(ctx: ConnectorContext) {
  const channelId = ctx.credentials.channel_id ?? ctx.object.externalId;
  const refreshToken = ctx.credentials.refresh_token;
  if (!channelId || !refreshToken)
    throw new ConnectorError('auth', 'YouTube: the channel is not connected, reconnect it', {
      reason: { key: 'failure.reconnect', params: { network: 'YouTube' } },
    });
  return { channelId, auth: authOf(ctx, refreshToken) };
}

export const youtubeConnector: Connector = {
  id: 'youtube',

  oauth: {
    configured: (config) => Boolean(config.YOUTUBE_CLIENT_ID && config.YOUTUBE_CLIENT_SECRET),
    authorizeUrl(config, { redirectUri, state }) {
      if (!config.YOUTUBE_CLIENT_ID)
        throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
      return googleAuthorizeUrl(config.YOUTUBE_OAUTH_URL, {
        clientId: config.YOUTUBE_CLIENT_ID,
        redirectUri,
        scope: SCOPE,
        state,
      });
    },
    async exchange(ctx, { code, redirectUri }) {
      if (!ctx.config.YOUTUBE_CLIENT_ID || !ctx.config.YOUTUBE_CLIENT_SECRET)
        throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
      const refreshToken = await googleExchangeCode(googleClientOf(ctx.config), ctx.fetch, {
        code,
        redirectUri,
      });
      const channel = await myChannel(authOf(ctx, refreshToken));
      return {
        externalId: channel.id,
        name: channel.snippet?.title || `YouTube ${channel.id}`,
        screenName: channel.snippet?.customUrl?.replace(/^@/, ''),
        image: channel.snippet?.thumbnails?.default?.url,
        url: `https://www.youtube.com/channel/${channel.id}`,
        credentials: { refresh_token: refreshToken, channel_id: channel.id },
      };
    },
  },

  /** Nothing to subscribe to: comments are only polled (PROVIDERS §5: no webhooks for comments). */
  async activate() {},

  async poll(ctx, cursor) {
    const { channelId } = channelOf(ctx);
    const meter = { units: 0 };
    const auth = authOf(ctx, ctx.credentials.refresh_token!, meter);
    const start = new Date(ctx.object.createdAt.getTime() - START_OVERLAP_MS);
    try {
      const result = await pollThreads(auth, channelId, cursor, start);
      return { ...result, units: meter.units };
    } catch (error) {
      if (error instanceof ConnectorError) Object.assign(error, { units: meter.units });
      throw error;
    }
  },

  polling: {
    intervalMs: (config) => config.YOUTUBE_POLL_INTERVAL_S * 1000,
    quota: {
      daily: (config) => config.YOUTUBE_DAILY_QUOTA,
      day: quotaDay,
      // PROVIDERS §5: writes cost 50 units each.
      costs: {
        reply: UNITS.write,
        edit: UNITS.write,
        delete: UNITS.write,
        hide: UNITS.write,
        unhide: UNITS.write,
      },
    },
  },

  async importRecent(ctx, limit) {
    const { channelId, auth } = channelOf(ctx);
    return recentComments(auth, channelId, limit);
  },

  async sendReply(ctx, target, content) {
    const { auth } = channelOf(ctx);
    // Replies go under the thread's top-level comment; a reply to a reply goes to the same thread.
    const parentId = target.parentExternalId ?? target.externalId;
    const text = [content.text, ...content.attachments.map((a) => a.url)].filter(Boolean).join('\n');
    const sent = await insertReply(auth, parentId, text);
    // YouTube answers an inserted comment with it (its id); an answer without one is not YouTube's.
    if (typeof sent?.id !== 'string' || !sent.id)
      throw badAnswer('YouTube', 'an inserted comment without its id');
    return { externalId: sent.id };
  },

  async editReply(ctx, reply, content) {
    await updateComment(channelOf(ctx).auth, reply.externalId, content.text);
  },

  /** Hiding holds the comment for review; showing it publishes it again. */
  async hideItem(ctx, item, hidden) {
    await setModerationStatus(channelOf(ctx).auth, item.externalId, hidden ? 'heldForReview' : 'published');
  },

  /** Our own comment is deleted (only its author may); another's is rejected, YouTube's way to remove it. */
  async deleteItem(ctx, item) {
    const { auth, channelId } = channelOf(ctx);
    // Our replies written here carry no author; those written in YouTube Studio carry the channel's id.
    const own = item.authorExternalId === null || item.authorExternalId === channelId;
    if (own) await deleteComment(auth, item.externalId);
    else await setModerationStatus(auth, item.externalId, 'rejected');
  },
};
