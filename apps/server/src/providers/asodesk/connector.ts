import type { ProviderId } from '@otklik/shared';
import {
  dayOf,
  importRelayed,
  ownAnswerId,
  pollRelayed,
  type RelayedApp,
  reviewIdOf,
  storePage,
} from '../review-relay';
import { type Connector, type ConnectorContext, ConnectorError, type VerifyContext } from '../types';
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

function appIdOf(ctx: ConnectorContext): string {
  const id = ctx.credentials.app_id ?? ctx.object.externalId;
  if (!id)
    throw new ConnectorError('auth', 'Asodesk: the app id is missing, reconnect the account', {
      reason: { key: 'failure.reconnect', params: { network: NETWORK } },
    });
  return id;
}

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

    /** Nothing to subscribe: being here makes the account a polled one. */
    async activate() {},

    poll: (ctx, cursor) =>
      pollRelayed(appOf(id, appIdOf(ctx)), cursor, list(ctx), {
        now: ctx.now(),
        firstDays: FIRST_DAYS,
        waitSeconds: ctx.config.ASODESK_POLL_S,
      }),

    importRecent: (ctx, limit) =>
      importRelayed(appOf(id, appIdOf(ctx)), list(ctx), { now: ctx.now(), days: FIRST_DAYS, limit }),

    async sendReply(ctx, item, content) {
      const reviewId = reviewIdOf(NETWORK, item);
      await postAnswer(http(ctx, ctx.credentials), target(id, appIdOf(ctx)), reviewId, content.text);
      return { externalId: ownAnswerId(reviewId) };
    },

    /** One reply per review: editing ours is answering again. */
    async editReply(ctx, reply, content) {
      await postAnswer(
        http(ctx, ctx.credentials),
        target(id, appIdOf(ctx)),
        reviewIdOf(NETWORK, reply),
        content.text,
      );
    },
  };
}

export const asodeskConnectors = (
  ['asodesk', 'asodesk_googleplay', 'asodesk_appstore', 'asodesk_rustore'] as const
).map(createAsodeskConnector);
