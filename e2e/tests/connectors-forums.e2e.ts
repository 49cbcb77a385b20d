// Issue 20 — the feedback forums' connect forms in the browser, against their emulators on 127.0.0.1:
// UserEcho with the project's address (pasted as a whole URL) and an API token — a wrong token is refused
// with UserEcho's own words, the right one connects and the forum's topic and comment are imported;
// UseResponse with the site's host and an API key, a wrong key refused the same way, the right one
// connects; a UseResponse comment answered from the inbox becomes a comment in its topic.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { UserEchoEmulator } from '../../apps/server/emulators/userecho/emulator';
import { UseResponseEmulator } from '../../apps/server/emulators/useresponse/emulator';
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

describe('connectors: UserEcho and UseResponse through the UI', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let userecho: UserEchoEmulator;
  let useresponse: UseResponseEmulator;
  let tokens: ApiTokens;

  beforeAll(async () => {
    [smtp, userecho, useresponse, browser] = await Promise.all([
      startSmtp(),
      UserEchoEmulator.start(),
      UseResponseEmulator.start(),
      launchBrowser(),
    ]);
    app = await startApp({
      smtp,
      env: { AUTH_RATE_LIMIT_PER_IP: '1000', ...userecho.env, ...useresponse.env },
    });
    tokens = (await createConfirmedUser(app.url, smtp, { name: 'Ольга', company: 'Форумы' })).tokens;
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([userecho?.close(), useresponse?.close(), smtp?.close()]);
  });

  test('UserEcho and UseResponse: a wrong key explained, then connected and imported; a UseResponse comment answered from the inbox', async () => {
    userecho.addSite('garden', 'ue-token-1');
    const topic = userecho.topic('garden', { header: 'Добавьте напоминания о поливе' });
    userecho.comment('garden', topic.id, 'Очень нужно весной');
    useresponse.addSite('feedback.garden.example', 'ur-key-1');
    const idea = useresponse.topic('feedback.garden.example', { header: 'Тёмная тема' });
    useresponse.comment('feedback.garden.example', idea.id, 'Поддерживаю тёмную тему');

    const context = await signedInContext(browser, tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    try {
      const page = await context.newPage();
      let form = await openForm(page, 'userecho');
      await form.getByTestId('credential-alias').fill('https://garden.userecho.com/');
      await form.getByTestId('credential-access_token').fill('wrong-token');
      await form.getByTestId('connect-submit').click();
      await form.getByText('Invalid access token').waitFor();
      await form.getByTestId('credential-access_token').fill('ue-token-1');
      await screenshot(page, 'connectors-userecho-form-ru-1381');
      await form.getByTestId('connect-submit').click();
      await waitForPath(page, '/settings/accounts/add/success');
      expect(userecho.calls.some((c) => c.path === '/garden/api/v2/forums.json')).toBe(true);

      await page.setViewportSize({ width: 375, height: 800 });
      form = await openForm(page, 'useresponse');
      await form.getByTestId('credential-site').fill('feedback.garden.example');
      await form.getByTestId('credential-api_key').fill('wrong-key');
      await form.getByTestId('connect-submit').click();
      await form.getByText('Invalid API key').waitFor();
      await screenshot(page, 'connectors-useresponse-form-ru-375');
      await form.getByTestId('credential-api_key').fill('ur-key-1');
      await form.getByTestId('connect-submit').click();
      await waitForPath(page, '/settings/accounts/add/success');

      // The topic and its comment were imported on connect and show in the comments list.
      await page.setViewportSize({ width: 1381, height: 900 });
      await page.goto('/items');
      await page.getByText('Очень нужно весной').first().waitFor();
      await screenshot(page, 'connectors-forums-items-ru-1381');

      // The UseResponse comment is answered from the inbox: the answer is a comment in its topic.
      const row = page.getByTestId('item-row').filter({ hasText: 'Поддерживаю тёмную тему' });
      await row.waitFor();
      await row.getByTestId('row-link').click();
      await page.getByTestId('item-page').waitFor();
      await page.getByTestId('composer-text').fill('Спасибо, тёмная тема в планах');
      await page.getByTestId('composer-send').click();
      await expect
        .poll(() => idea.comments.some((c) => c.text === 'Спасибо, тёмная тема в планах'), {
          timeout: 45_000,
          interval: 200,
        })
        .toBe(true);
    } finally {
      await context.close();
    }
  });
});
