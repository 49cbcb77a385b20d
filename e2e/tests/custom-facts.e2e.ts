// Settings → Custom fields (docs/product/screens-and-routes.md settings/custom/facts): an administrator defines fields of authors,
// an operator fills them in on the author page (values that do not fit their field: facts.test.ts).
// Russian and English, desktop and mobile.
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

describe('custom fields of authors', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let page: Page;
  let authorId: number;

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([startApp({ smtp }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Анна Админ', company: 'Кофейня' });
    const token = owner.tokens.access_token;
    const account = await apiOk<{ sandbox_url: string }>(app.url, 'POST', '/v1/objects', {
      token,
      body: { provider: 'sandbox', name: 'Кофейня «Зерно»' },
    });
    const pageToken = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
    await apiOk(app.url, 'POST', `/v1/sandbox/${pageToken}/comments`, {
      body: { author_name: 'Ольга Покупатель', text: 'Где мой заказ?' },
    });
    const authors = await apiOk<{ items: Array<{ id: number; name: string }> }>(
      app.url,
      'GET',
      '/v1/authors?scope=items',
      { token },
    );
    authorId = authors.items.find((a) => a.name === 'Ольга Покупатель')!.id;
    const context = await signedInContext(browser, owner.tokens, { baseURL: app.url });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('define fields, fill them in on the author page', async () => {
    await page.goto('/settings/custom/facts');
    await waitForTitle(page, 'Пользовательские поля — Otklik');
    await page.getByTestId('facts-empty').waitFor();

    await page.getByTestId('fact-add').click();
    await page.getByTestId('fact-submit').click();
    await page.getByText('Укажите название поля').waitFor();
    await page.getByTestId('fact-name').fill('Заказов');
    await page.getByTestId('fact-kind').click();
    await page.getByRole('option', { name: 'Число' }).click();
    await page.getByTestId('fact-submit').click();
    await page.getByTestId('fact-row').getByText('Заказов').waitFor();

    await page.getByTestId('fact-add').click();
    await page.getByTestId('fact-name').fill('Тариф клиента');
    await page.getByTestId('fact-kind').click();
    await page.getByRole('option', { name: 'Список' }).click();
    const options = page.getByTestId('fact-options');
    for (const option of ['Базовый', 'Про']) {
      await options.fill(option);
      await options.press('Enter');
    }
    await page.getByTestId('fact-submit').click();
    await page.getByTestId('fact-row').getByText('Базовый · Про').waitFor();
    await screenshot(page, 'custom-facts-settings-ru-1381');

    await page.goto(`/author/${authorId}`);
    const card = page.getByTestId('author-facts');
    await card.getByText('Заказов').waitFor();
    await page.getByTestId('author-facts-edit').click();
    const facts = await apiOk<{ items: Array<{ id: number; name: string }> }>(app.url, 'GET', '/v1/facts', {
      token: owner.tokens.access_token,
    });
    const orders = facts.items.find((f) => f.name === 'Заказов')!.id;
    const plan = facts.items.find((f) => f.name === 'Тариф клиента')!.id;
    await page.getByTestId(`author-fact-${orders}`).fill('3');
    await page.getByTestId(`author-fact-${plan}`).click();
    await page.getByRole('option', { name: 'Про' }).click();
    await page.getByTestId('author-facts-save').click();
    await page.getByTestId(`author-fact-value-${plan}`).getByText('Про').waitFor();
    await page.getByTestId(`author-fact-value-${orders}`).getByText('3').waitFor();
    await screenshot(page, 'custom-facts-author-ru-1381');

    const stored = await apiOk<{ items: Array<{ fact_id: number; value: string | null }> }>(
      app.url,
      'GET',
      `/v1/authors/${authorId}/facts`,
      { token: owner.tokens.access_token },
    );
    expect(Object.fromEntries(stored.items.map((f) => [f.fact_id, f.value]))).toEqual({
      [orders]: '3',
      [plan]: 'Про',
    });
  });

  test('reads in English and fits a phone', async () => {
    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'en' } });
    try {
      for (const width of [375, 768]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/settings/custom/facts?locale=en');
        await waitForTitle(page, 'Custom fields — Otklik');
        await page.getByTestId('fact-row').getByText('List').waitFor();
        await screenshot(page, `custom-facts-settings-en-${width}`);
        await page.goto(`/author/${authorId}?locale=en`);
        await page.getByTestId('author-facts').getByText('Fields').waitFor();
        await screenshot(page, `custom-facts-author-en-${width}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
    } finally {
      await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'ru' } });
      await page.setViewportSize({ width: 1381, height: 900 });
    }
  });
});
