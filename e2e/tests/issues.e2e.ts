// Issue 16, tasks: the administrator creates a task from a sandbox comment's page and assigns it to a
// colleague signed in in a second browser; the colleague gets the `notify` and the top-bar counter; the
// server's task clock moves past the due moment (TEST_CLOCK=1: POST /v1/test/clock) and the colleague
// sees the expired count and the due notification; her comment carries a file the administrator
// downloads. The list loads its next page (by cursor) as it is scrolled. The list and the task page are
// shot in ru and en at 375 and 1381 px.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type ApiTokens,
  type AppHandle,
  apiOk,
  type BrowserHandle,
  type ConfirmedUser,
  createConfirmedUser,
  extractLink,
  launchBrowser,
  type SmtpHandle,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
  uniqueEmail,
} from '../harness';

interface ConfigBody {
  spaces: { id: number }[];
  user_statuses: { id: number; offline: boolean; hidden: boolean; space_id: number }[];
}

const HOUR = 3_600_000;

describe('tasks', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let spaceId: number;
  let onlineStatus: number;
  let token: string;
  let colleague: ApiTokens;
  let itemId: number;
  let taskId: number;

  async function operator(name: string): Promise<ApiTokens> {
    const email = uniqueEmail('operator');
    await apiOk(app.url, 'POST', '/v1/users', {
      token: owner.tokens.access_token,
      body: { email, space_id: spaceId, role: 'operator' },
    });
    const link = new URL(extractLink(await smtp.waitForMail({ to: email }), '/signup/'));
    const hash = decodeURIComponent(link.pathname.slice('/signup/'.length));
    const signedUp = await apiOk<{ token: ApiTokens }>(
      app.url,
      'POST',
      `/v1/signup/${encodeURIComponent(hash)}`,
      {
        body: { name, password: 'Member-pass9!', locale: 'ru' },
      },
    );
    await apiOk(app.url, 'PUT', '/v1/me/status', {
      token: signedUp.token.access_token,
      body: { status: onlineStatus, space_id: spaceId },
    });
    return signedUp.token;
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000', TEST_CLOCK: '1' }, startTimeoutMs: 240_000 }),
      launchBrowser(),
    ]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    const config = await apiOk<ConfigBody>(app.url, 'GET', '/v1/config', {
      token: owner.tokens.access_token,
    });
    spaceId = config.spaces[0]!.id;
    onlineStatus = config.user_statuses.find((s) => s.space_id === spaceId && !s.offline && !s.hidden)!.id;
    await apiOk(app.url, 'PUT', `/v1/spaces/${spaceId}/features`, {
      token: owner.tokens.access_token,
      body: { flags: { issues: true } },
    });
    const account = await apiOk<{ sandbox_url: string }>(app.url, 'POST', '/v1/objects', {
      token: owner.tokens.access_token,
      body: { provider: 'sandbox', name: 'Кофейня «Зерно»' },
    });
    token = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
    await apiOk(app.url, 'POST', `/v1/sandbox/${token}/comments`, {
      body: { author_name: 'Мария Ковалёва', text: 'Кофе был холодный, верните деньги' },
    });
    const list = await apiOk<{ items: { id: number; text: string }[] }>(app.url, 'GET', '/v1/items', {
      token: owner.tokens.access_token,
    });
    itemId = list.items.find((item) => item.text.startsWith('Кофе был холодный'))!.id;
    colleague = await operator('Анна Оператор');
    // The machine may be shared: starting the server and the browser gets more than the default hook time.
  }, 400_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('a task made from a comment reaches the assignee in another browser: notification, counter, then expiry', async () => {
    // The colleague works in a second browser and sees no task counter yet.
    const anna = await signedInContext(browser, colleague, {
      baseURL: app.url,
      locale: 'ru-RU',
      timezoneId: 'UTC',
      viewport: { width: 1381, height: 900 },
    });
    const annaPage = await anna.newPage();
    await annaPage.goto('/items');
    const annaTasks = annaPage.getByTestId('menu-issues').first();
    await annaTasks.waitFor({ timeout: 60_000 });
    expect(await annaTasks.getByLabel('1 открыта').count()).toBe(0);

    // The administrator opens the comment and creates a task about it, assigned to Anna, due in an hour.
    const admin = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      timezoneId: 'UTC',
      viewport: { width: 1381, height: 900 },
    });
    const page = await admin.newPage();
    await page.goto(`/items/${itemId}`);
    await page
      .getByTestId('linked-issues')
      .getByText('Задач по этому обращению нет')
      .waitFor({ timeout: 20_000 });
    await page.getByTestId('create-issue').click();
    await page.getByTestId('issue-title').fill('Вернуть деньги Марии');
    await page.getByTestId('issue-description').fill('Проверить чек и оформить возврат');
    await page.getByTestId('issue-assignee').click();
    await page.getByRole('option', { name: 'Анна Оператор' }).click();
    const due = new Date(Date.now() + HOUR).toISOString().slice(0, 16);
    await page.getByTestId('issue-due').fill(due);
    await screenshot(page, 'issues-create-from-item-ru-1381');
    await page.getByTestId('issue-submit').click();
    const row = page
      .getByTestId('linked-issues')
      .getByTestId('issue-row')
      .filter({ hasText: 'Вернуть деньги Марии' });
    await row.waitFor({ timeout: 45_000 });
    await screenshot(page, 'issues-item-linked-ru-1381');

    // Anna is notified (docs/product/api.md notify of type issue) and her counter shows one open task, live.
    await annaPage.getByText('Вам назначена задача').waitFor({ timeout: 20_000 });
    await annaTasks.getByLabel('1 открыта').waitFor({ timeout: 20_000 });
    await screenshot(annaPage, 'issues-notify-assigned-ru-1381');
    // The notification opens the task (route issue-page).
    await annaPage.getByText('Вам назначена задача').click();
    await annaPage.getByTestId('issue-page').waitFor({ timeout: 45_000 });
    taskId = Number(await annaPage.getByTestId('issue-page').getAttribute('data-issue-id'));
    expect(await annaPage.getByTestId('issue-page-title').textContent()).toBe('Вернуть деньги Марии');
    await annaPage.getByTestId('issue-link').first().waitFor();

    // Two hours pass on the server's task clock: the task is past due.
    await apiOk(app.url, 'POST', '/v1/test/clock', { body: { offset_ms: 2 * HOUR } });
    await annaPage.getByText('Срок задачи истёк').waitFor({ timeout: 20_000 });
    await annaTasks.getByLabel('1 просрочена').waitFor({ timeout: 20_000 });
    await annaPage.reload();
    await annaPage.getByTestId('issue-expired').waitFor({ timeout: 45_000 });
    await annaPage.getByTestId('issue-history').getByText('Срок истёк').waitFor();
    await screenshot(annaPage, 'issues-page-expired-ru-1381');

    // Anna comments, mentioning the administrator, who is notified (her page stays open: its socket is live).
    // She attaches the receipt (a file on the comment, kept by the server for this space's members).
    await annaPage.getByTestId('issue-comment-input').fill('Чек нашла, ');
    await annaPage.getByTestId('mention-picker').click();
    await annaPage.getByRole('menuitem', { name: 'Ольга Админ' }).click();
    const [chooser] = await Promise.all([
      annaPage.waitForEvent('filechooser'),
      annaPage.getByTestId('issue-comment-attach').click(),
    ]);
    await chooser.setFiles({ name: 'чек.txt', mimeType: 'text/plain', buffer: Buffer.from('Чек № 42') });
    await annaPage
      .getByTestId('issue-comment-pending')
      .getByText('чек.txt', { exact: true })
      .waitFor({ timeout: 45_000 });
    await annaPage.getByTestId('issue-comment-send').click();
    await annaPage
      .getByTestId('issue-comment')
      .filter({ hasText: '@Ольга Админ' })
      .getByTestId('issue-comment-files')
      .waitFor({ timeout: 45_000 });
    await page.getByText('Анна Оператор упомянул(а) вас в комментарии к задаче').waitFor({ timeout: 20_000 });
    // The administrator opens the task and downloads the file.
    await page.goto(`/issues/${taskId}`);
    const file = page.getByTestId('issue-comment-files').getByTestId('attachment-file');
    await file.waitFor({ timeout: 45_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), file.click()]);
    expect(download.suggestedFilename()).toBe('чек.txt');
    expect(readFileSync((await download.path())!, 'utf8')).toBe('Чек № 42');
    await screenshot(page, 'issues-comment-file-ru-1381');

    // The list of past-due tasks shows it; closing it clears Anna's counters.
    await annaPage.goto('/issues?expired=1');
    await annaPage
      .getByTestId('issue-row')
      .filter({ hasText: 'Вернуть деньги Марии' })
      .waitFor({ timeout: 45_000 });
    expect(await annaPage.getByTestId('issue-row').first().getAttribute('data-expired')).toBe('true');
    await annaPage.getByTestId('issue-row').first().getByRole('link').click();
    await annaPage.getByTestId('issue-toggle-close').click();
    await annaPage.getByTestId('issue-status').filter({ hasText: 'Закрыта' }).waitFor({ timeout: 45_000 });
    await expect.poll(() => annaTasks.getByLabel('1 просрочена').count(), { timeout: 20_000 }).toBe(0);
    await anna.close();
    await admin.close();
    await apiOk(app.url, 'POST', '/v1/test/clock', { body: { offset_ms: 0 } });
  }, 300_000);

  test('the list loads its next page as it is scrolled', async () => {
    // 40 more tasks: more than the first page of 30.
    for (let i = 1; i <= 40; i++)
      await apiOk(app.url, 'POST', '/v1/issues', {
        token: owner.tokens.access_token,
        body: { space_id: spaceId, title: `Проверить отзыв № ${i}`, assigned_user_id: null },
      });
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    const page = await context.newPage();
    await page.goto('/issues?assigned_to=all');
    await page.getByTestId('issue-row').first().waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('issue-row').count()).toBe(30);
    const { total } = await apiOk<{ total: number }>(app.url, 'GET', '/v1/issues', {
      token: owner.tokens.access_token,
    });
    expect(total).toBeGreaterThan(40);
    expect(await page.getByTestId('issues-total').textContent()).toContain(String(total));
    // Scrolling to the end brings the rest, each task once.
    await page.getByTestId('issues-more-sentinel').scrollIntoViewIfNeeded();
    await expect.poll(() => page.getByTestId('issue-row').count(), { timeout: 30_000 }).toBe(total);
    const numbers = (await page.getByTestId('issue-row').allTextContents())
      .map((x) => /Проверить отзыв № (\d+)/.exec(x)?.[1])
      .filter((x): x is string => x !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await page.getByTestId('issues-more-sentinel').count()).toBe(0);
    await context.close();
  }, 300_000);

  test('the list, the task page, settings and stats in ru and en at 375 and 1381', async () => {
    // A second, open task so the list shows more than one row.
    await apiOk(app.url, 'POST', '/v1/issues', {
      token: owner.tokens.access_token,
      body: { space_id: spaceId, title: 'Ответить на отзыв о доставке', priority: 'high' },
    });
    for (const [locale, lang] of [
      ['ru-RU', 'ru'],
      ['en-US', 'en'],
    ] as const) {
      await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: lang } });
      for (const width of [375, 1381]) {
        const context = await signedInContext(browser, owner.tokens, {
          baseURL: app.url,
          locale,
          viewport: { width, height: 900 },
        });
        const page = await context.newPage();
        await page.goto('/issues');
        await page.getByTestId('issue-row').nth(1).waitFor({ timeout: 60_000 });
        await page
          .getByText(lang === 'ru' ? 'Все задачи' : 'All tasks')
          .first()
          .waitFor();
        await screenshot(page, `issues-list-${lang}-${width}`);
        await page.goto(`/issues/${taskId}`);
        await page.getByTestId('issue-history').waitFor({ timeout: 45_000 });
        await page
          .getByText(lang === 'ru' ? 'История' : 'History')
          .first()
          .waitFor();
        await screenshot(page, `issues-page-${lang}-${width}`);
        await page.goto('/settings/issues');
        await page.getByTestId('issues-settings').waitFor({ timeout: 45_000 });
        await screenshot(page, `issues-settings-${lang}-${width}`);
        await page.goto(`/stats/issues?space_id=${spaceId}`);
        await page.getByTestId('issues-stats').waitFor({ timeout: 60_000 });
        await screenshot(page, `issues-stats-${lang}-${width}`);
        await context.close();
      }
    }
  }, 400_000);
});
