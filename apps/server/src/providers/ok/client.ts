import type { Config } from '../../lib/config';
import { ConnectorError } from '../types';

// OK (Odnoklassniki) Bot API for groups (PROVIDERS.md §7d): `{base}/graph/me/...` with the group's key in
// `?access_token=`, JSON bodies with `Content-Type: application/json;charset=utf-8`. Errors come in the
// classic OK shape `{error_code, error_msg, error_data}` (UNCONFIRMED for the graph endpoints), often with
// HTTP 200. Codes read here as OK's REST API lists them: 8 FLOOD_BLOCKED (too many calls), 102
// PARAM_SESSION_EXPIRED and 103 PARAM_SESSION_KEY (the key was regenerated or revoked), 10
// PERMISSION_DENIED (the key lost its rights). HTTP 429 is read as throttling too.

export const NETWORK = 'OK';
const RATE_LIMITED_CODES = new Set([8]);
const AUTH_CODES = new Set([10, 102, 103]);
const DEFAULT_RETRY_AFTER_S = 60;

export interface OkError {
  error_code?: number;
  error_msg?: string;
  error_data?: unknown;
}

export interface OkAuth {
  config: Config;
  fetch: typeof fetch;
  token: string;
}

const baseOf = (config: Config) => `${config.OK_API_URL.replace(/\/+$/, '')}/graph`;

function unreachable(error: unknown): ConnectorError {
  const detail = error instanceof Error ? error.message : String(error);
  return new ConnectorError('temporary', `OK API unreachable: ${detail}`, {
    reason: { key: 'failure.unreachable', params: { network: NETWORK }, detail },
  });
}

/** The failure of a call by its HTTP status and body; null when it succeeded. */
export function okFailure(response: Response, body: OkError | undefined): ConnectorError | null {
  const code = body?.error_code;
  const text = body?.error_msg || `OK API answered HTTP ${response.status}`;
  if (response.status === 429 || (code !== undefined && RATE_LIMITED_CODES.has(code))) {
    const wait = Number(response.headers.get('retry-after'));
    return new ConnectorError('rate_limited', text, {
      retryAfterSeconds: Number.isFinite(wait) && wait > 0 ? wait : DEFAULT_RETRY_AFTER_S,
    });
  }
  if (response.status === 401 || response.status === 403 || (code !== undefined && AUTH_CODES.has(code)))
    return new ConnectorError('auth', text, {
      reason: { key: 'failure.auth', detail: text },
    });
  if (response.status >= 500) return new ConnectorError('temporary', text);
  if (!response.ok || code !== undefined) return new ConnectorError('permanent', text);
  return null;
}

/** One Bot API call as the group; the parsed answer or a ConnectorError. */
export async function graphCall<T>(
  a: OkAuth,
  path: string,
  opts: { method?: 'GET' | 'POST'; body?: Record<string, unknown> } = {},
): Promise<T> {
  const url = new URL(`${baseOf(a.config)}${path}`);
  url.searchParams.set('access_token', a.token);
  const method = opts.method ?? (opts.body ? 'POST' : 'GET');
  let response: Response;
  try {
    response = await a.fetch(url, {
      method,
      headers: opts.body ? { 'content-type': 'application/json;charset=utf-8' } : {},
      body: opts.body ? JSON.stringify(opts.body) : undefined,
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
  const failure = okFailure(response, body as OkError | undefined);
  if (failure) throw failure;
  return (body ?? {}) as T;
}

/** `GET /graph/me/info`: who the key belongs to (the group). Field names UNCONFIRMED beyond id and name. */
export interface OkGroupInfo {
  user_id?: string;
  group_id?: string;
  name?: string;
  avatar_url?: string;
  url?: string;
}

export const getInfo = (a: OkAuth) => graphCall<OkGroupInfo>(a, '/me/info');

export const subscribe = (a: OkAuth, url: string) =>
  graphCall<{ success?: boolean }>(a, '/me/subscribe', { body: { url } });

export const unsubscribe = (a: OkAuth, url: string) =>
  graphCall<{ success?: boolean }>(a, '/me/unsubscribe', { body: { url } });

export interface OkSent {
  success?: boolean;
  message_id?: string;
}

/** `POST /graph/me/messages/{chat_id}`: a message to one of the group's chats. */
export function sendToChat(a: OkAuth, chatId: string, message: Record<string, unknown>) {
  return graphCall<OkSent>(a, `/me/messages/${encodeURIComponent(chatId)}`, {
    body: { recipient: { chat_id: chatId }, message },
  });
}
