// Issue 20 (X): an X account connects through the OAuth 2.0 popup (PKCE) on settings/accounts/add against
// the X emulator on 127.0.0.1; a refusal on X's page shows on the form; after the first polling round the
// account's settings screen shows the API tier and what it allows, in Russian and in English.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TwitterEmulator } from '../../apps/server/emulators/twitter/emulator';
import {
  type AppHandle,
  apiOk,
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
  await page.getByTestId('providers-ready').getByTestId('provider-twitter').waitFor();
  await page.getByTestId('connect-twitter').click();
  const form = page.locator('[data-testid="connect-form"][data-provider="twitter"]');
  const opened = page.waitForEvent('popup');
  await form.getByTestId('connect-oauth').click();
  await (await opened).waitForEvent('close', { timeout: 20_000 });
  return form;
}

describe('connectors: X (Twitter) through the UI', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let x: TwitterEmulator;

  beforeAll(async () => {
    [smtp, x, browser] = await Promise.all([startSmtp(), TwitterEmulator.start(), launchBrowser()]);
    app = await startApp({
      smtp,
      env: {
        AUTH_RATE_LIMIT_PER_IP: '1000',
        TWITTER_API_URL: x.url,
        TWITTER_OAUTH_URL: `${x.url}/i/oauth2/authorize`,
        TWITTER_CLIENT_ID: x.app.clientId,
        TWITTER_CLIENT_SECRET: x.app.clientSecret,
      },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([x?.close(), smtp?.close()]);
  });

  for (const locale of ['ru', 'en'] as const) {
    test(`popup connect with PKCE, refusal, the tier on the account (${locale})`, async () => {
      const brand = x.addUser(`coffee_${locale}`, locale === 'ru' ? 'Кофейня на углу' : 'Corner coffee');
      const guest = x.addUser(`guest_${locale}`);
      x.post(guest, `@coffee_${locale} where are you?`, { mention: brand });
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
        x.consenting = null;
        const form = await connectByPopup(page);
        await form.getByTestId('connect-error').waitFor();
        x.consenting = brand;
        await connectByPopup(page);
        await waitForPath(page, '/settings/accounts/add/success');
        await page.getByTestId('connect-success').getByText(brand.name).first().waitFor();
        await screenshot(page, `connectors-twitter-success-${locale}-1381`);

        // The first polling round learns the tier (Basic: mentions, no DMs).
        const account = async () =>
          (
            await apiOk<{ items: { id: number; provider: string }[] }>(app.url, 'GET', '/v1/objects', {
              token: tokens.access_token,
            })
          ).items.find((o) => o.provider === 'twitter')!;
        const { id } = await account();
        await expect
          .poll(
            async () =>
              (
                await apiOk<{ settings: { api_plan?: { tier: string } } }>(
                  app.url,
                  'GET',
                  `/v1/objects/${id}`,
                  { token: tokens.access_token },
                )
              ).settings.api_plan?.tier,
            { timeout: 45_000 },
          )
          .toBe('basic');
        await page.goto(`/settings/accounts/${id}`);
        const plan = page.getByTestId('account-plan');
        await plan.getByText('Basic').first().waitFor();
        await plan.getByText(locale === 'ru' ? 'до 10 проверок' : 'up to 10 checks').waitFor();
        await screenshot(page, `connectors-twitter-plan-${locale}-1381`);
        await page.setViewportSize(PHONE);
        await screenshot(page, `connectors-twitter-plan-${locale}-375`);
      } finally {
        await context.close();
      }
    });
  }
});
