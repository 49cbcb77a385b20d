// Issue 19 — an Instagram professional account in the browser, against the emulator on 127.0.0.1: an
// administrator opens settings/accounts/add, Instagram is connectable (no "coming soon"), the OAuth popup
// shows Facebook's dialog (the emulator's). A Page without a linked Instagram account is explained on the
// form; the Page with one connects its account. A customer's comment, pushed signed with
// `object: "instagram"` to the Meta app's one callback, appears live in Comments. The same screen offers
// Instagram Login (no Facebook Page): Instagram's own window, and a comment signed with the Instagram app
// secret to the Instagram product's callback appears live too.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InstagramEmulator } from '../../apps/server/emulators/instagram/emulator';
import {
  type AppHandle,
  type BrowserHandle,
  createConfirmedUser,
  launchBrowser,
  type SmtpHandle,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
  waitForPath,
  waitForTitle,
} from '../harness';

const DESKTOP = { width: 1381, height: 900 };
const VERIFY = 'e2e-ig-verify';

describe('connector: Instagram through Facebook’s dialog and Instagram Login', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let ig: InstagramEmulator;

  beforeAll(async () => {
    [smtp, ig, browser] = await Promise.all([startSmtp(), InstagramEmulator.start(), launchBrowser()]);
    app = await startApp({
      smtp,
      env: { AUTH_RATE_LIMIT_PER_IP: '1000', PROVIDER_UPDATES: 'webhook', ...ig.env(VERIFY) },
    });
    expect((await ig.subscribe(`${app.url}/v1/webhooks/facebook/app`, VERIFY)).verified).toBe(true);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([ig?.close(), smtp?.close()]);
  });

  test('a Page without Instagram is explained, the linked account connects, a comment appears live', async () => {
    const owner = await createConfirmedUser(app.url, smtp, { name: 'Мария Админ', company: 'Кофейня' });
    const suffix = String(randomInt(1000, 9999));
    const bare = ig.network.addPage({
      id: `20${suffix}${randomInt(10_000, 99_999)}`,
      name: 'Страница без Instagram',
    });
    const { page: fbPage, account } = ig.addAccount(`Кофейня ${suffix}`, `coffee_corner_${suffix}`);
    const media = ig.addMedia(account, 'Новый сезонный латте');
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: DESKTOP,
    });
    try {
      const page = await context.newPage();
      await page.goto('/settings/accounts/add');
      await page.getByTestId('providers-ready').waitFor();
      const card = page.getByTestId('connect-instagram');
      await card.waitFor();
      expect(await card.getByTestId('coming-soon-badge').count()).toBe(0);
      await card.click();
      const form = page.locator('[data-testid="connect-form"][data-provider="instagram"]');
      await form.waitFor();
      // Both ways are offered, each explained.
      await form.getByTestId('connect-logins').getByText('без страницы Facebook', { exact: false }).waitFor();
      const button = form.getByTestId('connect-oauth-facebook');

      // Only a Page without a linked account: the form says what to do.
      ig.network.userPages = [bare.id];
      const first = page.waitForEvent('popup');
      await button.click();
      const dialog = await first;
      await dialog.getByTestId('fb-page').first().waitFor();
      await dialog.getByTestId('fb-continue').click();
      await dialog.waitForEvent('close', { timeout: 20_000 });
      await form
        .getByTestId('connect-error')
        .getByText('нет профессионального аккаунта Instagram', { exact: false })
        .waitFor();

      // The Page with its linked account: connected.
      ig.network.userPages = [fbPage.id];
      const opened = page.waitForEvent('popup');
      await button.click();
      const popup = await opened;
      await popup.getByTestId('fb-page').first().waitFor();
      await popup.getByTestId('fb-continue').click();
      await popup.waitForEvent('close', { timeout: 20_000 });
      await waitForPath(page, '/settings/accounts/add/success');
      await page.getByTestId('connect-success').getByText(account.username).first().waitFor();
      await screenshot(page, 'connector-instagram-success-1381');

      await page.goto('/items');
      await waitForTitle(page, 'Комментарии — Otklik');
      const text = 'А без сахара можно?';
      const pushed = await ig.igComment(media, { from: { id: 'IGSID_e2e', username: 'lena_s' }, text });
      expect(pushed.status).toBe(200);
      await page.getByTestId('item-row').filter({ hasText: text }).waitFor({ timeout: 20_000 });
      await screenshot(page, 'connector-instagram-items-1381');
    } finally {
      await context.close();
    }
  });

  test('Instagram Login: Instagram’s window, the account connects without a Page, a comment appears live', async () => {
    const owner = await createConfirmedUser(app.url, smtp, { name: 'Олег Админ', company: 'Ателье' });
    const suffix = String(randomInt(1000, 9999));
    const account = ig.addLoginAccount(`atelier_${suffix}`);
    const media = ig.addMedia(account, 'Платье недели');
    ig.login.consent = 'ask';
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: DESKTOP,
    });
    try {
      const page = await context.newPage();
      await page.goto('/settings/accounts/add');
      await page.getByTestId('providers-ready').waitFor();
      await page.getByTestId('connect-instagram').click();
      const form = page.locator('[data-testid="connect-form"][data-provider="instagram"]');
      await form.waitFor();
      await screenshot(page, 'connector-instagram-logins-1381');
      const opened = page.waitForEvent('popup');
      await form.getByTestId('connect-oauth-instagram').click();
      const popup = await opened;
      await popup.getByTestId('ig-allow').click();
      await popup.waitForEvent('close', { timeout: 20_000 });
      await waitForPath(page, '/settings/accounts/add/success');
      await page.getByTestId('connect-success').getByText(account.username).first().waitFor();

      // Instagram Login's deliveries come to the Instagram product's callback, signed with its secret.
      expect((await ig.subscribe(`${app.url}/v1/webhooks/instagram/app`, VERIFY)).verified).toBe(true);
      await page.goto('/items');
      await waitForTitle(page, 'Комментарии — Otklik');
      const text = 'Есть размер S?';
      const pushed = await ig.igComment(media, { from: { id: 'IGSID_e2e_login', username: 'kira' }, text });
      expect(pushed.status).toBe(200);
      await page.getByTestId('item-row').filter({ hasText: text }).waitFor({ timeout: 20_000 });
      await screenshot(page, 'connector-instagram-login-items-1381');
    } finally {
      await context.close();
    }
  });
});
