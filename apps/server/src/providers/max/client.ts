import type { Config } from '../../lib/config';
import { requestTimeout } from '../http';
import { ConnectorError } from '../types';
import type { MaxChatType, MaxMessage, MaxUpdate, MaxUser } from './types';

// The MAX Bot API over HTTP (PROVIDERS §7e): `{MAX_API_URL}/…`, the raw token in the `Authorization`
// header (query-string tokens are no longer accepted), JSON bodies, errors as
// `{"code":"verify.token","message":"Invalid access_token"}` with a matching HTTP status.

export interface MaxTransport {
  config: Pick<Config, 'MAX_API_URL' | 'NETWORK_TIMEOUT_MS'>;
  fetch: typeof fetch;
}

interface ErrorBody {
  code?: string;
  message?: string;
  success?: boolean;
}

export function maxError(
  status: number,
  body: ErrorBody | undefined,
  retryAfter: string | null,
): ConnectorError {
  const text = body?.message ?? body?.code ?? `MAX answered HTTP ${status}`;
  if (status === 429) {
    // 30 requests per second (PROVIDERS §7e); the 429 body and any Retry-After are UNCONFIRMED.
    const seconds = Number(retryAfter);
    return new ConnectorError('rate_limited', text, { retryAfterSeconds: seconds > 0 ? seconds : 1 });
  }
  if (status === 401 || body?.code === 'verify.token') return new ConnectorError('auth', text);
  // PROVIDERS §7e: the send path is retried on attachment.not.ready.
  if (body?.code === 'attachment.not.ready') return new ConnectorError('temporary', text, {});
  if (status >= 500 || status === 0) return new ConnectorError('temporary', text);
  return new ConnectorError('permanent', text);
}

async function request<T>(
  transport: MaxTransport,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  opts: {
    query?: Record<string, string | number | undefined>;
    body?: unknown;
    signal?: AbortSignal;
    holdMs?: number;
  } = {},
): Promise<T> {
  if (!token)
    throw new ConnectorError('auth', 'Invalid access_token', {
      reason: { key: 'failure.reconnect', params: { network: 'MAX' } },
    });
  const url = new URL(`${transport.config.MAX_API_URL.replace(/\/$/, '')}${path}`);
  for (const [key, value] of Object.entries(opts.query ?? {}))
    if (value !== undefined) url.searchParams.set(key, String(value));
  let res: Response;
  try {
    res = await transport.fetch(url, {
      method,
      headers: {
        authorization: token,
        ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: requestTimeout(transport.config, opts.holdMs, opts.signal),
    });
  } catch (error) {
    throw new ConnectorError(
      'temporary',
      `MAX is unreachable: ${error instanceof Error ? error.message : String(error)}`,
      {
        reason: {
          key: 'failure.unreachable',
          params: { network: 'MAX' },
          detail: error instanceof Error ? error.message : String(error),
        },
      },
    );
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  if (!res.ok) throw maxError(res.status, body as ErrorBody | undefined, res.headers.get('retry-after'));
  // Edit and delete answer 200 {"success":false,"message":"…"} when they refuse (PROVIDERS §7e).
  const result = body as ErrorBody | undefined;
  if (result?.success === false)
    throw new ConnectorError('permanent', result.message ?? 'MAX refused the call');
  return body as T;
}

export interface MaxSendBody {
  text: string;
  attachments?: Array<{ type: string; payload: Record<string, unknown> }>;
  link?: { type: 'reply'; mid: string };
  notify?: boolean;
}

export function maxApi(transport: MaxTransport, token: string) {
  return {
    me: () => request<MaxUser>(transport, token, 'GET', '/me'),
    subscribe: (body: { url: string; update_types: string[]; secret: string }) =>
      request<{ success: boolean }>(transport, token, 'POST', '/subscriptions', { body }),
    subscriptions: () =>
      request<{ subscriptions: Array<{ url: string }> }>(transport, token, 'GET', '/subscriptions'),
    unsubscribe: (url: string) =>
      request<{ success: boolean }>(transport, token, 'DELETE', '/subscriptions', { query: { url } }),
    updates: (
      query: { marker?: string; timeout: number; limit: number; types: string },
      signal?: AbortSignal,
    ) =>
      request<{ updates: MaxUpdate[]; marker: number | null }>(transport, token, 'GET', '/updates', {
        query,
        signal,
        holdMs: query.timeout * 1000,
      }),
    /** The chats the bot is in (GET /chats; the official TS client's getAllChats). */
    chats: (count: number) =>
      request<{ chats: Array<{ chat_id: number; type: MaxChatType }>; marker: number | null }>(
        transport,
        token,
        'GET',
        '/chats',
        { query: { count } },
      ),
    /** A chat's newest messages, newest first (PROVIDERS §7e "History": GET /messages?chat_id=&count=). */
    history: (chatId: number, count: number) =>
      request<{ messages: MaxMessage[] }>(transport, token, 'GET', '/messages', {
        query: { chat_id: chatId, count },
      }),
    send: (to: { chat_id: string } | { user_id: string }, body: MaxSendBody) =>
      request<{ message: MaxMessage }>(transport, token, 'POST', '/messages', { query: to, body }),
    edit: (mid: string, body: MaxSendBody) =>
      request<{ success: boolean }>(transport, token, 'PUT', '/messages', {
        query: { message_id: mid },
        body,
      }),
    remove: (mid: string) =>
      request<{ success: boolean }>(transport, token, 'DELETE', '/messages', { query: { message_id: mid } }),
  };
}

export type MaxApi = ReturnType<typeof maxApi>;
