// Issue #2 item 17 — invitation signup in the browser: an admin invites an address (POST /v1/users,
// role operator), the invitation mail's /signup/{hash} link opens a form with the email locked and no
// company or promocode (docs/product/validation.md), and submitting it ends signed in, in the inviting space (docs/product/states.md).
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
  type SmtpHandle,
  startApp,
  startSmtp,
  storedAccessToken,
  uniqueEmail,
  waitForPath,
  waitForTitle,
} from '../harness';

interface ConfigBody {
  spaces: { id: number; name: string; roles: Record<string, unknown> }[];
}

describe('invitation signup', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let admin: ConfirmedUser;
  let spaceId: number;
  /** The link the first test has used (single use: invalid from then on). */
  let usedLink = '';

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } }),
      launchBrowser(),
    ]);
    admin = await createConfirmedUser(app.url, smtp, {
      name: 'Админ Приглашающий',
      company: 'Пространство-И',
    });
    const config = await apiOk<ConfigBody>(app.url, 'GET', '/v1/config', {
      token: admin.tokens.access_token,
    });
    expect(config.spaces).toHaveLength(1);
    spaceId = config.spaces[0].id;
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('the invited address signs up through the mailed link: email locked, no company or promocode, signed in', async () => {
    const invited = uniqueEmail('invited');
    const invitation = await apiOk<{ invitation?: { email: string; role: string } }>(
      app.url,
      'POST',
      '/v1/users',
      {
        token: admin.tokens.access_token,
        body: { email: invited, space_id: spaceId, role: 'operator' },
        locale: 'ru',
      },
    );
    expect(invitation.invitation).toMatchObject({ email: invited, role: 'operator' });

    const mail = await smtp.waitForMail({ to: invited });
    const link = extractLink(mail, '/signup/');
    expect(new URL(link).origin).toBe(app.url);

    const page = await browser.newPage({ baseURL: app.url, locale: 'ru-RU' });
    try {
      await page.goto(link);
      await waitForTitle(page, 'Регистрация по приглашению — Otklik');
      const form = page.getByTestId('invitation-form');
      await form.waitFor();
      await page.getByRole('heading', { name: 'Приглашение в Otklik' }).waitFor();

      // The email is the invited one and cannot be changed.
      const email = form.getByLabel('Email', { exact: true });
      expect(await email.inputValue()).toBe(invited);
      expect(await email.isDisabled()).toBe(true);
      expect(await email.isEditable()).toBe(false);
      // Company and promocode are not offered.
      expect(await form.getByLabel('Компания').count()).toBe(0);
      expect(await form.getByLabel('Промокод').count()).toBe(0);
      expect(await page.getByText('Компания', { exact: true }).count()).toBe(0);
      expect(await page.getByText('Промокод', { exact: true }).count()).toBe(0);

      await form.getByLabel('Имя', { exact: true }).fill('Ольга Приглашённая');
      await form.getByLabel('Пароль', { exact: true }).fill('Invited-pass9');
      await page.getByRole('button', { name: 'Принять приглашение' }).click();

      // Success page, then the workspace (docs/product/states.md: invitation signup leads to a success page).
      await page.getByTestId('invitation-done').waitFor();
      await page.getByRole('heading', { name: 'Готово!' }).waitFor();
      await page.getByTestId('user-menu').waitFor();
      await waitForPath(page, '/');

      // Who is signed in is read through the API with the browser's own token. (The user menu is not
      // opened: a new member starts "offline", so the shell first asks for a status in a blocking
      // dialog — docs/product/states.md user status.)

      // The invited user, in the admin's space, with the email confirmed by the link itself.
      const token = await storedAccessToken(page);
      expect(token).toBeTruthy();
      const me = await apiOk<{ name: string; email: string; email_status: number }>(
        app.url,
        'GET',
        '/v1/me',
        {
          token: token!,
        },
      );
      expect(me).toMatchObject({ name: 'Ольга Приглашённая', email: invited, email_status: 1 });
      const config = await apiOk<ConfigBody>(app.url, 'GET', '/v1/config', { token: token! });
      expect(config.spaces.map((space) => space.id)).toEqual([spaceId]);

      // The link is single use: the invitation lookup now answers 409, and the screen sends home.
      const lookup = await apiRequest(
        app.url,
        'GET',
        `/v1/signup/${new URL(link).pathname.split('/').pop()}`,
      );
      expect(lookup.status).toBe(409);
      usedLink = link;
    } finally {
      await page.context().close();
    }
  });

  test('a used, unknown or malformed invitation link says the invitation is invalid and offers to sign in', async () => {
    // Issue 13 item 7: it used to jump to /login silently (docs/product/errors.md's redirect on 409).
    expect(usedLink).not.toBe('');
    const page = await browser.newPage({ baseURL: app.url, locale: 'ru-RU' });
    try {
      for (const link of [usedLink, '/signup/no-such-invitation-hash', '/signup/x']) {
        await page.goto(link);
        await page.getByRole('heading', { name: 'Приглашение недействительно' }).waitFor({ timeout: 5_000 });
        expect(new URL(page.url()).pathname).toBe(new URL(link, app.url).pathname);
        expect(await page.getByTestId('invitation-invalid').textContent()).toBe(
          'Приглашение уже использовано или не существует',
        );
        expect(await page.getByTestId('invitation-form').count()).toBe(0);
      }
      await page.getByRole('link', { name: 'Ко входу' }).click();
      await waitForPath(page, '/login');
    } finally {
      await page.context().close();
    }
  });
});
