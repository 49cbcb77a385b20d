// Issue 20 (TikTok): a business account connects through the OAuth popup on settings/accounts/add
// against the TikTok emulator on 127.0.0.1; /callback/tiktok (a public route) finishes the connect;
// a refusal shows TikTok's error on the callback screen, in Russian and in English.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { TiktokEmulator } from '../../apps/server/emulators/tiktok/emulator';
import {
  type AppHandle,
  type BrowserHandle,
  createConfirmedUser,
  launchBrowser,
  type SmtpHandle,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
  waitForPath,
} from '../harness';

const DESKTOP = { width: 1381, height: 900 };
const PHONE = { width: 375, height: 812 };

async function connectByPopup(page: Page) {
  await page.goto('/settings/accounts/add');
  await page.getByTestId('providers-ready').getByTestId('provider-tiktok').waitFor();
  await page.getByTestId('connect-tiktok').click();
  const form = page.locator('[data-testid="connect-form"][data-provider="tiktok"]');
  const opened = page.waitForEvent('popup');
  await form.getByTestId('connect-oauth').click();
  await (await opened).waitForEvent('close', { timeout: 20_000 });
  return form;
}

describe('connectors: TikTok through the UI', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let tiktok: TiktokEmulator;

  beforeAll(async () => {
    [smtp, tiktok, browser] = await Promise.all([startSmtp(), TiktokEmulator.start(), launchBrowser()]);
    app = await startApp({
      smtp,
      env: {
        AUTH_RATE_LIMIT_PER_IP: '1000',
        TIKTOK_API_URL: tiktok.url,
        TIKTOK_OAUTH_URL: `${tiktok.url}/oauth`,
        TIKTOK_CLIENT_ID: tiktok.app.clientId,
        TIKTOK_CLIENT_SECRET: tiktok.app.clientSecret,
      },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([tiktok?.close(), smtp?.close()]);
  });

  for (const locale of ['ru', 'en'] as const) {
    test(`popup connect, success and refusal on /callback/tiktok (${locale})`, async () => {
      const account = tiktok.addAccount(
        `coffee_${locale}`,
        locale === 'ru' ? 'Кофейня на углу' : 'Corner coffee',
      );
      const video = tiktok.addVideo(account, 'Latte art');
      tiktok.addComment(video.item_id, { text: 'Where is it?', user: 'guest' });
      // The interface speaks the user's language (their profile), so each language has its user.
      const { tokens } = await createConfirmedUser(app.url, smtp, {
        name: locale === 'ru' ? 'Ира Оператор' : 'Ira Operator',
        company: locale === 'ru' ? 'Кофейня' : 'Coffee shop',
        locale,
      });
      const context = await signedInContext(browser, tokens, {
        baseURL: app.url,
        locale: locale === 'ru' ? 'ru-RU' : 'en-US',
        viewport: DESKTOP,
      });
      try {
        const page = await context.newPage();
        // Refused on TikTok's page: the popup reports it and closes, the form says why.
        tiktok.consenting = null;
        const form = await connectByPopup(page);
        await form.getByTestId('connect-error').waitFor();
        tiktok.consenting = account;
        await connectByPopup(page);
        await waitForPath(page, '/settings/accounts/add/success');
        await page.getByTestId('connect-success').getByText(account.displayName).first().waitFor();
        await screenshot(page, `connectors-tiktok-success-${locale}-1381`);

        // The callback screen opened by itself with TikTok's refusal.
        await page.goto('/callback/tiktok?error=access_denied&state=x');
        await page.getByTestId('callback-error').waitFor();
        await screenshot(page, `connectors-tiktok-callback-error-${locale}-1381`);
        await page.setViewportSize(PHONE);
        await screenshot(page, `connectors-tiktok-callback-error-${locale}-375`);
      } finally {
        await context.close();
      }
    });
  }

  test('without a session /callback/tiktok asks to sign in and keeps the code for afterwards', async () => {
    const context = await browser.newContext({ baseURL: app.url, locale: 'ru-RU', viewport: DESKTOP });
    try {
      const page = await context.newPage();
      await page.goto('/callback/tiktok?code=abc&state=s');
      await page.waitForURL(
        (url) =>
          url.pathname === '/login' &&
          (url.searchParams.get('redirect') ?? '').startsWith('/callback/tiktok?code=abc'),
      );
    } finally {
      await context.close();
    }
  });
});
