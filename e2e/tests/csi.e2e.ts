// CSI (issue 21): the administrator switches the satisfaction survey on for a Telegram bot in
// settings/csi; a customer's chat is closed, the survey reaches Telegram with 1–5 inline buttons, the
// customer presses 5; the answer is in csi and the score in stats/csi. Screenshots in ru and en at
// 1381 and 375 px.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTelegramEmulator, type TelegramEmulator } from '../../apps/server/emulators/telegram/emulator';
import {
  type AppHandle,
  apiOk,
  type BrowserHandle,
  type ConfirmedUser,
  createConfirmedUser,
  launchBrowser,
  runAdmin,
  type SmtpHandle,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
} from '../harness';

describe('CSI surveys', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let tg: TelegramEmulator;
  let owner: ConfirmedUser;
  let page: Page;
  let env: Record<string, string>;
  const token = '7001002003:AAH-csi-e2e-token';
  const customer = { id: 55_501, is_bot: false, first_name: 'Мария', username: 'maria_csi' };
  const chat = { id: customer.id, type: 'private' as const, first_name: 'Мария', username: 'maria_csi' };

  const api = <T>(method: string, path: string, body?: unknown) =>
    apiOk<T>(app.url, method, path, { token: owner.tokens.access_token, ...(body ? { body } : {}) });

  beforeAll(async () => {
    [smtp, tg, browser] = await Promise.all([startSmtp(), startTelegramEmulator(), launchBrowser()]);
    env = { AUTH_RATE_LIMIT_PER_IP: '1000', TELEGRAM_API_URL: tg.url, PROVIDER_UPDATES: 'webhook' };
    app = await startApp({ smtp, env });
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Цветы' });
    const spaceId = (await api<{ spaces: { id: number }[] }>('GET', '/v1/config')).spaces[0]!.id;
    // CSI comes with a special tariff: the operator moves the space there, the owner switches it on.
    const dataDir = app.dataDir;
    await app.stop({ keepData: true });
    runAdmin(dataDir, ['set-tariff', String(spaceId), '20']);
    app = await startApp({ smtp, env, dataDir });
    await api('PUT', `/v1/spaces/${spaceId}/features`, { flags: { csi_menu: true } });
    tg.addBot(token, { id: 7_001_002_003, first_name: 'Цветочная лавка', username: 'flowers_csi_bot' });
    await api('POST', '/v1/objects', { provider: 'telegram', credentials: { bot_token: token } });
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    page = await context.newPage();
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([tg?.close(), smtp?.close()]);
  });

  test('switch the survey on, close a Telegram chat, the customer presses 5: csi and stats/csi show it', async () => {
    await page.goto('/settings/csi');
    const row = page.getByTestId('csi-account').filter({ hasText: 'Цветочная лавка' });
    await row.getByText('Кнопки 1–5').waitFor();
    await row.getByTestId('csi-edit').click();
    await page.getByTestId('csi-survey-ru').fill('Оцените, пожалуйста, нашу помощь от 1 до 5');
    await page.getByTestId('csi-form-enabled').check();
    await screenshot(page, 'csi-settings-form-ru-1381');
    await page.getByTestId('csi-save').click();
    await row.getByText('Включён').waitFor();
    await screenshot(page, 'csi-settings-ru-1381');

    // The customer writes; the operator answers and closes the chat.
    await tg.deliver(token, {
      message: tg.customerMessage(token, {
        chat,
        from: customer,
        text: 'Здравствуйте, букет доставят сегодня?',
      }),
    });
    const chatList = () => api<{ items: { id: number }[] }>('GET', '/v1/chats');
    await expect.poll(async () => (await chatList()).items.length, { timeout: 20_000 }).toBe(1);
    const chats = (await chatList()).items;
    await api('POST', `/v1/chats/${chats[0]!.id}/messages`, { text: 'Да, к вечеру', close: true });
    await expect
      .poll(() => tg.callsOf('sendMessage').find((c) => c.params.reply_markup !== undefined)?.params, {
        timeout: 30_000,
      })
      .toMatchObject({
        chat_id: String(customer.id),
        text: 'Оцените, пожалуйста, нашу помощь от 1 до 5',
        reply_markup: { inline_keyboard: [[{ text: '1', callback_data: '1' }, {}, {}, {}, {}]] },
      });
    const survey = [...tg.bot(token).messages.values()].find((m) => m.message.reply_markup)!.message;
    await tg.pressButton(token, customer, survey, '5');

    await page.goto('/csi');
    const answer = page.getByTestId('csi-response').first();
    await answer.getByTestId('csi-score').getByText('5').waitFor({ timeout: 20_000 });
    await answer.getByText('Ольга Админ').waitFor();
    await screenshot(page, 'csi-list-ru-1381');

    await page.goto('/stats/csi');
    await expect
      .poll(() => page.getByTestId('kpi-csat-value').textContent(), { timeout: 20_000 })
      .toBe('100%');
    expect(await page.getByTestId('kpi-csi-average-value').textContent()).toBe('5.00');
    await page.getByTestId('table-csi-users').getByText('Ольга Админ').waitFor();
    await screenshot(page, 'csi-stats-ru-1381');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'csi-stats-ru-375');

    await api('PUT', '/v1/me', { locale: 'en' });
    await page.goto('/stats/csi?locale=en');
    await page.getByTestId('kpi-csi-rate').getByText('Response rate').waitFor();
    await screenshot(page, 'csi-stats-en-375');
    await page.setViewportSize({ width: 1381, height: 900 });
    await screenshot(page, 'csi-stats-en-1381');
    await page.goto('/csi?locale=en');
    await page.getByText('Customer ratings').waitFor();
    await screenshot(page, 'csi-list-en-1381');
    await page.goto('/settings/csi?locale=en');
    await page.getByTestId('csi-account').getByText('On', { exact: true }).waitFor();
    await screenshot(page, 'csi-settings-en-1381');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'csi-settings-en-375');
  });
});
