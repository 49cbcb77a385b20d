import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, loginTokens, passwordLogin } from '../test/auth-helpers';
import { createTestApp, type TestApp } from '../test/harness';
import { parseQueryString } from './http/querystring';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('HTTP basics', () => {
  it('GET /healthz answers ok after touching the database', async () => {
    const res = await t.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', checks: { database: 'ok' }, down: [] });
  });

  it('serves the OpenAPI document with the auth endpoints', async () => {
    const res = await t.app.inject({ url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    for (const path of [
      '/v1/oauth2/token',
      '/v1/oauth2/revoke',
      '/v1/signup',
      '/v1/signup/{hash}',
      '/v1/recovery',
      '/v1/me',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });

  it('answers unknown API paths with a JSON 404 in the caller locale', async () => {
    const res = await t.app.inject({ url: '/v1/nope?locale=en' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found' });
  });

  it('parses query arrays written both as a=1&a=2 and a[]=1&a[]=2', () => {
    expect(parseQueryString('a=1&a=2&b=x')).toEqual({ a: ['1', '2'], b: 'x' });
    expect(parseQueryString('a[]=1&a[]=2')).toEqual({ a: ['1', '2'] });
    expect(parseQueryString('a[]=1')).toEqual({ a: ['1'] });
    expect(parseQueryString('__proto__=x&status=new')).toEqual({ status: 'new' });
  });

  it('never writes passwords or tokens to the log', async () => {
    const { email, password } = await buildUser(t);
    const tokens = await loginTokens(t, email, password);
    await t.app.inject({ url: `/v1/me?access_token=${tokens.access_token}` });
    await t.app.inject({ url: '/v1/me', headers: bearer(tokens.access_token) });
    await passwordLogin(t, email, 'Leaky-secret9');
    const all = t.logs.join('\n');
    expect(all).toContain('/v1/me?access_token=[redacted]');
    expect(all).not.toContain(tokens.access_token);
    expect(all).not.toContain(password);
    expect(all).not.toContain('Leaky-secret9');
  });

  it('does not log a sandbox page token, which is the address of the page', async () => {
    const token = 'sbx-page-secret-0123456789';
    await t.app.inject({ url: `/v1/sandbox/${token}?since=1` });
    await t.app.inject({ url: `/sandbox/${token}` });
    const all = t.logs.join('\n');
    expect(all).toContain('/v1/sandbox/[redacted]?since=1');
    expect(all).not.toContain(token);
  });

  it('maps a malformed JSON body to a 400 in the error format', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/token',
      headers: { 'content-type': 'application/json' },
      payload: '{"grant_type":',
    });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().error).toBe('string');
  });
});
