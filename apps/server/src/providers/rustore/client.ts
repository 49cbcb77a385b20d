import { createHash, createPrivateKey, createSign, type KeyObject } from 'node:crypto';
import type { Config } from '../../lib/config';
import { badAnswer } from '../http';
import { ConnectorError } from '../types';

// RuStore Public API (PROVIDERS.md §6d). A key (its id and RSA private key from RuStore Console) signs
// `keyId + timestamp` (RSA-SHA512, PKCS#1 v1.5, base64); `POST /public/auth/` trades that for a token
// (`body.jwe`, ttl 900 s) sent as `Public-Token`. Every answer is the envelope `{code, message, body,
// timestamp}`; `code` other than "OK" is a refusal, whatever the HTTP status.

const NETWORK = 'RuStore';
const EXPIRY_MARGIN_MS = 60_000;
const DEFAULT_RETRY_AFTER_S = 60;

export interface RuStoreKey {
  keyId: string;
  privateKey: KeyObject;
  digest: string;
}

export interface RuStoreAuth {
  config: Config;
  fetch: typeof fetch;
  now: () => Date;
  key: RuStoreKey;
}

/** The key as RuStore Console gives it (base64 PKCS#8 without armour) or as a PEM block. */
export function parseKey(keyId: string, text: string): RuStoreKey {
  const trimmed = text.trim();
  let privateKey: KeyObject;
  try {
    privateKey = trimmed.includes('-----BEGIN')
      ? createPrivateKey(trimmed)
      : createPrivateKey({
          key: Buffer.from(trimmed.replace(/\s+/g, ''), 'base64'),
          format: 'der',
          type: 'pkcs8',
        });
  } catch (error) {
    throw new ConnectorError('permanent', `RuStore: the private key does not parse: ${String(error)}`, {
      reason: { key: 'failure.badPrivateKey', params: { network: NETWORK } },
    });
  }
  if (privateKey.asymmetricKeyType !== 'rsa')
    throw new ConnectorError('permanent', 'RuStore: the private key is not RSA', {
      reason: { key: 'failure.badPrivateKey', params: { network: NETWORK } },
    });
  return { keyId, privateKey, digest: createHash('sha256').update(trimmed).digest('hex') };
}

/** ISO 8601 with milliseconds and the offset, as RuStore's examples write it. */
export function timestampOf(date: Date): string {
  return date.toISOString().replace('Z', '+00:00');
}

export function signAuth(key: RuStoreKey, timestamp: string): string {
  return createSign('RSA-SHA512')
    .update(key.keyId + timestamp)
    .sign(key.privateKey, 'base64');
}

interface Envelope<T> {
  code?: string;
  message?: string | null;
  body?: T;
}

interface CachedToken {
  token: string;
  expiresAt: number;
}
const tokens = new Map<string, CachedToken>();
const cacheKey = (a: RuStoreAuth) => `${a.config.RUSTORE_API_URL}\n${a.key.keyId}\n${a.key.digest}`;

async function request<T>(a: RuStoreAuth, path: string, init: RequestInit) {
  let response: Response;
  try {
    response = await a.fetch(`${a.config.RUSTORE_API_URL.replace(/\/+$/, '')}${path}`, {
      ...init,
    });
  } catch (error) {
    throw new ConnectorError('temporary', `RuStore unreachable: ${(error as Error).message}`, {
      reason: { key: 'failure.unreachable', params: { network: NETWORK }, detail: (error as Error).message },
    });
  }
  const text = await response.text();
  let envelope: Envelope<T> | undefined;
  try {
    envelope = text ? (JSON.parse(text) as Envelope<T>) : undefined;
  } catch {
    envelope = undefined;
  }
  return { response, envelope };
}

const errorText = (envelope: Envelope<unknown> | undefined, status: number) =>
  envelope?.message || envelope?.code || `RuStore answered HTTP ${status}`;

function failure(response: Response, envelope: Envelope<unknown> | undefined): ConnectorError {
  const text = errorText(envelope, response.status);
  if (response.status === 429) {
    const wait = Number(response.headers.get('retry-after'));
    return new ConnectorError('rate_limited', text, {
      retryAfterSeconds: Number.isFinite(wait) && wait > 0 ? wait : DEFAULT_RETRY_AFTER_S,
    });
  }
  if (response.status === 401 || response.status === 403) return new ConnectorError('auth', text);
  return new ConnectorError(response.status >= 500 ? 'temporary' : 'permanent', text);
}

/**
 * RuStore answers every call with its envelope (`code` is always there): a 2xx without one (not JSON,
 * another shape) is not RuStore's answer, so nothing says the call was made — retried, never taken as a
 * refusal (or, for the token, as a wrong key).
 */
function checkEnvelope(response: Response, envelope: Envelope<unknown> | undefined) {
  if (typeof envelope?.code !== 'string')
    throw badAnswer(NETWORK, `HTTP ${response.status} without an envelope`);
}

async function token(a: RuStoreAuth, fresh: boolean): Promise<string> {
  const cached = tokens.get(cacheKey(a));
  if (!fresh && cached && cached.expiresAt > a.now().getTime()) return cached.token;
  const timestamp = timestampOf(a.now());
  const { response, envelope } = await request<{ jwe?: string; ttl?: number }>(a, '/public/auth/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ keyId: a.key.keyId, timestamp, signature: signAuth(a.key, timestamp) }),
  });
  if (response.status === 429 || response.status >= 500) throw failure(response, envelope);
  if (response.ok) checkEnvelope(response, envelope);
  const jwe = envelope?.body?.jwe;
  // A wrong or deleted key: the administrator must give a working one.
  if (!response.ok || envelope?.code !== 'OK' || !jwe)
    throw new ConnectorError('auth', errorText(envelope, response.status));
  const ttl = envelope.body?.ttl ?? 900;
  tokens.set(cacheKey(a), { token: jwe, expiresAt: a.now().getTime() + ttl * 1000 - EXPIRY_MARGIN_MS });
  return jwe;
}

/** A call with the Public-Token; a 401 gets one new token and one more try before it counts as revoked. */
export async function rustoreCall<T>(a: RuStoreAuth, method: 'GET' | 'POST', path: string, body?: unknown) {
  for (let attempt = 0; ; attempt++) {
    const jwe = await token(a, attempt > 0);
    const { response, envelope } = await request<T>(a, path, {
      method,
      headers: { 'Public-Token': jwe, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (response.status === 401 && attempt === 0) {
      tokens.delete(cacheKey(a));
      continue;
    }
    if (!response.ok) throw failure(response, envelope);
    checkEnvelope(response, envelope);
    if (envelope?.code !== 'OK') throw new ConnectorError('permanent', errorText(envelope, response.status));
    return envelope.body as T;
  }
}

/** UserCommentDto (PROVIDERS §6d). */
export interface RuStoreComment {
  commentId: number | string;
  userName?: string;
  appRating?: number;
  commentStatus?: string;
  commentDate?: string;
  commentText?: string;
  updatedAt?: string;
  appVersionName?: string;
  edited?: boolean;
}

const app = (packageName: string) => `/public/v1/application/${encodeURIComponent(packageName)}`;

/** One page of comments, newest first; `body` is `{content, last}` or, in some renders, a bare array. */
export async function listComments(a: RuStoreAuth, packageName: string, page: number, size: number) {
  const body = await rustoreCall<RuStoreComment[] | { content?: RuStoreComment[]; last?: boolean }>(
    a,
    'GET',
    `${app(packageName)}/comment?page=${page}&size=${size}`,
  );
  if (Array.isArray(body)) return { content: body, last: body.length < size };
  return { content: body?.content ?? [], last: body?.last ?? true };
}

/** Answers a comment; RuStore gives the feedback's id (the address of its edits and status). */
export async function postFeedback(a: RuStoreAuth, packageName: string, commentId: string, message: string) {
  const sent = await rustoreCall<{ id?: number | string } | null>(
    a,
    'POST',
    `${app(packageName)}/feedback?commentId=${encodeURIComponent(commentId)}`,
    { message },
  );
  // Without the feedback's id the answer is not RuStore's (a proxy's page): nothing says it was made.
  if (sent?.id === undefined || sent.id === null || sent.id === '')
    throw badAnswer(NETWORK, 'a feedback answered without its id');
  return { id: sent.id };
}

export const editFeedback = (a: RuStoreAuth, packageName: string, feedbackId: string, message: string) =>
  rustoreCall(a, 'POST', `${app(packageName)}/feedback/${encodeURIComponent(feedbackId)}`, { message });
