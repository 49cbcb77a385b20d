import { createHmac, timingSafeEqual } from 'node:crypto';
import { ConnectorError, WebhookRejected, type WebhookRequest } from '../types';

// What every Meta network shares (PROVIDERS.md §3–4 "Common to all Meta webhooks"): the GET hub.*
// handshake, `X-Hub-Signature-256` over the raw body, and Graph calls with their error envelope. Facebook
// Page uses it now; Instagram (same Graph, same webhooks) is meant to reuse it.

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Constant-time equality of two strings (different lengths are simply unequal). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** `hub.mode=subscribe&hub.verify_token=…&hub.challenge=…` → the challenge; anything else is rejected. */
export function metaHandshake(request: WebhookRequest, verifyToken: string, network: string): string {
  const mode = first(request.query['hub.mode']);
  const token = first(request.query['hub.verify_token']) ?? '';
  const challenge = first(request.query['hub.challenge']);
  if (mode !== 'subscribe' || !verifyToken || !safeEqual(token, verifyToken) || challenge === undefined) {
    throw new WebhookRejected(`${network} handshake: wrong hub.mode or hub.verify_token`);
  }
  return challenge;
}

/** The `X-Hub-Signature-256` header value Meta sends for `body` (the emulators sign with it too). */
export function metaSignature(body: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/**
 * Bodies whose signature was already checked, with the secret and header that passed: the app-wide
 * callback verifies a delivery once, then each account's connector is handed the same request and
 * need not hash it again. Keyed by the body's Buffer, so it lives as long as the request.
 */
const verified = new WeakMap<Buffer, { secret: string; header: string }>();

/** Checks `X-Hub-Signature-256` over the exact bytes received (Meta escapes non-ASCII: never re-serialise). */
export function verifyMetaSignature(request: WebhookRequest, appSecret: string, network: string): void {
  const header = (request.headers['x-hub-signature-256'] ?? '').toLowerCase();
  if (!appSecret || !header.startsWith('sha256=')) {
    throw new WebhookRejected(`${network} webhook: missing X-Hub-Signature-256`);
  }
  const done = verified.get(request.rawBody);
  if (done && done.secret === appSecret && done.header === header) return;
  if (!safeEqual(header, metaSignature(request.rawBody, appSecret))) {
    throw new WebhookRejected(`${network} webhook: signature mismatch`);
  }
  verified.set(request.rawBody, { secret: appSecret, header });
}

export interface GraphErrorBody {
  error?: {
    message?: string;
    type?: string;
    code?: number;
    error_subcode?: number;
    error_user_msg?: string;
    error_data?: { details?: string };
  };
}

/** Rate limits (§4 "Common codes"): app 4, user 17, page 32, 613, business-use-case 80001/80006. */
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613, 80001, 80006]);
/** 190 invalid/expired/revoked token, 102 session: the account needs an administrator. */
const AUTH_CODES = new Set([102, 190]);
const TEMPORARY_CODES = new Set([1, 2]);
/** Code 10 with this subcode: a Messenger message outside the 24-hour window (§4). */
export const OUTSIDE_WINDOW_SUBCODE = 2018278;
const DEFAULT_WAIT_S = 60;

/** Maps a Graph error (or a bare HTTP failure) to what the outbox worker does with it. */
export function graphFailure(
  network: string,
  status: number,
  body: GraphErrorBody | undefined,
  retryAfter?: string | null,
): ConnectorError {
  const headerWait = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
  const error = body?.error;
  if (!error) {
    const text = `${network} API answered HTTP ${status}`;
    if (status === 429)
      return new ConnectorError('rate_limited', text, { retryAfterSeconds: headerWait ?? DEFAULT_WAIT_S });
    if (status === 401) return new ConnectorError('auth', text, { reason: { key: 'failure.auth' } });
    return new ConnectorError(status >= 500 ? 'temporary' : 'permanent', text);
  }
  const message = [error.message ?? `Graph error ${error.code ?? status}`, error.error_data?.details]
    .filter(Boolean)
    .join(' — ');
  const code = error.code ?? -1;
  if (RATE_LIMIT_CODES.has(code) || status === 429) {
    return new ConnectorError('rate_limited', message, { retryAfterSeconds: headerWait ?? DEFAULT_WAIT_S });
  }
  if (AUTH_CODES.has(code) || status === 401) {
    return new ConnectorError('auth', message, { reason: { key: 'failure.auth', detail: message } });
  }
  if (code === 10 && error.error_subcode === OUTSIDE_WINDOW_SUBCODE) {
    return new ConnectorError('permanent', message, {
      reason: { key: 'failure.messagingWindow', params: { network }, detail: message },
    });
  }
  if (TEMPORARY_CODES.has(code) || status >= 500) return new ConnectorError('temporary', message);
  return new ConnectorError('permanent', message);
}

export interface GraphAuth {
  /** `{graph url}/{version}` */
  base: string;
  fetch: typeof fetch;
  accessToken: string;
  network: string;
}

/** One Graph call with the token as a Bearer header (kept out of addresses and logs); JSON in and out. */
export async function graphCall<T>(
  auth: GraphAuth,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  opts: { query?: Record<string, string>; body?: Record<string, unknown> } = {},
): Promise<T> {
  const url = new URL(`${auth.base}/${path.replace(/^\/+/, '')}`);
  for (const [key, value] of Object.entries(opts.query ?? {})) url.searchParams.set(key, value);
  let response: Response;
  try {
    response = await auth.fetch(url, {
      method,
      headers: {
        ...(auth.accessToken ? { authorization: `Bearer ${auth.accessToken}` } : {}),
        ...(opts.body ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.body ? JSON.stringify(opts.body) : undefined,
    });
  } catch (error) {
    const detail = (error as Error).message;
    throw new ConnectorError('temporary', `${auth.network} API unreachable: ${detail}`, {
      reason: { key: 'failure.unreachable', params: { network: auth.network }, detail },
    });
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const envelope = parsed as GraphErrorBody | undefined;
  if (!response.ok || envelope?.error) {
    throw graphFailure(auth.network, response.status, envelope, response.headers.get('retry-after'));
  }
  if (parsed === undefined) {
    throw new ConnectorError('temporary', `${auth.network} API answered something that is not JSON`, {
      reason: { key: 'failure.badAnswer', params: { network: auth.network } },
    });
  }
  return parsed as T;
}
