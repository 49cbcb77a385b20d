import { createHash, randomInt } from 'node:crypto';
import { translate } from '@otklik/shared';
import type { Config } from '../../lib/config';
import { ConnectorError } from '../types';

// VK API over HTTP (PROVIDERS.md §2 "Transport and auth"): POST {VK_API_URL}/method/{name}, form-encoded
// (VK takes no JSON bodies), every call with `v` and `access_token`. Success and failure both come back as
// HTTP 200: `{response}` or `{error: {error_code, error_msg}}`.

export interface VkTransport {
  config: Config;
  fetch: typeof fetch;
}

export type VkParams = Record<string, string | number | boolean | null | undefined>;

export interface VkApiError {
  error_code: number;
  error_msg: string;
}

/** PROVIDERS §2 error table: 6 (per second), 9 (flood control), 29 (method quota) ask us to wait. */
const WAIT_SECONDS: Record<number, number> = { 6: 1, 9: 60, 29: 3_600 };
/** 1 (unknown) and 10 (internal) are VK's own trouble: try again later. */
const TEMPORARY_CODES = new Set([1, 10]);

/**
 * A VK error as the outbox and the poller understand it: 5 is a revoked or wrong token (the account
 * needs reconnecting); 27 (group token can't call this) and 15/7 (access denied) are refusals that a
 * retry cannot fix, shown with VK's own text.
 */
export function toConnectorError(error: VkApiError): ConnectorError {
  const text = error.error_msg;
  const wait = WAIT_SECONDS[error.error_code];
  if (wait !== undefined) return new ConnectorError('rate_limited', text, { retryAfterSeconds: wait });
  if (error.error_code === 5) return new ConnectorError('auth', text);
  if (TEMPORARY_CODES.has(error.error_code)) return new ConnectorError('temporary', text);
  return new ConnectorError('permanent', text);
}

function isApiError(value: unknown): value is VkApiError {
  if (!value || typeof value !== 'object') return false;
  const error = value as Record<string, unknown>;
  return typeof error.error_code === 'number' && typeof error.error_msg === 'string';
}

function formBody(params: VkParams): URLSearchParams {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    body.set(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  return body;
}

/** Calls one VK method; resolves with `response`, rejects with a ConnectorError. */
export async function callVk<T>(
  transport: VkTransport,
  token: string,
  method: string,
  params: VkParams = {},
  opts: { signal?: AbortSignal } = {},
): Promise<T> {
  const url = `${transport.config.VK_API_URL.replace(/\/$/, '')}/method/${method}`;
  const body = formBody({ ...params, access_token: token, v: transport.config.VK_API_VERSION });
  let res: Response;
  try {
    res = await transport.fetch(url, { method: 'POST', body, signal: opts.signal });
  } catch (error) {
    throw new ConnectorError('temporary', `VK API unreachable: ${(error as Error).message}`, {
      reason: { key: 'failure.unreachable', params: { network: 'VK' }, detail: (error as Error).message },
    });
  }
  if (!res.ok)
    throw new ConnectorError('temporary', `VK API answered HTTP ${res.status}`, {
      reason: { key: 'failure.badAnswer', params: { network: 'VK' }, detail: `HTTP ${res.status}` },
    });
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    throw new ConnectorError('temporary', 'VK API answered with something that is not JSON', {
      reason: { key: 'failure.badAnswer', params: { network: 'VK' } },
    });
  }
  const envelope = (json ?? {}) as { response?: unknown; error?: unknown };
  if (envelope.error !== undefined) {
    if (isApiError(envelope.error)) throw toConnectorError(envelope.error);
    throw new ConnectorError('permanent', `VK API error: ${JSON.stringify(envelope.error)}`, {
      reason: { key: 'failure.permanent', detail: JSON.stringify(envelope.error) },
    });
  }
  if (!('response' in envelope))
    throw new ConnectorError('temporary', 'VK API answered without a response', {
      reason: { key: 'failure.badAnswer', params: { network: 'VK' } },
    });
  return envelope.response as T;
}

/** A VK client bound to one token. */
export function vkApi(transport: VkTransport, token: string) {
  return <T>(method: string, params: VkParams = {}, opts: { signal?: AbortSignal } = {}) =>
    callVk<T>(transport, token, method, params, opts);
}
export type VkApi = ReturnType<typeof vkApi>;

/** The community token every account has (connect checked it); a missing one means reconnecting. */
export function communityToken(credentials: Record<string, string>): string {
  const token = credentials.access_token;
  if (!token)
    throw new ConnectorError('auth', 'VK: community access token is missing, reconnect the account', {
      reason: { key: 'failure.reconnect', params: { network: 'VK' } },
    });
  return token;
}

/**
 * PROVIDERS §2: wall.deleteComment / restoreComment / editComment and likes.* take a community admin's
 * USER token only (photos/video comment methods and groups.ban too, per the VK schema). Without one we
 * refuse before calling VK, with a text that says what to do.
 */
export function userToken(credentials: Record<string, string>): string {
  const token = credentials.user_token;
  if (!token)
    throw new ConnectorError('permanent', translate('en', 'account.userTokenRequired'), {
      reason: { key: 'account.userTokenRequired' },
    });
  return token;
}

export function groupIdOf(credentials: Record<string, string>, externalId: string | null): number {
  const id = Number(credentials.group_id ?? externalId);
  if (!Number.isInteger(id) || id <= 0)
    throw new ConnectorError('auth', 'VK: community id is missing', {
      reason: { key: 'failure.reconnect', params: { network: 'VK' } },
    });
  return id;
}

/**
 * `random_id` (messages.send) must be reused on retries so VK drops a repeat (PROVIDERS §2, §8.4): an
 * int32 derived from a stable key when the caller gives one, otherwise random.
 */
export function randomIdFor(key: string | undefined): number {
  if (!key) return randomInt(1, 2 ** 31 - 1);
  const n = createHash('sha256').update(`vk:random_id:${key}`).digest().readUInt32BE(0) & 0x7fffffff;
  return n === 0 ? 1 : n;
}

/** `guid` (wall.createComment) plays the same role for comments. */
export function guidFor(key: string | undefined): string {
  if (!key)
    return createHash('sha256')
      .update(String(randomInt(0, 2 ** 47)))
      .digest('hex')
      .slice(0, 32);
  return createHash('sha256').update(`vk:guid:${key}`).digest('hex').slice(0, 32);
}

/**
 * The Callback API `secret_key` we configure: derived from the account's webhook secret, because VK takes
 * only latin letters and digits there (up to 50; UNCONFIRMED in PROVIDERS §2) and our secrets are base64url.
 */
export function callbackSecret(webhookSecret: string): string {
  return createHash('sha256').update(`vk:callback:${webhookSecret}`).digest('hex').slice(0, 40);
}
