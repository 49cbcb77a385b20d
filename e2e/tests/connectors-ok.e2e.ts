// Issue 20 (OK): an administrator connects an Odnoklassniki group on settings/accounts/add by pasting the
// group's Bot API key, against the OK emulator on 127.0.0.1; a wrong key shows OK's refusal on the form;
// a member's message pushed by OK's webhook appears live in Personal messages and the answer reaches
// `POST /graph/me/messages/{chat_id}`.
import { randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OkEmulator } from '../../apps/server/emulators/ok/emulator';
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
  waitForTitle,
} from '../harness';

const DESKTOP = { width: 1381, height: 900 };

async function openForm(page: Page) {
  await page.goto('/settings/accounts/add');
  await page.getByTestId('providers-ready').getByTestId('provider-ok').waitFor();
  await page.getByTestId('connect-ok').click();
  const form = page.locator('[data-testid="connect-form"][data-provider="ok"]');
  await form.waitFor();
  return form;
}

describe('connectors: OK through the UI', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let ok: OkEmulator;

  beforeAll(async () => {
    [smtp, ok, browser] = await Promise.all([startSmtp(), OkEmulator.start(), launchBrowser()]);
    app = await startApp({
      smtp,
      env: { AUTH_RATE_LIMIT_PER_IP: '1000', OK_API_URL: ok.url, PROVIDER_UPDATES: 'webhook' },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([ok?.close(), smtp?.close()]);
  });

  test('paste the group key (a wrong one is refused); a member writes; the answer goes to the chat', async () => {
    const token = `tkn1${randomInt(1e8, 9e8)}e2e`;
    const group = ok.addGroup(token, 'Пекарня на Садовой');
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
      const refused = await openForm(page);
      await refused.getByTestId('credential-access_token').fill('not-a-key');
      await refused.getByTestId('connect-submit').click();
      await refused.getByTestId('connect-error').waitFor();
      await screenshot(page, 'connectors-ok-refused-ru-1381');

      const form = await openForm(page);
      await form.getByTestId('credential-access_token').fill(token);
      await form.getByTestId('connect-submit').click();
      await waitForPath(page, '/settings/accounts/add/success');
      await page.getByTestId('connect-success').getByText(group.name).first().waitFor();
      expect(ok.subscriptionsOf(token)).toHaveLength(1);

      await page.goto('/chats');
      await waitForTitle(page, 'Личные сообщения — Otklik');
      const chatId = `chat:C3e2e${randomInt(1e6, 9e6)}`;
      const question = 'Есть ли сегодня бородинский?';
      expect(
        await ok.deliver(
          token,
          ok.message({ chatId, userId: 'user:575123456789', name: 'Ольга', text: question }),
        ),
      ).toEqual([200]);
      const row = page.getByTestId('chat-row').filter({ hasText: question });
      await row.waitFor({ timeout: 20_000 });
      await row.getByTestId('row-link').click();
      await page.getByTestId('chat-messages').getByText(question).waitFor();

      const reply = 'Да, до восьми вечера.';
      await page.getByTestId('composer-text').fill(reply);
      await page.getByTestId('composer-send').click();
      await page.getByTestId('chat-messages').getByText(reply).waitFor();
      await expect
        .poll(() => ok.sent.some((m) => m.chatId === chatId && m.text === reply), {
          timeout: 45_000,
          interval: 200,
        })
        .toBe(true);
      await screenshot(page, 'connectors-ok-chat-ru-1381');
    } finally {
      await context.close();
    }
  });
});
