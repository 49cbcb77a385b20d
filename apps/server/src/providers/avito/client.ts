import { createHash } from 'node:crypto';
import type { Config } from '../../lib/config';
import { fetchJson } from '../http';
import { ConnectorError } from '../types';

// Avito API (PROVIDERS.md §7a): OAuth client-credentials tokens (`POST /token`, 24 h), then Bearer calls
// under `{base}/core/…` and `{base}/messenger/…`. The error envelope is UNCONFIRMED in PROVIDERS; the
// shapes seen in the wild (`{error:{code,message}}`, `{error,error_description}`, `{message}`) are read.

export interface AvitoAuth {
  config: Config;
  fetch: typeof fetch;
  now: () => Date;
  clientId: string;
  clientSecret: string;
  /** An account connected by OAuth: tokens come from this refresh token with the app's keys. */
  refreshToken?: string;
}

interface CachedToken {
  token: string;
  expiresAt: number;
}

/**
 * Tokens live 24 h; each process keeps the ones it got (keyed by API, client and a digest of the secret,
 * so a rotated secret starts afresh) and asks again on expiry or on a 401/403.
 */
const tokens = new Map<string, CachedToken>();
const EXPIRY_MARGIN_MS = 60_000;
/** When Avito asks to slow down without saying how long. */
const DEFAULT_RETRY_AFTER_S = 60;

const digest = (value: string) => createHash('sha256').update(value).digest('hex');
const cacheKey = (a: AvitoAuth) =>
  `${a.config.AVITO_API_URL}\n${a.clientId}\n${digest(a.clientSecret)}\n${a.refreshToken ? digest(a.refreshToken) : ''}`;
const baseOf = (a: AvitoAuth) => a.config.AVITO_API_URL.replace(/\/+$/, '');

function errorText(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const nested =
      b.error && typeof b.error === 'object' ? (b.error as Record<string, unknown>).message : undefined;
    const text = nested ?? b.error_description ?? b.message ?? b.error;
    if (typeof text === 'string' && text) return text;
  }
  return `Avito API answered HTTP ${status}`;
}

const request = (a: AvitoAuth, path: string, init: RequestInit) =>
  fetchJson(a.fetch, `${baseOf(a)}${path}`, init, 'Avito', 'Avito API');

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

export interface AvitoGrant {
  access_token?: string;
  expires_in?: number;
  refresh_token?: string;
}

/** `POST /token` (form-encoded) with one of the grants of PROVIDERS §7a. */
export function tokenRequest(a: AvitoAuth, grant: Record<string, string>) {
  return request(a, '/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...grant, client_id: a.clientId, client_secret: a.clientSecret }).toString(),
  });
}

/**
 * A new access token: the client-credentials grant, or for an OAuth account the refresh_token grant.
 * A refusal means the keys (or the account's consent) are wrong or revoked.
 */
async function fetchToken(a: AvitoAuth): Promise<CachedToken> {
  const { response, body } = await tokenRequest(
    a,
    a.refreshToken
      ? { grant_type: 'refresh_token', refresh_token: a.refreshToken }
      : { grant_type: 'client_credentials' },
  );
  const granted = body as AvitoGrant | undefined;
  if (response.status === 429 || response.status >= 500) throw failure(response, body);
  if (!response.ok || !granted?.access_token)
    throw new ConnectorError('auth', errorText(body, response.status));
  const cached = {
    token: granted.access_token,
    expiresAt: a.now().getTime() + (granted.expires_in ?? 86_400) * 1000 - EXPIRY_MARGIN_MS,
  };
  tokens.set(cacheKey(a), cached);
  return cached;
}

async function accessToken(a: AvitoAuth, fresh: boolean): Promise<string> {
  const cached = tokens.get(cacheKey(a));
  if (!fresh && cached && cached.expiresAt > a.now().getTime()) return cached.token;
  return (await fetchToken(a)).token;
}

/** A Bearer call; a 401/403 gets one new token and one more try before it counts as revoked. */
export async function avitoCall<T>(
  a: AvitoAuth,
  method: 'GET' | 'POST',
  path: string,
  body?: Record<string, unknown>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const token = await accessToken(a, attempt > 0);
    const { response, body: answer } = await request(a, path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if ((response.status === 401 || response.status === 403) && attempt === 0) {
      tokens.delete(cacheKey(a));
      continue;
    }
    if (!response.ok) throw failure(response, answer);
    return answer as T;
  }
}

export interface AvitoSelf {
  id: number;
  name?: string;
  email?: string;
  profile_url?: string;
}

/** Message and chat shapes of the Messenger API (field lists UNCONFIRMED beyond PROVIDERS §7a). */
export interface AvitoMessage {
  id: string;
  author_id: number;
  created: number;
  type: string;
  direction?: 'in' | 'out';
  content?: {
    text?: string;
    image?: { sizes?: Record<string, string> };
    link?: { url?: string; text?: string };
    item?: { title?: string; item_url?: string };
    voice?: { voice_id?: string };
  };
}

export interface AvitoChat {
  id: string;
  created?: number;
  updated?: number;
  users?: Array<{ id: number; name?: string; public_user_profile?: { avatar?: { default?: string } } }>;
  last_message?: AvitoMessage;
}

const account = (userId: string) => `/messenger/v1/accounts/${encodeURIComponent(userId)}`;

export const getSelf = (a: AvitoAuth) => avitoCall<AvitoSelf>(a, 'GET', '/core/v1/accounts/self');
export const subscribeWebhook = (a: AvitoAuth, url: string) =>
  avitoCall(a, 'POST', '/messenger/v3/webhook', { url });
export const unsubscribeWebhook = (a: AvitoAuth, url: string) =>
  avitoCall(a, 'POST', '/messenger/v1/webhook/unsubscribe', { url });

export const sendText = (a: AvitoAuth, userId: string, chatId: string, text: string) =>
  avitoCall<AvitoMessage>(a, 'POST', `${account(userId)}/chats/${encodeURIComponent(chatId)}/messages`, {
    message: { text },
    type: 'text',
  });

/** Only our own messages of the last hour can be deleted (PROVIDERS §7a). */
export const deleteMessage = (a: AvitoAuth, userId: string, chatId: string, messageId: string) =>
  avitoCall(
    a,
    'POST',
    `${account(userId)}/chats/${encodeURIComponent(chatId)}/messages/${encodeURIComponent(messageId)}`,
    {},
  );

export const listChats = (a: AvitoAuth, userId: string, limit: number) =>
  avitoCall<{ chats?: AvitoChat[] }>(
    a,
    'GET',
    `/messenger/v2/accounts/${encodeURIComponent(userId)}/chats?chat_types=u2i,u2u&limit=${limit}&offset=0`,
  );

export const getChat = (a: AvitoAuth, userId: string, chatId: string) =>
  avitoCall<AvitoChat>(
    a,
    'GET',
    `/messenger/v2/accounts/${encodeURIComponent(userId)}/chats/${encodeURIComponent(chatId)}`,
  );

export async function listMessages(a: AvitoAuth, userId: string, chatId: string, limit: number) {
  const answer = await avitoCall<AvitoMessage[] | { messages?: AvitoMessage[] }>(
    a,
    'GET',
    `/messenger/v3/accounts/${encodeURIComponent(userId)}/chats/${encodeURIComponent(chatId)}/messages/?limit=${limit}&offset=0`,
  );
  return Array.isArray(answer) ? answer : (answer?.messages ?? []);
}

/**
 * Download links of voice messages: `GET /messenger/v1/accounts/{user_id}/getVoiceFiles?voice_ids=…`
 * answers `{voices_urls: {<voice_id>: <url>}}` (the path and shape are UNCONFIRMED: not in PROVIDERS §7a;
 * taken from the Messenger API's public method list).
 */
export const getVoiceFiles = (a: AvitoAuth, userId: string, voiceIds: string[]) =>
  avitoCall<{ voices_urls?: Record<string, string> }>(
    a,
    'GET',
    `${account(userId)}/getVoiceFiles?voice_ids=${voiceIds.map(encodeURIComponent).join(',')}`,
  );

export { errorText as avitoErrorText, failure as avitoFailure };
