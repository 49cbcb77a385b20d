import { AppError } from '../../lib/errors';
import { badAnswer } from '../http';
import type { Connector, ConnectorContext, OutgoingContent } from '../types';
import { ConnectorError } from '../types';
import {
  credentialsOf,
  exchangeCode,
  getMe,
  NETWORK,
  pkceChallenge,
  pkceVerifier,
  type TwitterAuth,
  userCall,
  userIdOf,
} from './client';
import { pollTwitter, recentTwitter } from './polling';

// X (Twitter) API v2 (PROVIDERS.md §7f). Connected by the OAuth 2.0 popup with PKCE (/callback/twitter,
// POST v1/twitter/auth; the verifier is derived from the sealed state, client.ts), read by polling
// (mentions and replies; DMs where the plan allows), paced by X's rate-limit headers. Reply, hide /
// unhide replies (only in conversations the account started), like / unlike, DMs in a conversation.
// DELETE /2/tweets works on the account's own posts only, so customers' posts are never deleted.

const SCOPE = [
  'tweet.read',
  'tweet.write',
  'users.read',
  'like.read',
  'like.write',
  'dm.read',
  'dm.write',
  'tweet.moderate.write',
  'offline.access',
].join(' ');

const authOf = (ctx: ConnectorContext): TwitterAuth => ({
  config: ctx.config,
  fetch: ctx.fetch,
  now: ctx.now,
  credentials: ctx.credentials,
  save: ctx.saveCredentials?.bind(ctx),
});

/** Files are not uploaded (the media upload API is not wired): they go as links. */
const textOf = (content: OutgoingContent) =>
  [content.text, ...content.attachments.map((a) => a.url)].filter(Boolean).join('\n');

const notConfigured = () => new AppError(400, 'account.notAvailable', { errorType: 'not_available' });

export const twitterConnector: Connector = {
  id: 'twitter',

  oauth: {
    configured: (config) => Boolean(config.TWITTER_CLIENT_ID),
    authorizeUrl(config, { redirectUri, state }) {
      if (!config.TWITTER_CLIENT_ID) throw notConfigured();
      const url = new URL(config.TWITTER_OAUTH_URL);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: config.TWITTER_CLIENT_ID,
        redirect_uri: redirectUri,
        scope: SCOPE,
        state,
        code_challenge: pkceChallenge(pkceVerifier(config, state)),
        code_challenge_method: 'S256',
      }).toString();
      return url.toString();
    },
    async exchange(ctx, { code, redirectUri, state }) {
      if (!ctx.config.TWITTER_CLIENT_ID) throw notConfigured();
      if (!state) throw new AppError(400, 'error.invalidState', { errorType: 'invalid_state' });
      const grant = await exchangeCode(ctx, code, redirectUri, pkceVerifier(ctx.config, state));
      if (!grant.access_token)
        throw new ConnectorError('permanent', 'X gave no token', {
          reason: { key: 'failure.badAnswer', params: { network: NETWORK } },
        });
      const me = await getMe(ctx, grant.access_token);
      return {
        externalId: me.id,
        name: me.name || me.username || `X ${me.id}`,
        screenName: me.username,
        image: me.profile_image_url,
        url: me.username ? `https://x.com/${me.username}` : undefined,
        credentials: credentialsOf(grant, me.id, ctx.now()),
      };
    },
  },

  /** Nothing to subscribe: mentions and DMs are polled (webhooks need the Account Activity API). */
  async activate() {},

  poll(ctx, cursor) {
    return pollTwitter(ctx, authOf(ctx), cursor);
  },

  importRecent(ctx, limit) {
    return recentTwitter(authOf(ctx), limit);
  },

  async sendReply(ctx, target, content) {
    const { body } = await userCall<{ data?: { id?: string } }>(authOf(ctx), 'POST', '/2/tweets', {
      json: { text: textOf(content), reply: { in_reply_to_tweet_id: target.externalId } },
    });
    // X answers a created post with its id: anything else (a proxy's page) is not a post made.
    if (!body.data?.id) throw badAnswer(NETWORK, 'a created post without its id');
    return { externalId: body.data.id };
  },

  async sendMessage(ctx, chat, content) {
    const { body } = await userCall<{ data?: { dm_event_id?: string } }>(
      authOf(ctx),
      'POST',
      `/2/dm_conversations/${encodeURIComponent(chat.externalId)}/messages`,
      { json: { text: textOf(content) } },
    );
    if (!body.data?.dm_event_id) throw badAnswer(NETWORK, 'a sent message without its dm_event_id');
    return { externalId: body.data.dm_event_id };
  },

  async hideItem(ctx, item, hidden) {
    await userCall(authOf(ctx), 'PUT', `/2/tweets/${encodeURIComponent(item.externalId)}/hidden`, {
      json: { hidden },
    });
  },

  async likeItem(ctx, item, liked) {
    const auth = authOf(ctx);
    const me = userIdOf(auth);
    if (liked) await userCall(auth, 'POST', `/2/users/${me}/likes`, { json: { tweet_id: item.externalId } });
    else await userCall(auth, 'DELETE', `/2/users/${me}/likes/${encodeURIComponent(item.externalId)}`);
  },

  /** Our own posts only (X deletes nothing else); a customer's post is refused before X is asked. */
  async deleteItem(ctx, item) {
    const auth = authOf(ctx);
    if (item.authorExternalId && item.authorExternalId !== userIdOf(auth))
      throw new ConnectorError('permanent', 'X deletes only the account’s own posts', {
        reason: { key: 'reply.notSupported' },
      });
    await userCall(auth, 'DELETE', `/2/tweets/${encodeURIComponent(item.externalId)}`);
  },
};
