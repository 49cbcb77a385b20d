// Issue 20 (Jivo): an administrator connects Jivo as a bot provider on settings/accounts/add (the provider id
// Jivo issued and the token agreed with it), against the Jivo emulator on 127.0.0.1; an id that cannot be
// part of Jivo's endpoint is marked on the form; the account page gives the secret events address to hand
// to Jivo; a client's CLIENT_MESSAGE pushed there appears live in Personal messages and the operator's
// answer reaches Jivo as a BOT_MESSAGE.
import { randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { JivoEmulator } from '../../apps/server/emulators/jivo/emulator';
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
  waitForTitle,
} from '../harness';

const DESKTOP = { width: 1381, height: 900 };

async function openForm(page: Page) {
  await page.goto('/settings/accounts/add');
  await page.getByTestId('providers-ready').getByTestId('provider-jivo').waitFor();
  await page.getByTestId('connect-jivo').click();
  const form = page.locator('[data-testid="connect-form"][data-provider="jivo"]');
  await form.waitFor();
  return form;
}

describe('connectors: Jivo through the UI', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let jivo: JivoEmulator;

  beforeAll(async () => {
    [smtp, jivo, browser] = await Promise.all([startSmtp(), JivoEmulator.start(), launchBrowser()]);
    app = await startApp({
      smtp,
      env: { AUTH_RATE_LIMIT_PER_IP: '1000', JIVO_API_URL: jivo.url, PROVIDER_UPDATES: 'webhook' },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([jivo?.close(), smtp?.close()]);
  });

  test('provider id and token; the events address from the account page; a client writes, the answer goes back', async () => {
    const providerId = `otklik-e2e-${randomInt(1e5, 9e5)}`;
    const token = `jivo-token-${randomInt(1e8, 9e8)}`;
    jivo.addBot(providerId, token);
    const { tokens } = await createConfirmedUser(app.url, smtp, {
      name: 'Ира Оператор',
      company: 'Пекарня',
      locale: 'ru',
    });
    const context = await signedInContext(browser, tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: DESKTOP,
    });
    try {
      const page = await context.newPage();
      // A provider id with a space and a slash cannot be part of Jivo's endpoint: the field says so.
      const refused = await openForm(page);
      await refused.getByTestId('credential-provider_id').fill('bad id/1');
      await refused.getByTestId('credential-token').fill(token);
      await refused.getByTestId('connect-submit').click();
      await refused.getByText('Некорректное значение').first().waitFor();
      await screenshot(page, 'connectors-jivo-refused-ru-1381');

      const form = await openForm(page);
      await form.getByTestId('credential-provider_id').fill(providerId);
      await form.getByTestId('credential-token').fill(token);
      await form.getByTestId('connect-submit').click();
      await waitForPath(page, '/settings/accounts/add/success');
      await page.getByTestId('connect-success').getByText(`Jivo ${providerId}`).first().waitFor();

      // The account page gives the address to hand to Jivo, with its secret.
      const list = await apiOk<{ items: Array<{ id: number; provider: string }> }>(
        app.url,
        'GET',
        '/v1/objects',
        { token: tokens.access_token },
      );
      const account = list.items.find((o) => o.provider === 'jivo')!;
      await page.goto(`/settings/accounts/${account.id}`);
      await page.getByTestId('account-setup').getByText('Передайте этот адрес в Jivo').waitFor();
      const address = (await page.getByTestId('setup-webhook_url').textContent())!.trim();
      expect(address).toMatch(new RegExp(`/v1/webhooks/jivo/${account.id}\\?secret=[A-Za-z0-9_-]{20,}$`));
      await screenshot(page, 'connectors-jivo-account-ru-1381');

      await page.goto('/chats');
      await waitForTitle(page, 'Личные сообщения — Otklik');
      const question = 'Можно заказать торт на субботу?';
      const pushed = await jivo.clientMessage(address, {
        clientId: '4242',
        chatId: `${randomInt(1e5, 9e5)}`,
        name: 'Ольга',
        text: question,
      });
      expect(pushed.status).toBe(200);
      const row = page.getByTestId('chat-row').filter({ hasText: question });
      await row.waitFor({ timeout: 20_000 });
      await row.getByTestId('row-link').click();
      await page.getByTestId('chat-messages').getByText(question).waitFor();

      const reply = 'Да, оформим до четверга.';
      await page.getByTestId('composer-text').fill(reply);
      await page.getByTestId('composer-send').click();
      await page.getByTestId('chat-messages').getByText(reply).waitFor();
      await expect
        .poll(
          () =>
            jivo.received.some(
              (m) =>
                m.providerId === providerId &&
                m.body.event === 'BOT_MESSAGE' &&
                m.body.client_id === '4242' &&
                m.body.message?.text === reply,
            ),
          { timeout: 45_000, interval: 200 },
        )
        .toBe(true);
      await screenshot(page, 'connectors-jivo-chat-ru-1381');
    } finally {
      await context.close();
    }
  });
});
