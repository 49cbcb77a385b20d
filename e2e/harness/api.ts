// Calls to the app's HTTP API from a test: set-up that is not what a test is about (an admin to invite
// from, a confirmed user to sign in as) goes through the API instead of the browser.
import { uniqueEmail } from './app';
import { extractLink, type SmtpHandle } from './smtp';

/** The built-in public web client (apps/web/src/api/client.ts; the server's default WEB_CLIENT_SECRET). */
export const webClient = { client_id: 'otklik-web', client_secret: 'otklik-web-public' } as const;

export interface ApiTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  expires_at: number;
}

export interface ApiResult<T = unknown> {
  status: number;
  body: T;
}

/** One JSON request to `${appUrl}${path}` (path like /v1/me); never throws on an HTTP error status. */
export async function apiRequest<T = Record<string, unknown>>(
  appUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; locale?: string; timeoutMs?: number } = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.locale) headers['accept-language'] = options.locale;
  const response = await fetch(`${appUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: body as T };
}

/** Like apiRequest, but throws (with the answer) unless the status is 2xx. */
export async function apiOk<T = Record<string, unknown>>(
  appUrl: string,
  method: string,
  path: string,
  options: Parameters<typeof apiRequest>[3] = {},
): Promise<T> {
  const result = await apiRequest<T>(appUrl, method, path, options);
  if (result.status < 200 || result.status >= 300) {
    throw new Error(`${method} ${path} answered ${result.status}: ${JSON.stringify(result.body)}`);
  }
  return result.body;
}

export interface ConfirmedUser {
  name: string;
  email: string;
  password: string;
  company: string;
  /** Tokens of the session the confirmation link opened. */
  tokens: ApiTokens;
}

/**
 * A workspace owner the way a person becomes one: POST /v1/signup, the confirmation mail caught by the
 * SMTP catcher, its link's hash posted to /v1/confirm_email (which signs in). Needs startApp({ smtp }).
 */
export async function createConfirmedUser(
  appUrl: string,
  smtp: SmtpHandle,
  options: Partial<Pick<ConfirmedUser, 'name' | 'email' | 'password' | 'company'>> & {
    locale?: 'ru' | 'en';
  } = {},
): Promise<ConfirmedUser> {
  const user = {
    name: options.name ?? 'Анна Тестова',
    email: options.email ?? uniqueEmail('owner'),
    password: options.password ?? 'Passw0rd!e2e',
    company: options.company ?? 'ООО Отклик-тест',
  };
  await apiOk(appUrl, 'POST', '/v1/signup', {
    body: { ...user, locale: options.locale ?? 'ru' },
  });
  const mail = await smtp.waitForMail({ to: user.email });
  const link = new URL(extractLink(mail, '/confirm_email/'));
  const hash = decodeURIComponent(link.pathname.slice('/confirm_email/'.length));
  const confirmed = await apiOk<{ token: ApiTokens }>(appUrl, 'POST', '/v1/confirm_email', {
    body: { hash, ...webClient },
  });
  return { ...user, tokens: confirmed.token };
}

/**
 * A fixed-offset zone (Etc/GMT±N) where it is about noon now. Statistics count "today" in the space's
 * zone; a test that seeds items and then reads `preset=today` fails if the space's midnight falls in
 * between (Europe/Moscow's midnight is 21:00 UTC). Give the space this zone and "today" holds for hours.
 */
export function noonTimeZone(now = new Date()): string {
  const offset = 12 - now.getUTCHours(); // −11 … +12: every value is a valid Etc zone
  // Etc zones carry the POSIX sign: UTC+3 is Etc/GMT-3.
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

/** Puts a space in {@link noonTimeZone}: "today" in its statistics cannot cross midnight during a test. */
export async function moveSpaceToNoon(baseUrl: string, token: string, spaceId: number): Promise<void> {
  await apiOk(baseUrl, 'PUT', `/v1/spaces/${spaceId}`, { token, body: { timezone: noonTimeZone() } });
}
