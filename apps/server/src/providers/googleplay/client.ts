import { createHash, createPrivateKey, createSign, type KeyObject } from 'node:crypto';
import type { Config } from '../../lib/config';
import { badAnswer, fetchJson } from '../http';
import { ConnectorError } from '../types';

// Google Play Developer API, reviews (PROVIDERS.md §6a). A service account's key signs a JWT (RS256) that
// the OAuth token endpoint trades for an access token (the JWT bearer grant, RFC 7523); calls carry it as
// `Authorization: Bearer`. Errors come as `{error:{code,message,status,errors:[{reason}]}}`; the token
// endpoint answers `{error, error_description}`.

const NETWORK = 'Google Play';
const SCOPE = 'https://www.googleapis.com/auth/androidpublisher';
const EXPIRY_MARGIN_MS = 60_000;
const DEFAULT_RETRY_AFTER_S = 60;

export interface ServiceAccount {
  clientEmail: string;
  privateKey: KeyObject;
  /** A digest of the key, for the token cache (a rotated key starts afresh). */
  digest: string;
}

export interface PlayAuth {
  config: Config;
  fetch: typeof fetch;
  now: () => Date;
  account: ServiceAccount;
}

/**
 * Reads the JSON key file a user uploads: its shape (type service_account, client_email, private_key) and
 * that the key parses. Throws a ConnectorError whose reason says what is wrong, in the reader's language.
 */
export function parseServiceAccount(json: string): ServiceAccount {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(json) as Record<string, unknown>;
  } catch {
    throw badServiceAccount('not JSON');
  }
  if (
    !data ||
    typeof data !== 'object' ||
    data.type !== 'service_account' ||
    typeof data.client_email !== 'string' ||
    !data.client_email.includes('@') ||
    typeof data.private_key !== 'string'
  )
    throw badServiceAccount('fields missing');
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(data.private_key);
  } catch (error) {
    throw new ConnectorError('permanent', `Google Play: the private key does not parse: ${String(error)}`, {
      reason: { key: 'failure.badPrivateKey', params: { network: NETWORK } },
    });
  }
  if (privateKey.asymmetricKeyType !== 'rsa')
    throw new ConnectorError('permanent', 'Google Play: the private key is not RSA', {
      reason: { key: 'failure.badPrivateKey', params: { network: NETWORK } },
    });
  return {
    clientEmail: data.client_email,
    privateKey,
    digest: createHash('sha256').update(data.private_key).digest('hex'),
  };
}

function badServiceAccount(why: string) {
  return new ConnectorError('permanent', `Google Play: not a service-account key (${why})`, {
    reason: { key: 'failure.badServiceAccount' },
  });
}

const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** The signed assertion of the JWT bearer grant: iss = the service account, aud = the token endpoint. */
export function signAssertion(a: PlayAuth): string {
  const iat = Math.floor(a.now().getTime() / 1000);
  const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = b64url(
    JSON.stringify({
      iss: a.account.clientEmail,
      scope: SCOPE,
      aud: a.config.GOOGLEPLAY_TOKEN_URL,
      iat,
      exp: iat + 3600,
    }),
  );
  const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(a.account.privateKey);
  return `${header}.${claims}.${b64url(signature)}`;
}

interface CachedToken {
  token: string;
  expiresAt: number;
}
const tokens = new Map<string, CachedToken>();
const cacheKey = (a: PlayAuth) =>
  `${a.config.GOOGLEPLAY_TOKEN_URL}\n${a.account.clientEmail}\n${a.account.digest}`;

const request = (a: PlayAuth, url: string, init: RequestInit) => fetchJson(a.fetch, url, init, NETWORK);

function errorText(body: unknown, status: number): string {
  const b = (body ?? {}) as { error?: unknown; error_description?: unknown; message?: unknown };
  if (b.error && typeof b.error === 'object') {
    const message = (b.error as { message?: unknown }).message;
    if (typeof message === 'string' && message) return message;
  }
  for (const text of [b.error_description, b.error, b.message])
    if (typeof text === 'string' && text) return text;
  return `Google Play answered HTTP ${status}`;
}

/** 429 (with Retry-After) and 5xx wait; 401/403 mean the key was revoked or lacks the permission. */
function failure(response: Response, body: unknown): ConnectorError {
  const text = errorText(body, response.status);
  if (response.status === 429) {
    const wait = Number(response.headers.get('retry-after'));
    return new ConnectorError('rate_limited', text, {
      retryAfterSeconds: Number.isFinite(wait) && wait > 0 ? wait : DEFAULT_RETRY_AFTER_S,
    });
  }
  if (response.status === 401 || response.status === 403) return new ConnectorError('auth', text);
  return new ConnectorError(response.status >= 500 ? 'temporary' : 'permanent', text);
}

async function accessToken(a: PlayAuth, fresh: boolean): Promise<string> {
  const cached = tokens.get(cacheKey(a));
  if (!fresh && cached && cached.expiresAt > a.now().getTime()) return cached.token;
  const { response, body } = await request(a, a.config.GOOGLEPLAY_TOKEN_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: signAssertion(a),
    }).toString(),
  });
  const granted = body as { access_token?: string; expires_in?: number } | undefined;
  if (response.status === 429 || response.status >= 500) throw failure(response, body);
  // invalid_grant: a deleted or disabled key, or a service account that no longer exists.
  if (!response.ok || !granted?.access_token)
    throw new ConnectorError('auth', errorText(body, response.status));
  const token = {
    token: granted.access_token,
    expiresAt: a.now().getTime() + (granted.expires_in ?? 3600) * 1000 - EXPIRY_MARGIN_MS,
  };
  tokens.set(cacheKey(a), token);
  return token.token;
}

/** A Bearer call; a 401 gets one new token and one more try before it counts as revoked. */
export async function playCall<T>(
  a: PlayAuth,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  const url = `${a.config.GOOGLEPLAY_API_URL.replace(/\/+$/, '')}${path}`;
  for (let attempt = 0; ; attempt++) {
    const token = await accessToken(a, attempt > 0);
    const { response, body: answer } = await request(a, url, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (response.status === 401 && attempt === 0) {
      tokens.delete(cacheKey(a));
      continue;
    }
    if (!response.ok) throw failure(response, answer);
    return answer as T;
  }
}

export interface PlayTimestamp {
  seconds: string;
  nanos?: number;
}

export interface PlayReview {
  reviewId: string;
  authorName?: string;
  comments?: Array<{
    userComment?: {
      text?: string;
      lastModified?: PlayTimestamp;
      starRating?: number;
      reviewerLanguage?: string;
      appVersionName?: string;
      originalText?: string;
    };
    developerComment?: { text?: string; lastModified?: PlayTimestamp };
  }>;
}

export interface PlayReviewPage {
  reviews?: PlayReview[];
  tokenPagination?: { nextPageToken?: string };
}

const app = (packageName: string) => `/applications/${encodeURIComponent(packageName)}`;

export function listReviews(
  a: PlayAuth,
  packageName: string,
  opts: { token?: string; translationLanguage?: string; maxResults: number },
) {
  const query = new URLSearchParams({ maxResults: String(opts.maxResults) });
  if (opts.token) query.set('token', opts.token);
  if (opts.translationLanguage) query.set('translationLanguage', opts.translationLanguage);
  return playCall<PlayReviewPage>(a, 'GET', `${app(packageName)}/reviews?${query}`);
}

/** Creates or overwrites the developer's reply (PROVIDERS §6a: over 350 characters is refused). */
export async function replyToReview(a: PlayAuth, packageName: string, reviewId: string, text: string) {
  const answer = await playCall<{ result?: { replyText?: string; lastEdited?: PlayTimestamp } } | undefined>(
    a,
    'POST',
    `${app(packageName)}/reviews/${encodeURIComponent(reviewId)}:reply`,
    { replyText: text },
  );
  // Play answers a reply with the reply it saved: anything else (a proxy's page) is not a reply made.
  if (!answer?.result) throw badAnswer(NETWORK, 'a reply answered without its result');
  return answer;
}
