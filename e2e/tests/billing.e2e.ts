// Issue 14 items 3 and 5, the "Done when" walk in Chromium: the trial ends (the instance operator's CLI
// moves the expiry into the past while the server is stopped), the administrator lands on billing,
// pays through the Stripe emulator (its Checkout page fires the signed webhook and goes back to the
// report), and the space is active again, colour white; then pays 180 days through the YooKassa
// emulator. A canceled checkout shows docs/product/errors.md's message.
// In Russian and English, desktop and mobile.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type StripeEmulator, startStripeEmulator } from '../../apps/server/emulators/stripe/emulator';
import { startYookassaEmulator, type YookassaEmulator } from '../../apps/server/emulators/yookassa/emulator';
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
  waitForTitle,
} from '../harness';

const STRIPE = { secretKey: 'sk_test_e2e_emulator', webhookSecret: 'whsec_e2e_emulator' };
const YOOKASSA = { shopId: '100500', secretKey: 'test_e2e_yookassa' };

describe('settings/billing: an expired trial is paid through Stripe Checkout', () => {
  let smtp: SmtpHandle;
  let stripe: StripeEmulator & { setWebhookUrl(url: string): void };
  let yookassa: YookassaEmulator;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let page: Page;
  let spaceId: number;

  const env = () => ({
    STRIPE_SECRET_KEY: STRIPE.secretKey,
    STRIPE_WEBHOOK_SECRET: STRIPE.webhookSecret,
    STRIPE_API_URL: stripe.url,
    YOOKASSA_SHOP_ID: YOOKASSA.shopId,
    YOOKASSA_SECRET_KEY: YOOKASSA.secretKey,
    YOOKASSA_API_URL: yookassa.url,
    // The emulator notifies from loopback; YooKassa's real ranges are the default.
    YOOKASSA_NOTIFY_IPS: '127.0.0.1,::1',
  });
  const setLocale = (locale: 'ru' | 'en') =>
    apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale } });

  beforeAll(async () => {
    smtp = await startSmtp();
    stripe = await startStripeEmulator(STRIPE);
    yookassa = await startYookassaEmulator(YOOKASSA);
    [app, browser] = await Promise.all([startApp({ smtp, env: env() }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Борис Админ', company: 'Пекарня' });
    const config = await apiOk<{ spaces: Array<{ id: number }> }>(app.url, 'GET', '/v1/config', {
      token: owner.tokens.access_token,
    });
    spaceId = config.spaces[0]!.id;

    // The trial ends: yesterday, set by the operator's CLI on the stopped server's data.
    const dataDir = app.dataDir;
    await app.stop({ keepData: true });
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    runAdmin(dataDir, ['set-expiry', String(spaceId), yesterday]);
    app = await startApp({ smtp, env: env(), dataDir });
    stripe.setWebhookUrl(`${app.url}/v1/billing/webhooks/stripe`);
    yookassa.setNotifyUrl(`${app.url}/v1/billing/webhooks/yookassa`);
    const context = await signedInContext(browser, owner.tokens, { baseURL: app.url });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await stripe?.close();
    await yookassa?.close();
    await smtp?.close();
  });

  test('lands on billing, pays in the emulator, comes back to a paid report, the space is white', async () => {
    await page.goto('/');
    await page.waitForURL(/\/settings\/billing$/);
    await waitForTitle(page, 'Оплата — Otklik');
    await page.locator('[data-testid="billing-state"][data-state="red"]').waitFor();
    await page.getByTestId('billing-current').getByText('Оплаченный период закончился').waitFor();
    await page.getByTestId('billing-deletion').getByText('будут удалены').waitFor();
    await screenshot(page, 'billing-expired-ru-1381');

    await page.getByTestId('billing-tariff-1').click();
    expect(await page.getByTestId('billing-total').textContent()).toContain('29');
    await page.getByTestId('billing-submit').click();
    await page.waitForURL(new RegExp(`^${stripe.url}/c/pay/cs_test_`));
    expect(await page.getByTestId('amount').textContent()).toBe('29.00 USD');
    await page.locator('#pay').click();

    await page.waitForURL(/\/settings\/billing\/report\/\d+$/);
    await page.locator('[data-testid="report-outcome"][data-state="succeeded"]').waitFor();
    await page.getByTestId('report-details').getByText('Оплачен').waitFor();
    await screenshot(page, 'billing-report-paid-ru-1381');
    expect(stripe.deliveries.map((d) => d.status)).toEqual([200]);

    await page.goto('/settings/billing');
    await page.locator('[data-testid="billing-state"][data-state="white"]').waitFor();
    await page.getByTestId('billing-history').getByText('Оплачен').waitFor();
    await page.locator('[data-testid="billing-menu"][data-state="white"]').waitFor();
    await screenshot(page, 'billing-paid-ru-1381');
  });

  test('a canceled checkout says the payment could not be completed', async () => {
    await page.goto('/settings/billing');
    await page.getByTestId('billing-submit').click();
    await page.waitForURL(new RegExp(`^${stripe.url}/c/pay/`));
    await page.locator('#cancel').click();
    await page.waitForURL(/\/settings\/billing\/report\/\d+\?canceled=1$/);
    await page.getByText('Не удалось завершить оплату. Попробуйте снова').waitFor();
    // Closed at Stripe too: the session can no longer be paid.
    await page.getByTestId('report-state').getByText('Не завершён').waitFor();
    expect([...stripe.sessions.values()].map((s) => s.status).sort()).toEqual(['complete', 'expired']);
    await screenshot(page, 'billing-report-failed-ru-1381');
    await page.getByRole('link', { name: 'Попробовать снова' }).click();
    await page.waitForURL(/\/settings\/billing$/);
  });

  test('pays 180 days through YooKassa: the notification is checked against the API', async () => {
    await page.goto('/settings/billing');
    await page.getByTestId('billing-provider').getByText('ЮKassa').click();
    await page.getByTestId('billing-period').getByText('180 дней').click();
    expect(await page.getByTestId('billing-total').textContent()).toContain('10');
    await page.getByTestId('billing-submit').click();
    await page.waitForURL(new RegExp(`^${yookassa.url}/checkout/`));
    expect(await page.getByTestId('amount').textContent()).toBe('10990.00 RUB');
    await page.locator('#pay').click();
    await page.waitForURL(/\/settings\/billing\/report\/\d+$/);
    await page.locator('[data-testid="report-outcome"][data-state="succeeded"]').waitFor();
    await screenshot(page, 'billing-report-yookassa-ru-1381');
    expect(yookassa.reads.length).toBeGreaterThan(0);
  });

  test('reads in English and fits a phone', async () => {
    await setLocale('en');
    try {
      for (const width of [375, 768, 1381]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/settings/billing?locale=en');
        await waitForTitle(page, 'Billing — Otklik');
        await page.getByTestId('billing-pay').getByText('Extend or change tariff').waitFor();
        await page.getByTestId('billing-history').getByText('Paid').first().waitFor();
        await screenshot(page, `billing-en-${width}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
      await page.setViewportSize({ width: 375, height: 900 });
      await page.getByTestId('billing-history').locator('a').first().click();
      await page.getByTestId('report-details').waitFor();
      await screenshot(page, 'billing-report-en-375');
      await setLocale('ru');
      await page.goto('/settings/billing');
      await page.getByTestId('billing-current').waitFor();
      await screenshot(page, 'billing-ru-375');
    } finally {
      await setLocale('ru');
      await page.setViewportSize({ width: 1381, height: 900 });
    }
  });
});

describe('settings/billing without payment keys', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      startApp({ smtp, env: { STRIPE_SECRET_KEY: undefined, YOOKASSA_SHOP_ID: undefined } }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('says payments are not configured and how the operator extends the space', async () => {
    const owner = await createConfirmedUser(app.url, smtp, { name: 'Вера', company: 'Цветы' });
    const context = await signedInContext(browser, owner.tokens, { baseURL: app.url });
    const page = await context.newPage();
    await page.goto('/settings/billing');
    const notice = page.getByTestId('billing-not-configured');
    await notice.getByText('Оплата на этом сервере не настроена').waitFor();
    expect(await notice.textContent()).toContain('npm run admin -- extend');
    await screenshot(page, 'billing-not-configured-ru-1381');
    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'en' } });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/settings/billing?locale=en');
    await notice.getByText('Payments are not configured on this server').waitFor();
    await screenshot(page, 'billing-not-configured-en-375');
  });
});
