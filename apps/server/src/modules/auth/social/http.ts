import { z } from 'zod';

/**
 * A provider refused or failed. `detail` is the provider's own error text: it goes to the log, never
 * to the caller, and never carries a URL (VK and Facebook take client_secret in the query string).
 */
export class ProviderError extends Error {
  constructor(
    readonly detail: string,
    readonly status?: number,
  ) {
    super(detail);
    this.name = 'ProviderError';
  }
}

export interface ProviderResponse {
  status: number;
  body: unknown;
}

const TIMEOUT_MS = 10_000;

/** `base` may carry a path (the emulator mounts every provider under its own prefix). */
export function endpoint(base: string, path: string, query: Record<string, string> = {}): string {
  const url = `${base.replace(/\/+$/, '')}${path}`;
  const search = new URLSearchParams(query).toString();
  // '%20' rather than '+' for spaces: both are valid, '%20' is what the providers' docs show.
  return search ? `${url}?${search.replace(/\+/g, '%20')}` : url;
}

export async function requestJson(
  url: string,
  init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; form?: Record<string, string> } = {},
): Promise<ProviderResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    // The error's name only: fetch's message and cause may quote the URL.
    throw new ProviderError(`request failed (${error instanceof Error ? error.name : 'unknown error'})`);
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (Yandex answers 401 with plain text): keep the text for the error message.
  }
  return { status: response.status, body };
}

const oauthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });

/** An OAuth 2.0 error answer (RFC 6749 §5.2: `error`, `error_description`) as one line. */
export const describeOAuthError = (body: unknown) => {
  const parsed = oauthErrorSchema.safeParse(body);
  return parsed.success
    ? [parsed.data.error, parsed.data.error_description].filter(Boolean).join(': ')
    : undefined;
};

/** The success payload, or a ProviderError with the provider's description of what went wrong. */
export function expectBody<T>(
  response: ProviderResponse,
  success: z.ZodType<T>,
  describeError: (body: unknown) => string | undefined,
): T {
  if (response.status >= 200 && response.status < 300) {
    const parsed = success.safeParse(response.body);
    if (parsed.success) return parsed.data;
  }
  const detail =
    describeError(response.body) ??
    (typeof response.body === 'string' && response.body
      ? response.body.slice(0, 200)
      : 'unexpected response');
  throw new ProviderError(`${detail} (HTTP ${response.status})`, response.status);
}
