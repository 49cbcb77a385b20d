// Issue #2 item 17 — two-factor authentication in the browser: enabled on /settings/profile (the key
// shown there, a TOTP code computed from it like an authenticator app would), then login asks for the
// code after email and password (docs/product/states.md), rejects a wrong one and accepts the right one.
import { authenticator } from 'otplib';
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
} from '../harness';

/** A 6-digit code that the server's ±1 step window does not accept right now. */
function wrongCode(secret: string): string {
  const step = 30_000;
  const now = Date.now();
  const valid = new Set(
    [-2, -1, 0, 1, 2].map((offset) =>
      authenticator.clone({ epoch: now + offset * step, window: 0 }).generate(secret),
    ),
  );
  let candidate = Number(authenticator.generate(secret));
  do candidate = (candidate + 123_457) % 1_000_000;
  while (valid.has(String(candidate).padStart(6, '0')));
  return String(candidate).padStart(6, '0');
}

describe('two-factor authentication', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let user: ConfirmedUser;
  let secret = '';
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } }),
      launchBrowser(),
    ]);
    user = await createConfirmedUser(app.url, smtp, { name: 'Олег Двухфакторный' });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('the user enables 2FA on the profile page with a code from the shown key', async () => {
    const page = await browser.newPage({ baseURL: app.url, locale: 'ru-RU' });
    try {
      await page.goto('/login?redirect=%2Fsettings%2Fprofile');
      await signInThroughUi(page, user.email, user.password);
      await waitForPath(page, '/settings/profile');
      await waitForTitle(page, 'Профиль — Otklik');

      const status = page.getByTestId('otp-status');
      await status.waitFor();
      expect(await status.textContent()).toBe('Двухфакторная аутентификация выключена');
      await page.getByRole('button', { name: 'Включить', exact: true }).click();

      const setup = page.getByTestId('otp-setup');
      await setup.waitFor();
      await setup.getByRole('img', { name: 'QR-код для приложения-аутентификатора' }).waitFor();
      secret = ((await page.getByTestId('otp-secret').textContent()) ?? '').trim();
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      recoveryCodes = await page.getByTestId('otp-recovery-codes').locator('li').allTextContents();
      expect(recoveryCodes.length).toBeGreaterThan(0);

      // A wrong code is refused and 2FA stays off.
      const codeField = page.getByLabel('Код из приложения', { exact: true });
      // Submitted with Enter: a click on the button blurs the field, and the form's delayed blur
      // validation then wipes a fast server error (PRODUCT BUG, see validation.e2e.ts).
      await codeField.fill(wrongCode(secret));
      await codeField.press('Enter');
      await waitForFieldError(codeField, 'Неверный код');
      expect(await status.textContent()).toBe('Двухфакторная аутентификация выключена');

      await codeField.fill(authenticator.generate(secret));
      await page.getByRole('button', { name: 'Подтвердить', exact: true }).click();
      await page.getByText('Двухфакторная аутентификация включена', { exact: true }).first().waitFor();
      await page.getByRole('button', { name: 'Выключить', exact: true }).waitFor();
      expect(await status.textContent()).toBe('Двухфакторная аутентификация включена');

      // Sessions opened with the password alone end when 2FA goes on (issue 11 item 8); the page's own
      // session continues under the rotated token the confirmation returned.
      const before = await apiRequest(app.url, 'GET', '/v1/me', { token: user.tokens.access_token });
      expect(before.status).toBe(401);
      await page.reload();
      await waitForTitle(page, 'Профиль — Otklik');
      await page.getByText('Двухфакторная аутентификация включена', { exact: true }).first().waitFor();

      await logOutThroughUserMenu(page);
    } finally {
      await page.context().close();
    }
  });

  test('login asks for the code after email and password; a wrong code is refused, the right one gets in', async () => {
    expect(secret, 'the previous test enables 2FA').not.toBe('');
    const page = await browser.newPage({ baseURL: app.url, locale: 'ru-RU' });
    try {
      await page.goto('/login');
      await page.getByLabel('Email', { exact: true }).fill(user.email);
      await page.getByLabel('Пароль', { exact: true }).fill(user.password);
      expect(await page.getByTestId('login-code').count()).toBe(0);
      await page.getByRole('button', { name: 'Войти', exact: true }).click();

      // The code field appears (and takes the focus); nobody is signed in yet.
      const code = page.getByLabel('Код подтверждения', { exact: true });
      await code.waitFor();
      await page.getByRole('status').getByText('Введите код двухфакторной аутентификации').waitFor();
      expect(await code.getAttribute('maxlength')).toBe('7');
      await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'login-code');
      expect(new URL(page.url()).pathname).toBe('/login');

      // Enter, not a click: see the PRODUCT BUG note in validation.e2e.ts (server errors wiped on blur).
      await code.fill(wrongCode(secret));
      await code.press('Enter');
      await waitForFieldError(code, 'Неверный код');
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await page.getByTestId('user-menu').count()).toBe(0);

      // Codes are trimmed (docs/product/validation.md); the field takes at most 7 characters. The code that switched 2FA
      // on is spent (issue 11 item 7), so this is the next step's code, which the ±1 window accepts.
      await code.fill(` ${authenticator.clone({ epoch: Date.now() + 30_000 }).generate(secret)}`);
      await page.getByRole('button', { name: 'Войти', exact: true }).click();
      await page.getByTestId('user-menu').waitFor();
      await waitForPath(page, '/');
    } finally {
      await page.context().close();
    }
  });

  test('a reset link asks a 2FA user for the code before the new password is set (issue 11 item 4)', async () => {
    expect(recoveryCodes.length, 'the first test enables 2FA').toBeGreaterThan(0);
    await apiOk(app.url, 'POST', '/v1/recovery', { body: { email: user.email } });
    const resetLink = extractLink(
      await smtp.waitForMail({ to: user.email, subject: /Восстановление/ }),
      '/reset_password/',
    );
    const page = await browser.newPage({ baseURL: app.url, locale: 'ru-RU' });
    try {
      await page.goto(resetLink);
      await waitForTitle(page, 'Новый пароль — Otklik');
      const newPassword = 'Reset-after-2fa1';
      await page.getByLabel('Новый пароль', { exact: true }).fill(newPassword);
      await page.getByLabel('Подтверждение пароля', { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: 'Сохранить пароль' }).click();

      // The code field appears; nobody is signed in and the password is not changed yet.
      const code = page.getByTestId('reset-code');
      await code.waitFor();
      await page.getByRole('status').getByText('Введите код двухфакторной аутентификации').waitFor();
      expect(await page.getByTestId('user-menu').count()).toBe(0);

      await code.fill(recoveryCodes[0]!);
      await code.press('Enter');
      await page.getByTestId('user-menu').waitFor();
      await waitForPath(page, '/');
    } finally {
      await page.context().close();
    }
  });
});
