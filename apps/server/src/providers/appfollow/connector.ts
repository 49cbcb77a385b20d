import type { ProviderId } from '@otklik/shared';
import { dayOf, type RelayedApp, relayAppIdOf, relayedAccount, storePage } from '../review-relay';
import { type Connector, type ConnectorContext, ConnectorError, type VerifyContext } from '../types';
import { allReviews, httpOf, NETWORK, postReply, reviewsPage, toRelayed } from './client';

// AppFollow: one app followed in AppFollow per account, connected with an API token and the app's id in
// its store (`ext_id`: the package name or the App Store's numeric id). The catalogue id names the store
// the app is in — af_googleplay (AppFollow's "gp"), af_itunes ("as"), af_huawei (AppGallery) and af_xstore
// (any other store AppFollow follows); the hidden legacy `appfollow` takes any. Connecting reads the app's
// reviews once and refuses an app AppFollow reports in another store. Reviews are polled (review-relay.ts);
// a reply goes through AppFollow's reply integration with the store, which overwrites the previous one, so
// editing our reply is replying again. AppFollow's API neither hides, deletes nor reports reviews.

const DAY_MS = 24 * 3600 * 1000;
/** How far back the first poll and the first import look. */
const FIRST_DAYS = 30;

type Store = 'googleplay' | 'appstore' | 'huawei' | 'other';
const STORES: Record<string, { store: Store; code?: string; name: string }> = {
  af_googleplay: { store: 'googleplay', code: 'gp', name: 'Google Play' },
  af_itunes: { store: 'appstore', code: 'as', name: 'App Store' },
  af_huawei: { store: 'huawei', name: 'Huawei AppGallery' },
  af_xstore: { store: 'other', name: 'AppFollow' },
  appfollow: { store: 'other', name: 'AppFollow' },
};
/** The store codes AppFollow documents, and the catalogue id that follows each. */
const KNOWN: Record<string, string> = { gp: 'af_googleplay', as: 'af_itunes' };

const extIdOf = (ctx: ConnectorContext) => relayAppIdOf(ctx, 'ext_id', NETWORK);

function appOf(provider: string, extId: string): RelayedApp {
  const s = STORES[provider] ?? STORES.appfollow!;
  return { appId: extId, storeName: s.name, url: storePage(s.store, extId) };
}

const http = (ctx: VerifyContext, credentials: Record<string, string>) =>
  httpOf(ctx.config, ctx.fetch, credentials.api_token ?? '');

/** Refuses an app AppFollow reports in a store other than the one the catalogue id names. */
function checkStore(provider: string, reported: string | undefined) {
  if (!reported || provider === 'appfollow') return;
  const expected = STORES[provider]?.code;
  const matches = expected ? reported === expected : !KNOWN[reported];
  if (!matches)
    throw new ConnectorError('permanent', `AppFollow: the app is in store "${reported}"`, {
      reason: { key: 'failure.wrongStore', params: { network: NETWORK, store: reported } },
    });
}

export function createAppFollowConnector(id: ProviderId): Connector {
  const list = (ctx: ConnectorContext) => (fromMs: number) =>
    allReviews(
      http(ctx, ctx.credentials),
      extIdOf(ctx),
      dayOf(fromMs),
      dayOf(ctx.now().getTime() + DAY_MS),
    ).then((reviews) => reviews.map(toRelayed));

  return {
    id,

    /** The token is accepted and the app's reviews can be read with it; the store is the one chosen. */
    async verifyCredentials(ctx, input) {
      const credentials = { api_token: (input.api_token ?? '').trim(), ext_id: (input.ext_id ?? '').trim() };
      const now = ctx.now().getTime();
      const page = await reviewsPage(
        http(ctx, credentials),
        credentials.ext_id,
        dayOf(now - FIRST_DAYS * DAY_MS),
        dayOf(now + DAY_MS),
        1,
      );
      checkStore(id, page.store ?? page.list[0]?.store);
      const app = appOf(id, credentials.ext_id);
      return {
        externalId: credentials.ext_id,
        name: credentials.ext_id,
        url: app.url || undefined,
        credentials,
      };
    },

    ...relayedAccount({
      network: NETWORK,
      firstDays: FIRST_DAYS,
      waitSeconds: (ctx) => ctx.config.APPFOLLOW_POLL_S,
      app: (ctx) => appOf(id, extIdOf(ctx)),
      list,
      /** AppFollow's reply integration: the store keeps one reply, so editing ours is replying again. */
      reply: (ctx) => {
        const h = http(ctx, ctx.credentials);
        const extId = extIdOf(ctx);
        return (reviewId, text) => postReply(h, extId, reviewId, text);
      },
    }),
  };
}

export const appfollowConnectors = (
  ['appfollow', 'af_googleplay', 'af_itunes', 'af_huawei', 'af_xstore'] as const
).map(createAppFollowConnector);
