// Issue 14 item 1: an administrator manages the space on Settings → Other — renames it, sees the
// tariff's limits and usage, switches on a feature the tariff allows (its menu entry appears), cannot
// switch on one it does not, and creates another space. In Russian and English, desktop and mobile.
import type { Page } from 'playwright-core';
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
  waitForTitle,
} from '../harness';

describe('settings/other: the space and its features', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let page: Page;

  const setLocale = (locale: 'ru' | 'en') =>
    apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale } });

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([startApp({ smtp }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Анна Админ', company: 'Кофейня' });
    const context = await signedInContext(browser, owner.tokens, { baseURL: app.url });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('rename, switch a feature on and see its menu entry, refused feature, another space', async () => {
    await page.goto('/settings');
    await page.getByTestId('settings-card-space').click();
    await waitForTitle(page, 'Прочие настройки — Otklik');
    await page.getByTestId('space-tariff-name').getByText('Пробный').waitFor();
    await page.getByTestId('space-tariff').getByText('1 из 5').waitFor();

    const name = page.getByTestId('space-name');
    await name.fill('');
    await page.getByTestId('space-save').click();
    await page.getByText('Укажите название пространства').waitFor();
    await name.fill('Кофейня на Лесной');
    await page.getByTestId('space-save').click();
    await page.getByText('Изменения сохранены').or(page.getByText('Сохранено')).first().waitFor();
    const config = await apiOk<{ spaces: Array<{ name: string; settings: Record<string, unknown> }> }>(
      app.url,
      'GET',
      '/v1/config',
      { token: owner.tokens.access_token },
    );
    expect(config.spaces[0]!.name).toBe('Кофейня на Лесной');

    // Labels are in the trial's tariff: switching them on brings Settings → Labels.
    const labels = page.getByTestId('space-flag-labels');
    expect(await labels.isChecked()).toBe(false);
    await labels.click({ force: true });
    await expect.poll(() => labels.isChecked()).toBe(true);
    await page.goto('/settings');
    await page.getByTestId('settings-card-labels').waitFor();
    await page.goto('/settings/other');

    // Quality check is not in the trial: the switch stays off and says why.
    const qa = page.getByTestId('space-flag-qa');
    expect(await qa.isDisabled()).toBe(true);
    await page.getByTestId('space-features').getByText('Недоступно в текущем тарифе.').first().waitFor();
    await screenshot(page, 'space-settings-ru-1381');

    await page.getByTestId('space-create').click();
    await page.getByTestId('space-create-name').fill('Второй бренд');
    await page.getByTestId('space-create-submit').click();
    await page.getByTestId('space-select').waitFor();
    await expect.poll(() => page.getByTestId('space-name').inputValue()).toBe('Второй бренд');
  });

  test('reads in English and fits a phone', async () => {
    await setLocale('en');
    try {
      for (const width of [375, 768, 1025]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/settings/other?locale=en');
        await waitForTitle(page, 'Other settings — Otklik');
        await page.getByTestId('space-features').getByText('Author labels').waitFor();
        await screenshot(page, `space-settings-en-${width}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
    } finally {
      await setLocale('ru');
      await page.setViewportSize({ width: 1381, height: 900 });
    }
  });
});
