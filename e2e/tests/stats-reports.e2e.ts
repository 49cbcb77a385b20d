// Scheduled statistics reports (issue 15 item 6): in stats/reports the administrator creates a weekly
// report (a wrong address is refused in their language), presses "send now", the mail with the XLSX
// workbook arrives at the outside address and the history lists the sending. The /reports section shows
// the same list; screenshots at 375/768/1381 px in Russian and English.
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

describe('statistics reports', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let page: Page;

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([startApp({ smtp }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Анна Админ', company: 'Кофейня' });
    await apiOk(app.url, 'POST', '/v1/objects', {
      token: owner.tokens.access_token,
      body: { provider: 'sandbox', name: 'Кофейня «Зерно»' },
    });
    const context = await signedInContext(browser, owner.tokens, { baseURL: app.url });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('create a weekly report, send it now: the mail with the XLSX arrives and the history shows it', async () => {
    await page.setViewportSize({ width: 1381, height: 900 });
    await page.goto('/stats/reports');
    await page.getByTestId('stats-tab-reports').waitFor();
    await page.getByTestId('reports-list').getByText('Отчётов пока нет').waitFor();
    await page.getByTestId('report-add').click();
    await page.getByTestId('report-name').fill('Неделя команды');
    await page.getByTestId('report-tab-closed').check();
    const emails = page.getByTestId('report-emails');
    await emails.fill('не адрес');
    await emails.press('Enter');
    await page.getByTestId('report-save').click();
    await page.getByText('Укажите корректный email получателя').waitFor();
    await screenshot(page, 'stats-reports-dialog-ru-1381');
    await emails.press('Backspace');
    await emails.fill('lead@example.com');
    await emails.press('Enter');
    await page.getByTestId('report-save').click();
    const row = page.locator('[data-testid^="report-row-"]').first();
    await row.getByText('Неделя команды').waitFor();
    // Weekly on Monday at 09:00 (the dialog's defaults), one recipient.
    await row.getByText('Еженедельно, Пн, в 09:00').waitFor();

    await row.locator('[data-testid^="report-send-"]').click();
    const mail = await smtp.waitForMail({ to: 'lead@example.com', subject: /Неделя команды/ });
    expect(mail.subject).toMatch(/^Отчёт «Неделя команды» — Кофейня, \d{4}-\d{2}-\d{2} — \d{4}-\d{2}-\d{2}$/);
    expect(mail.html).toContain('Комментарии, отзывы, упоминания');
    // The workbook and its summary page, beside each other.
    expect(mail.attachments.map((a) => (a.filename ?? '').replace(/\d/g, '#')).sort()).toEqual([
      'report-####-##-##-####-##-##.html',
      'report-####-##-##-####-##-##.xlsx',
    ]);
    const file = mail.attachments.find((a) => a.filename?.endsWith('.xlsx'));
    expect(file!.content.subarray(0, 2).toString()).toBe('PK'); // a zip: XLSX
    const summary = mail.attachments.find((a) => a.filename?.endsWith('.html'));
    expect(summary!.content.toString()).toContain('Неделя команды');

    const history = page.getByTestId('reports-history');
    const run = history.getByTestId('report-run').first();
    await run.getByText('lead@example.com').waitFor();
    await run.getByText('Вручную').waitFor();
    await run.getByText('Отправлен').waitFor();
    await row.getByText('Неделя команды').waitFor();
    for (const width of [1381, 768, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await screenshot(page, `stats-reports-ru-${width}`);
    }
  });

  test('the /reports section lists the same reports and history, in English', async () => {
    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'en' } });
    await page.setViewportSize({ width: 1381, height: 900 });
    await page.goto('/reports?locale=en');
    await page.getByText('Sending history').waitFor();
    expect(await page.getByTestId('stats-tab-reports').count()).toBe(0);
    const run = page.getByTestId('reports-history').getByTestId('report-run').first();
    await run.getByText('By hand').waitFor();
    await run.getByText('Sent', { exact: true }).waitFor();
    await page.locator('[data-testid^="report-row-"]').first().getByText('Every Mon at 09:00').waitFor();
    for (const width of [1381, 768, 375]) {
      await page.setViewportSize({ width, height: 900 });
      // Nothing of a report or a sending lies off to the side: on a tablet or a phone each is a card, its
      // actions and result inside the window (the tables used to push them out of their cards).
      const report = page.locator('[data-testid^="report-row-"]').first();
      for (const part of [
        report.locator('[data-testid^="report-send-"]'),
        report.getByRole('button', { name: 'Delete' }),
        page
          .getByTestId('reports-history')
          .getByTestId('report-run')
          .first()
          .getByText('Sent', { exact: true }),
      ]) {
        // The page picks cards or a table by a media query in JavaScript: right after the resize, the
        // layout of the width before may still be there (or be going), so the measure is polled until the
        // new one has drawn — each part shown, its right edge inside the window.
        await expect
          .poll(
            async () => {
              const box = await part.boundingBox();
              return box === null ? 'not shown' : box.x + box.width <= width;
            },
            { message: `${width} px` },
          )
          .toBe(true);
      }
      await screenshot(page, `stats-reports-en-${width}`);
    }
    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'ru' } });
  });
});
