import type { InboundEvent } from './inbound';
import type { Connector, ConnectorContext, PollResult } from './types';
import { ConnectorError } from './types';

// What the review aggregators (AppFollow, Asodesk) have in common: they relay one app's store reviews
// (Google Play, App Store, AppGallery, RuStore, …) and post our replies to the store for us. Each account
// is one app in the aggregator; its catalogue id (af_googleplay, asodesk_rustore, …) names the store the
// app is in. The aggregators give no push we can subscribe to from here: reviews are polled, the cursor is
// the newest change seen (ms), and every round re-reads from a day before it (ingestion drops repeats; an
// edited review carries an 'edited' change with its new text and stars). A reply already in the store
// (made in the aggregator or in the store's console) becomes our own comment under the review.

const DEFAULT_RETRY_AFTER_S = 60;
const DAY_MS = 24 * 3600 * 1000;

/** A review as both aggregators' clients hand it over. */
export interface RelayedReview {
  id: string;
  author: string;
  title?: string;
  text: string;
  rating?: number;
  /** When it was written (ms). */
  createdAt: number;
  /** When it, or the reply under it, last changed (ms). */
  changedAt: number;
  /** The developer's reply the store shows, if any. */
  answer?: { text: string; at: number } | null;
}

/** The app an account follows: its id in the store and the store's name and page. */
export interface RelayedApp {
  appId: string;
  storeName: string;
  url: string;
}

export const ownAnswerId = (reviewId: string) => `${reviewId}:reply`;

/** The store page of an app, from the store a catalogue id names. */
export function storePage(store: 'googleplay' | 'appstore' | 'huawei' | 'rustore' | 'other', appId: string) {
  const id = encodeURIComponent(appId);
  switch (store) {
    case 'googleplay':
      return `https://play.google.com/store/apps/details?id=${id}`;
    case 'appstore':
      return `https://apps.apple.com/app/id${id.replace(/^id/, '')}`;
    case 'huawei':
      return `https://appgallery.huawei.com/app/${id}`;
    case 'rustore':
      return `https://www.rustore.ru/catalog/app/${id}`;
    default:
      return '';
  }
}

export function relayedEvents(app: RelayedApp, r: RelayedReview): InboundEvent[] {
  const post = {
    externalId: app.appId,
    text: `${app.appId} · ${app.storeName}`,
    ...(app.url ? { url: app.url } : {}),
  };
  const body = (r.title ? `${r.title.trim()}\n${r.text.trim()}` : r.text.trim()).trim();
  const rating = r.rating === undefined ? undefined : Math.round(r.rating);
  const events: InboundEvent[] = [
    {
      type: 'item',
      kind: 'review',
      externalId: r.id,
      post,
      // The aggregators pass on only the reviewer's display name: each review is its own author.
      author: { externalId: `review:${r.id}`, name: r.author },
      text: body,
      rating,
      ...(app.url ? { url: app.url } : {}),
      createdAt: new Date(r.createdAt),
    },
    {
      type: 'change',
      target: 'item',
      externalId: r.id,
      change: 'edited',
      text: body,
      rating,
      at: new Date(r.changedAt),
    },
  ];
  if (r.answer?.text) {
    const id = ownAnswerId(r.id);
    const text = r.answer.text.trim();
    events.push(
      {
        type: 'item',
        kind: 'comment',
        externalId: id,
        post,
        parentExternalId: r.id,
        author: { externalId: `app:${app.appId}`, name: app.appId },
        isOwn: true,
        text,
        createdAt: new Date(r.answer.at),
      },
      { type: 'change', target: 'item', externalId: id, change: 'edited', text, at: new Date(r.answer.at) },
    );
  }
  return events;
}

/** `YYYY-MM-DD` (UTC), the date filter both aggregators take. */
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * One polling round: reviews changed since the cursor's day (less one, for time zones), oldest first.
 * `list(fromMs)` reads every page of the aggregator's list from that instant.
 */
export async function pollRelayed(
  app: RelayedApp,
  cursor: string | null,
  list: (fromMs: number) => Promise<RelayedReview[]>,
  opts: { now: Date; firstDays: number; waitSeconds: number },
): Promise<PollResult> {
  const since = Number(cursor) || 0;
  const from = since > 0 ? since - DAY_MS : opts.now.getTime() - opts.firstDays * DAY_MS;
  const reviews = (await list(from)).filter((r) => r.changedAt >= since);
  reviews.sort((a, b) => a.changedAt - b.changedAt);
  const newest = Math.max(since, ...reviews.map((r) => r.changedAt));
  return {
    events: reviews.flatMap((r) => relayedEvents(app, r)),
    cursor: newest > 0 ? String(newest) : cursor,
    waitSeconds: opts.waitSeconds,
  };
}

/** The newest `limit` reviews of the last `days`, oldest first, as items only (the first import). */
export async function importRelayed(
  app: RelayedApp,
  list: (fromMs: number) => Promise<RelayedReview[]>,
  opts: { now: Date; days: number; limit: number },
): Promise<InboundEvent[]> {
  const reviews = await list(opts.now.getTime() - opts.days * DAY_MS);
  reviews.sort((a, b) => b.changedAt - a.changedAt);
  return reviews
    .slice(0, opts.limit)
    .sort((a, b) => a.createdAt - b.createdAt)
    .flatMap((r) => relayedEvents(app, r))
    .filter((e) => e.type === 'item');
}

export interface RelayHttp {
  network: string;
  baseUrl: string;
  fetch: typeof fetch;
  headers: Record<string, string>;
}

function errorText(body: unknown, status: number, network: string): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const nested =
      b.error && typeof b.error === 'object' ? (b.error as Record<string, unknown>).message : b.error;
    for (const value of [b.detail, b.message, nested, b.msg])
      if (typeof value === 'string' && value) return value;
  }
  return `${network} answered HTTP ${status}`;
}

/**
 * A JSON call to an aggregator. 429 waits its Retry-After; 401/403 is a revoked or wrong token (the
 * account's error, reconnect); 5xx and unreachable are temporary; anything else is refused as it is.
 */
export async function relayCall<T>(
  h: RelayHttp,
  method: 'GET' | 'POST',
  path: string,
  body?: Record<string, unknown>,
): Promise<T> {
  let response: Response;
  try {
    response = await h.fetch(`${h.baseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...h.headers,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    const detail = (error as Error).message;
    throw new ConnectorError('temporary', `${h.network} unreachable: ${detail}`, {
      reason: { key: 'failure.unreachable', params: { network: h.network }, detail },
    });
  }
  const raw = await response.text();
  let parsed: unknown;
  try {
    parsed = raw ? JSON.parse(raw) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.ok) return parsed as T;
  const text = errorText(parsed, response.status, h.network);
  if (response.status === 429) {
    const wait = Number(response.headers.get('retry-after'));
    throw new ConnectorError('rate_limited', text, {
      retryAfterSeconds: Number.isFinite(wait) && wait > 0 ? wait : DEFAULT_RETRY_AFTER_S,
    });
  }
  if (response.status === 401 || response.status === 403)
    throw new ConnectorError('auth', text, {
      reason: { key: 'failure.accessRevoked', params: { network: h.network }, detail: text },
    });
  throw new ConnectorError(response.status >= 500 ? 'temporary' : 'permanent', text);
}

/** Only a review (or our reply under it, which the stores overwrite) can be answered. */
export function reviewIdOf(
  network: string,
  target: { externalId: string; parentExternalId: string | null; kind: string },
): string {
  if (target.kind === 'review') return target.externalId;
  if (target.parentExternalId) return target.parentExternalId;
  throw new ConnectorError('permanent', `${network}: only reviews can be answered`, {
    reason: { key: 'failure.noThread', params: { network } },
  });
}

/** The account's app id: its credential `field`, else the account's external id (an `auth` error if neither). */
export function relayAppIdOf(ctx: ConnectorContext, field: string, network: string): string {
  const id = ctx.credentials[field] ?? ctx.object.externalId;
  if (!id)
    throw new ConnectorError('auth', `${network}: the app id is missing, reconnect the account`, {
      reason: { key: 'failure.reconnect', params: { network } },
    });
  return id;
}

/** How one aggregator reads an account's app and reviews and answers a review. */
export interface RelayAccount {
  network: string;
  /** How far back the first poll and the first import look. */
  firstDays: number;
  /** The polling interval (s). */
  waitSeconds(ctx: ConnectorContext): number;
  app(ctx: ConnectorContext): RelayedApp;
  /** Every review changed from `fromMs` on (all pages). */
  list(ctx: ConnectorContext): (fromMs: number) => Promise<RelayedReview[]>;
  /** Posts the answer to a review, which replaces any earlier one. */
  reply(ctx: ConnectorContext): (reviewId: string, text: string) => Promise<unknown>;
}

/**
 * What the aggregators' connectors do alike once an account is connected: nothing to subscribe (being
 * here makes the account a polled one), reviews polled and imported, a reply posted to the store, and our
 * reply edited by answering again (the stores keep one reply per review).
 */
export function relayedAccount(
  r: RelayAccount,
): Required<Pick<Connector, 'activate' | 'poll' | 'importRecent' | 'sendReply' | 'editReply'>> {
  return {
    async activate() {},

    poll: (ctx, cursor) =>
      pollRelayed(r.app(ctx), cursor, r.list(ctx), {
        now: ctx.now(),
        firstDays: r.firstDays,
        waitSeconds: r.waitSeconds(ctx),
      }),

    importRecent: (ctx, limit) =>
      importRelayed(r.app(ctx), r.list(ctx), { now: ctx.now(), days: r.firstDays, limit }),

    async sendReply(ctx, target, content) {
      const reviewId = reviewIdOf(r.network, target);
      await r.reply(ctx)(reviewId, content.text);
      return { externalId: ownAnswerId(reviewId) };
    },

    async editReply(ctx, reply, content) {
      await r.reply(ctx)(reviewIdOf(r.network, reply), content.text);
    },
  };
}
