// Issue 21, HelpDeskEddy: an administrator connects the space on settings/hde/new against the emulator
// on 127.0.0.1 (HDE_ALLOW_PRIVATE), tests the connection, creates a ticket from an item and sees its link
// and status. Settings and the item page are shot in ru and en at 375 and 1381 pixels.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type HdeEmulator, startHdeEmulator } from '../../apps/server/emulators/hde/emulator';
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

describe('HelpDeskEddy', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let hde: HdeEmulator;
  let itemId: number;
  let integrationId: number;

  beforeAll(async () => {
    smtp = await startSmtp();
    hde = await startHdeEmulator();
    [app, browser] = await Promise.all([
      startApp({
        smtp,
        env: { AUTH_RATE_LIMIT_PER_IP: '1000', HDE_ALLOW_PRIVATE: 'true' },
        startTimeoutMs: 240_000,
      }),
      launchBrowser(),
    ]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    const account = await apiOk<{ sandbox_url: string }>(app.url, 'POST', '/v1/objects', {
      token: owner.tokens.access_token,
      body: { provider: 'sandbox', name: 'Кофейня «Зерно»' },
    });
    const sandboxToken = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
    await apiOk(app.url, 'POST', `/v1/sandbox/${sandboxToken}/comments`, {
      body: { author_name: 'Мария Ковалёва', text: 'Заказ не пришел уже неделю' },
    });
    const list = await apiOk<{ items: Array<{ id: number }> }>(app.url, 'GET', '/v1/items?limit=10', {
      token: owner.tokens.access_token,
    });
    itemId = list.items[0]!.id;
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
    await hde?.close();
  });

  test('connect on settings/hde, test it, create a ticket from an item and see its link', async () => {
    const context = await signedInContext(browser, owner.tokens, { baseURL: app.url, locale: 'ru-RU' });
    const page = await context.newPage();
    page.setDefaultTimeout(45_000);
    await page.goto('/settings/hde/new');
    await page.getByTestId('hde-domain').fill(hde.url);
    await page.getByTestId('hde-email').fill(hde.email);
    await page.getByTestId('hde-save').click();
    await page.getByText('Введите ключ API').waitFor();
    await page.getByTestId('hde-key').fill(hde.apiKey);
    await page.getByTestId('hde-save').click();
    await page.waitForURL(/\/settings\/hde\/\d+$/);
    integrationId = Number(page.url().split('/').pop());
    await page.getByTestId('hde-test').click();
    await page.getByTestId('hde-check').getByText('Подключение работает').waitFor();
    // The key never comes back to the page.
    expect(await page.content()).not.toContain(hde.apiKey);

    await page.goto(`/items/${itemId}`);
    await page.getByTestId('hde-create').click();
    await page.getByTestId('hde-submit').click();
    const link = page.getByTestId('hde-ticket').getByRole('link');
    await link.waitFor();
    const sent = hde.tickets.at(-1)!;
    expect(sent.title).toBe('Заказ не пришел уже неделю');
    expect(sent.user_name).toBe('Мария Ковалёва');
    expect(await link.getAttribute('href')).toBe(`${hde.url}/ticket/list/filter/id/1/ticket/${sent.id}/`);
    await page.getByTestId('hde-ticket').getByText('Статус: open').waitFor();
    await context.close();
  }, 180_000);

  test('settings and the item page in ru and en, at 375 and 1381 pixels', async () => {
    for (const [locale, lang] of [
      ['ru-RU', 'ru'],
      ['en-US', 'en'],
    ] as const) {
      await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: lang } });
      for (const width of [375, 1381]) {
        const context = await signedInContext(browser, owner.tokens, {
          baseURL: app.url,
          locale,
          viewport: { width, height: 900 },
        });
        const page = await context.newPage();
        page.setDefaultTimeout(45_000);
        await page.goto(`/settings/hde/${integrationId}`);
        await page.getByTestId('hde-check').waitFor();
        await screenshot(page, `hde-settings-${lang}-${width}`);
        await page.goto(`/items/${itemId}`);
        await page.getByTestId('hde-ticket').waitFor();
        await page.getByTestId('hde-tickets').scrollIntoViewIfNeeded();
        await screenshot(page, `hde-item-${lang}-${width}`);
        await context.close();
      }
    }
  }, 420_000);
});
