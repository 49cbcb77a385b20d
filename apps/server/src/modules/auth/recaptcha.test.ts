import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/auth-helpers';
import { createTestApp, STRONG_PASSWORD, type TestApp, uniqueEmail, WEB_CLIENT } from '../../../test/harness';

// Issue 13 item 14: reCAPTCHA with both keys, checked against a local stub of Google's siteverify.

const GOOD_TOKEN = 'good-token';
let verify: Server;
let verifyUrl: string;
const verified: URLSearchParams[] = [];

beforeAll(async () => {
  verify = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const form = new URLSearchParams(body);
      verified.push(form);
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          success: form.get('secret') === 'the-secret' && form.get('response') === GOOD_TOKEN,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => verify.listen(0, '127.0.0.1', resolve));
  verifyUrl = `http://127.0.0.1:${(verify.address() as AddressInfo).port}/siteverify`;
});
afterAll(() => new Promise<void>((resolve) => verify.close(() => resolve())));

const login = (t: TestApp, email: string, extra: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/oauth2/token',
    payload: { grant_type: 'password', ...WEB_CLIENT, username: email, password: STRONG_PASSWORD, ...extra },
  });

describe('reCAPTCHA on (secret and site key)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      RECAPTCHA_SECRET: 'the-secret',
      RECAPTCHA_SITE_KEY: 'the-site-key',
      RECAPTCHA_VERIFY_URL: verifyUrl,
      RECAPTCHA_SCRIPT_URL: 'https://captcha.example/api.js?render=explicit',
    });
  });
  afterAll(() => t.close());

  it('GET /v1/auth/config tells the web the site key and script, never the secret', async () => {
    const res = await t.app.inject({ url: '/v1/auth/config' });
    expect(res.statusCode).toBe(200);
    expect(res.json().recaptcha).toEqual({
      site_key: 'the-site-key',
      script_url: 'https://captcha.example/api.js?render=explicit',
    });
    expect(res.body).not.toContain('the-secret');
  });

  it('the CSP allows the widget script and frames', async () => {
    const csp = String((await t.app.inject({ url: '/livez' })).headers['content-security-policy']);
    expect(csp).toMatch(
      /script-src 'self' https:\/\/captcha\.example https:\/\/www\.google\.com https:\/\/www\.gstatic\.com;/,
    );
    expect(csp).toMatch(/frame-src https:\/\/www\.google\.com/);
  });

  it('login: no token or a bad one → 400 captcha; a good one signs in, verified with our secret', async () => {
    const { email } = await buildUser(t);
    const missing = await login(t, email);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error_type: 'captcha', error: 'Проверка reCAPTCHA не пройдена' });
    expect((await login(t, email, { recaptcha_token: 'bad' })).json().error_type).toBe('captcha');
    const ok = await login(t, email, { recaptcha_token: GOOD_TOKEN });
    expect(ok.statusCode).toBe(200);
    expect(verified.at(-1)?.get('secret')).toBe('the-secret');
    // The refresh grant is not a person at a form: no captcha.
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/token',
      payload: { grant_type: 'refresh_token', ...WEB_CLIENT, refresh_token: ok.json().refresh_token },
    });
    expect(refreshed.statusCode).toBe(200);
  });

  it('signup and recovery are checked too', async () => {
    const signup = (recaptcha_token?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/signup',
        payload: {
          name: 'N',
          email: uniqueEmail(),
          password: STRONG_PASSWORD,
          company: 'C',
          ...(recaptcha_token ? { recaptcha_token } : {}),
        },
      });
    expect((await signup()).json().error_type).toBe('captcha');
    expect((await signup(GOOD_TOKEN)).statusCode).toBe(201);
    const { email } = await buildUser(t);
    const recovery = (extra: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/v1/recovery', payload: { email, ...extra } });
    expect((await recovery({})).json().error_type).toBe('captcha');
    expect((await recovery({ recaptcha_token: GOOD_TOKEN })).statusCode).toBe(200);
  });
});

describe('reCAPTCHA off', () => {
  it('with the secret alone nothing is demanded (the web could not answer), and the CSP is unchanged', async () => {
    const t = await createTestApp({ RECAPTCHA_SECRET: 'the-secret', RECAPTCHA_VERIFY_URL: verifyUrl });
    try {
      const { email } = await buildUser(t);
      expect((await login(t, email)).statusCode).toBe(200);
      expect((await t.app.inject({ url: '/v1/auth/config' })).json().recaptcha).toBeNull();
      const csp = String((await t.app.inject({ url: '/livez' })).headers['content-security-policy']);
      expect(csp).toContain("script-src 'self';");
      expect(csp).not.toContain('frame-src');
    } finally {
      await t.close();
    }
  });
});
