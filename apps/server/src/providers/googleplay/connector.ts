import type { InboundEvent } from '../inbound';
import { type Connector, type ConnectorContext, ConnectorError, type VerifyContext } from '../types';
import { listReviews, type PlayAuth, parseServiceAccount, replyToReview } from './client';
import { changedReviews, ownReplyId, pollReviews, reviewEvents } from './polling';

// Google Play (PROVIDERS.md §6a): reviews of one app, connected with a service account's JSON key and the
// package name. Reviews are polled (no push; only the last 7 days); a reply creates or overwrites the
// developer's reply, so editing it is the same call. Google allows no hiding or deleting of reviews and
// has no delete-reply endpoint.

const NETWORK = 'Google Play';
const WEEK_MS = 7 * 24 * 3600 * 1000;

function authOf(ctx: VerifyContext, credentials: Record<string, string>): PlayAuth {
  return {
    config: ctx.config,
    fetch: ctx.fetch,
    now: ctx.now,
    account: parseServiceAccount(credentials.service_account_json ?? ''),
  };
}

function packageOf(ctx: ConnectorContext): string {
  const name = ctx.credentials.package_name ?? ctx.object.externalId;
  if (!name)
    throw new ConnectorError('auth', 'Google Play: the package name is missing, reconnect the account', {
      reason: { key: 'failure.reconnect', params: { network: NETWORK } },
    });
  return name;
}

const language = (credentials: Record<string, string>) => credentials.translation_language || undefined;

/** The review a reply answers: our reply's parent, or the review itself. */
function reviewIdOf(target: { externalId: string; parentExternalId: string | null; kind: string }) {
  if (target.kind === 'review') return target.externalId;
  if (target.parentExternalId) return target.parentExternalId;
  throw new ConnectorError('permanent', 'Google Play: only reviews can be answered', {
    reason: { key: 'failure.noThread', params: { network: NETWORK } },
  });
}

export const googleplayConnector: Connector = {
  id: 'googleplay',

  /** The key parses, a token is granted, and the app's reviews can be read with it. */
  async verifyCredentials(ctx, input) {
    const packageName = (input.package_name ?? '').trim();
    const credentials = {
      package_name: packageName,
      service_account_json: input.service_account_json ?? '',
      ...(input.translation_language ? { translation_language: input.translation_language } : {}),
    };
    const auth = authOf(ctx, credentials);
    await listReviews(auth, packageName, { maxResults: 1, translationLanguage: language(credentials) });
    return {
      externalId: packageName,
      name: packageName,
      url: `https://play.google.com/store/apps/details?id=${encodeURIComponent(packageName)}`,
      credentials,
    };
  },

  /** Nothing to subscribe: being here makes the account a polled one. */
  async activate() {},

  poll(ctx, cursor) {
    return pollReviews(authOf(ctx, ctx.credentials), packageOf(ctx), cursor, {
      translationLanguage: language(ctx.credentials),
      waitSeconds: ctx.config.GOOGLEPLAY_POLL_S,
    });
  },

  async importRecent(ctx, limit): Promise<InboundEvent[]> {
    const since = ctx.now().getTime() - WEEK_MS;
    const packageName = packageOf(ctx);
    const reviews = await changedReviews(
      authOf(ctx, ctx.credentials),
      packageName,
      since,
      language(ctx.credentials),
      limit,
    );
    return [...reviews]
      .reverse()
      .flatMap((r) => reviewEvents(packageName, r))
      .filter((e) => e.type === 'item');
  },

  async sendReply(ctx, target, content) {
    const reviewId = reviewIdOf(target);
    await replyToReview(authOf(ctx, ctx.credentials), packageOf(ctx), reviewId, content.text);
    return { externalId: ownReplyId(reviewId) };
  },

  /** The reply endpoint overwrites: editing our reply is replying again. */
  async editReply(ctx, reply, content) {
    await replyToReview(authOf(ctx, ctx.credentials), packageOf(ctx), reviewIdOf(reply), content.text);
  },
};
