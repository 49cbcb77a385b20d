import { afterAll, describe, expect, it } from 'vitest';
import { uniqueEmail, WEB_CLIENT } from '../test/harness';
import { type ServerProcess, startServerProcess } from '../test/process';

// The real server process at the most verbose level, its whole output captured: sign-up, login, a
// connector's token, an API token, an outgoing webhook's signing secret, a password change, a cookie and
// Authorization headers. Not one secret value may appear anywhere in what it wrote (http/log-secrets.test.ts
// covers more flows in-process).

// biome-ignore lint/suspicious/noExplicitAny: answers of many endpoints, read field by field
type Json = Record<string, any>;

let server: ServerProcess | undefined;
afterAll(() => server?.dispose());

const secrets = new Map<string, string>();
function keep(label: string, value: unknown): string {
  expect(typeof value === 'string' && value.length >= 8, `${label}: ${String(value)}`).toBe(true);
  secrets.set(label, value as string);
  return value as string;
}

describe('the server process never logs a secret', () => {
  it('sign-up, login, connector token, API token, webhook secret, password change', async () => {
    server = await startServerProcess({ LOG_LEVEL: 'trace', WEBHOOKS_ALLOW_PRIVATE: 'true' });
    const { base } = server;
    async function call(
      method: string,
      path: string,
      opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
    ) {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...opts.headers,
        },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
      const text = await res.text();
      return { status: res.status, json: text ? (JSON.parse(text) as Json) : {}, text };
    }

    const email = uniqueEmail('proclogs');
    const password = keep('signup password', 'Proc-secret-pw1!');
    expect(
      (await call('POST', '/v1/signup', { body: { name: 'P', email, password, company: 'Co' } })).status,
    ).toBe(201);
    const wrong = await call('POST', '/v1/oauth2/token', {
      body: {
        grant_type: 'password',
        ...WEB_CLIENT,
        username: email,
        password: keep('wrong password', 'Wrong-secret-pw9'),
      },
    });
    expect(wrong.status).toBe(400);
    const login = await call('POST', '/v1/oauth2/token', {
      body: { grant_type: 'password', ...WEB_CLIENT, username: email, password },
    });
    expect(login.status, login.text).toBe(200);
    const access = keep('access token', login.json.access_token);
    keep('refresh token', login.json.refresh_token);
    const me = await call('GET', '/v1/me', {
      token: access,
      headers: { cookie: `session=${keep('cookie', 'cookie-secret-value-42')}` },
    });
    expect(me.status, me.text).toBe(200);
    const spaceId =
      (await call('GET', '/v1/config', { token: access })).json.spaces?.[0]?.id ?? me.json.spaces?.[0]?.id;
    expect(typeof spaceId, JSON.stringify(me.json)).toBe('number');

    // A connector's token (a review site's ingest token), in its header and in the address.
    const account = await call('POST', '/v1/objects', {
      token: access,
      body: { provider: 'bankiru', space_id: spaceId },
    });
    expect(account.status, account.text).toBe(200);
    const ingest = keep('ingest token', account.json.ingest_token);
    await call('POST', '/v1/ingest/items', { headers: { 'x-ingest-token': ingest }, body: { items: [] } });
    await call('POST', `/v1/ingest/items?token=${ingest}`, { body: { items: [] } });

    // An API token, used.
    const apiToken = await call('POST', '/v1/api_tokens', {
      token: access,
      body: { kind: 'personal', name: 'Script' },
    });
    expect(apiToken.status, apiToken.text).toBe(200);
    const otk = keep('API token', apiToken.json.secret);
    expect((await call('GET', '/v1/config', { token: otk })).status).toBe(200);

    // An outgoing webhook's signing secret.
    const hook = await call('POST', '/v1/webhooks', {
      token: access,
      body: {
        space_id: spaceId,
        url: 'http://127.0.0.1:9/hook',
        description: '',
        events: ['item.created'],
        is_enabled: true,
      },
    });
    expect(hook.status, hook.text).toBe(200);
    keep('webhook secret', hook.json.secret);

    // A password change.
    const newPassword = keep('new password', 'Changed-secret-pw3!');
    const changed = await call('PUT', '/v1/me/password', {
      token: access,
      body: { password, new_password: newPassword },
    });
    expect(changed.status, changed.text).toBe(200);
    keep('rotated access token', changed.json.token.access_token);

    server.child.kill('SIGTERM');
    const [code] = await server.exited;
    expect(code).toBe(0);
    const output = server.stdout() + server.stderr();
    // The requests were logged (with their headers at trace level), just without the secrets.
    expect(output).toContain('/v1/me/password');
    expect(output).toContain('/v1/ingest/items?token=[redacted]');
    const leaked = [...secrets].filter(([, value]) => output.includes(value)).map(([label]) => label);
    expect(leaked).toEqual([]);
  }, 120_000);
});
