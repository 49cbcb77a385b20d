// Issues 19 and 20 — the app stores' connect forms in the browser, against their emulators on 127.0.0.1:
// Google Play with a service account's JSON key loaded from the file (a pasted non-key is refused with a
// sentence that says what is wanted), RuStore with a key id and its private key (a key of another app is
// refused with RuStore's words). The review each store already holds is imported on connect.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GooglePlayEmulator } from '../../apps/server/emulators/googleplay/emulator';
import { RuStoreEmulator } from '../../apps/server/emulators/rustore/emulator';
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

describe('connectors: Google Play and RuStore through the UI', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let play: GooglePlayEmulator;
  let rustore: RuStoreEmulator;
  let tokens: ApiTokens;

  beforeAll(async () => {
    [smtp, play, rustore, browser] = await Promise.all([
      startSmtp(),
      GooglePlayEmulator.start(),
      RuStoreEmulator.start(),
      launchBrowser(),
    ]);
    app = await startApp({
      smtp,
      env: { AUTH_RATE_LIMIT_PER_IP: '1000', ...play.env, ...rustore.env },
    });
    tokens = (await createConfirmedUser(app.url, smtp, { name: 'Ольга', company: 'Приложения' })).tokens;
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([play?.close(), rustore?.close(), smtp?.close()]);
  });

  test('Google Play: the JSON key from a file; RuStore: key id and private key; bad keys are explained', async () => {
    const packageName = 'com.example.garden';
    const key = play.addServiceAccount([packageName]);
    play.review(packageName, { text: 'Удобно поливать по расписанию', starRating: 5 });
    const rsPackage = 'ru.example.garden';
    const rsKey = rustore.addKey([rsPackage]);
    const other = rustore.addKey(['ru.example.other']);
    rustore.comment(rsPackage, { text: 'Не хватает тёмной темы', rating: 3 });

    const context = await signedInContext(browser, tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    try {
      const page = await context.newPage();
      let form = await openForm(page, 'googleplay');
      await form.getByTestId('credential-package_name').fill(packageName);
      await form.getByTestId('credential-service_account_json').fill('{"type":"authorized_user"}');
      await form.getByTestId('connect-submit').click();
      await form.getByText('Это не ключ сервисного аккаунта Google').waitFor();
      await form.locator('input[type=file]').setInputFiles({
        name: 'garden-key.json',
        mimeType: 'application/json',
        buffer: Buffer.from(key.json),
      });
      await form.getByText('Загружен файл garden-key.json').waitFor();
      expect(await form.getByTestId('credential-service_account_json').inputValue()).toContain(
        'service_account',
      );
      await screenshot(page, 'connectors-googleplay-form-ru-1381');
      await form.getByTestId('connect-submit').click();
      await waitForPath(page, '/settings/accounts/add/success');
      expect(play.calls.some((c) => c.path === '/token')).toBe(true);

      await page.setViewportSize({ width: 375, height: 800 });
      form = await openForm(page, 'rustore');
      await form.getByTestId('credential-package_name').fill(rsPackage);
      await form.getByTestId('credential-key_id').fill(rsKey.keyId);
      await form.getByTestId('credential-private_key').fill(other.privateKey);
      await form.getByTestId('connect-submit').click();
      await form.getByText('Неверная подпись').waitFor();
      await form.getByTestId('credential-private_key').fill(rsKey.privateKey);
      await screenshot(page, 'connectors-rustore-form-ru-375');
      await form.getByTestId('connect-submit').click();
      await waitForPath(page, '/settings/accounts/add/success');

      // What each store held is imported on connect and shows in the reviews list.
      await page.setViewportSize({ width: 1381, height: 900 });
      await page.goto('/items');
      await page.getByText('Удобно поливать по расписанию').first().waitFor();
      await page.getByText('Не хватает тёмной темы').first().waitFor();
      await screenshot(page, 'connectors-stores-items-ru-1381');
    } finally {
      await context.close();
    }
  });
});
