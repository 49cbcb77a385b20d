import { AppError } from '../../lib/errors';
import { type Connector, type ConnectorContext, ConnectorError, type VerifyContext } from '../types';
import { grant, manageReply, me, publishReply, type ThreadsAuth } from './client';
import { pollReplies, recentReplies } from './polling';

// Threads (issue 19): a profile connected through the Threads authorization window (/callback/threads,
// POST v1/threads/auth); replies to its posts by polling (polling.ts), answered with a published reply
// (reply_to_id) and hidden or shown with manage_reply. The long-lived token (60 days) is what we keep.

const SCOPE = 'threads_basic,threads_read_replies,threads_manage_replies,threads_content_publish';
/** The first round looks back this far before the connect, so nothing between import and poll is lost. */
const START_OVERLAP_MS = 5 * 60_000;

const authOf = (ctx: VerifyContext, credentials: Record<string, string>): ThreadsAuth => ({
  config: ctx.config,
  fetch: ctx.fetch,
  now: ctx.now,
  accessToken: credentials.access_token ?? '',
  expiresAt: Number(credentials.expires_at) || 0,
});

function profileOf(ctx: ConnectorContext) {
  if (!ctx.credentials.access_token)
    throw new ConnectorError('auth', 'Threads: the profile is not connected, reconnect it', {
      reason: { key: 'failure.reconnect', params: { network: 'Threads' } },
    });
  return {
    auth: authOf(ctx, ctx.credentials),
    username: ctx.credentials.username ?? ctx.object.screenName ?? '',
  };
}

export const threadsConnector: Connector = {
  id: 'threads',

  oauth: {
    configured: (config) => Boolean(config.THREADS_APP_ID && config.THREADS_APP_SECRET),
    authorizeUrl(config, { redirectUri, state }) {
      if (!config.THREADS_APP_ID)
        throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
      const url = new URL(config.THREADS_OAUTH_URL);
      url.search = new URLSearchParams({
        client_id: config.THREADS_APP_ID,
        redirect_uri: redirectUri,
        scope: SCOPE,
        response_type: 'code',
        state,
      }).toString();
      return url.toString();
    },
    async exchange(ctx, { code, redirectUri }) {
      const { THREADS_APP_ID: id, THREADS_APP_SECRET: secret } = ctx.config;
      if (!id || !secret) throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
      let short: Awaited<ReturnType<typeof grant>>;
      try {
        short = await grant(ctx, 'POST', '/oauth/access_token', {
          client_id: id,
          client_secret: secret,
          grant_type: 'authorization_code',
          redirect_uri: redirectUri,
          code,
        });
      } catch (error) {
        // A spent or wrong code is the user's retry, not an account to reconnect.
        if (error instanceof ConnectorError && error.kind === 'auth')
          throw new ConnectorError('permanent', error.message);
        throw error;
      }
      const long = await grant(ctx, 'GET', '/access_token', {
        grant_type: 'th_exchange_token',
        client_secret: secret,
        access_token: short.access_token,
      });
      const expiresAt = ctx.now().getTime() + (long.expires_in ?? 5_184_000) * 1000;
      const credentials = { access_token: long.access_token, expires_at: String(expiresAt) };
      const profile = await me(authOf(ctx, credentials));
      const username = profile.username ?? '';
      return {
        externalId: profile.id,
        name: profile.name || username || `Threads ${profile.id}`,
        ...(username ? { screenName: username, url: `https://www.threads.net/@${username}` } : {}),
        ...(profile.threads_profile_picture_url ? { image: profile.threads_profile_picture_url } : {}),
        credentials: { ...credentials, user_id: profile.id, username },
      };
    },
  },

  /** Nothing to subscribe to: replies are polled. */
  async activate() {},

  /** A token refreshed during the round is stored (ConnectorContext.saveCredentials), so it outlives the process. */
  async poll(ctx, cursor) {
    const { auth, username } = profileOf(ctx);
    const start = new Date(ctx.object.createdAt.getTime() - START_OVERLAP_MS);
    const round = await pollReplies(auth, username, cursor, start, ctx.config.THREADS_POLL_S);
    if (auth.rotated) await ctx.saveCredentials?.({ ...ctx.credentials, ...auth.rotated });
    return round;
  },

  importRecent(ctx, limit) {
    const { auth, username } = profileOf(ctx);
    return recentReplies(auth, username, limit);
  },

  async sendReply(ctx, target, content) {
    const text = [content.text, ...content.attachments.map((a) => a.url)].filter(Boolean).join('\n');
    const sent = await publishReply(profileOf(ctx).auth, target.externalId, text);
    return { externalId: sent.id };
  },

  /** Threads hides a top-level reply with everything under it; nested replies cannot be hidden alone. */
  async hideItem(ctx, item, hidden) {
    await manageReply(profileOf(ctx).auth, item.externalId, hidden);
  },
};
