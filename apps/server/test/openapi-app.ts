import type { Database } from '../src/db/client';
import { createTestApp, type TestApp } from './harness';
import { type Operation, operationsOf } from './openapi-fuzz';

// The app the OpenAPI-driven suites call (http/openapi-fuzz.test.ts, http/tenant-matrix*.test.ts) and the
// operations of its own document (/v1/openapi.json), so a new route is covered without editing the suites.

// Every outgoing call of a connector or a sign-in provider goes to a closed port on loopback.
export const NOWHERE = 'http://127.0.0.1:9';
export const NETWORK_URLS = [
  'RECAPTCHA_VERIFY_URL',
  'VK_OAUTH_URL',
  'VK_API_URL',
  'FACEBOOK_OAUTH_URL',
  'FACEBOOK_GRAPH_URL',
  'GOOGLE_OAUTH_URL',
  'GOOGLE_TOKEN_URL',
  'GOOGLE_USERINFO_URL',
  'YANDEX_OAUTH_URL',
  'YANDEX_LOGIN_URL',
  'TELEGRAM_API_URL',
  'WHATSAPP_GRAPH_URL',
  'MAX_API_URL',
  'AVITO_API_URL',
  'VIBER_API_URL',
] as const;

/** A test app whose every network goes nowhere (on `database` when given, else the file's shared one). */
export function createOfflineApp(database?: Database): Promise<TestApp> {
  return createTestApp(Object.fromEntries(NETWORK_URLS.map((k) => [k, NOWHERE])), { database });
}

/** Every operation of the app's own OpenAPI document. */
export async function loadOperations(t: TestApp): Promise<Operation[]> {
  const res = await t.app.inject({ url: '/v1/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`openapi.json answered ${res.statusCode}`);
  return operationsOf(res.json());
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One JSON call of the API with the given headers. */
export function callApi(
  t: TestApp,
  headers: Record<string, string>,
  method: string,
  url: string,
  body?: unknown,
) {
  return t.app.inject({
    method: method as Method,
    url,
    headers: { ...headers, 'content-type': 'application/json' },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
}
