// Issue 19 — a Facebook Page in the browser, against the emulator on 127.0.0.1: an administrator opens
// settings/accounts/add, Facebook is connectable (no "coming soon"), the OAuth popup shows Facebook's
// dialog (the emulator's) where the Page is chosen; cancelling it says what happened, continuing connects
// the Page. A customer's comment, signed and pushed to the app's one callback, appears live in Comments.
import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FacebookEmulator } from '../../apps/server/emulators/facebook/emulator';
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
const MOBILE = { width: 375, height: 812 };
const VERIFY = 'e2e-fb-verify';

describe('connector: Facebook Page through the OAuth dialog', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let fb: FacebookEmulator;

  beforeAll(async () => {
    [smtp, fb, browser] = await Promise.all([startSmtp(), FacebookEmulator.start(), launchBrowser()]);
    app = await startApp({
      smtp,
      env: { AUTH_RATE_LIMIT_PER_IP: '1000', PROVIDER_UPDATES: 'webhook', ...fb.env(VERIFY) },
    });
    // The app's callback, saved in Meta's dashboard: the handshake must pass.
    expect((await fb.subscribe(`${app.url}/v1/webhooks/facebook/app`, VERIFY)).verified).toBe(true);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([fb?.close(), smtp?.close()]);
  });

  test('connect a Page in the popup, a comment on its post appears live in Comments', async () => {
    const owner = await createConfirmedUser(app.url, smtp, { name: 'Мария Админ', company: 'Кофейня' });
    const pageId = String(randomInt(100_000_000, 999_999_999));
    const fbPage = fb.network.addPage({ id: pageId, name: `Кофейня на углу ${pageId.slice(-4)}` });
    const post = fb.network.addPost(pageId, 'Новый сезонный латте');
    fb.network.userPages = [pageId];
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: DESKTOP,
    });
    try {
      const page = await context.newPage();
      await page.goto('/settings/accounts/add');
      await page.getByTestId('providers-ready').waitFor();
      const card = page.getByTestId('connect-facebook');
      await card.waitFor();
      expect(await card.getByTestId('coming-soon-badge').count()).toBe(0);
      await card.click();
      const form = page.locator('[data-testid="connect-form"][data-provider="facebook"]');
      await form.waitFor();
      const button = form.getByTestId('connect-oauth');

      // Cancel in Facebook's dialog: the popup closes, the form says access was not granted.
      const refused = page.waitForEvent('popup');
      await button.click();
      const dialog = await refused;
      await dialog.getByTestId('fb-page').first().waitFor();
      await dialog.getByTestId('fb-cancel').click();
      await dialog.waitForEvent('close', { timeout: 20_000 });
      await form
        .getByTestId('connect-error')
        .getByText('Вы не предоставили доступ к своему аккаунту')
        .waitFor();

      // Continue with the Page ticked: connected.
      const opened = page.waitForEvent('popup');
      await button.click();
      const popup = await opened;
      await popup.getByTestId('fb-page').first().waitFor();
      await screenshot(popup, 'connector-facebook-dialog');
      await popup.getByTestId('fb-continue').click();
      await popup.waitForEvent('close', { timeout: 20_000 });
      await waitForPath(page, '/settings/accounts/add/success');
      await page.getByTestId('connect-success').getByText(fbPage.name).first().waitFor();
      await screenshot(page, 'connector-facebook-success-1381');
      expect(fbPage.subscribedFields).toEqual(expect.arrayContaining(['feed', 'messages']));

      await page.goto('/items');
      await waitForTitle(page, 'Комментарии — Otklik');
      await page.evaluate(() => {
        (window as unknown as { noReload: boolean }).noReload = true;
      });
      const text = 'А овсяное молоко есть?';
      const pushed = await fb.comment(post, { from: { id: '55501', name: 'Лена Смирнова' }, message: text });
      expect(pushed.status).toBe(200);
      const row = page.getByTestId('item-row').filter({ hasText: text });
      await row.waitFor({ timeout: 20_000 });
      expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);
      await screenshot(page, 'connector-facebook-items-1381');
      await page.setViewportSize(MOBILE);
      await row.waitFor();
      await screenshot(page, 'connector-facebook-items-375');
    } finally {
      await context.close();
    }
  });
});
