import { createHash } from 'node:crypto';
import type { Config } from '../../lib/config';
import { badAnswer, fetchJson } from '../http';
import { ConnectorError } from '../types';

// The Threads API (graph.threads.net; developers.facebook.com/docs/threads). A profile connects through
// the Threads authorization window (threads.net/oauth/authorize); the code is traded for a one-hour token
// (POST /oauth/access_token), that one for a 60-day token (GET /access_token, grant th_exchange_token),
// which is refreshed (GET /refresh_access_token, grant th_refresh_token) once it is a day old and within
// REFRESH_BEFORE_MS of expiry. Errors have the Graph shape `{error:{message,type,code,error_subcode}}`:
// code 190 is a revoked or expired token; 4, 17, 32, 613 and HTTP 429 are rate limits (the exact
// per-profile call allowance is UNCONFIRMED: Meta publishes it in X-App-Usage headers only).

export interface ThreadsAuth {
  config: Config;
  fetch: typeof fetch;
  now: () => Date;
  accessToken: string;
  /** When the stored token lapses (ms since epoch); 0 when unknown. */
  expiresAt: number;
  /** Set when a call refreshed the token: the caller stores it in place of the old one. */
  rotated?: { access_token: string; expires_at: string };
}

const network = { network: 'Threads' };
const DEFAULT_RETRY_AFTER_S = 600;
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613]);
/** Long-lived tokens are refreshed when less than this is left (Threads: refreshable after 24 hours). */
const REFRESH_BEFORE_MS = 7 * 24 * 3600_000;
const refreshed = new Map<string, { token: string; expiresAt: number }>();
const digest = (value: string) => createHash('sha256').update(value).digest('hex');

export const API_VERSION = 'v1.0';

interface GraphError {
  error?: { message?: string; type?: string; code?: number; error_subcode?: number };
}

const send = (f: typeof fetch, url: string, init: RequestInit) => fetchJson(f, url, init, network.network);

/** A Threads error as our failure: rate limits wait (Retry-After), 190 is a revoked token, 5xx retries. */
export function apiFailure(response: Response, body: unknown): ConnectorError {
  const error = (body as GraphError | undefined)?.error;
  const code = error?.code ?? 0;
  const text = error?.message || `Threads answered HTTP ${response.status}`;
  if (response.status === 429 || RATE_LIMIT_CODES.has(code)) {
    const wait = Number(response.headers.get('retry-after'));
    return new ConnectorError('rate_limited', text, {
      retryAfterSeconds: Number.isFinite(wait) && wait > 0 ? wait : DEFAULT_RETRY_AFTER_S,
      reason: { key: 'failure.rateLimited' },
    });
  }
  if (code === 190 || response.status === 401)
    return new ConnectorError('auth', text, {
      reason: { key: 'failure.accessRevoked', params: network, detail: text },
    });
  if (response.status >= 500 || code === 1 || code === 2) return new ConnectorError('temporary', text);
  return new ConnectorError('permanent', text, { reason: { key: 'failure.network', detail: text } });
}

const base = (config: Config) => config.THREADS_API_URL.replace(/\/+$/, '');

/** The OAuth endpoints (not versioned): a grant or a failure. */
export async function grant(
  ctx: { config: Config; fetch: typeof fetch },
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, string>,
): Promise<{ access_token: string; expires_in?: number; user_id?: string | number }> {
  const url = new URL(`${base(ctx.config)}${path}`);
  const form = new URLSearchParams(params).toString();
  if (method === 'GET') url.search = form;
  const { response, body } = await send(ctx.fetch, url.toString(), {
    method,
    ...(method === 'POST'
      ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }
      : {}),
  });
  const granted = body as { access_token?: string } | undefined;
  if (!response.ok || !granted?.access_token) throw apiFailure(response, body);
  return body as { access_token: string; expires_in?: number; user_id?: string | number };
}

/** The token to call with: the stored one, or a refreshed one when it is close to expiry. */
async function tokenOf(a: ThreadsAuth): Promise<string> {
  const now = a.now().getTime();
  if (!a.expiresAt || a.expiresAt - now > REFRESH_BEFORE_MS) return a.accessToken;
  const key = `${base(a.config)}\n${digest(a.accessToken)}`;
  const cached = refreshed.get(key);
  if (cached && cached.expiresAt - now > REFRESH_BEFORE_MS) {
    a.rotated = { access_token: cached.token, expires_at: String(cached.expiresAt) };
    return cached.token;
  }
  const next = await grant(a, 'GET', '/refresh_access_token', {
    grant_type: 'th_refresh_token',
    access_token: cached?.token ?? a.accessToken,
  });
  const expiresAt = now + (next.expires_in ?? 5_184_000) * 1000;
  refreshed.set(key, { token: next.access_token, expiresAt });
  a.rotated = { access_token: next.access_token, expires_at: String(expiresAt) };
  return next.access_token;
}

/** One Graph call under /v1.0: the token as a query parameter (GET) or a form field (POST). */
export async function call<T>(
  a: ThreadsAuth,
  method: 'GET' | 'POST',
  path: string,
  params: Record<string, string | undefined> = {},
): Promise<T> {
  const token = await tokenOf(a);
  const url = new URL(`${base(a.config)}/${API_VERSION}${path}`);
  const fields = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) fields.set(k, v);
  if (method === 'GET') {
    fields.set('access_token', token);
    url.search = fields.toString();
  }
  const { response, body } = await send(a.fetch, url.toString(), {
    method,
    ...(method === 'POST'
      ? {
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Bearer ${token}`,
          },
          body: fields.toString(),
        }
      : {}),
  });
  if (!response.ok) throw apiFailure(response, body);
  return body as T;
}

export interface ThreadsMedia {
  id: string;
  text?: string;
  username?: string;
  permalink?: string;
  timestamp: string;
  replied_to?: { id: string };
  root_post?: { id: string };
  is_reply_owned_by_me?: boolean;
  hide_status?: string;
}

export interface ThreadsPage<T> {
  data?: T[];
  paging?: { cursors?: { before?: string; after?: string }; next?: string };
}

export const REPLY_FIELDS =
  'id,text,username,permalink,timestamp,replied_to,root_post,is_reply_owned_by_me,hide_status';

export function me(a: ThreadsAuth) {
  return call<{ id: string; username?: string; name?: string; threads_profile_picture_url?: string }>(
    a,
    'GET',
    '/me',
    { fields: 'id,username,name,threads_profile_picture_url' },
  );
}

export function myThreads(a: ThreadsAuth, limit: number) {
  return call<ThreadsPage<ThreadsMedia>>(a, 'GET', '/me/threads', {
    fields: 'id,text,permalink,timestamp',
    limit: String(limit),
  });
}

/** Every reply under a post, top-level and nested, newest first (`reverse` defaults to true). */
export function conversation(a: ThreadsAuth, mediaId: string, after?: string) {
  return call<ThreadsPage<ThreadsMedia>>(a, 'GET', `/${mediaId}/conversation`, {
    fields: REPLY_FIELDS,
    reverse: 'true',
    limit: '100',
    after,
  });
}

/** A reply: a TEXT container with reply_to_id, then published (Threads: two steps). */
export async function publishReply(a: ThreadsAuth, replyToId: string, text: string) {
  const container = await call<{ id?: string } | undefined>(a, 'POST', '/me/threads', {
    media_type: 'TEXT',
    text,
    reply_to_id: replyToId,
  });
  // Both steps answer with an id: without it the answer is not Threads' (a proxy's page), nothing was made.
  if (!container?.id) throw badAnswer(network.network, 'a container without its id');
  const published = await call<{ id?: string } | undefined>(a, 'POST', '/me/threads_publish', {
    creation_id: container.id,
  });
  if (!published?.id) throw badAnswer(network.network, 'a published reply without its id');
  return { id: published.id };
}

export function manageReply(a: ThreadsAuth, replyId: string, hide: boolean) {
  return call<{ success?: boolean }>(a, 'POST', `/${replyId}/manage_reply`, { hide: String(hide) });
}
