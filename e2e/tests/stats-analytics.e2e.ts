// Analytics (/analytics, docs/statistics.md "Analytics"): one figure split by a dimension with the stats
// frame's period and filters — the total and the rows counted here by hand, the drill-down lists exactly a
// row's items, the chart downloads as PNG and the table as CSV; the operator filter narrows to the items
// assigned to a member. The wall (/live) and the dashboard at 1920×1080 with business-hours FRT beside
// calendar FRT. Screenshots ru/en at 375, 1381 and 1920 px.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AppHandle,
  apiOk,
  type BrowserHandle,
  type ConfirmedUser,
  createConfirmedUser,
  launchBrowser,
  moveSpaceToNoon,
  type SmtpHandle,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
} from '../harness';

const COMMENTS = ['Где мой заказ?', 'Курьер опоздал', 'Когда откроетесь?'];
// 3 comments + 1 review, and the comment a new sandbox brings (providers/sandbox/seed.ts)...
const ITEMS = 5;
// ...with the dialog it brings too: incoming = items + new dialogs.
const INCOMING = ITEMS + 1;
const ASSIGNED = 2;

describe('analytics', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let page: Page;
  let ownerId: number;

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([startApp({ smtp }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Анна Админ', company: 'Кофейня' });
    const token = owner.tokens.access_token;
    const account = await apiOk<{ sandbox_url: string }>(app.url, 'POST', '/v1/objects', {
      token,
      body: { provider: 'sandbox', name: 'Кофейня «Зерно»' },
    });
    const sandbox = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
    const customer = (path: string, body: unknown) =>
      apiOk(app.url, 'POST', `/v1/sandbox/${sandbox}/${path}`, { body });
    for (const text of COMMENTS) await customer('comments', { author_name: 'Ольга Покупатель', text });
    await customer('reviews', { author_name: 'Иван Гость', text: 'Вкусно', rating: 5 });
    const config = await apiOk<{ spaces: { id: number }[] }>(app.url, 'GET', '/v1/config', { token });
    const spaceId = config.spaces[0]!.id;
    // "today" must not cross the space's midnight between seeding and reading (harness noonTimeZone).
    await moveSpaceToNoon(app.url, token, spaceId);
    // The analytics section is a space feature; a round-the-clock schedule gives business-hours figures.
    await apiOk(app.url, 'PUT', `/v1/spaces/${spaceId}/features`, {
      token,
      body: { flags: { analytics: true } },
    });
    await apiOk(app.url, 'PUT', '/v1/workinghours/business', {
      token,
      body: {
        space_id: spaceId,
        special_days: [],
        week: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: 0, end: 1440 })),
      },
    });
    const me = await apiOk<{ id: number }>(app.url, 'GET', '/v1/me', { token });
    ownerId = me.id;
    const list = await apiOk<{ items: Array<{ id: number; text: string }> }>(app.url, 'GET', '/v1/items', {
      token,
    });
    for (const text of COMMENTS.slice(0, ASSIGNED)) {
      const item = list.items.find((i) => i.text === text)!;
      await apiOk(app.url, 'PUT', `/v1/items/${item.id}/assign`, { token, body: { user_id: ownerId } });
    }
    const context = await signedInContext(browser, owner.tokens, { baseURL: app.url });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  const waitText = (testId: string, value: string) =>
    page.waitForFunction(
      ([id, expected]) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() === expected,
      [testId, value] as const,
      { timeout: 15_000 },
    );
  const firstRow = async (table: string) =>
    (await page.getByTestId(table).locator('tbody tr').first().locator('td').allTextContents()).map((s) =>
      s.trim(),
    );

  test('split by network: total and row counted by hand, PNG and CSV, the row lists exactly its items', async () => {
    await page.setViewportSize({ width: 1381, height: 900 });
    await page.goto('/analytics?preset=today&locale=ru');
    await waitText('analytics-total-value', String(INCOMING));
    await page.getByTestId('analytics-by').click();
    await page.getByRole('option', { name: 'Сеть' }).click();
    await page.waitForURL(/by=provider/);
    // The last split stays on screen (with its own labels) while the new one loads: wait for the network's row.
    await page.waitForFunction(
      (n) => {
        const cells = document.querySelectorAll('[data-testid="table-analytics"] tbody tr:first-child td');
        return cells[0]?.textContent?.trim() === 'Sandbox' && cells[1]?.textContent?.trim() === n;
      },
      String(INCOMING),
      { timeout: 15_000 },
    );
    const row = await firstRow('table-analytics');
    expect(row.slice(0, 2)).toEqual(['Sandbox', String(INCOMING)]);
    await page.getByTestId('chart-analytics-png').waitFor();
    const [png] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('chart-analytics-png').click(),
    ]);
    expect(png.suggestedFilename()).toBe('analytics-incoming-provider.png');
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('table-analytics-csv').click(),
    ]);
    expect(csv.suggestedFilename()).toBe('analytics-incoming-provider.csv');
    await screenshot(page, 'analytics-provider-ru-1381');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'analytics-provider-ru-375');
    await page.setViewportSize({ width: 1381, height: 900 });
    await page.getByTestId('table-analytics').locator('tbody tr').first().getByRole('link').click();
    await page.waitForURL(/\/items\?/);
    await page.getByTestId('item-row').first().waitFor();
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="item-row"]').length === n,
      ITEMS,
    );
  });

  test('by assignee and with the operator filter (en): the assigned items only', async () => {
    await page.goto('/analytics?preset=today&by=operator&metric=items&locale=en');
    await page.getByTestId('table-analytics').waitFor();
    expect(await firstRow('table-analytics')).toEqual(
      expect.arrayContaining(['Анна Админ', String(ASSIGNED)]),
    );
    await page.getByTestId('stats-operator').click();
    await page.getByRole('option', { name: 'Анна Админ' }).click();
    await page.waitForURL(new RegExp(`operator_id=${ownerId}`));
    await page.keyboard.press('Escape');
    await waitText('analytics-total-value', String(ASSIGNED));
    // The frame's change kept the screen's own choice.
    expect(page.url()).toContain('by=operator');
    await page.getByText('Split by').waitFor();
    await screenshot(page, 'analytics-operator-en-1381');
  });

  test('the wall and the dashboard at 1920×1080: big figures, business-hours FRT beside calendar FRT', async () => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    for (const locale of ['ru', 'en'] as const) {
      await page.goto(`/live?locale=${locale}`);
      // Waiting: the items and the dialog, none answered.
      await waitText('live-waiting-value', String(INCOMING));
      await page.getByTestId('live-today-frt-business').waitFor();
      await page.getByTestId('live-today-frt').waitFor();
      // Readable from across a room: the figures are at least 56 px high.
      const size = await page
        .getByTestId('live-waiting-value')
        .evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
      expect(size).toBeGreaterThanOrEqual(56);
      await screenshot(page, `analytics-live-${locale}-1920`);
      await page.goto(`/dashboard?locale=${locale}`);
      await page.getByTestId('dash-today-frt-business').waitFor();
      await waitText('dash-today-incoming-value', String(INCOMING));
      const big = await page
        .getByTestId('dash-today-incoming-value')
        .evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
      expect(big).toBeGreaterThanOrEqual(48);
      await screenshot(page, `analytics-dashboard-${locale}-1920`);
    }
  });
});
