import type { ProviderId } from '@otklik/shared';
import { dayOf, type RelayedApp, relayAppIdOf, relayedAccount, storePage } from '../review-relay';
import type { Connector, ConnectorContext, VerifyContext } from '../types';
import { allReviews, httpOf, NETWORK, postAnswer, reviewsPage, toRelayed } from './client';

// Asodesk: one app followed in Asodesk per account, connected with an API token and the app's id in its
// store. The catalogue id names the store, which every call passes on (`store`): asodesk_googleplay,
// asodesk_appstore, asodesk_rustore; the hidden legacy `asodesk` passes none. Connecting reads the app's
// reviews once (a wrong token or an app the token does not see is refused). Reviews are polled
// (review-relay.ts); a reply goes to the store through Asodesk, which keeps one reply per review, so editing
// ours is answering again. The reviews routes are UNCONFIRMED (client.ts). No hiding, deleting or
// reporting of reviews through the API.

const FIRST_DAYS = 30;

type Store = 'googleplay' | 'appstore' | 'rustore';
const STORES: Record<string, { store?: Store; name: string }> = {
  asodesk_googleplay: { store: 'googleplay', name: 'Google Play' },
  asodesk_appstore: { store: 'appstore', name: 'App Store' },
  asodesk_rustore: { store: 'rustore', name: 'RuStore' },
  asodesk: { name: 'Asodesk' },
};

const appIdOf = (ctx: ConnectorContext) => relayAppIdOf(ctx, 'app_id', NETWORK);

const target = (provider: string, appId: string) => ({ appId, store: STORES[provider]?.store });

function appOf(provider: string, appId: string): RelayedApp {
  const s = STORES[provider] ?? STORES.asodesk!;
  return { appId, storeName: s.name, url: s.store ? storePage(s.store, appId) : '' };
}

const http = (ctx: VerifyContext, credentials: Record<string, string>) =>
  httpOf(ctx.config, ctx.fetch, credentials.api_token ?? '');

export function createAsodeskConnector(id: ProviderId): Connector {
  const list = (ctx: ConnectorContext) => (fromMs: number) =>
    allReviews(http(ctx, ctx.credentials), target(id, appIdOf(ctx)), dayOf(fromMs)).then((reviews) =>
      reviews.map(toRelayed),
    );

  return {
    id,

    /** The token is accepted and the app's reviews in the chosen store can be read with it. */
    async verifyCredentials(ctx, input) {
      const credentials = { api_token: (input.api_token ?? '').trim(), app_id: (input.app_id ?? '').trim() };
      const from = dayOf(ctx.now().getTime() - FIRST_DAYS * 24 * 3600 * 1000);
      await reviewsPage(http(ctx, credentials), target(id, credentials.app_id), from, 1);
      const app = appOf(id, credentials.app_id);
      return {
        externalId: credentials.app_id,
        name: credentials.app_id,
        url: app.url || undefined,
        credentials,
      };
    },

    ...relayedAccount({
      network: NETWORK,
      firstDays: FIRST_DAYS,
      waitSeconds: (ctx) => ctx.config.ASODESK_POLL_S,
      app: (ctx) => appOf(id, appIdOf(ctx)),
      list,
      /** One reply per review: editing ours is answering again. */
      reply: (ctx) => {
        const h = http(ctx, ctx.credentials);
        const app = target(id, appIdOf(ctx));
        return (reviewId, text) => postAnswer(h, app, reviewId, text);
      },
    }),
  };
}

export const asodeskConnectors = (
  ['asodesk', 'asodesk_googleplay', 'asodesk_appstore', 'asodesk_rustore'] as const
).map(createAsodeskConnector);
