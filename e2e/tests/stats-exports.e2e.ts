// Background exports (issue 15 item 5): on stats/export the administrator starts a CSV export of the
// period's items; the job runs on the server, the progress bar finishes by itself (socket pushes), the
// downloaded file holds exactly the seeded comments and review (after the sandbox's welcome comment). In English an XLSX of dialogs.
// A tab in the background (the team table, a member's page, the /live wall) lands in the same list.
// Screenshots at 375 and 1381 px in Russian and English.
import { readFileSync } from 'node:fs';
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
} from '../harness';

const COMMENTS = ['Где мой заказ?', 'Всё пришло', '=СУММ(1;2)'];

describe('statistics exports', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let page: Page;

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([startApp({ smtp }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Анна Админ', company: 'Кофейня' });
    const account = await apiOk<{ sandbox_url: string }>(app.url, 'POST', '/v1/objects', {
      token: owner.tokens.access_token,
      body: { provider: 'sandbox', name: 'Кофейня «Зерно»' },
    });
    const token = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
    const customer = (path: string, body: unknown) =>
      apiOk(app.url, 'POST', `/v1/sandbox/${token}/${path}`, { body });
    for (const text of COMMENTS) await customer('comments', { author_name: 'Ольга Покупатель', text });
    await customer('reviews', { author_name: 'Иван Гость', text: 'Вкусно', rating: 5 });
    await customer('messages', { author_name: 'Пётр Клиент', text: 'Здравствуйте', peer: 'petr' });
    const context = await signedInContext(browser, owner.tokens, { baseURL: app.url });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('a CSV export of the items runs in the background, finishes and downloads with every row', async () => {
    await page.setViewportSize({ width: 1381, height: 900 });
    await page.goto('/stats/export');
    await page.getByTestId('exports-list').getByText('Выгрузок пока нет.').waitFor();
    await page.getByTestId('exports-submit').click();
    const row = page.locator('[data-testid^="export-row-"]').first();
    await row.getByText('Комментарии, отзывы, упоминания').waitFor();
    // The progress bar gives way to "Ready" once the job has written the file (pushed over the socket).
    await page.locator('[data-testid^="export-row-"][data-status="done"]').waitFor({ timeout: 60_000 });
    await row.getByText('Готово').waitFor();
    expect(
      await row.locator('[data-testid^="export-rows-"]').textContent(),
      (await row.textContent()) ?? undefined,
    ).toBe('5');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.locator('[data-testid^="export-download-"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^items-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv
      .replace(/^\ufeff/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'ID,Создано,Сеть,Аккаунт,Тип,Статус,Как закрыто,Автор,Текст,Оценка,Ссылка,ID публикации,Ответственный,Теги,Первый ответ,Закрыто',
    );
    // The sandbox's own welcome comment comes first, then the seeded ones in order of arrival.
    expect(lines, csv).toHaveLength(6);
    // A text with a comma is quoted; a formula-looking one is written as text (a leading apostrophe).
    expect(lines[1]).toContain(',"Здравствуйте! Подскажите, сколько идёт доставка?",');
    const texts = lines.slice(2).map((l) => l.split(',')[8]);
    expect(texts).toEqual([...COMMENTS.slice(0, 2), "'=СУММ(1;2)", 'Вкусно']);
    expect(lines.slice(1).every((l) => l.includes(',sandbox,Кофейня «Зерно»,'))).toBe(true);
    // The ready mail links back here.
    const mail = await smtp.waitForMail({ to: owner.email, subject: /Экспорт готов/ });
    expect(mail.text).toContain('/stats/export?space_id=');
    for (const width of [1381, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `stats-exports-ru-${width}`);
    }
  });

  test('in English: an XLSX export of dialogs', async () => {
    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'en' } });
    await page.setViewportSize({ width: 1381, height: 900 });
    await page.goto('/stats/export?locale=en');
    await page.getByText('Export raw data').waitFor();
    await page.getByTestId('exports-kind').click();
    await page.getByRole('option', { name: 'Dialogs', exact: true }).click();
    await page.getByTestId('exports-format').click();
    await page.getByRole('option', { name: 'XLSX' }).click();
    await page.getByTestId('exports-submit').click();
    const row = page.locator('[data-testid^="export-row-"]').first();
    await row.getByText('Dialogs').waitFor();
    await page
      .locator('[data-testid^="export-row-"][data-status="done"]')
      .first()
      .waitFor({ timeout: 60_000 });
    await row.getByText('Ready').waitFor();
    expect(
      await row.locator('[data-testid^="export-rows-"]').textContent(),
      (await row.textContent()) ?? undefined,
    ).toBe('2');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.locator('[data-testid^="export-download-"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^chats-.*\.xlsx$/);
    expect(
      readFileSync((await download.path())!)
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
    for (const width of [1381, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `stats-exports-en-${width}`);
    }
    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'ru' } });
  });

  test('a tab in the background: the team table from its tab, listed and downloaded on stats/export', async () => {
    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'en' } });
    await page.setViewportSize({ width: 1381, height: 900 });
    await page.goto('/stats/users?locale=en');
    await page.getByTestId('stats-bg-export').click();
    await screenshot(page, 'stats-tab-export-en-1381');
    await page.getByTestId('stats-bg-export-csv').click();
    await page.getByText('Export started: it will appear under Statistics → Export').waitFor();
    await page.setViewportSize({ width: 375, height: 900 });
    await screenshot(page, 'stats-tab-export-en-375');
    await page.setViewportSize({ width: 1381, height: 900 });
    await page.goto('/stats/export?locale=en');
    const row = page.locator('[data-testid^="export-row-"]').first();
    await row.getByText('Tab: Team').waitFor();
    await page
      .locator('[data-testid^="export-row-"][data-status="done"]')
      .first()
      .waitFor({ timeout: 60_000 });
    await row.getByText('Ready').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.locator('[data-testid^="export-download-"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^users-.*\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.startsWith('\uFEFFTeam member,Replies,Closed,First replies,')).toBe(true);
    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'ru' } });
  });

  test("a member's page in the background: their figures, named in the list and downloaded", async () => {
    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'en' } });
    const me = await apiOk<{ id: number }>(app.url, 'GET', '/v1/me', { token: owner.tokens.access_token });
    await page.setViewportSize({ width: 1381, height: 900 });
    await page.goto(`/stats/users/${me.id}?locale=en`);
    await page.getByTestId('stats-person-name').waitFor();
    await page.getByTestId('stats-bg-export').click();
    await page.getByTestId('stats-bg-export-csv').click();
    await page.getByText('Export started: it will appear under Statistics → Export').waitFor();
    await page.goto('/stats/export?locale=en');
    const row = page.locator('[data-testid^="export-row-"]').first();
    await row.getByText('Tab: Team member Анна Админ').waitFor();
    await page
      .locator('[data-testid^="export-row-"][data-status="done"]')
      .first()
      .waitFor({ timeout: 60_000 });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.locator('[data-testid^="export-download-"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^user-.*\.csv$/);
    const lines = readFileSync((await download.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .split('\r\n');
    // Nobody answered anything in this space: the administrator's figures are all zero.
    expect(lines.slice(0, 3)).toEqual(['Figure,Value', 'Replies,0', 'Closed,0']);
    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'ru' } });
  });
  test('the /live wall in the background: its numbers as name/value rows, equal to the tiles', async () => {
    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'en' } });
    await page.setViewportSize({ width: 1381, height: 900 });
    await page.goto('/live?locale=en');
    const waiting = Number(await page.getByTestId('live-waiting-value').textContent());
    const today = Number(await page.getByTestId('live-today-incoming-value').textContent());
    await page.getByTestId('stats-bg-export').click();
    await page.getByTestId('stats-bg-export-csv').click();
    await page.getByText('Export started: it will appear under Statistics → Export').waitFor();
    await screenshot(page, 'stats-live-export-en-1381');
    await page.goto('/stats/export?locale=en');
    const row = page.locator('[data-testid^="export-row-"]').first();
    await row.getByText('Tab: Live').waitFor();
    await page
      .locator('[data-testid^="export-row-"][data-status="done"]')
      .first()
      .waitFor({ timeout: 60_000 });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.locator('[data-testid^="export-download-"]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^live-.*\.csv$/);
    const rows = readFileSync((await download.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
      // Two cells: a label (quoted when it holds a comma) and a value.
      .map((line) =>
        /^("(?:[^"]|"")*"|[^,]*),(.*)$/
          .exec(line)!
          .slice(1)
          .map((c) => c.replace(/^"|"$/g, '')),
      );
    expect(rows[0]).toEqual(['Figure', 'Value']);
    const value = (label: string) => Number(rows.find((r) => r[0] === label)?.[1]);
    // By hand: the sandbox's welcome comment, three comments and a review wait, and two dialogs (the
    // sandbox's welcome dialog and Пётр's); all came today.
    expect(value('Waiting now: items') + value('Waiting now: dialogs')).toBe(waiting);
    expect([value('Waiting now: items'), value('Waiting now: dialogs')]).toEqual([5, 2]);
    expect(value('Today: Comments, reviews, mentions') + value('Today: New dialogs')).toBe(today);
    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'ru' } });
  });
});
