// Issue #2 item 17 — password recovery in the browser: /recovery → mail → /reset_password/{hash} → a new
// password signs in; the old password is refused ('Введен неверный пароль', docs/product/errors.md), the new one works;
// the used link shows a persistent error and a disabled form (docs/product/errors.md reset-password check failure).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AppHandle,
  apiOk,
  apiRequest,
  type BrowserHandle,
  type ConfirmedUser,
  createConfirmedUser,
  extractLink,
  launchBrowser,
  logOutThroughUserMenu,
  type SmtpHandle,
  signInThroughUi,
  startApp,
  startSmtp,
  waitForFieldError,
  waitForPath,
  waitForTitle,
  webClient,
} from '../harness';

describe('password recovery', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let user: ConfirmedUser;
  let resetLink = '';
  const newPassword = 'Brand-new-pass7';

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } }),
      launchBrowser(),
    ]);
    user = await createConfirmedUser(app.url, smtp, { name: 'Пётр Забывчивый' });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  const ruPage = () => browser.newPage({ baseURL: app.url, locale: 'ru-RU' });

  test('/recovery mails a link; the link sets a new password and signs in', async () => {
    const page = await ruPage();
    try {
      // From the login form's "forgot password" link.
      await page.goto('/login');
      await page.getByRole('link', { name: 'Забыли пароль?' }).click();
      await waitForPath(page, '/recovery');
      await waitForTitle(page, 'Восстановление пароля — Otklik');

      await page.getByLabel('Email', { exact: true }).fill(user.email);
      await page.getByRole('button', { name: 'Отправить ссылку' }).click();
      const sent = page.getByTestId('recovery-sent');
      await sent.waitFor();
      expect(await sent.textContent()).toBe('Письмо для восстановления пароля отправлено');

      const mail = await smtp.waitForMail({ to: user.email });
      resetLink = extractLink(mail, '/reset_password/');

      await page.goto(resetLink);
      await waitForTitle(page, 'Новый пароль — Otklik');
      await page.getByText(`Для ${user.email}`, { exact: true }).waitFor();
      const password = page.getByLabel('Новый пароль', { exact: true });
      await password.fill(newPassword);
      await page.getByLabel('Подтверждение пароля', { exact: true }).fill(newPassword);
      // The notice shows for a few seconds while the app signs in and opens `/`: watched from the click on,
      // or a slow machine's landing can outlast it.
      const changed = page.getByText('Пароль изменен', { exact: true }).waitFor();
      changed.catch(() => {}); // awaited below; this only keeps a failure above from leaving it unhandled
      await page.getByRole('button', { name: 'Сохранить пароль' }).click();

      await page.getByTestId('user-menu').waitFor();
      await waitForPath(page, '/');
      await changed;

      await logOutThroughUserMenu(page);
    } finally {
      await page.context().close();
    }
  });

  test("the old password is refused with 'Введен неверный пароль'; the new one signs in", async () => {
    expect(resetLink, 'the previous test resets the password').not.toBe('');
    const page = await ruPage();
    try {
      await page.goto('/login');
      const email = page.getByLabel('Email', { exact: true });
      const password = page.getByLabel('Пароль', { exact: true });
      await email.fill(user.email);
      await password.fill(user.password);
      // Enter, not a click: see the PRODUCT BUG note in validation.e2e.ts (server errors wiped on blur).
      await password.press('Enter');
      await waitForFieldError(password, 'Введен неверный пароль');
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await page.getByTestId('user-menu').count()).toBe(0);

      await password.fill(newPassword);
      await page.getByRole('button', { name: 'Войти', exact: true }).click();
      await page.getByTestId('user-menu').waitFor();
      await waitForPath(page, '/');
    } finally {
      await page.context().close();
    }
  });

  test('the used link shows a persistent error and the form stays disabled', async () => {
    expect(resetLink, 'the first test uses the link').not.toBe('');
    const page = await ruPage();
    try {
      await page.goto(resetLink);
      const error = page.getByTestId('reset-check-error');
      await error.waitFor();
      expect(await page.getByTestId('reset-form').getByRole('alert').count()).toBe(1);
      expect(await error.textContent()).toContain('Несуществующий хэш');
      await error.getByRole('link', { name: 'Запросить новую ссылку' }).waitFor();

      const password = page.getByLabel('Новый пароль', { exact: true });
      const confirm = page.getByLabel('Подтверждение пароля', { exact: true });
      const submit = page.getByRole('button', { name: 'Сохранить пароль' });
      expect(await password.isDisabled()).toBe(true);
      expect(await confirm.isDisabled()).toBe(true);
      expect(await submit.isDisabled()).toBe(true);

      // Persistent: an alert inside the form (not a toast that goes away), still there after the user
      // tries to use the form.
      await submit.click({ force: true });
      await password.click({ force: true });
      expect(await error.isVisible()).toBe(true);
      expect(await submit.isDisabled()).toBe(true);
      expect(await page.getByTestId('user-menu').count()).toBe(0);
      expect(new URL(page.url()).pathname).toBe(new URL(resetLink).pathname);
    } finally {
      await page.context().close();
    }
  });

  test('a password change on the profile page keeps this page signed in and ends the other sessions', async () => {
    expect(resetLink, 'the first test resets the password').not.toBe('');
    const other = await apiOk<{ access_token: string }>(app.url, 'POST', '/v1/oauth2/token', {
      body: { grant_type: 'password', ...webClient, username: user.email, password: newPassword },
    });
    const page = await ruPage();
    try {
      await page.goto('/login?redirect=%2Fsettings%2Fprofile');
      await signInThroughUi(page, user.email, newPassword);
      await waitForPath(page, '/settings/profile');
      await page.getByLabel('Текущий пароль', { exact: true }).fill(newPassword);
      await page.getByLabel('Новый пароль', { exact: true }).fill('Changed-pass8!');
      await page.getByRole('button', { name: 'Изменить пароль', exact: true }).click();
      await page.getByText('Пароль изменен', { exact: true }).waitFor();

      // The other session ended (issue 11 item 8); this page runs on the rotated token, also after a reload.
      expect((await apiRequest(app.url, 'GET', '/v1/me', { token: other.access_token })).status).toBe(401);
      await page.reload();
      await waitForTitle(page, 'Профиль — Otklik');
      await page.getByTestId('user-menu').waitFor();
      expect(new URL(page.url()).pathname).toBe('/settings/profile');
    } finally {
      await page.context().close();
    }
  });
});
