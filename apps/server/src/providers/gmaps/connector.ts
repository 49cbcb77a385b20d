import { AppError } from '../../lib/errors';
import { googleAuthorizeUrl, googleExchangeCode } from '../google/oauth';
import {
  type Connector,
  type ConnectorContext,
  ConnectorError,
  type VerifiedAccount,
  type VerifyContext,
} from '../types';
import {
  deleteReply,
  type GmapsAuth,
  googleClientOf,
  listAccounts,
  listLocations,
  NETWORK,
  putReply,
} from './client';
import { changedReviews, ownReplyId, pollReviews, reviewEvents, reviewIdOfReply } from './polling';

// Google Business Profile (`gmaps`, PROVIDERS §6c): each location of the Google accounts a user manages
// becomes an account (Google OAuth through /callback/gmaps, POST v1/gmaps/auth; scope business.manage).
// Reviews with stars are polled (polling.ts); the owner's reply is written, rewritten (the same PUT) and
// deleted. Google allows no hiding, deleting or reporting of reviews through the API.

const SCOPE = 'https://www.googleapis.com/auth/business.manage';

const authOf = (ctx: VerifyContext, refreshToken: string): GmapsAuth => ({
  config: ctx.config,
  fetch: ctx.fetch,
  now: ctx.now,
  refreshToken,
});

function locationOf(ctx: ConnectorContext) {
  const name = ctx.credentials.location ?? ctx.object.externalId;
  const refreshToken = ctx.credentials.refresh_token;
  if (!name || !refreshToken)
    throw new ConnectorError('auth', 'Google Business Profile: the location is not connected, reconnect it', {
      reason: { key: 'failure.reconnect', params: { network: NETWORK } },
    });
  return {
    auth: authOf(ctx, refreshToken),
    location: { name, title: ctx.object.name, url: ctx.object.url ?? undefined },
  };
}

/** The review our reply answers: the reply's parent, or the review itself. */
const reviewIdOf = (target: { externalId: string; kind: string }) =>
  target.kind === 'review' ? target.externalId : reviewIdOfReply(target.externalId);

export const gmapsConnector: Connector = {
  id: 'gmaps',

  oauth: {
    configured: (config) => Boolean(config.GMAPS_CLIENT_ID && config.GMAPS_CLIENT_SECRET),
    authorizeUrl(config, { redirectUri, state }) {
      if (!config.GMAPS_CLIENT_ID)
        throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
      return googleAuthorizeUrl(config.GMAPS_OAUTH_URL, {
        clientId: config.GMAPS_CLIENT_ID,
        redirectUri,
        scope: SCOPE,
        state,
      });
    },
    async exchange(ctx, { code, redirectUri }) {
      if (!ctx.config.GMAPS_CLIENT_ID || !ctx.config.GMAPS_CLIENT_SECRET)
        throw new AppError(400, 'account.notAvailable', { errorType: 'not_available' });
      const refreshToken = await googleExchangeCode(googleClientOf(ctx.config), ctx.fetch, {
        code,
        redirectUri,
      });
      const auth = authOf(ctx, refreshToken);
      const found: VerifiedAccount[] = [];
      for (const account of await listAccounts(auth)) {
        for (const l of await listLocations(auth, account.name)) {
          // Business Information names a location `locations/{l}`; reviews live under its account.
          const name = `${account.name}/${l.name.replace(/^.*locations\//, 'locations/')}`;
          found.push({
            externalId: name,
            name: l.title || name,
            ...(l.metadata?.mapsUri ? { url: l.metadata.mapsUri } : {}),
            credentials: { refresh_token: refreshToken, location: name },
          });
        }
      }
      const [main, ...others] = found;
      if (!main) throw new AppError(400, 'error.gmapsNoLocations', { errorType: 'no_locations' });
      return { ...main, ...(others.length > 0 ? { others } : {}) };
    },
  },

  /** Nothing to subscribe: reviews are polled. */
  async activate() {},

  poll(ctx, cursor) {
    const { auth, location } = locationOf(ctx);
    return pollReviews(auth, location, cursor, ctx.config.GMAPS_POLL_S);
  },

  async importRecent(ctx, limit) {
    const { auth, location } = locationOf(ctx);
    const reviews = await changedReviews(auth, location.name, new Date(0).toISOString(), limit);
    return [...reviews]
      .reverse()
      .flatMap((r) => reviewEvents(location, r))
      .filter((e) => e.type === 'item');
  },

  async sendReply(ctx, target, content) {
    const { auth, location } = locationOf(ctx);
    const reviewId = reviewIdOf(target);
    await putReply(auth, location.name, reviewId, content.text);
    return { externalId: ownReplyId(reviewId) };
  },

  /** The reply endpoint creates or overwrites: editing our reply is replying again. */
  async editReply(ctx, reply, content) {
    const { auth, location } = locationOf(ctx);
    await putReply(auth, location.name, reviewIdOf(reply), content.text);
  },

  /** Only the owner's reply can be deleted; reviews cannot be removed through the API. */
  async deleteItem(ctx, item) {
    const { auth, location } = locationOf(ctx);
    await deleteReply(auth, location.name, reviewIdOfReply(item.externalId));
  },
};
