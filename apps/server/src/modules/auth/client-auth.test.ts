import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, passwordLogin } from '../../../test/auth-helpers';
import { createTestApp, STRONG_PASSWORD, type TestApp, WEB_CLIENT } from '../../../test/harness';

// RFC 6749 §2.3.1: HTTP Basic client authentication on the token and revocation endpoints.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const formHeaders = (authorization: string) => ({
  authorization,
  'content-type': 'application/x-www-form-urlencoded',
});

describe('POST /v1/oauth2/token with Authorization: Basic', () => {
  it('accepts the password and refresh grants with the client in the header only', async () => {
    const { email } = await buildUser(t);
    const login = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/token',
      headers: formHeaders(basic(WEB_CLIENT.client_id, WEB_CLIENT.client_secret)),
      payload: form({ grant_type: 'password', username: email, password: STRONG_PASSWORD }),
    });
    expect(login.statusCode).toBe(200);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/token',
      headers: { authorization: basic(WEB_CLIENT.client_id, WEB_CLIENT.client_secret) },
      payload: { grant_type: 'refresh_token', refresh_token: login.json().refresh_token },
    });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().access_token).not.toBe(login.json().access_token);
  });

  it('percent-decodes the id and secret (form-urlencoded before base64)', async () => {
    const special = await createTestApp({ WEB_CLIENT_SECRET: 'sé cret:+/%' });
    try {
      const { email } = await buildUser(special);
      const res = await special.app.inject({
        method: 'POST',
        url: '/v1/oauth2/token',
        headers: formHeaders(basic(WEB_CLIENT.client_id, 'sé cret:+/%')),
        payload: form({ grant_type: 'password', username: email, password: STRONG_PASSWORD }),
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await special.close();
    }
  });

  it('refuses a wrong secret in the header as invalid_client', async () => {
    const { email } = await buildUser(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/token',
      headers: formHeaders(basic(WEB_CLIENT.client_id, 'wrong')),
      payload: form({ grant_type: 'password', username: email, password: STRONG_PASSWORD }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_type).toBe('invalid_client');
  });

  it('answers 400 invalid_request when header and body name different clients; equal ones are fine', async () => {
    const { email } = await buildUser(t);
    const conflict = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/token?locale=en',
      headers: { authorization: basic(WEB_CLIENT.client_id, WEB_CLIENT.client_secret) },
      payload: { grant_type: 'password', client_id: 'other', username: email, password: STRONG_PASSWORD },
    });
    expect(conflict.statusCode).toBe(400);
    expect(conflict.json().error_type).toBe('invalid_request');
    expect(conflict.json().error).toMatch(/twice/);
    const same = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/token',
      headers: { authorization: basic(WEB_CLIENT.client_id, WEB_CLIENT.client_secret) },
      payload: { grant_type: 'password', ...WEB_CLIENT, username: email, password: STRONG_PASSWORD },
    });
    expect(same.statusCode).toBe(200);
  });

  it('answers 400 invalid_request for a malformed Basic header', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/token',
      headers: { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` },
      payload: { grant_type: 'refresh_token', refresh_token: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_type).toBe('invalid_request');
  });
});

describe('POST /v1/oauth2/revoke with client authentication (RFC 7009)', () => {
  it('ends the login holding the named token; a wrong client revokes nothing', async () => {
    const { email } = await buildUser(t);
    const tokens = (await passwordLogin(t, email, STRONG_PASSWORD)).json();
    const me = () =>
      t.app.inject({
        method: 'GET',
        url: '/v1/me',
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/revoke',
      headers: formHeaders(basic(WEB_CLIENT.client_id, 'wrong')),
      payload: form({ token: tokens.refresh_token }),
    });
    expect(wrong.json().error_type).toBe('invalid_client');
    expect((await me()).statusCode).toBe(200);
    const revoked = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/revoke',
      headers: formHeaders(basic(WEB_CLIENT.client_id, WEB_CLIENT.client_secret)),
      payload: form({ token: tokens.refresh_token, token_type_hint: 'refresh_token' }),
    });
    expect(revoked.statusCode).toBe(200);
    expect((await me()).statusCode).toBe(401);
  });

  it('answers 400 invalid_request for a malformed revocation body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/revoke',
      headers: { authorization: basic(WEB_CLIENT.client_id, WEB_CLIENT.client_secret) },
      payload: { token: 42 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_type).toBe('invalid_request');
  });

  it('still revokes the bearer session of the web app', async () => {
    const { email } = await buildUser(t);
    const tokens = (await passwordLogin(t, email, STRONG_PASSWORD)).json();
    const auth = { authorization: `Bearer ${tokens.access_token}` };
    expect((await t.app.inject({ method: 'POST', url: '/v1/oauth2/revoke', headers: auth })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ method: 'GET', url: '/v1/me', headers: auth })).statusCode).toBe(401);
  });
});
