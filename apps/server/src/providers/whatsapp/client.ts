import type { Config } from '../../lib/config';
import { badAnswer } from '../http';
import { ConnectorError } from '../types';

// WhatsApp Cloud API over Meta Graph (PROVIDERS.md §3): `{base}/{version}/{node}/{edge}` with a Bearer
// token; failures come as `{error:{message,type,code,error_subcode,error_data,fbtrace_id}}`.

export interface GraphAuth {
  config: Config;
  fetch: typeof fetch;
  accessToken: string;
}

export interface PhoneNumberInfo {
  id: string;
  display_phone_number?: string;
  verified_name?: string;
}

export interface SendResponse {
  messages?: Array<{ id: string; message_status?: string }>;
}

interface GraphErrorBody {
  error?: {
    message?: string;
    type?: string;
    code?: number;
    error_subcode?: number;
    error_data?: { details?: string };
  };
}

/** PROVIDERS §3 "Limits": throughput (130429), pair rate (131056, about one message per 6 s to a user). */
const RATE_LIMIT_WAIT_S: Record<number, number> = { 130429: 5, 131056: 6, 80007: 60, 4: 60, 17: 60, 613: 60 };
/** PROVIDERS §3 "Error shape": 0 / 190 are a bad or expired token — the account needs an administrator. */
const AUTH_CODES = new Set([0, 190]);
/** Graph's "unknown" (1) and "service temporarily unavailable" (2) are worth another try. */
const TEMPORARY_CODES = new Set([1, 2]);

export function graphBase(config: Config): string {
  return `${config.WHATSAPP_GRAPH_URL.replace(/\/+$/, '')}/${config.WHATSAPP_API_VERSION}`;
}

/** Maps a Graph error envelope (or a bare HTTP failure) to what the outbox worker should do. */
export function graphError(status: number, body: GraphErrorBody | undefined): ConnectorError {
  const error = body?.error;
  if (!error) {
    const text = `WhatsApp API answered HTTP ${status}`;
    if (status === 429) return new ConnectorError('rate_limited', text, { retryAfterSeconds: 60 });
    return new ConnectorError(status >= 500 ? 'temporary' : 'permanent', text);
  }
  const details = error.error_data?.details;
  const message = [error.message ?? `Graph error ${error.code ?? status}`, details]
    .filter(Boolean)
    .join(' — ');
  const code = error.code ?? -1;
  const wait = RATE_LIMIT_WAIT_S[code];
  if (wait !== undefined) return new ConnectorError('rate_limited', message, { retryAfterSeconds: wait });
  if (AUTH_CODES.has(code) || status === 401) return new ConnectorError('auth', message);
  if (TEMPORARY_CODES.has(code) || status >= 500) return new ConnectorError('temporary', message);
  // 131047 (outside the 24-hour window), 131026 (undeliverable), 100 (bad parameter), ...: shown as is.
  return new ConnectorError('permanent', message);
}

async function graphCall<T>(
  auth: GraphAuth,
  method: 'GET' | 'POST',
  path: string,
  body?: Record<string, unknown>,
): Promise<T> {
  let response: Response;
  try {
    response = await auth.fetch(`${graphBase(auth.config)}/${path}`, {
      method,
      headers: {
        authorization: `Bearer ${auth.accessToken}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    throw new ConnectorError('temporary', `WhatsApp API unreachable: ${(error as Error).message}`, {
      reason: {
        key: 'failure.unreachable',
        params: { network: 'WhatsApp' },
        detail: (error as Error).message,
      },
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
  if (!response.ok || envelope?.error) throw graphError(response.status, envelope);
  return parsed as T;
}

/** Who the number is: `GET /{phone-number-id}?fields=display_phone_number,verified_name`. */
export function getPhoneNumber(auth: GraphAuth, phoneNumberId: string): Promise<PhoneNumberInfo> {
  return graphCall<PhoneNumberInfo>(
    auth,
    'GET',
    `${encodeURIComponent(phoneNumberId)}?fields=display_phone_number,verified_name`,
  );
}

/** `POST /{phone-number-id}/messages`; returns the new message's wamid. */
export async function sendMessage(
  auth: GraphAuth,
  phoneNumberId: string,
  payload: Record<string, unknown>,
): Promise<string | null> {
  const result = await graphCall<SendResponse>(
    auth,
    'POST',
    `${encodeURIComponent(phoneNumberId)}/messages`,
    {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      ...payload,
    },
  );
  // Graph answers a sent message with its wamid; an answer without one is not Graph's.
  const id = result?.messages?.[0]?.id;
  if (!id) throw badAnswer('WhatsApp', 'a sent message without its id');
  return id;
}

/** `GET /{media-id}` (PROVIDERS §3 media): where the file is, for `GET <url>` with the same Bearer. */
export function getMedia(auth: GraphAuth, mediaId: string) {
  return graphCall<{ url: string; mime_type?: string; file_size?: number; id: string }>(
    auth,
    'GET',
    encodeURIComponent(mediaId),
  );
}
