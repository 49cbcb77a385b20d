import type { Config } from '../../lib/config';
import {
  type GoogleClient,
  type GoogleGrant,
  googleAccessToken,
  googleGrantFailure,
  googleTokenRequest,
  retryAfterOf,
} from '../google/oauth';
import { fetchJson } from '../http';
import { ConnectorError } from '../types';

// YouTube Data API v3 and Google OAuth 2.0 (PROVIDERS.md §5). A channel is connected by the
// authorization-code grant (offline access, so Google gives a refresh token, which is all we keep);
// access tokens live an hour and are taken again shortly before they expire. Google's error shape is
// `{error:{code,message,errors:[{reason}]}}`; the token endpoint answers `{error,error_description}`.

export interface YouTubeAuth {
  config: Config;
  fetch: typeof fetch;
  now: () => Date;
  refreshToken: string;
  /** Units this auth's calls spent (PROVIDERS §5: 1 per list, 50 per write), for the quota. */
  meter?: { units: number };
}

const network = { network: 'YouTube' };

export const UNITS = { list: 1, write: 50 } as const;

export type { GoogleGrant };

/** The instance's Google OAuth client for YouTube (providers/google/oauth.ts does the grants). */
export const googleClientOf = (config: Config): GoogleClient => ({
  tokenUrl: config.YOUTUBE_TOKEN_URL,
  clientId: config.YOUTUBE_CLIENT_ID ?? '',
  clientSecret: config.YOUTUBE_CLIENT_SECRET ?? '',
  network: network.network,
});

const send = (f: typeof fetch, url: string, init: RequestInit) => fetchJson(f, url, init, network.network);

/** `POST {token url}` with a grant and the instance's OAuth client. */
export function tokenRequest(ctx: { config: Config; fetch: typeof fetch }, grant: Record<string, string>) {
  return googleTokenRequest(googleClientOf(ctx.config), ctx.fetch, grant);
}

/** Seconds until the quota's day turns (midnight Pacific Time, when Google resets it). */
export function secondsToQuotaReset(now: Date): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'America/Los_Angeles',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Math.max(1, 86_400 - (part('hour') * 3600 + part('minute') * 60 + part('second')));
}

/** The quota's day (YYYY-MM-DD in Pacific Time). */
export function quotaDay(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(now);
}

/** A refused grant (revoked consent, a deleted client) means the channel must be connected again. */
export function grantFailure(response: Response, body: unknown): ConnectorError {
  return googleGrantFailure(response, body, network.network);
}

/** An access token for the channel: cached, refreshed within the margin of expiry or on a 401. */
function accessToken(a: YouTubeAuth, fresh: boolean): Promise<string> {
  return googleAccessToken(googleClientOf(a.config), a, fresh);
}

interface GoogleError {
  error?: { code?: number; message?: string; errors?: Array<{ reason?: string; message?: string }> };
}

/** A Google error as our failure: quota and rate limits wait, 401 is a revoked token, 5xx retries. */
export function apiFailure(response: Response, body: unknown, now: Date): ConnectorError {
  const error = (body as GoogleError | undefined)?.error;
  const reason = error?.errors?.[0]?.reason ?? '';
  const text = error?.message || `YouTube answered HTTP ${response.status}`;
  if (reason === 'quotaExceeded' || reason === 'dailyLimitExceeded')
    return new ConnectorError('rate_limited', text, {
      retryAfterSeconds: secondsToQuotaReset(now),
      reason: { key: 'failure.quotaExceeded', params: network },
    });
  if (response.status === 429 || reason === 'rateLimitExceeded' || reason === 'userRateLimitExceeded')
    return new ConnectorError('rate_limited', text, { retryAfterSeconds: retryAfterOf(response) });
  if (response.status === 401)
    return new ConnectorError('auth', text, {
      reason: { key: 'failure.accessRevoked', params: network, detail: text },
    });
  if (response.status >= 500) return new ConnectorError('temporary', text);
  return new ConnectorError('permanent', text, { reason: { key: 'failure.network', detail: text } });
}

/** One API call: Bearer token (retaken once after a 401), units counted, errors as ConnectorErrors. */
export async function call<T>(
  a: YouTubeAuth,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  query: Record<string, string | undefined>,
  body?: unknown,
): Promise<T> {
  const url = new URL(`${a.config.YOUTUBE_API_URL.replace(/\/+$/, '')}${path}`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
  const units = method === 'GET' ? UNITS.list : UNITS.write;
  let fresh = false;
  for (;;) {
    const token = await accessToken(a, fresh);
    const { response, body: answer } = await send(a.fetch, url.toString(), {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // Google counts a call against the quota whether or not it succeeds (an invalid one costs too).
    if (a.meter && response.status !== 401) a.meter.units += units;
    if (response.status === 401 && !fresh) {
      fresh = true;
      continue;
    }
    if (!response.ok) throw apiFailure(response, answer, a.now());
    return answer as T;
  }
}

export interface YtComment {
  id: string;
  snippet: {
    channelId?: string;
    videoId?: string;
    parentId?: string;
    textOriginal?: string;
    textDisplay?: string;
    authorDisplayName?: string;
    authorProfileImageUrl?: string;
    authorChannelUrl?: string;
    authorChannelId?: { value?: string };
    moderationStatus?: string;
    publishedAt: string;
    updatedAt?: string;
  };
}

export interface YtThread {
  id: string;
  snippet: { videoId?: string; totalReplyCount?: number; topLevelComment: YtComment };
  replies?: { comments?: YtComment[] };
}

export interface YtPage<T> {
  nextPageToken?: string;
  items?: T[];
}

export async function myChannel(a: YouTubeAuth) {
  const answer = await call<{
    items?: Array<{
      id: string;
      snippet?: { title?: string; customUrl?: string; thumbnails?: { default?: { url?: string } } };
    }>;
  }>(a, 'GET', '/channels', { part: 'snippet', mine: 'true' });
  const channel = answer.items?.[0];
  if (!channel)
    throw new ConnectorError('permanent', 'This Google account has no YouTube channel', {
      reason: { key: 'failure.youtubeNoChannel' },
    });
  return channel;
}

/** Comment threads of the channel's videos; `moderationStatus` (owner only) lists those held back. */
export function listThreads(
  a: YouTubeAuth,
  channelId: string,
  pageToken?: string,
  maxResults = 100,
  moderationStatus?: 'heldForReview' | 'likelySpam',
) {
  return call<YtPage<YtThread>>(a, 'GET', '/commentThreads', {
    part: 'snippet,replies',
    allThreadsRelatedToChannelId: channelId,
    moderationStatus,
    order: 'time',
    maxResults: String(maxResults),
    textFormat: 'plainText',
    pageToken,
  });
}

export function listReplies(a: YouTubeAuth, parentId: string, pageToken?: string) {
  return call<YtPage<YtComment>>(a, 'GET', '/comments', {
    part: 'snippet',
    parentId,
    maxResults: '100',
    textFormat: 'plainText',
    pageToken,
  });
}

export function insertReply(a: YouTubeAuth, parentId: string, text: string) {
  return call<YtComment>(
    a,
    'POST',
    '/comments',
    { part: 'snippet' },
    { snippet: { parentId, textOriginal: text } },
  );
}

export function updateComment(a: YouTubeAuth, id: string, text: string) {
  return call<YtComment>(a, 'PUT', '/comments', { part: 'snippet' }, { id, snippet: { textOriginal: text } });
}

export function setModerationStatus(
  a: YouTubeAuth,
  id: string,
  status: 'heldForReview' | 'published' | 'rejected',
) {
  return call<undefined>(a, 'POST', '/comments/setModerationStatus', { id, moderationStatus: status });
}

export function deleteComment(a: YouTubeAuth, id: string) {
  return call<undefined>(a, 'DELETE', '/comments', { id });
}
