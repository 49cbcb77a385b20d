import { createHash } from 'node:crypto';
import type { Config } from '../../lib/config';
import { badAnswer } from '../http';
import { ConnectorError } from '../types';

// TikTok API for Business, organic side (PROVIDERS.md §7g): `{base}/open_api/v1.3/...`, the account's
// token in the `Access-Token` header, answers in `{code, message, request_id, data}` where a non-zero
// `code` is an error (HTTP is 200 then, except for throttling and outages). Ids exceed 2^53: they are
// read as strings (the emulator sends them as strings as well; numbers are turned into strings).
//
// Error codes are UNCONFIRMED in PROVIDERS: 40100 is read as "too many requests", 40104/40105 as an
// expired or revoked token, as the public Marketing API lists them.

export const NETWORK = 'TikTok';
const API_PREFIX = '/open_api/v1.3';
const RATE_LIMITED_CODES = new Set([40100]);
const AUTH_CODES = new Set([40001, 40102, 40104, 40105]);
const DEFAULT_RETRY_AFTER_S = 60;
const EXPIRY_MARGIN_MS = 60_000;

export interface TiktokEnvelope<T> {
  code: number;
  message?: string;
  request_id?: string;
  data?: T;
}

/** What a call needs: where TikTok is, the app, and the account's tokens (as stored). */
export interface TiktokAuth {
  config: Config;
  fetch: typeof fetch;
  now: () => Date;
  credentials: Record<string, string>;
}

const baseOf = (config: Config) => `${config.TIKTOK_API_URL.replace(/\/+$/, '')}${API_PREFIX}`;

function unreachable(error: unknown): ConnectorError {
  const detail = error instanceof Error ? error.message : String(error);
  return new ConnectorError('temporary', `TikTok API unreachable: ${detail}`, {
    reason: { key: 'failure.unreachable', params: { network: NETWORK }, detail },
  });
}

/** The failure of a call by its HTTP status and envelope; null when it succeeded. */
export function tiktokFailure(response: Response, body: TiktokEnvelope<unknown> | undefined) {
  const text = body?.message || `TikTok API answered HTTP ${response.status}`;
  if (response.status === 429 || (body && RATE_LIMITED_CODES.has(body.code))) {
    const wait = Number(response.headers.get('retry-after'));
    return new ConnectorError('rate_limited', text, {
      retryAfterSeconds: Number.isFinite(wait) && wait > 0 ? wait : DEFAULT_RETRY_AFTER_S,
    });
  }
  if (response.status === 401 || response.status === 403 || (body && AUTH_CODES.has(body.code)))
    return new ConnectorError('auth', text);
  if (response.status >= 500) return new ConnectorError('temporary', text);
  if (!response.ok) return new ConnectorError('permanent', text);
  // TikTok answers every call with its envelope and a numeric code: a 2xx without one (not JSON, another
  // shape) is not TikTok's answer, so nothing says the call was made — retried, never taken as a refusal.
  if (typeof body?.code !== 'number')
    return badAnswer(NETWORK, `HTTP ${response.status} without an envelope`);
  if (body.code !== 0) return new ConnectorError('permanent', text);
  return null;
}

/** One call; the envelope's `data` or a ConnectorError. */
export async function call<T>(
  ctx: Pick<TiktokAuth, 'config' | 'fetch'>,
  path: string,
  opts: { token?: string; query?: Record<string, string>; body?: Record<string, unknown> } = {},
): Promise<T> {
  const url = new URL(`${baseOf(ctx.config)}${path}`);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  let response: Response;
  try {
    response = await ctx.fetch(url, {
      method: opts.body ? 'POST' : 'GET',
      headers: {
        ...(opts.token ? { 'access-token': opts.token } : {}),
        ...(opts.body ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.body ? JSON.stringify(opts.body) : undefined,
    });
  } catch (error) {
    throw unreachable(error);
  }
  const text = await response.text();
  let body: TiktokEnvelope<T> | undefined;
  try {
    body = text ? (JSON.parse(text) as TiktokEnvelope<T>) : undefined;
  } catch {
    body = undefined;
  }
  const failure = tiktokFailure(response, body);
  if (failure) throw failure;
  return (body?.data ?? {}) as T;
}

export interface TiktokGrant {
  open_id?: string;
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  refresh_token_expires_in?: number;
  scope?: string;
}

/** `tt_user/oauth2/token/`: the popup's auth_code for the business account's tokens. */
export function exchangeCode(ctx: Pick<TiktokAuth, 'config' | 'fetch'>, code: string, redirectUri: string) {
  return call<TiktokGrant>(ctx, '/tt_user/oauth2/token/', {
    body: {
      client_id: ctx.config.TIKTOK_CLIENT_ID,
      client_secret: ctx.config.TIKTOK_CLIENT_SECRET,
      grant_type: 'authorization_code',
      auth_code: code,
      redirect_uri: redirectUri,
    },
  });
}

/** The stored credentials of a grant: tokens, when the access token expires, and the account id. */
export function credentialsOf(grant: TiktokGrant, now: Date): Record<string, string> {
  if (!grant.access_token || !grant.open_id)
    throw new ConnectorError('permanent', 'TikTok gave no token', {
      reason: { key: 'failure.badAnswer', params: { network: NETWORK } },
    });
  return {
    access_token: grant.access_token,
    refresh_token: grant.refresh_token ?? '',
    expires_at: String(now.getTime() + (grant.expires_in ?? 86_400) * 1000),
    open_id: grant.open_id,
  };
}

/**
 * Access tokens live a day (refresh tokens a year); the stored one is used until it expires, then each
 * process refreshes and keeps the new one in memory (keyed by a digest of the refresh token).
 */
const refreshed = new Map<string, { token: string; expiresAt: number }>();
const digest = (value: string) => createHash('sha256').update(value).digest('hex');

export async function accessToken(a: TiktokAuth): Promise<string> {
  const { access_token: stored, expires_at: expiresAt, refresh_token: refreshToken } = a.credentials;
  const now = a.now().getTime();
  if (stored && Number(expiresAt) - EXPIRY_MARGIN_MS > now) return stored;
  if (!refreshToken) {
    if (stored) return stored;
    throw new ConnectorError('auth', 'TikTok: no token stored', {
      reason: { key: 'failure.reconnect', params: { network: NETWORK } },
    });
  }
  const key = `${a.config.TIKTOK_API_URL}\n${digest(refreshToken)}`;
  const cached = refreshed.get(key);
  if (cached && cached.expiresAt - EXPIRY_MARGIN_MS > now) return cached.token;
  const grant = await call<TiktokGrant>(a, '/tt_user/oauth2/refresh_token/', {
    body: {
      client_id: a.config.TIKTOK_CLIENT_ID,
      client_secret: a.config.TIKTOK_CLIENT_SECRET,
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
    },
  });
  if (!grant.access_token)
    throw new ConnectorError('auth', 'TikTok refused to refresh the token', {
      reason: { key: 'failure.auth' },
    });
  refreshed.set(key, { token: grant.access_token, expiresAt: now + (grant.expires_in ?? 86_400) * 1000 });
  return grant.access_token;
}

export function businessIdOf(a: TiktokAuth): string {
  const id = a.credentials.open_id;
  if (!id)
    throw new ConnectorError('auth', 'TikTok: the account id is missing, reconnect the account', {
      reason: { key: 'failure.reconnect', params: { network: NETWORK } },
    });
  return id;
}

/** A call as the account: its token and business_id. */
export async function accountCall<T>(
  a: TiktokAuth,
  path: string,
  opts: { query?: Record<string, string>; body?: Record<string, unknown> },
): Promise<T> {
  const token = await accessToken(a);
  const business_id = businessIdOf(a);
  return call<T>(a, path, {
    token,
    query: opts.query ? { business_id, ...opts.query } : undefined,
    body: opts.body ? { business_id, ...opts.body } : undefined,
  });
}

export interface TiktokProfile {
  username?: string;
  display_name?: string;
  profile_image?: string;
}

export function getProfile(a: TiktokAuth) {
  return accountCall<TiktokProfile>(a, '/business/get/', {
    query: { fields: JSON.stringify(['username', 'display_name', 'profile_image']) },
  });
}

export interface TiktokVideo {
  item_id: string;
  caption?: string;
  share_url?: string;
  create_time?: number;
}

export function listVideos(a: TiktokAuth, maxCount: number) {
  return accountCall<{ videos?: TiktokVideo[]; cursor?: number; has_more?: boolean }>(
    a,
    '/business/video/list/',
    {
      query: {
        fields: JSON.stringify(['item_id', 'caption', 'share_url', 'create_time']),
        max_count: String(maxCount),
      },
    },
  );
}

export interface TiktokComment {
  comment_id: string | number;
  video_id: string | number;
  parent_comment_id?: string | number;
  user_id?: string | number;
  username?: string;
  display_name?: string;
  profile_image?: string;
  text?: string;
  create_time: number;
  /** The account wrote it. */
  owner?: boolean;
  status?: string;
}

export function listComments(a: TiktokAuth, videoId: string, cursor: number, maxCount: number) {
  return accountCall<{ comments?: TiktokComment[]; cursor?: number; has_more?: boolean }>(
    a,
    '/business/comment/list/',
    {
      query: {
        video_id: videoId,
        include_replies: 'true',
        sort_field: 'create_time',
        sort_order: 'desc',
        cursor: String(cursor),
        max_count: String(maxCount),
      },
    },
  );
}
