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
});
