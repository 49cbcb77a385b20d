import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { buildUser, loginTokens } from '../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../test/harness';
import { openSocket, refusedUpgrade } from '../../test/socket';
import { isWebRoute } from '../app';
import { CONTENT_SECURITY_POLICY } from './security';

let t: TestApp;
let webDist: string;
const ASSET = Buffer.from(`console.log(${JSON.stringify('x'.repeat(4000))});`);
beforeAll(async () => {
  // A stand-in build: the not-found handler's SPA fallback needs an index.html to serve.
  webDist = mkdtempSync(join(tmpdir(), 'otklik-web-'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Otklik</title><div id="root"></div>');
  // A hashed asset with the compressed copies the build writes next to it (apps/web/compress.ts).
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'assets/index-abc123.js'), ASSET);
  writeFileSync(join(webDist, 'assets/index-abc123.js.br'), brotliCompressSync(ASSET));
  writeFileSync(join(webDist, 'assets/index-abc123.js.gz'), gzipSync(ASSET));
  t = await createTestApp({ WEB_DIST: webDist, ALLOWED_ORIGINS: 'https://extra.example' });
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

const BROWSER_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

describe('browser security headers', () => {
  it('are on every response: the page, JSON, errors, 404s and probes', async () => {
    const responses = await Promise.all([
      t.app.inject({ url: '/items' }),
      t.app.inject({ url: '/v1/me' }),
      t.app.inject({ url: '/v1/nope' }),
      t.app.inject({
        method: 'POST',
        url: '/v1/oauth2/token',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      }),
      t.app.inject({ url: '/livez' }),
      t.app.inject({ url: '/v1/openapi.json' }),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 401, 404, 400, 200, 200]);
    for (const res of responses) expect(res.headers).toMatchObject(BROWSER_HEADERS);
  });

  it('allow scripts from our origin only and no framing', () => {
    const directives = Object.fromEntries(
      CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]),
    );
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval/);
    // 'unsafe-inline' only for styles (Mantine injects <style> at run time).
    expect(CONTENT_SECURITY_POLICY.match(/'unsafe-inline'/g)).toHaveLength(1);
    expect(directives['style-src']).toContain("'unsafe-inline'");
  });

  it('send HSTS only over TLS: a trusted proxy saying https, or an https APP_URL', async () => {
    const plain = await t.app.inject({ url: '/livez' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // From loopback (trusted by default) X-Forwarded-Proto is believed…
    const proxied = await t.app.inject({ url: '/livez', headers: { 'x-forwarded-proto': 'https' } });
    expect(proxied.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}/);
    // …from anyone else it is not.
    const forged = await t.app.inject({
      url: '/livez',
      remoteAddress: '203.0.113.9',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(forged.headers['strict-transport-security']).toBeUndefined();

    const tls = await createTestApp({ APP_URL: 'https://otklik.example' });
    try {
      const res = await tls.app.inject({ url: '/v1/nope' });
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d{7,}; includeSubDomains$/);
    } finally {
      await tls.close();
    }
  });
});

describe('the built assets', () => {
  it('go out compressed to browsers that accept it, and are kept a year (hashed names)', async () => {
    const url = '/assets/index-abc123.js';
    const br = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).equals(ASSET)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(ASSET.length / 10);

    const gz = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(ASSET)).toBe(true);

    const plain = await t.app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(ASSET)).toBe(true);

    // The page itself is never cached: a new build's index.html names the new hashed files.
    expect((await t.app.inject({ url: '/items' })).headers['cache-control']).toBe('no-cache');
  });
});

describe('the SPA fallback', () => {
  it('serves index.html for web routes only', async () => {
    for (const path of [
      '/',
      '/items',
      '/items/12',
      '/settings/labels',
      '/reset_password/abc',
      '/login?x=1',
    ]) {
      const res = await t.app.inject({ url: path });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type'], path).toMatch(/text\/html/);
    }
  });

  // /metrics is never a page; without METRICS_TOKEN (as here) it is off too (http/metrics.test.ts has it on).
  it('answers a JSON 404 for system paths and files: /metrics is not a page, and off without METRICS_TOKEN', async () => {
    for (const path of [
      '/metrics',
      '/metrics/x',
      '/v1',
      '/v1/x',
      '/assets/none.js',
      '/robots.txt',
      '/x/y.map',
    ]) {
      const res = await t.app.inject({ url: `${path}?locale=en` });
      expect(res.statusCode, path).toBe(404);
      expect(res.json(), path).toEqual({ error: 'Not found' });
    }
    expect(['/readyz', '/livez', '/healthz', '/metrics'].some(isWebRoute)).toBe(false);
  });
});

describe('the live socket checks Origin', () => {
  let base: string;
  let token: string;
  beforeAll(async () => {
    const { email } = await buildUser(t);
    token = (await loginTokens(t, email)).access_token;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    base = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1/ws`;
  });

  const withOrigin = (origin: string) =>
    new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${base}?access_token=${token}`, { origin });
      ws.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.once('open', () => {
        ws.close();
        resolve(101);
      });
      ws.once('error', reject);
    });

  it('refuses a page of another site with 403', async () => {
    expect(await withOrigin('https://evil.example')).toBe(403);
    expect(await withOrigin('null')).toBe(403);
    // No Origin (not a browser) passes this check; the token check still applies.
    expect(await refusedUpgrade(base)).toBe(401);
  });

  it('accepts APP_URL’s origin, ALLOWED_ORIGINS, the request’s own origin and clients without Origin', async () => {
    expect(await withOrigin('http://127.0.0.1:3000')).toBe(101); // APP_URL of testConfig
    expect(await withOrigin('https://extra.example')).toBe(101);
    expect(await withOrigin(base.replace('ws://', 'http://').replace('/v1/ws', ''))).toBe(101);
    const socket = await openSocket(`${base}?access_token=${token}`);
    await socket.close();
  });
});
