// Business hours (issue 15, item 2): the administrator sets the space's schedule on settings/workinghours
// in the browser (round the clock every day, so that business time equals calendar time for the seeded
// reply), sees it saved after a reload and refused with a clear message when two intervals overlap; then
// the replies and overview tabs show first response time in business hours, equal to the reply's delay
// computed here from the item's own timestamps. Screenshots ru/en at 375 and 1381 px.
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

describe('business hours', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let page: Page;
  let spaceId: number;
  /** The delay of our reply, from the item's own timestamps (seconds). */
  let delay: number;

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([startApp({ smtp }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Вера Админ', company: 'Пекарня' });
    const token = owner.tokens.access_token;
    const account = await apiOk<{ sandbox_url: string }>(app.url, 'POST', '/v1/objects', {
      token,
      body: { provider: 'sandbox', name: 'Пекарня «Колос»' },
    });
    const sandbox = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
    await apiOk(app.url, 'POST', `/v1/sandbox/${sandbox}/comments`, {
      body: { author_name: 'Ольга Покупатель', text: 'Есть ли хлеб без глютена?' },
    });
    const list = await apiOk<{ items: Array<{ id: number; text: string }> }>(app.url, 'GET', '/v1/items', {
      token,
    });
    const asked = list.items.find((i) => i.text === 'Есть ли хлеб без глютена?')!;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await apiOk(app.url, 'POST', '/v1/items/reply', { token, body: { ids: [asked.id], text: 'Есть!' } });
    const { item: replied } = await apiOk<{ item: { created_at: number; first_reply_at: number | null } }>(
      app.url,
      'GET',
      `/v1/items/${asked.id}`,
      { token },
    );
    delay = replied.first_reply_at! - replied.created_at;
    expect(delay).toBeGreaterThanOrEqual(1);
    const config = await apiOk<{ spaces: { id: number }[] }>(app.url, 'GET', '/v1/config', { token });
    spaceId = config.spaces[0]!.id;
    // "today" must not cross the space's midnight between seeding and reading (harness noonTimeZone).
    await moveSpaceToNoon(app.url, token, spaceId);
    const context = await signedInContext(browser, owner.tokens, { baseURL: app.url });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('the schedule is set in the browser, refused when intervals overlap, and kept', async () => {
    await page.setViewportSize({ width: 1381, height: 900 });
    await page.goto('/settings/workinghours');
    await page.getByTestId('business-hours').waitFor();
    await page.getByTestId('business-unset').waitFor();
    // Overlapping intervals on Monday: the server's message in Russian.
    await page.getByRole('button', { name: 'Интервал' }).first().click();
    await page.getByTestId('business-1-1-start').fill('10:00');
    await page.getByTestId('business-1-1-end').fill('12:00');
    await page.getByTestId('business-save').click();
    await page.getByText('Интервалы одного дня пересекаются').first().waitFor();
    await page.reload();
    await page.getByTestId('business-hours').waitFor();

    // Round the clock every day: weekends on, 00:00–00:00 (to midnight of the next day).
    for (const day of [6, 7]) await page.getByTestId(`business-day-${day}`).check();
    for (let day = 1; day <= 7; day += 1) {
      await page.getByTestId(`business-${day}-0-start`).fill('00:00');
      await page.getByTestId(`business-${day}-0-end`).fill('00:00');
    }
    await page.getByTestId('business-save').click();
    await page.getByText('Часы работы сохранены').first().waitFor();
    await screenshot(page, 'business-hours-ru-1381');

    await page.reload();
    await page.getByTestId('business-7-0-start').waitFor();
    expect(await page.getByTestId('business-unset').count()).toBe(0);
    expect(await page.getByTestId('business-7-0-start').inputValue()).toBe('00:00');
    expect(await page.getByTestId('business-day-6').isChecked()).toBe(true);
    const stored = await apiOk<{ schedule: { week: unknown[] } }>(
      app.url,
      'GET',
      `/v1/workinghours/business?space_id=${spaceId}`,
      { token: owner.tokens.access_token },
    );
    expect(stored.schedule.week).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: 0, end: 1440 })),
    );
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'business-hours-ru-375');
  });

  test('replies and overview show first response in business hours', async () => {
    // Round the clock, business time is the reply's delay itself.
    const overview = await apiOk<{
      current: { first_response: { median: number } };
      business: { current: { count: number; median: number; p90: number } };
    }>(app.url, 'GET', `/v1/stats/overview?space_id=${spaceId}&preset=today`, {
      token: owner.tokens.access_token,
    });
    expect(overview.business.current).toEqual({
      count: 1,
      median: overview.current.first_response.median,
      p90: overview.current.first_response.median,
    });
    // The item's timestamps are whole seconds; the figure is the exact delay rounded.
    expect(Math.abs(overview.business.current.median - delay)).toBeLessThanOrEqual(1);

    const row = (label: string) =>
      page.getByTestId('table-frt').locator('tr', { hasText: label }).locator('td').last();
    for (const width of [1381, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/stats/replies?preset=today');
      await row('Первый ответ в рабочие часы, медиана').waitFor();
      const business = (await row('Первый ответ в рабочие часы, медиана').textContent())!.trim();
      expect(business).toBe(`${overview.business.current.median} с`);
      expect(business).toBe((await row('Первый ответ, медиана').textContent())!.trim());
      await screenshot(page, `business-hours-stats-ru-${width}`);
    }
    await page.setViewportSize({ width: 1381, height: 900 });
    await page.goto('/?preset=today');
    await page.getByTestId('kpi-frt-business-value').waitFor();
    expect((await page.getByTestId('kpi-frt-business-value').textContent())!.trim()).toBe(
      (await page.getByTestId('kpi-frt-value').textContent())!.trim(),
    );

    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'en' } });
    for (const width of [1381, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/stats/replies?preset=today&locale=en');
      await row('First response in business hours, median').waitFor();
      expect((await row('First response in business hours, median').textContent())!.trim()).toBe(
        `${overview.business.current.median} s`,
      );
      await screenshot(page, `business-hours-stats-en-${width}`);
      await page.goto('/settings/workinghours?locale=en');
      await page.getByText('Business hours', { exact: true }).waitFor();
      await page.getByTestId('business-7-0-start').waitFor();
      await screenshot(page, `business-hours-en-${width}`);
    }
  });
});
