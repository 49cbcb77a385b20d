import type { Config } from '../../lib/config';
import { badAnswer } from '../http';
import { ConnectorError } from '../types';

// Viber REST Bot API (PROVIDERS.md §7b): every call is a JSON POST to `{base}/pa/{method}` with
// `X-Viber-Auth-Token`; failures come as HTTP 200 with a non-zero `status` and a `status_message`.

export interface ViberAuth {
  config: Config;
  fetch: typeof fetch;
  authToken: string;
}

export interface ViberReply {
  status: number;
  status_message?: string;
  [key: string]: unknown;
}

export interface AccountInfo extends ViberReply {
  id?: string;
  name?: string;
  uri?: string;
  icon?: string;
}

/**
 * `message_token` is a 64-bit integer (e.g. 5741311803571721087) that a JS number would round, so two
 * tokens could collide. Integers of 16+ digits outside strings are quoted before JSON.parse.
 */
export function parseViberJson(raw: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += raw[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === '-' || (c >= '0' && c <= '9')) {
      const match = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(raw.slice(i))![0];
      out += /^-?\d{16,}$/.test(match) ? `"${match}"` : match;
      i += match.length - 1;
      continue;
    }
    out += c;
  }
  return JSON.parse(out);
}

/** PROVIDERS §7b status table (UNCONFIRMED names). The account itself is unusable: an administrator acts. */
const AUTH_STATUSES = new Set([2, 7, 8, 9]);
const TOO_MANY_REQUESTS = 12;
/** Viber gives no retry hint; half a minute keeps a burst from hammering it. */
const RATE_LIMIT_WAIT_S = 30;

export function viberError(status: number, message: string | undefined): ConnectorError {
  const text = message || `Viber status ${status}`;
  if (status === TOO_MANY_REQUESTS)
    return new ConnectorError('rate_limited', text, { retryAfterSeconds: RATE_LIMIT_WAIT_S });
  if (AUTH_STATUSES.has(status)) return new ConnectorError('auth', text);
  // 5/6 (receiver not registered / not subscribed), 3/4 (bad or missing data), ...: shown on the reply.
  return new ConnectorError('permanent', text);
}

export async function viberCall<T extends ViberReply>(
  auth: ViberAuth,
  method: string,
  body: Record<string, unknown>,
): Promise<T> {
  let response: Response;
  try {
    response = await auth.fetch(`${auth.config.VIBER_API_URL.replace(/\/+$/, '')}/pa/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-viber-auth-token': auth.authToken },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new ConnectorError('temporary', `Viber API unreachable: ${(error as Error).message}`, {
      reason: { key: 'failure.unreachable', params: { network: 'Viber' }, detail: (error as Error).message },
    });
  }
  const text = await response.text();
  if (response.status === 429)
    throw new ConnectorError('rate_limited', 'Viber: too many requests', {
      reason: { key: 'failure.rateLimited' },
      retryAfterSeconds: RATE_LIMIT_WAIT_S,
    });
  if (!response.ok) {
    throw new ConnectorError(
      response.status >= 500 ? 'temporary' : 'permanent',
      `Viber API answered HTTP ${response.status}`,
      {
        reason: { key: 'failure.badAnswer', params: { network: 'Viber' }, detail: `HTTP ${response.status}` },
      },
    );
  }
  let parsed: ViberReply;
  try {
    parsed = parseViberJson(text) as ViberReply;
  } catch {
    throw new ConnectorError('temporary', 'Viber API answered something that is not JSON', {
      reason: { key: 'failure.badAnswer', params: { network: 'Viber' } },
    });
  }
  // Every Viber answer carries a numeric `status` (0: done); one without it is not Viber's.
  if (typeof parsed?.status !== 'number') throw badAnswer('Viber', 'an answer without its status');
  if (parsed.status !== 0) throw viberError(Number(parsed.status), parsed.status_message);
  return parsed as T;
}

export const getAccountInfo = (auth: ViberAuth) => viberCall<AccountInfo>(auth, 'get_account_info', {});

/** Events we ask for; `message`, `subscribed` and `unsubscribed` always come (PROVIDERS §7b). */
export const EVENT_TYPES = [
  'delivered',
  'seen',
  'failed',
  'subscribed',
  'unsubscribed',
  'conversation_started',
];

/** Sets the webhook (Viber calls it at once and wants a 200); an empty `url` removes it. */
export function setWebhook(auth: ViberAuth, url: string) {
  return viberCall(
    auth,
    'set_webhook',
    url ? { url, event_types: EVENT_TYPES, send_name: true, send_photo: true } : { url: '' },
  );
}

export async function sendMessage(auth: ViberAuth, body: Record<string, unknown>): Promise<string | null> {
  const reply = await viberCall(auth, 'send_message', { min_api_version: 1, ...body });
  const token = reply.message_token;
  if (typeof token !== 'string' && typeof token !== 'number')
    throw badAnswer('Viber', 'a sent message without its message_token');
  return String(token);
}
