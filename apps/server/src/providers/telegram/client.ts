import type { Config } from '../../lib/config';
import { badAnswer, requestTimeout } from '../http';
import { ConnectorError } from '../types';
import type { TgInlineKeyboardMarkup, TgMessage, TgUpdate, TgUser } from './types';

// The Telegram Bot API over HTTP (PROVIDERS §1): `{TELEGRAM_API_URL}/bot{token}/{method}`, JSON
// parameters, and the `{ok, result}` / `{ok:false, error_code, description, parameters}` envelope.

export interface TelegramTransport {
  config: Pick<Config, 'TELEGRAM_API_URL' | 'NETWORK_TIMEOUT_MS'>;
  fetch: typeof fetch;
}

interface Envelope<T> {
  ok: boolean;
  result?: T;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** Calls the user starts with a bot: a per-recipient refusal, not a dead token (PROVIDERS §1 "Typical descriptions"). */
const RECIPIENT_REFUSALS =
  /blocked by the user|can't initiate conversation|user is deactivated|chat not found/i;

/** Maps Telegram's error envelope to what the outbox worker does with it. */
export function telegramError(status: number, envelope: Envelope<unknown> | undefined): ConnectorError {
  const code = envelope?.error_code ?? status;
  const text = envelope?.description ?? `Telegram answered HTTP ${status}`;
  if (code === 429) {
    // PROVIDERS §1 "Flood control": wait parameters.retry_after seconds; all calls of the bot are blocked.
    const retryAfter = envelope?.parameters?.retry_after ?? Number(/retry after (\d+)/i.exec(text)?.[1] ?? 5);
    return new ConnectorError('rate_limited', text, { retryAfterSeconds: retryAfter });
  }
  // 401 Unauthorized: the token was revoked or re-issued at @BotFather. 404 Not Found is what the Bot API
  // answers a token that does not exist at all. Either way the account needs a new token.
  if (code === 401 || code === 404) return new ConnectorError('auth', text);
  // 403 "bot was blocked by the user" / "can't initiate conversation": this recipient refuses the bot; the
  // bot itself still works, so the message fails with Telegram's text and the account stays healthy.
  if (code === 403 && RECIPIENT_REFUSALS.test(text)) return new ConnectorError('permanent', text);
  if (code >= 500 || code === 409 || code === 0) return new ConnectorError('temporary', text);
  return new ConnectorError('permanent', text);
}

/** One Bot API call; throws ConnectorError on any refusal or transport failure. */
export async function callTelegram<T>(
  transport: TelegramTransport,
  token: string,
  method: string,
  params: Record<string, unknown> = {},
  opts: { signal?: AbortSignal; holdMs?: number } = {},
): Promise<T> {
  if (!token)
    throw new ConnectorError('auth', 'Unauthorized: no bot token', {
      reason: { key: 'failure.reconnect', params: { network: 'Telegram' } },
    });
  const base = transport.config.TELEGRAM_API_URL.replace(/\/$/, '');
  let res: Response;
  try {
    res = await transport.fetch(`${base}/bot${token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params),
      signal: requestTimeout(transport.config, opts.holdMs, opts.signal),
    });
  } catch (error) {
    throw new ConnectorError(
      'temporary',
      `Telegram is unreachable: ${error instanceof Error ? error.message : String(error)}`,
      {
        reason: {
          key: 'failure.unreachable',
          params: { network: 'Telegram' },
          detail: error instanceof Error ? error.message : String(error),
        },
      },
    );
  }
  let envelope: Envelope<T> | undefined;
  try {
    envelope = (await res.json()) as Envelope<T>;
  } catch {
    envelope = undefined;
  }
  // Every Bot API answer is an envelope with `ok`; a 2xx without one did not come from Telegram.
  if (res.ok && typeof envelope?.ok !== 'boolean')
    throw badAnswer('Telegram', `HTTP ${res.status} without an envelope`);
  if (!res.ok || !envelope?.ok) throw telegramError(res.status, envelope);
  return envelope.result as T;
}

/** The typed subset of methods the connector uses (PROVIDERS §1 "Outbound methods", "Receiving updates"). */
export function telegramApi(transport: TelegramTransport, token: string) {
  const call = <T>(method: string, params?: Record<string, unknown>) =>
    callTelegram<T>(transport, token, method, params);
  return {
    getMe: () => call<TgUser>('getMe'),
    /** PROVIDERS §1: `file_path` for the download link (valid ≥ 1 hour; bots get files up to 20 MB). */
    getFile: (params: { file_id: string }) =>
      call<{ file_id: string; file_size?: number; file_path?: string }>('getFile', params),
    setWebhook: (params: { url: string; secret_token: string; allowed_updates: string[] }) =>
      call<true>('setWebhook', params),
    deleteWebhook: (params: { drop_pending_updates?: boolean } = {}) => call<true>('deleteWebhook', params),
    getUpdates: (
      params: { offset?: number; timeout: number; limit?: number; allowed_updates: string[] },
      signal?: AbortSignal,
    ) =>
      callTelegram<TgUpdate[]>(transport, token, 'getUpdates', params, {
        signal,
        // The network holds the request up to `timeout` seconds; the request timeout comes on top.
        holdMs: params.timeout * 1000,
      }),
    sendMessage: (params: {
      chat_id: number | string;
      text: string;
      reply_parameters?: { message_id: number; allow_sending_without_reply?: boolean };
      reply_markup?: TgInlineKeyboardMarkup;
    }) => call<TgMessage>('sendMessage', params),
    /** Stops the button's spinner on the customer's screen (PROVIDERS §1 callback queries). */
    answerCallbackQuery: (params: { callback_query_id: string; text?: string }) =>
      call<true>('answerCallbackQuery', params),
    sendPhoto: (params: Record<string, unknown>) => call<TgMessage>('sendPhoto', params),
    sendDocument: (params: Record<string, unknown>) => call<TgMessage>('sendDocument', params),
    sendMediaGroup: (params: Record<string, unknown>) => call<TgMessage[]>('sendMediaGroup', params),
    editMessageText: (params: { chat_id: number | string; message_id: number; text: string }) =>
      call<TgMessage | true>('editMessageText', params),
    editMessageCaption: (params: { chat_id: number | string; message_id: number; caption: string }) =>
      call<TgMessage | true>('editMessageCaption', params),
    deleteMessage: (params: { chat_id: number | string; message_id: number }) =>
      call<true>('deleteMessage', params),
    setMessageReaction: (params: {
      chat_id: number | string;
      message_id: number;
      reaction: Array<{ type: 'emoji'; emoji: string }>;
    }) => call<true>('setMessageReaction', params),
    banChatMember: (params: { chat_id: number | string; user_id: number; until_date?: number }) =>
      call<true>('banChatMember', params),
    unbanChatMember: (params: { chat_id: number | string; user_id: number; only_if_banned: boolean }) =>
      call<true>('unbanChatMember', params),
  };
}

export type TelegramApi = ReturnType<typeof telegramApi>;
