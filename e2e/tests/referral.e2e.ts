// Issue 14 item 6 in Chromium: a partner (made one by the operator's CLI) finds their link and code on
// Settings → Referral program; a newcomer opening the link gets the code filled in and signs up, which
// the partner then sees; a wrong promocode at signup is refused with a clear message on its field.
// In Russian and English, desktop and mobile.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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
  uniqueEmail,
  waitForTitle,
} from '../harness';

describe('settings/referral and promocodes at signup', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let partner: ConfirmedUser;

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([startApp({ smtp }), launchBrowser()]);
    partner = await createConfirmedUser(app.url, smtp, { name: 'Пётр Партнёр', company: 'Агентство' });
    const dataDir = app.dataDir;
    await app.stop({ keepData: true });
    runAdmin(dataDir, ['partner', partner.email, 'on']);
    app = await startApp({ smtp, dataDir });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('the partner’s link signs a newcomer up with the code; a wrong code is refused', async () => {
    const context = await signedInContext(browser, partner.tokens, { baseURL: app.url });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Реферальная программа' }).click();
    await waitForTitle(page, 'Партнёрская программа — Otklik');
    const link = await page.getByTestId('referral-link-input').inputValue();
    const code = await page.getByTestId('referral-code').inputValue();
    expect(link).toBe(`${app.url}/signup?promocode=${code}`);
    await screenshot(page, 'referral-empty-ru-1381');

    const newcomer = await browser.newPage({ baseURL: app.url, locale: 'ru-RU' });
    try {
      await newcomer.goto('/signup?promocode=NOPE');
      await newcomer.getByLabel('Имя', { exact: true }).fill('Новый клиент');
      await newcomer.getByLabel('Email', { exact: true }).fill(uniqueEmail('newcomer'));
      await newcomer.getByLabel('Пароль', { exact: true }).fill('Secret-pass1');
      await newcomer.getByLabel('Компания', { exact: true }).fill('Новая кофейня');
      expect(await newcomer.getByLabel('Промокод', { exact: true }).inputValue()).toBe('NOPE');
      await newcomer.getByRole('button', { name: 'Зарегистрироваться' }).click();
      await newcomer.getByText('Промокод не найден или больше не действует').first().waitFor();
      await screenshot(newcomer, 'signup-promocode-invalid-ru-1381');

      await newcomer.goto(link);
      await newcomer.getByLabel('Имя', { exact: true }).fill('Новый клиент');
      await newcomer.getByLabel('Email', { exact: true }).fill(uniqueEmail('newcomer'));
      await newcomer.getByLabel('Пароль', { exact: true }).fill('Secret-pass1');
      await newcomer.getByLabel('Компания', { exact: true }).fill('Новая кофейня');
      expect(await newcomer.getByLabel('Промокод', { exact: true }).inputValue()).toBe(code);
      await newcomer.getByRole('button', { name: 'Зарегистрироваться' }).click();
      await newcomer.getByTestId('signup-sent').waitFor();
    } finally {
      await newcomer.close();
    }

    await page.reload();
    await page.getByTestId('referral-signups').getByText('Новая кофейня').waitFor();
    expect(await page.getByTestId('referral-signups-count').textContent()).toContain('1');
    await screenshot(page, 'referral-ru-1381');
  });

  test('reads in English and fits a phone', async () => {
    await apiOk(app.url, 'PUT', '/v1/me', { token: partner.tokens.access_token, body: { locale: 'en' } });
    const context = await signedInContext(browser, partner.tokens, { baseURL: app.url });
    const page = await context.newPage();
    for (const width of [375, 1381]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/settings/referral?locale=en');
      await waitForTitle(page, 'Referral program — Otklik');
      await page.getByTestId('referral-signups').getByText('Trial').waitFor();
      await screenshot(page, `referral-en-${width}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
  });
});
