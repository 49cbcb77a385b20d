// Issue 20 — the review aggregators' connect forms in the browser, against their emulators on 127.0.0.1:
// Google Play reviews through AppFollow (a wrong API token is refused with a sentence saying to reconnect,
// an app AppFollow follows in the App Store is refused under Google Play), RuStore reviews through Asodesk.
// The reviews each aggregator already relays are imported on connect.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AppFollowEmulator } from '../../apps/server/emulators/appfollow/emulator';
import { AsodeskEmulator } from '../../apps/server/emulators/asodesk/emulator';
import {
  type ApiTokens,
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

async function openForm(page: Page, provider: string) {
  await page.goto('/settings/accounts/add');
  await page.getByTestId('providers-ready').waitFor({ timeout: 60_000 }); // the first load of a busy machine
  await page.getByTestId('providers-ready').getByTestId(`provider-${provider}`).waitFor();
  await page.getByTestId(`connect-${provider}`).click();
  const form = page.locator(`[data-testid="connect-form"][data-provider="${provider}"]`);
  await form.waitFor();
  return form;
}

describe('connectors: AppFollow and Asodesk through the UI', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let appfollow: AppFollowEmulator;
  let asodesk: AsodeskEmulator;
  let tokens: ApiTokens;

  beforeAll(async () => {
    [smtp, appfollow, asodesk, browser] = await Promise.all([
      startSmtp(),
      AppFollowEmulator.start(),
      AsodeskEmulator.start(),
      launchBrowser(),
    ]);
    app = await startApp({
      smtp,
      env: { AUTH_RATE_LIMIT_PER_IP: '1000', ...appfollow.env, ...asodesk.env },
    });
    tokens = (await createConfirmedUser(app.url, smtp, { name: 'Ирина', company: 'Отзывы' })).tokens;
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([appfollow?.close(), asodesk?.close(), smtp?.close()]);
  });

  test('AppFollow under Google Play: a wrong token and an App Store app are explained; Asodesk for RuStore', async () => {
    const extId = 'com.example.bakery';
    const afToken = appfollow.addToken([
      { appId: extId, store: 'gp' },
      { appId: '1234567890', store: 'as' },
    ]);
    appfollow.review(extId, { text: 'Заказ пришёл тёплым', rating: 5, author: 'Мария' });
    const appId = 'ru.example.bakery';
    const asoToken = asodesk.addToken([{ appId, store: 'rustore' }]);
    asodesk.review(appId, { text: 'Нет оплаты картой Мир', rating: 2 });

    const context = await signedInContext(browser, tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    try {
      const page = await context.newPage();
      let form = await openForm(page, 'af_googleplay');
      await form.getByTestId('credential-api_token').fill('not-a-token');
      await form.getByTestId('credential-ext_id').fill(extId);
      await form.getByTestId('connect-submit').click();
      await form.getByText('доступ к аккаунту отозван или истёк', { exact: false }).waitFor();
      await form.getByTestId('credential-api_token').fill(afToken);
      await form.getByTestId('credential-ext_id').fill('1234567890');
      await form.getByTestId('connect-submit').click();
      await form.getByText('это приложение из другого магазина (as)', { exact: false }).waitFor();
      await form.getByTestId('credential-ext_id').fill(extId);
      await screenshot(page, 'connectors-appfollow-form-ru-1381');
      await form.getByTestId('connect-submit').click();
      await waitForPath(page, '/settings/accounts/add/success');
      expect(appfollow.calls.some((c) => c.headers['x-appfollow-api-token'] === afToken)).toBe(true);

      await page.setViewportSize({ width: 375, height: 800 });
      form = await openForm(page, 'asodesk_rustore');
      await form.getByTestId('credential-api_token').fill(asoToken);
      await form.getByTestId('credential-app_id').fill(appId);
      await screenshot(page, 'connectors-asodesk-form-ru-375');
      await form.getByTestId('connect-submit').click();
      await waitForPath(page, '/settings/accounts/add/success');

      await page.setViewportSize({ width: 1381, height: 900 });
      await page.goto('/items');
      await page.getByText('Заказ пришёл тёплым').first().waitFor();
      await page.getByText('Нет оплаты картой Мир').first().waitFor();
      await screenshot(page, 'connectors-aggregators-items-ru-1381');
    } finally {
      await context.close();
    }
  });
});
