import type { Config } from '../../lib/config';
import { type GoogleClient, googleAccessToken, retryAfterOf } from '../google/oauth';
import { badAnswer, fetchJson } from '../http';
import { ConnectorError } from '../types';

// Google Business Profile (PROVIDERS.md §6c): reviews through the My Business API v4
// (`accounts/{a}/locations/{l}/reviews`, reply PUT/DELETE `.../reply`); the Google accounts a user
// manages through the Account Management API (GET /v1/accounts) and their locations through the
// Business Information API (GET /v1/{account}/locations?readMask=...). Google OAuth (google/oauth.ts),
// scope business.manage. Google's error shape `{error:{code,message,status}}`: 401 is a revoked
// grant, 429 / RESOURCE_EXHAUSTED waits (Retry-After, or a minute: the per-minute quota is UNCONFIRMED).

export const NETWORK = 'Google Business Profile';

export interface GmapsAuth {
  config: Config;
  fetch: typeof fetch;
  now: () => Date;
  refreshToken: string;
}

export const googleClientOf = (config: Config): GoogleClient => ({
  tokenUrl: config.GMAPS_TOKEN_URL,
  clientId: config.GMAPS_CLIENT_ID ?? '',
  clientSecret: config.GMAPS_CLIENT_SECRET ?? '',
  network: NETWORK,
});

interface GoogleError {
  error?: { code?: number; message?: string; status?: string };
}

export function apiFailure(response: Response, body: unknown): ConnectorError {
  const error = (body as GoogleError | undefined)?.error;
  const text = error?.message || `${NETWORK} answered HTTP ${response.status}`;
  if (response.status === 429 || error?.status === 'RESOURCE_EXHAUSTED')
    return new ConnectorError('rate_limited', text, {
      retryAfterSeconds: retryAfterOf(response),
      reason: { key: 'failure.rateLimited' },
    });
  if (response.status === 401)
    return new ConnectorError('auth', text, {
      reason: { key: 'failure.accessRevoked', params: { network: NETWORK }, detail: text },
    });
  if (response.status >= 500) return new ConnectorError('temporary', text);
  return new ConnectorError('permanent', text, { reason: { key: 'failure.network', detail: text } });
}

/** One call: a Bearer token (taken again once after a 401), errors as ConnectorErrors. */
export async function call<T>(
  a: GmapsAuth,
  method: 'GET' | 'PUT' | 'DELETE',
  url: URL,
  body?: unknown,
): Promise<T> {
  let fresh = false;
  for (;;) {
    const token = await googleAccessToken(googleClientOf(a.config), a, fresh);
    const { response, body: answer } = await fetchJson(
      a.fetch,
      url.toString(),
      {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      NETWORK,
    );
    if (response.status === 401 && !fresh) {
      fresh = true;
      continue;
    }
    if (!response.ok) throw apiFailure(response, answer);
    return answer as T;
  }
}

const at = (base: string, path: string, query: Record<string, string | undefined> = {}) => {
  const url = new URL(`${base.replace(/\/+$/, '')}/${path}`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
  return url;
};

export interface GbpAccount {
  name: string;
  accountName?: string;
}

export interface GbpLocation {
  name: string;
  title?: string;
  metadata?: { mapsUri?: string; newReviewUri?: string };
}

export type StarRating = 'STAR_RATING_UNSPECIFIED' | 'ONE' | 'TWO' | 'THREE' | 'FOUR' | 'FIVE';

export interface GbpReview {
  name: string;
  reviewId: string;
  reviewer?: { displayName?: string; profilePhotoUrl?: string; isAnonymous?: boolean };
  starRating?: StarRating;
  comment?: string;
  createTime: string;
  updateTime: string;
  reviewReply?: { comment?: string; updateTime?: string };
}

export async function listAccounts(a: GmapsAuth): Promise<GbpAccount[]> {
  const found: GbpAccount[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < 20; page += 1) {
    const answer = await call<{ accounts?: GbpAccount[]; nextPageToken?: string }>(
      a,
      'GET',
      at(a.config.GMAPS_ACCOUNTS_URL, 'accounts', { pageSize: '20', pageToken }),
    );
    found.push(...(answer.accounts ?? []));
    pageToken = answer.nextPageToken;
    if (!pageToken) break;
  }
  return found;
}

export async function listLocations(a: GmapsAuth, account: string): Promise<GbpLocation[]> {
  const found: GbpLocation[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < 20; page += 1) {
    const answer = await call<{ locations?: GbpLocation[]; nextPageToken?: string }>(
      a,
      'GET',
      at(a.config.GMAPS_LOCATIONS_URL, `${account}/locations`, {
        readMask: 'name,title,metadata',
        pageSize: '100',
        pageToken,
      }),
    );
    found.push(...(answer.locations ?? []));
    pageToken = answer.nextPageToken;
    if (!pageToken) break;
  }
  return found;
}

/** `location` is `accounts/{a}/locations/{l}`. Newest change first. */
export function listReviews(a: GmapsAuth, location: string, pageToken?: string) {
  return call<{
    reviews?: GbpReview[];
    nextPageToken?: string;
    averageRating?: number;
    totalReviewCount?: number;
  }>(
    a,
    'GET',
    at(a.config.GMAPS_API_URL, `${location}/reviews`, {
      pageSize: '50',
      orderBy: 'updateTime desc',
      pageToken,
    }),
  );
}

export async function putReply(a: GmapsAuth, location: string, reviewId: string, comment: string) {
  const answer = await call<{ comment?: string; updateTime?: string } | undefined>(
    a,
    'PUT',
    at(a.config.GMAPS_API_URL, `${location}/reviews/${encodeURIComponent(reviewId)}/reply`),
    { comment },
  );
  // The API answers with the reply it saved: anything else (a proxy's page) is not a reply made.
  if (typeof answer?.comment !== 'string') throw badAnswer(NETWORK, 'a reply answered without its comment');
  return answer;
}

export function deleteReply(a: GmapsAuth, location: string, reviewId: string) {
  return call<undefined>(
    a,
    'DELETE',
    at(a.config.GMAPS_API_URL, `${location}/reviews/${encodeURIComponent(reviewId)}/reply`),
  );
}
