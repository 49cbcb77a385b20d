// Issue #2 item 17 — an account's life in the browser (Russian, the default): sign up, confirm by the
// mailed link (auto-login, docs/product/states.md), log out through the user menu, log in again, and the `redirect`
// query of /login (docs/product/roles.md).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AppHandle,
  apiRequest,
  type BrowserHandle,
  extractLink,
  launchBrowser,
  logOutThroughUserMenu,
  type SmtpHandle,
  startApp,
  startSmtp,
  storedAccessToken,
  uniqueEmail,
  waitForPath,
  waitForTitle,
} from '../harness';

describe('account lifecycle', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;

  // One account goes through the whole file, step by step.
  const account = {
    name: 'Мария Иванова',
    email: uniqueEmail('lifecycle'),
    password: 'Secret-pass1',
    company: 'Отклик Тест',
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  const ruPage = () => browser.newPage({ baseURL: app.url, locale: 'ru-RU' });

  test('sign up in Russian → confirmation mail → the link signs in and opens the app → logout → /login', async () => {
    const page = await ruPage();
    try {
      await page.goto('/signup');
      await waitForTitle(page, 'Регистрация — Otklik');
      await page.getByRole('heading', { name: 'Регистрация' }).waitFor();

      await page.getByLabel('Имя', { exact: true }).fill(account.name);
      await page.getByLabel('Email', { exact: true }).fill(account.email);
      await page.getByLabel('Пароль', { exact: true }).fill(account.password);
      await page.getByLabel('Компания', { exact: true }).fill(account.company);
      await page.getByRole('button', { name: 'Зарегистрироваться' }).click();

      // "We sent a link to <email>" (docs/product/states.md: plain signup leads to a confirm-email message).
      const sent = page.getByTestId('signup-sent');
      await sent.waitFor();
      expect(await sent.textContent()).toContain(account.email);
      expect(await storedAccessToken(page)).toBeNull();

      const mail = await smtp.waitForMail({ to: account.email });
      const link = extractLink(mail, '/confirm_email/');
      expect(new URL(link).origin).toBe(app.url);

      // Confirmation with a token: accounts check → a new user without accounts goes to add one.
      await page.goto(link);
      await page.getByTestId('confirm-done').waitFor();
      await waitForPath(page, (path) => path === '/settings/accounts/add' || path === '/');
      expect(new URL(page.url()).pathname).toBe('/settings/accounts/add');
      await page.getByTestId('user-menu').waitFor();
      await waitForTitle(page, 'Подключение аккаунта — Otklik');
      expect(await storedAccessToken(page)).not.toBeNull();

      // The user menu shows who is signed in.
      await page.getByTestId('user-menu').click();
      await page.getByRole('menu').getByText(account.email, { exact: true }).waitFor();
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'hidden' });

      // Logout revokes the token on the server, clears storage and goes to /login (docs/product/states.md).
      const token = await storedAccessToken(page);
      expect(token).toBeTruthy();
      await logOutThroughUserMenu(page);
      expect(new URL(page.url()).search).toBe('');
      expect(await storedAccessToken(page)).toBeNull();
      const me = await apiRequest(app.url, 'GET', '/v1/me', { token: token! });
      expect(me.status).toBe(401);
    } finally {
      await page.context().close();
    }
  });

  test('logging in again with email and password lands on the shell (statistics)', async () => {
    const page = await ruPage();
    try {
      await page.goto('/login');
      await waitForTitle(page, 'Вход — Otklik');
      await page.getByLabel('Email', { exact: true }).fill(account.email);
      await page.getByLabel('Пароль', { exact: true }).fill(account.password);
      await page.getByRole('button', { name: 'Войти', exact: true }).click();

      await page.getByTestId('user-menu').waitFor();
      await waitForPath(page, '/');
      await waitForTitle(page, 'Статистика — Otklik');
      // A confirmed email: no confirmation banner.
      expect(await page.getByText('Подтвердите email').count()).toBe(0);

      await logOutThroughUserMenu(page);
    } finally {
      await page.context().close();
    }
  });

  test('a protected path visited signed out → /login?redirect=… → after login that path opens', async () => {
    const page = await ruPage();
    try {
      await page.goto('/settings/profile?tab=main');
      await waitForPath(page, `/login?redirect=${encodeURIComponent('/settings/profile?tab=main')}`);
      await page.getByLabel('Email', { exact: true }).fill(account.email);
      await page.getByLabel('Пароль', { exact: true }).fill(account.password);
      await page.getByRole('button', { name: 'Войти', exact: true }).click();

      await waitForPath(page, '/settings/profile');
      expect(new URL(page.url()).search).toBe('?tab=main');
      await page.getByTestId('user-menu').waitFor();
      await page.getByRole('heading', { name: 'Профиль', level: 1 }).waitFor();
      await waitForTitle(page, 'Профиль — Otklik');
    } finally {
      await page.context().close();
    }
  });

  test('an off-site redirect is ignored: login lands on the home screen', async () => {
    const page = await ruPage();
    try {
      await page.goto('/login?redirect=%2F%2Fevil.example%2Fphish');
      await page.getByLabel('Email', { exact: true }).fill(account.email);
      await page.getByLabel('Пароль', { exact: true }).fill(account.password);
      await page.getByRole('button', { name: 'Войти', exact: true }).click();
      await page.getByTestId('user-menu').waitFor();
      expect(new URL(page.url()).origin).toBe(app.url);
      expect(new URL(page.url()).pathname).toBe('/');
    } finally {
      await page.context().close();
    }
  });
});
