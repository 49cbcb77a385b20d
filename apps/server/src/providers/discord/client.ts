import type { Config } from '../../lib/config';
import { badAnswer } from '../http';
import { ConnectorError } from '../types';

// Discord REST (PROVIDERS.md §7c): `{base}/api/v10/...`, `Authorization: Bot <token>`. Rate limits are
// per route bucket: each answer says how many calls are left (`X-RateLimit-Remaining`) and when the
// bucket refills (`X-RateLimit-Reset-After`, seconds); a 429 says `retry_after` (a float, seconds). A
// bucket we know is empty is not called until it refills: the outbox waits instead.

export const NETWORK = 'Discord';
const DEFAULT_RETRY_AFTER_S = 5;

export interface DiscordAuth {
  config: Config;
  fetch: typeof fetch;
  now: () => Date;
  token: string;
}

/** Empty buckets, by token and route: when they refill (ms since epoch). */
const emptyUntil = new Map<string, number>();

const baseOf = (config: Config) => `${config.DISCORD_API_URL.replace(/\/+$/, '')}/api/v10`;

/** The route a bucket is kept for: ids of the top-level resource stay, the rest become placeholders. */
export function routeKey(method: string, path: string): string {
  return `${method} ${path.replace(/\/messages\/\d+/g, '/messages/:id').replace(/\/reactions\/.*/, '/reactions')}`;
}

function errorText(body: unknown, status: number): string {
  const b = body as { message?: unknown; code?: unknown } | undefined;
  return typeof b?.message === 'string' && b.message ? b.message : `Discord API answered HTTP ${status}`;
}

export async function discordCall<T>(
  a: DiscordAuth,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
  path: string,
  body?: Record<string, unknown>,
): Promise<T> {
  const bucket = `${a.token.slice(-12)} ${routeKey(method, path)}`;
  const now = a.now().getTime();
  const until = emptyUntil.get(bucket);
  if (until && until > now) {
    throw new ConnectorError('rate_limited', 'Discord: the route bucket is empty', {
      retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)),
      reason: { key: 'failure.rateLimited' },
    });
  }
  let response: Response;
  try {
    response = await a.fetch(`${baseOf(a.config)}${path}`, {
      method,
      headers: {
        authorization: `Bot ${a.token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new ConnectorError('temporary', `Discord API unreachable: ${detail}`, {
      reason: { key: 'failure.unreachable', params: { network: NETWORK }, detail },
    });
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const remaining = Number(response.headers.get('x-ratelimit-remaining'));
  const resetAfter = Number(response.headers.get('x-ratelimit-reset-after'));
  if (response.headers.has('x-ratelimit-remaining') && remaining === 0 && resetAfter > 0)
    emptyUntil.set(bucket, now + resetAfter * 1000);
  else emptyUntil.delete(bucket);
  if (response.status === 429) {
    const retry = Number((parsed as { retry_after?: unknown } | undefined)?.retry_after);
    const seconds = Number.isFinite(retry) && retry > 0 ? Math.ceil(retry) : DEFAULT_RETRY_AFTER_S;
    emptyUntil.set(bucket, now + seconds * 1000);
    throw new ConnectorError('rate_limited', errorText(parsed, 429), { retryAfterSeconds: seconds });
  }
  if (response.status === 401) throw new ConnectorError('auth', errorText(parsed, 401));
  if (response.status >= 500) throw new ConnectorError('temporary', errorText(parsed, response.status));
  if (!response.ok) throw new ConnectorError('permanent', errorText(parsed, response.status));
  return (parsed ?? {}) as T;
}

export interface DiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  avatar?: string | null;
  bot?: boolean;
}

export interface DiscordMessage {
  id: string;
  channel_id: string;
  guild_id?: string;
  author: DiscordUser;
  content: string;
  timestamp: string;
  attachments?: Array<{ url: string; filename?: string; content_type?: string; size?: number }>;
  message_reference?: { message_id?: string };
}

export const getMe = (a: DiscordAuth) => discordCall<DiscordUser>(a, 'GET', '/users/@me');

export async function createMessage(a: DiscordAuth, channelId: string, content: string, replyTo?: string) {
  const sent = await discordCall<Partial<DiscordMessage>>(a, 'POST', `/channels/${channelId}/messages`, {
    content,
    ...(replyTo ? { message_reference: { message_id: replyTo, fail_if_not_exists: false } } : {}),
    allowed_mentions: { parse: [] },
  });
  // Discord answers with the message it created: without its id the answer is not Discord's.
  if (!sent.id) throw badAnswer(NETWORK, 'a created message without its id');
  return sent as DiscordMessage;
}
