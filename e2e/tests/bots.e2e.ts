// Issue 17, chat-bots: an administrator builds a bot in settings/bots for a messenger account (the
// sandbox, whose chats have no native buttons, so a menu goes as numbered lines), a customer writes, the
// bot greets and shows its menu, an answer by number hands the chat off; the chat page shows the bot's
// card and stats/bots counts the conversation. Shots: the form in ru at 1381 px, stats/bots in en at 375 px.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AppHandle,
  apiOk,
  type BrowserHandle,
  type ConfirmedUser,
  createConfirmedUser,
  launchBrowser,
  type SmtpHandle,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
} from '../harness';

describe('chat-bots', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let spaceId: number;
  let sandboxToken: string;
  const env = { AUTH_RATE_LIMIT_PER_IP: '1000' };

  const api = <T>(method: string, path: string, body?: unknown) =>
    apiOk<T>(app.url, method, path, { token: owner.tokens.access_token, ...(body ? { body } : {}) });

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([startApp({ smtp, env }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    spaceId = (await api<{ spaces: { id: number }[] }>('GET', '/v1/config')).spaces[0]!.id;
    await api('PUT', `/v1/spaces/${spaceId}/features`, { flags: { bots: true } });
    const account = await api<{ sandbox_url: string }>('POST', '/v1/objects', {
      provider: 'sandbox',
      name: 'Кофейня «Зерно»',
    });
    sandboxToken = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('a bot built in the browser greets, shows a numbered menu and hands off; the chat shows it', async () => {
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error.message));
    await page.goto('/settings/bots');
    await page.getByTestId('bots-empty').waitFor({ timeout: 60_000 });
    await page.getByTestId('bot-add').click();
    await page.getByTestId('bot-name').waitFor();
    // Nothing filled: the form says what is missing, in Russian.
    await page.getByTestId('bot-save').click();
    await page.getByText('Введите название бота').waitFor();
    await page.getByTestId('bot-name').fill('Бот кофейни');
    await page.getByTestId('bot-account').click();
    await page.getByRole('option', { name: /Кофейня «Зерно»/ }).click();
    // The new form starts with a greeting and a hand-off; a menu goes between them.
    await page.getByTestId('bot-step-text').nth(0).fill('Здравствуйте! Это бот кофейни.');
    await page.getByTestId('bot-add-step-steps').click();
    await page.getByTestId('bot-add-menu').click();
    const menu = page.getByTestId('bot-step').nth(2);
    await menu.getByTestId('bot-step-text').fill('Что вас интересует?');
    await menu.getByTestId('bot-option-label').fill('Заказ');
    await menu.getByRole('button', { name: 'Выше' }).click();
    await page.getByTestId('bot-step-text').nth(2).fill('Передаю оператору');
    await screenshot(page, 'bots-form-ru-1381');
    await page.getByTestId('bot-save').click();
    await page.getByTestId('bot-row').filter({ hasText: 'Бот кофейни' }).waitFor({ timeout: 60_000 });

    // A customer writes through the sandbox (the one ingestion pipeline); the bot answers at once.
    await apiOk(app.url, 'POST', `/v1/sandbox/${sandboxToken}/messages`, {
      body: { author_name: 'Пётр Соколов', text: 'Добрый день', peer: 'petr' },
    });
    const chatId = (await api<{ items: { id: number }[] }>('GET', '/v1/chats')).items[0]!.id;
    const texts = async () =>
      (await api<{ items: { text: string; is_own: boolean }[] }>('GET', `/v1/chats/${chatId}/messages`)).items
        .filter((m) => m.is_own)
        .map((m) => m.text)
        .sort();
    await expect
      .poll(texts, { timeout: 30_000 })
      .toEqual(['Здравствуйте! Это бот кофейни.', 'Что вас интересует?\n\n1. Заказ']);
    await apiOk(app.url, 'POST', `/v1/sandbox/${sandboxToken}/messages`, {
      body: { author_name: 'Пётр Соколов', text: '1', peer: 'petr' },
    });
    await expect
      .poll(async () => (await texts()).includes('Передаю оператору'), { timeout: 30_000 })
      .toBe(true);
    await page.goto(`/chats/${chatId}/messages`);
    await page
      .getByTestId('chat-bot-card')
      .getByText('бот передал чат оператору')
      .waitFor({ timeout: 60_000 });
    await context.close();
  }, 600_000);

  test('stats/bots in en at 375 px counts the conversation', async () => {
    await api('PUT', '/v1/me', { locale: 'en' });
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'en-US',
      viewport: { width: 375, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(`/stats/bots?space_id=${spaceId}`);
    const table = page.getByTestId('table-bots');
    await table.getByText('Бот кофейни').waitFor({ timeout: 60_000 });
    await page.getByText('Funnel by step: Бот кофейни').waitFor();
    await page.getByText('Handed off').first().waitFor();
    await screenshot(page, 'bots-stats-en-375');
    await context.close();
  }, 300_000);
});
