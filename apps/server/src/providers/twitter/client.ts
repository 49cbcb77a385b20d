import { createHash, createHmac } from 'node:crypto';
import type { Config } from '../../lib/config';
import { ConnectorError } from '../types';

// X API v2 (PROVIDERS.md §7f): `{base}/2/...` with the account's OAuth 2.0 user token (Authorization Code
// with PKCE). Errors are problem-details JSON or `{errors:[…]}`; every answer carries the endpoint's
// window in `x-rate-limit-limit`, `-remaining` and `-reset` (epoch seconds). A 403 whose `reason` is
// `client-not-enrolled` (or whose type is `…/client-forbidden`) means the app's plan (tier) does not
// include the endpoint.

export const NETWORK = 'X';
const EXPIRY_MARGIN_MS = 60_000;
const DEFAULT_RETRY_AFTER_S = 60;

export interface TwitterAuth {
  config: Config;
  fetch: typeof fetch;
  now: () => Date;
  credentials: Record<string, string>;
  /** Stores rotated tokens with the account (ConnectorContext.saveCredentials). */
  save?: (credentials: Record<string, string>) => Promise<void>;
}

/** The endpoint's window as the answer gave it (absent headers: nulls). */
export interface RateWindow {
  limit: number | null;
  remaining: number | null;
  /** Epoch seconds. */
  reset: number | null;
}

export interface Answer<T> {
  body: T;
  rate: RateWindow;
}

const base = (config: Config) => config.TWITTER_API_URL.replace(/\/+$/, '');

function header(response: Response, name: string): number | null {
  const value = response.headers.get(name);
  if (value === null || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

export function rateOf(response: Response): RateWindow {
  return {
    limit: header(response, 'x-rate-limit-limit'),
    remaining: header(response, 'x-rate-limit-remaining'),
    reset: header(response, 'x-rate-limit-reset'),
  };
}

/** Seconds until the window opens again (at least 1), or the default when X gave no reset. */
export function secondsUntilReset(rate: RateWindow, now: Date): number {
  if (rate.reset === null) return DEFAULT_RETRY_AFTER_S;
  return Math.max(1, Math.ceil(rate.reset - now.getTime() / 1000));
}

interface Problem {
  title?: string;
  detail?: string;
  type?: string;
  reason?: string;
  status?: number;
  errors?: Array<{ message?: string; detail?: string; code?: number }>;
  error?: string;
  error_description?: string;
}

/** The plan (tier) does not include the endpoint. */
export function notEnrolled(status: number, body: Problem | undefined): boolean {
  return (
    status === 403 &&
    (body?.reason === 'client-not-enrolled' || Boolean(body?.type?.endsWith('/client-forbidden')))
  );
}

/** The failure of an answer by its status and problem body; null when it succeeded. */
export function twitterFailure(response: Response, body: Problem | undefined, now: Date) {
  if (response.ok) return null;
  const text =
    body?.detail ||
    body?.errors?.[0]?.message ||
    body?.errors?.[0]?.detail ||
    body?.error_description ||
    body?.title ||
    `X API answered HTTP ${response.status}`;
  if (response.status === 429)
    return new ConnectorError('rate_limited', text, {
      retryAfterSeconds: secondsUntilReset(rateOf(response), now),
    });
  if (response.status === 401 || (response.status === 400 && body?.error === 'invalid_grant'))
    return new ConnectorError('auth', text, {
      reason: { key: 'failure.reconnect', params: { network: NETWORK }, detail: text },
    });
  if (response.status >= 500) return new ConnectorError('temporary', text);
  return new ConnectorError('permanent', text);
}

function unreachable(error: unknown): ConnectorError {
  const detail = error instanceof Error ? error.message : String(error);
  return new ConnectorError('temporary', `X API unreachable: ${detail}`, {
    reason: { key: 'failure.unreachable', params: { network: NETWORK }, detail },
  });
}

/** One call; the parsed body and the endpoint's window, or a ConnectorError. */
export async function call<T>(
  ctx: Pick<TwitterAuth, 'config' | 'fetch' | 'now'>,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  opts: {
    token?: string;
    query?: Record<string, string>;
    json?: Record<string, unknown>;
    form?: Record<string, string>;
    basic?: string;
  } = {},
): Promise<Answer<T>> {
  const url = new URL(`${base(ctx.config)}${path}`);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.basic) headers.authorization = `Basic ${opts.basic}`;
  if (opts.json) headers['content-type'] = 'application/json';
  if (opts.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  let response: Response;
  try {
    response = await ctx.fetch(url, {
      method,
      headers,
      body: opts.json
        ? JSON.stringify(opts.json)
        : opts.form
          ? new URLSearchParams(opts.form).toString()
          : undefined,
    });
  } catch (error) {
    throw unreachable(error);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (notEnrolled(response.status, body as Problem | undefined))
    throw new NotEnrolled((body as Problem).detail ?? 'The app is not enrolled for this endpoint');
  const failure = twitterFailure(response, body as Problem | undefined, ctx.now());
  if (failure) throw failure;
  return { body: (body ?? {}) as T, rate: rateOf(response) };
}

/** 403 client-not-enrolled: the plan lacks the endpoint (the account's tier shows it). */
export class NotEnrolled extends ConnectorError {
  constructor(message: string) {
    super('permanent', message, {
      reason: { key: 'failure.network', detail: `X: ${message}` },
    });
  }
}

/**
 * The PKCE verifier of a connect attempt: derived from its sealed state with the instance's secret, so
 * nothing is stored between the popup and `POST v1/twitter/auth` and nobody without SECRET_KEY can
 * compute it from the state in the address.
 */
export function pkceVerifier(config: Config, state: string): string {
  return createHmac('sha256', config.SECRET_KEY ?? config.TWITTER_CLIENT_SECRET ?? 'otklik')
    .update(`twitter-pkce\n${state}`)
    .digest('base64url');
}

export const pkceChallenge = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export interface TwitterGrant {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  scope?: string;
  token_type?: string;
}

const basicOf = (config: Config) =>
  Buffer.from(`${config.TWITTER_CLIENT_ID ?? ''}:${config.TWITTER_CLIENT_SECRET ?? ''}`).toString('base64');

/** `POST /2/oauth2/token`: the popup's code and our verifier for the user's tokens. */
export async function exchangeCode(
  ctx: Pick<TwitterAuth, 'config' | 'fetch' | 'now'>,
  code: string,
  redirectUri: string,
  verifier: string,
) {
  const { body } = await call<TwitterGrant>(ctx, 'POST', '/2/oauth2/token', {
    basic: basicOf(ctx.config),
    form: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: ctx.config.TWITTER_CLIENT_ID ?? '',
    },
  });
  return body;
}

export function credentialsOf(grant: TwitterGrant, userId: string, now: Date): Record<string, string> {
  if (!grant.access_token)
    throw new ConnectorError('permanent', 'X gave no token', {
      reason: { key: 'failure.badAnswer', params: { network: NETWORK } },
    });
  return {
    access_token: grant.access_token,
    refresh_token: grant.refresh_token ?? '',
    expires_at: String(now.getTime() + (grant.expires_in ?? 7200) * 1000),
    user_id: userId,
  };
}

/**
 * Access tokens live two hours; with `offline.access` a refresh token renews them. X rotates the refresh
 * token on each use, so the new pair is stored with the account (`save`) and, for calls already holding
 * the old credentials, kept in this process's memory keyed by a digest of the spent refresh token; one
 * refresh at a time per token (a second caller waits for the first).
 */
const refreshed = new Map<string, Promise<{ token: string; refresh: string; expiresAt: number }>>();
const digest = (value: string) => createHash('sha256').update(value).digest('hex');

export async function accessToken(a: TwitterAuth): Promise<string> {
  const { access_token: stored, expires_at: expiresAt, refresh_token: refreshToken } = a.credentials;
  const now = a.now().getTime();
  if (stored && Number(expiresAt) - EXPIRY_MARGIN_MS > now) return stored;
  if (!refreshToken) {
    if (stored) return stored;
    throw new ConnectorError('auth', 'X: no token stored', {
      reason: { key: 'failure.reconnect', params: { network: NETWORK } },
    });
  }
  const key = `${a.config.TWITTER_API_URL}\n${digest(refreshToken)}`;
  const pending = refreshed.get(key);
  if (pending) {
    const cached = await pending.catch(() => null);
    if (cached && cached.expiresAt - EXPIRY_MARGIN_MS > now) return cached.token;
    if (cached)
      return accessToken({ ...a, credentials: { ...a.credentials, refresh_token: cached.refresh } });
  }
  const renewal = refresh(a, refreshToken, now);
  refreshed.set(key, renewal);
  renewal.catch(() => refreshed.delete(key));
  return (await renewal).token;
}

async function refresh(a: TwitterAuth, refreshToken: string, now: number) {
  const grant = await call<TwitterGrant>(a, 'POST', '/2/oauth2/token', {
    basic: basicOf(a.config),
    form: {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: a.config.TWITTER_CLIENT_ID ?? '',
    },
  }).then(
    (answer) => answer.body,
    (error: unknown) => {
      // A spent or revoked refresh token is a 400 `invalid_request`: only reconnecting helps.
      if (error instanceof ConnectorError && error.kind === 'permanent')
        throw new ConnectorError('auth', error.message, {
          reason: { key: 'failure.reconnect', params: { network: NETWORK }, detail: error.message },
        });
      throw error;
    },
  );
  if (!grant.access_token)
    throw new ConnectorError('auth', 'X refused to refresh the token', {
      reason: { key: 'failure.reconnect', params: { network: NETWORK } },
    });
  const renewed = {
    token: grant.access_token,
    refresh: grant.refresh_token ?? refreshToken,
    expiresAt: now + (grant.expires_in ?? 7200) * 1000,
  };
  await a.save?.({
    ...a.credentials,
    access_token: renewed.token,
    refresh_token: renewed.refresh,
    expires_at: String(renewed.expiresAt),
  });
  return renewed;
}

export function userIdOf(a: TwitterAuth): string {
  const id = a.credentials.user_id;
  if (!id)
    throw new ConnectorError('auth', 'X: the account id is missing, reconnect the account', {
      reason: { key: 'failure.reconnect', params: { network: NETWORK } },
    });
  return id;
}

/** A call as the account (its user token). */
export async function userCall<T>(
  a: TwitterAuth,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  opts: { query?: Record<string, string>; json?: Record<string, unknown> } = {},
) {
  return call<T>(a, method, path, { ...opts, token: await accessToken(a) });
}

export interface TwitterUser {
  id: string;
  name?: string;
  username?: string;
  profile_image_url?: string;
}

export async function getMe(a: Pick<TwitterAuth, 'config' | 'fetch' | 'now'>, token: string) {
  const { body } = await call<{ data?: TwitterUser }>(a, 'GET', '/2/users/me', {
    token,
    query: { 'user.fields': 'profile_image_url' },
  });
  if (!body.data?.id)
    throw new ConnectorError('permanent', 'X gave no user', {
      reason: { key: 'failure.badAnswer', params: { network: NETWORK } },
    });
  return body.data;
}
