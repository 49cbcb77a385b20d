// Issue 11 item 17 — the built web app runs under the server's Content-Security-Policy: no inline
// script in the build, and Chromium reports no CSP violation on the public and signed-in screens (the
// live socket included, which also passes the socket's Origin check).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AppHandle,
  type BrowserHandle,
  type ConfirmedUser,
  createConfirmedUser,
  launchBrowser,
  type SmtpHandle,
  signedInContext,
  startApp,
  startSmtp,
  waitForPath,
} from '../harness';

describe('content security policy in the browser', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let user: ConfirmedUser;

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } }),
      launchBrowser(),
    ]);
    user = await createConfirmedUser(app.url, smtp, { name: 'Ирина Политикова' });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  /** Records CSP violations (the DOM event and Chromium's console report) from before any app script. */
  async function watchViolations(page: Page) {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const w = window as unknown as { __csp?: string[] };
        w.__csp = [...(w.__csp ?? []), `${event.violatedDirective} ${event.blockedURI}`];
      });
    });
    return async () => [
      ...violations,
      ...((await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp)) ?? []),
    ];
  }

  test('the built index.html has no inline script and is served with the policy', async () => {
    const response = await fetch(`${app.url}/login`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\ssrc=/);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i); // no inline event handlers either
  });

  test('public screens run with no CSP violation', async () => {
    const page = await browser.newPage({ baseURL: app.url, locale: 'en-US' });
    const violations = await watchViolations(page);
    for (const path of ['/login', '/signup', '/recovery']) {
      await page.goto(path);
      await page.locator('input').first().waitFor({ state: 'visible' });
    }
    expect(await violations()).toEqual([]);
    await page.context().close();
  });

  test('signed-in screens and the live socket run with no CSP violation', async () => {
    const context = await signedInContext(browser, user.tokens, { baseURL: app.url, locale: 'en-US' });
    const page = await context.newPage();
    const violations = await watchViolations(page);
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.goto('/items');
    await waitForPath(page, '/items');
    await page.waitForLoadState('networkidle');
    await page.goto('/settings/profile');
    await waitForPath(page, '/settings/profile');
    await page.waitForLoadState('networkidle');
    expect(sockets.some((url) => url.includes('/v1/ws'))).toBe(true);
    expect(await violations()).toEqual([]);
    await context.close();
  });
});
