// Smoke: the built app starts like `npm start`, serves the web app, guards private routes and shows a
// not-found page.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type AppHandle, type BrowserHandle, launchBrowser, screenshot, startApp } from '../harness';

describe('smoke', () => {
  let app: AppHandle;
  let browser: BrowserHandle;

  beforeAll(async () => {
    app = await startApp();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  test('health check answers', async () => {
    const response = await fetch(`${app.url}/healthz`);
    expect(response.status).toBe(200);
  });

  test('a signed-out visitor of / lands on the login form', async () => {
    const page = await browser.newPage({ baseURL: app.url, locale: 'en-US' });
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/login');
    const email = page
      .locator(
        'input[type="email"], input[name="username"], input[autocomplete="username"], input[name="email"]',
      )
      .first();
    await email.waitFor({ state: 'visible' });
    await page.locator('input[type="password"]').first().waitFor({ state: 'visible' });
    await screenshot(page, 'smoke-login');
    await page.context().close();
  });

  test('an unknown path shows the not-found page', async () => {
    const page = await browser.newPage({ baseURL: app.url, locale: 'en-US' });
    await page.goto('/no-such-page-here');
    await page.getByTestId('not-found').waitFor({ state: 'visible' });
    expect(new URL(page.url()).pathname).toBe('/no-such-page-here');
    await screenshot(page, 'smoke-not-found');
    await page.context().close();
  });

  // The harness keeps a closed context for the next test (harness/context-pool.ts): nothing of the first
  // test may reach the second, or tests would pass or fail by their order.
  test('a kept browser context carries nothing of the test before', async () => {
    const first = await browser.newContext({ baseURL: app.url, locale: 'en-US' });
    await first.addInitScript(() => {
      (window as unknown as { leftOver?: boolean }).leftOver = true;
    });
    const page = await first.newPage();
    const seen: string[] = [];
    page.on('request', (request) => seen.push(request.url()));
    await page.route('**/recovery', (route) => route.fulfill({ status: 418, body: 'stubbed' }));
    await page.goto('/login');
    await page.evaluate(() => {
      window.localStorage.setItem('leftOver', '1');
      window.sessionStorage.setItem('leftOver', '1');
    });
    await first.addCookies([{ name: 'leftOver', value: '1', url: app.url }]);
    await page.setViewportSize({ width: 375, height: 700 });
    await first.close();

    const second = await browser.newContext({ baseURL: app.url, locale: 'en-US' });
    const again = await second.newPage();
    // The same page (its renderer already warm), blank as a new one.
    expect(again).toBe(page);
    expect(again.url()).toBe('about:blank');
    expect(again.viewportSize()).toEqual({ width: 1280, height: 800 });
    const requestsBefore = seen.length;
    const response = await again.goto('/recovery');
    expect(response?.status()).toBe(200);
    expect(seen.length).toBe(requestsBefore);
    expect(
      await again.evaluate(() => ({
        local: window.localStorage.getItem('leftOver'),
        session: window.sessionStorage.getItem('leftOver'),
        cookie: document.cookie,
        script: (window as unknown as { leftOver?: boolean }).leftOver ?? null,
      })),
    ).toEqual({ local: null, session: null, cookie: '', script: null });
    expect(await second.cookies()).toEqual([]);
    await second.close();
  });
});
