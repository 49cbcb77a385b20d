// Issue #3 — the signed-in shell in the browser (docs/product/screens-and-routes.md top bar, §4 user status and access gate, §6 roles):
// an administrator invites an operator from Settings → Users; the operator signs up from the mailed link,
// must pick a status in a dialog that cannot be dismissed, and sees only the operator's menus; a space past
// its expiry sends the administrator to billing and shows the member the paid-period-over page; a space
// that requires two-factor authentication confines the member to the profile.
//
// Expiry and space features are not something a person can change in the product (billing and support
// do), so this file sets them in the database directly. It runs the app on PostgreSQL for that: the
// server of DATABASE_URL when the environment sets one (CI), otherwise the local test database.
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AppHandle,
  apiOk,
  type BrowserHandle,
  type ConfirmedUser,
  createConfirmedUser,
  extractLink,
  launchBrowser,
  type SmtpHandle,
  screenshot,
  signInThroughUi,
  startApp,
  startSmtp,
  uniqueEmail,
  waitForPath,
  waitForTitle,
} from '../harness';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const WIDTHS = [375, 768, 1025, 1381] as const;
const MOBILE_BELOW = 768;

/** Features that make the role differences visible in the menus (docs/product/entities.md space settings). */
const FEATURES = {
  issues: true,
  monitoring_count: 1,
  analytics: true,
  reports: true,
  templates: true,
};

interface ConfigBody {
  spaces: { id: number; name: string }[];
}

async function atWidth(page: Page, width: number) {
  await page.setViewportSize({ width, height: 900 });
  // Layout (the measured navigation, drawers) settles after a resize.
  await page.waitForTimeout(300);
}

/** Menus of the top bar at this width: the navigation from 768 px, the burger below. */
async function expectTopBarLayout(page: Page, width: number) {
  const burger = page.getByTestId('burger');
  const nav = page.getByTestId('main-nav');
  if (width < MOBILE_BELOW) {
    await burger.waitFor({ state: 'visible' });
    expect(await nav.isVisible()).toBe(false);
  } else {
    await nav.waitFor({ state: 'visible' });
    expect(await burger.isVisible()).toBe(false);
  }
  await page.getByTestId('user-menu').waitFor({ state: 'visible' });
}

async function visibleMenuKeys(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid="main-nav"] > div:first-child [data-testid^="menu-"]')
    .evaluateAll((links) =>
      links.map((link) => (link.getAttribute('data-testid') ?? '').slice('menu-'.length)),
    );
}

describe('signed-in shell', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let db: pg.Client;
  let admin: ConfirmedUser;
  let spaceId: number;
  let adminPage: Page;
  let operatorPage: Page;
  const operator = { email: uniqueEmail('operator'), name: 'Oleg Operator', password: 'Operator-pass9' };

  const setSpace = (sql: string, ...values: unknown[]) =>
    db.query(`UPDATE spaces SET ${sql} WHERE id = $1`, [spaceId, ...values]);

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      startApp({ smtp, env: { DATABASE_URL, AUTH_RATE_LIMIT_PER_IP: '1000' } }),
      launchBrowser(),
    ]);
    db = new pg.Client({ connectionString: DATABASE_URL });
    await db.connect();
    admin = await createConfirmedUser(app.url, smtp, {
      name: 'Анна Админова',
      company: 'Шелл-тест',
      locale: 'ru',
    });
    const config = await apiOk<ConfigBody>(app.url, 'GET', '/v1/config', {
      token: admin.tokens.access_token,
    });
    spaceId = config.spaces[0].id;
    await setSpace(`settings = settings || $2::jsonb`, JSON.stringify(FEATURES));
  });

  afterAll(async () => {
    await browser?.close();
    await db?.end();
    await app?.stop();
    await smtp?.close();
  });

  test('an admin invites an operator; the operator signs up from the mail, must pick a status, sees only operator menus', async () => {
    // The administrator, in Russian, at a laptop width.
    adminPage = await browser.newPage({
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    await adminPage.goto('/login');
    await signInThroughUi(adminPage, admin.email, admin.password);
    await waitForTitle(adminPage, 'Статистика — Otklik');
    expect(await visibleMenuKeys(adminPage)).toEqual([
      'stats',
      'chats',
      'items',
      'analytics',
      'monitoring',
      'issues',
      'reports',
    ]);

    // Settings → Users → Invite, through the settings dropdown.
    await adminPage.getByTestId('settings-menu').click();
    await adminPage.getByTestId('settings-entry-users').click();
    await waitForPath(adminPage, '/settings/users');
    await waitForTitle(adminPage, 'Пользователи — Otklik');
    await adminPage.getByTestId(`member-${admin.email}`).getByText('Администратор').waitFor();
    await adminPage.getByTestId('invite-user').click();
    await waitForPath(adminPage, '/settings/users/new');
    await adminPage.getByTestId('invite-email').fill(operator.email);
    expect(await adminPage.getByTestId('role-select').inputValue()).toBe('Оператор');
    await adminPage.getByTestId('invite-submit').click();
    await waitForPath(adminPage, '/settings/users');
    const invitation = adminPage.getByTestId(`invitation-${operator.email}`);
    await invitation.getByText('Оператор').waitFor();

    for (const width of WIDTHS) {
      await atWidth(adminPage, width);
      await expectTopBarLayout(adminPage, width);
      await invitation.waitFor({ state: 'visible' });
      await screenshot(adminPage, `shell-admin-users-ru-${width}`);
    }

    // The operator follows the mailed link, in English.
    const mail = await smtp.waitForMail({ to: operator.email });
    operatorPage = await browser.newPage({
      baseURL: app.url,
      locale: 'en-US',
      viewport: { width: 375, height: 800 },
    });
    await operatorPage.goto(extractLink(mail, '/signup/'));
    const form = operatorPage.getByTestId('invitation-form');
    await form.waitFor();
    await form.getByLabel('Name', { exact: true }).fill(operator.name);
    await form.getByLabel('Password', { exact: true }).fill(operator.password);
    await form.locator('button[type="submit"]').click();

    // A new member starts offline: a dialog forces a status and cannot be dismissed (docs/product/states.md).
    const dialog = operatorPage.getByRole('dialog');
    await dialog.waitFor({ state: 'visible', timeout: 20_000 });
    await dialog.getByText('You are offline').waitFor();
    expect(await dialog.locator('.mantine-Modal-close').count()).toBe(0);
    await operatorPage.keyboard.press('Escape');
    await operatorPage.mouse.click(10, 780);
    await operatorPage.waitForTimeout(500);
    expect(await dialog.isVisible()).toBe(true);
    const choices = dialog.locator('[data-testid^="offline-choice-"]');
    // Non-hidden, non-offline statuses of the space: 'На связи' and 'Перерыв' (the space is Russian).
    expect(await choices.allTextContents()).toEqual(['На связи', 'Перерыв']);
    await screenshot(operatorPage, 'shell-operator-offline-dialog-en-375');
    await choices.first().click();
    await dialog.waitFor({ state: 'hidden' });

    // Only the operator's sections: no analytics or reports, and a settings menu with reply templates only.
    await atWidth(operatorPage, 1381);
    await operatorPage.getByTestId('status-current').getByText('На связи').waitFor();
    expect(await visibleMenuKeys(operatorPage)).toEqual(['stats', 'chats', 'items', 'monitoring', 'issues']);
    await operatorPage.getByTestId('settings-menu').click();
    // The dropdown renders after the click: wait for it before reading what it lists.
    await operatorPage.getByTestId('settings-entry-templates').waitFor();
    const entries = await operatorPage
      .locator('[data-testid^="settings-entry-"]')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-testid')));
    expect(entries).toEqual(['settings-entry-templates']);
    await operatorPage.keyboard.press('Escape');
    // Account errors are for administrators (docs/product/roles.md).
    expect(await operatorPage.getByTestId('errors-menu').count()).toBe(0);

    for (const width of WIDTHS) {
      await atWidth(operatorPage, width);
      await expectTopBarLayout(operatorPage, width);
      if (width < MOBILE_BELOW) {
        await operatorPage.getByTestId('burger').click();
        const drawer = operatorPage.getByTestId('mobile-menu');
        await drawer.getByTestId('mobile-menu-items').waitFor({ state: 'visible' });
        expect(await drawer.getByTestId('mobile-menu-analytics').count()).toBe(0);
        await operatorPage.waitForTimeout(400); // the drawer's slide-in
        await screenshot(operatorPage, `shell-operator-menu-en-${width}`);
        await operatorPage.keyboard.press('Escape');
        await drawer.getByTestId('mobile-menu-items').waitFor({ state: 'hidden' });
      } else {
        expect(await operatorPage.getByTestId('menu-analytics').count()).toBe(0);
        await operatorPage.getByTestId('menu-items').first().waitFor({ state: 'visible' });
      }
      await screenshot(operatorPage, `shell-operator-en-${width}`);
    }

    // The status dropdown lists the space's statuses; picking one saves it.
    await operatorPage.getByTestId('status-menu').click();
    await operatorPage.getByTestId('status-dropdown').getByText('Перерыв').click();
    await operatorPage.getByTestId('status-current').getByText('Перерыв').waitFor();
    const me = await operatorPage.evaluate(async () => {
      const token = JSON.parse(localStorage.getItem('otklik.token') ?? '{}').access_token;
      const response = await fetch('/v1/me/status', { headers: { Authorization: `Bearer ${token}` } });
      return response.json();
    });
    expect(me).toMatchObject({ space_id: spaceId });
  });

  test('every space past expiry: the admin is sent to billing, the operator sees the paid-period-over page', async () => {
    await setSpace(`expires_at = now() - interval '1 day', is_trial = true`);
    try {
      await adminPage.goto('/items');
      await waitForPath(adminPage, '/settings/billing');
      await waitForTitle(adminPage, 'Оплата — Otklik');
      const billing = adminPage.getByTestId('billing-menu');
      expect(await billing.getAttribute('data-state')).toBe('red');
      await billing.click();
      const dropdown = adminPage.getByTestId('billing-dropdown');
      await dropdown.getByTestId('billing-blocked').getByText('Блокировка').waitFor();
      await dropdown.getByText(/Данные будут удалены/).waitFor();
      await screenshot(adminPage, 'shell-admin-expired-billing-dropdown-ru-1381');
      await adminPage.keyboard.press('Escape');
      for (const width of WIDTHS) {
        await atWidth(adminPage, width);
        await adminPage.goto('/settings/users');
        await waitForPath(adminPage, '/settings/billing');
        if (width >= MOBILE_BELOW) await billing.waitFor({ state: 'visible' });
        await screenshot(adminPage, `shell-admin-expired-ru-${width}`);
      }

      for (const width of WIDTHS) {
        await atWidth(operatorPage, width);
        await operatorPage.goto('/items');
        const paidOver = operatorPage.getByTestId('paid-over');
        await paidOver.getByText('The trial period is over').waitFor();
        expect(await paidOver.getAttribute('data-trial')).toBe('true');
        await waitForTitle(operatorPage, 'The trial period is over — Otklik');
        // The sections are gone from the top bar: they would only lead back here.
        expect(await operatorPage.getByTestId('main-nav').count()).toBe(0);
        await screenshot(operatorPage, `shell-operator-paid-over-en-${width}`);
      }
      // The own account stays reachable.
      await operatorPage.goto('/settings/profile');
      await waitForTitle(operatorPage, 'Profile — Otklik');
      expect(await operatorPage.getByTestId('paid-over').count()).toBe(0);
    } finally {
      await setSpace(`expires_at = now() + interval '14 days'`);
    }
  });

  test('a space requiring two-factor authentication confines the member to the profile', async () => {
    await setSpace(`settings = settings || '{"otp_required": true}'::jsonb`);
    try {
      for (const width of WIDTHS) {
        await atWidth(operatorPage, width);
        await operatorPage.goto('/items');
        await waitForPath(operatorPage, '/settings/profile');
        await operatorPage.getByTestId('otp-required').waitFor({ state: 'visible' });
        await operatorPage.getByTestId('otp-status').waitFor({ state: 'visible' });
        expect(await operatorPage.getByTestId('main-nav').count()).toBe(0);
        await screenshot(operatorPage, `shell-operator-otp-required-en-${width}`);
      }
      await operatorPage.goto('/settings/users/workinghours/my');
      await waitForPath(operatorPage, '/settings/profile');
      // Billing stays reachable (docs/product/states.md).
      await operatorPage.goto('/settings/billing');
      await waitForTitle(operatorPage, 'Billing — Otklik');
      expect(new URL(operatorPage.url()).pathname).toBe('/settings/billing');
    } finally {
      await setSpace(`settings = settings - 'otp_required'`);
    }
    // Without the requirement the sections come back.
    await atWidth(operatorPage, 1381);
    await operatorPage.goto('/items');
    await operatorPage.getByTestId('main-nav').waitFor({ state: 'visible' });
    expect(new URL(operatorPage.url()).pathname).toBe('/items');
  });

  /**
   * The next call the open app makes meets the server's gate: following a section link, or a background
   * call (counts, status) that may come first — then the link is already gone with the restricted top bar.
   */
  async function openChatsWhileShown(page: Page) {
    await page
      .getByTestId('menu-chats')
      .first()
      .click({ timeout: 5_000 })
      .catch(async (error: unknown) => {
        if ((await page.getByTestId('main-nav').count()) > 0) throw error;
      });
  }

  test('the state changing under the open app: the server’s refusal leads to the gate’s screen, not an error', async () => {
    await atWidth(operatorPage, 1381);
    await operatorPage.goto('/items');
    await operatorPage.getByTestId('main-nav').waitFor({ state: 'visible' });
    // The loaded config still says all is well; the server's gate (issue 11 item 6) now refuses.
    await setSpace(`settings = settings || '{"otp_required": true}'::jsonb`);
    try {
      await openChatsWhileShown(operatorPage);
      await waitForPath(operatorPage, '/settings/profile');
      await operatorPage.getByTestId('otp-required').waitFor({ state: 'visible' });
      expect(await operatorPage.getByTestId('no-access').count()).toBe(0);
      expect(await operatorPage.locator('.mantine-Notification-root').count()).toBe(0);
    } finally {
      await setSpace(`settings = settings - 'otp_required'`);
    }

    await operatorPage.goto('/items');
    await operatorPage.getByTestId('main-nav').waitFor({ state: 'visible' });
    await setSpace(`expires_at = now() - interval '1 day', is_trial = true`);
    try {
      await openChatsWhileShown(operatorPage);
      const paidOver = operatorPage.getByTestId('paid-over');
      await paidOver.getByText('The trial period is over').waitFor();
      expect(await operatorPage.getByTestId('no-access').count()).toBe(0);
      expect(await operatorPage.locator('.mantine-Notification-root').count()).toBe(0);
    } finally {
      await setSpace(`expires_at = now() + interval '14 days'`);
    }
  });
});
