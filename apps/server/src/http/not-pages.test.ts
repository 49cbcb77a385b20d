import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { routes } from '@otklik/shared/routes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

// Issue 22: /metrics, /readyz and /livez once answered 200 with the web page's HTML (the SPA fallback),
// so a monitor "succeeded" against nothing. Paths that are not screens answer JSON: the probes their
// status, anything unknown under them or under the API a JSON 404 — never index.html.

let t: TestApp;
let webDist: string;
beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'otklik-web-'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Otklik</title><div id="root"></div>');
  t = await createTestApp({ WEB_DIST: webDist });
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

const NOT_PAGES = [
  '/metrics', // off without METRICS_TOKEN
  '/metrics/',
  '/readyz/',
  '/readyz/extra',
  '/livez/extra',
  '/healthz/extra',
  '/v1',
  '/v1/',
  '/v1/unknown',
  '/v1/items/1/unknown',
  '/v1/callback/vk',
  '/v1/oauth/callback',
  '/v1/oauth2/callback',
  '/v1/webhooks/unknown/callback',
  '/v1/ws/extra',
  '/assets/missing.js',
  '/favicon.ico',
  '/robots.txt',
  '/.env',
  '/wp-login.php',
];

describe('paths that are not web screens', () => {
  it('the probes answer JSON', async () => {
    for (const path of ['/readyz', '/livez', '/healthz']) {
      const res = await t.app.inject({ url: path });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type'], path).toMatch(/^application\/json/);
    }
  });

  it('answer a JSON 404, never the page, for GET and HEAD', async () => {
    for (const path of NOT_PAGES) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await t.app.inject({ method, url: `${path}?locale=en` });
        expect(res.statusCode, `${method} ${path}`).toBe(404);
        expect(res.headers['content-type'], `${method} ${path}`).toMatch(/^application\/json/);
        if (method === 'GET') expect(res.json(), path).toEqual({ error: 'Not found' });
      }
    }
  });

  it('while every screen of the web app, the connect callbacks included, gets the page', async () => {
    const screens = Object.values(routes).map((route) => route.path.replace(/:(\w+)/g, '1'));
    expect(screens).toContain('/callback/vk');
    for (const path of screens) {
      const res = await t.app.inject({ url: path });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type'], path).toMatch(/^text\/html/);
    }
  });
});
