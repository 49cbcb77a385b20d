import { randomUUID } from 'node:crypto';
import type { Config } from '../../lib/config';
import { ConnectorError } from '../types';

// Jivo Bot API (jivochat.com/docs/bot; PROVIDERS.md has no Jivo section, so these are read from Jivo's
// public docs and marked where unconfirmed): every event is a JSON POST. The bot provider answers a
// client by POSTing a `BOT_MESSAGE` to Jivo's endpoint `{base}/webhooks/{provider_id}/{token}`
// (provider_id issued by Jivo, the token chosen by the provider). Answer codes per Jivo's table: 200 OK,
// 400 bad format, 401/403 authorisation, 404 wrong endpoint, 429 too many requests, 5xx Jivo's side.

export interface JivoAuth {
  config: Config;
  fetch: typeof fetch;
  providerId: string;
  token: string;
}

/** Jivo gives no retry hint that we know of (UNCONFIRMED): half a minute unless Retry-After says. */
const RATE_LIMIT_WAIT_S = 30;
const NETWORK = 'Jivo';

export const jivoEndpoint = (auth: Pick<JivoAuth, 'config' | 'providerId' | 'token'>) =>
  `${auth.config.JIVO_API_URL.replace(/\/+$/, '')}/webhooks/${encodeURIComponent(auth.providerId)}/${encodeURIComponent(auth.token)}`;

export interface BotMessage {
  clientId: string;
  chatId: string;
  text: string;
  /** Our id of this event; the same for every attempt of one send (the outbox row). */
  id?: string;
  now: Date;
}

/** Sends a BOT_MESSAGE into the client's chat; returns the event id we gave it (Jivo returns none). */
export async function sendBotMessage(auth: JivoAuth, message: BotMessage): Promise<string> {
  const id = message.id ?? randomUUID();
  let response: Response;
  try {
    response = await auth.fetch(jivoEndpoint(auth), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        event: 'BOT_MESSAGE',
        id,
        client_id: message.clientId,
        chat_id: message.chatId,
        message: { type: 'TEXT', text: message.text, timestamp: Math.floor(message.now.getTime() / 1000) },
      }),
    });
  } catch (error) {
    throw new ConnectorError('temporary', `Jivo unreachable: ${(error as Error).message}`, {
      reason: { key: 'failure.unreachable', params: { network: NETWORK }, detail: (error as Error).message },
    });
  }
  if (response.ok) return id;
  const text = (await response.text().catch(() => '')).slice(0, 300);
  throw jivoError(response.status, text, response.headers.get('retry-after'));
}

export function jivoError(status: number, text: string, retryAfter: string | null): ConnectorError {
  const detail = text || `HTTP ${status}`;
  if (status === 429) {
    const seconds = Number(retryAfter);
    return new ConnectorError('rate_limited', `Jivo: too many requests (${detail})`, {
      reason: { key: 'failure.rateLimited' },
      retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : RATE_LIMIT_WAIT_S,
    });
  }
  // 401/403: the token is refused; 404: no such provider/token endpoint — the account needs its owner.
  if (status === 401 || status === 403 || status === 404)
    return new ConnectorError('auth', `Jivo refused the bot token (HTTP ${status})`, {
      reason: { key: 'failure.auth', detail },
    });
  if (status >= 500)
    return new ConnectorError('temporary', `Jivo answered HTTP ${status}`, {
      reason: { key: 'failure.badAnswer', params: { network: NETWORK }, detail },
    });
  return new ConnectorError('permanent', detail, {
    reason: { key: 'failure.badAnswer', params: { network: NETWORK }, detail },
  });
}
