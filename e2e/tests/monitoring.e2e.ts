// Issue 21, monitoring: a person adds the keyword query "доставка AND NOT спасибо" on the monitoring page
// (a broken one is refused with the parser's message), a matching sandbox comment arrives through the
// sandbox API and the top-bar counter and the page move without a reload; a non-matching one is not
// listed; marking it read clears the counter. Screenshots in ru at 1381 px and in en at 375 px.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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
} from '../harness';

const MATCHING = 'Где моя доставка? Жду уже неделю';
const THANKS = 'Доставка пришла вовремя, спасибо!';

describe('monitoring', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let token: string;
  const env = { AUTH_RATE_LIMIT_PER_IP: '1000' };
  const api = <T>(method: string, path: string, body?: unknown) =>
    apiOk<T>(app.url, method, path, { token: owner.tokens.access_token, ...(body ? { body } : {}) });
  const comment = (author_name: string, text: string) =>
    apiOk(app.url, 'POST', `/v1/sandbox/${token}/comments`, { body: { author_name, text } });

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([startApp({ smtp, env }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    const spaceId = (await api<{ spaces: { id: number }[] }>('GET', '/v1/config')).spaces[0]!.id;
    // How many queries a space keeps is the instance operator's setting.
    const dataDir = app.dataDir;
    await app.stop({ keepData: true });
    runAdmin(dataDir, ['monitoring', String(spaceId), '5']);
    app = await startApp({ smtp, env, dataDir });
    const account = await api<{ sandbox_url: string }>('POST', '/v1/objects', {
      provider: 'sandbox',
      name: 'Кофейня «Зерно»',
    });
    token = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('a query catches an ingested comment and the counter moves live', async () => {
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    const page = await context.newPage();
    await page.goto('/monitoring');
    await page.getByTestId('monitoring-no-queries').waitFor();
    await page.getByTestId('monitoring-add').click();
    await page.getByTestId('monitoring-name').fill('Доставка');
    await page.getByTestId('monitoring-query-text').fill('(доставка AND NOT спасибо');
    await page.getByTestId('monitoring-save').click();
    await page.getByText('Не совпадают скобки').waitFor();
    await page.getByTestId('monitoring-query-text').fill('доставка AND NOT спасибо');
    await page.getByTestId('monitoring-save').click();
    await page.getByText('Запрос сохранён').waitFor();
    await page.getByTestId('monitoring-empty').waitFor();

    const badge = page.getByTestId('menu-monitoring').first();
    expect(await badge.getByLabel('1 открыта').count()).toBe(0);
    await comment('Пётр Иванов', THANKS);
    await comment('Анна Смирнова', MATCHING);
    // No reload: the socket `monitoring` message brings the counter and the list.
    await badge.getByLabel('1 открыта').waitFor({ timeout: 30_000 });
    const mention = page.getByTestId('monitoring-mention');
    await mention.filter({ hasText: MATCHING }).waitFor();
    await expect.poll(() => mention.count()).toBe(1);
    expect(await page.getByTestId('monitoring-query-unread').textContent()).toBe('1');
    await screenshot(page, 'monitoring-ru-1381');

    await page.getByTestId('monitoring-mark-read').click();
    await expect.poll(() => mention.first().getAttribute('data-read')).toBe('true');
    await expect.poll(() => badge.getByLabel('1 открыта').count()).toBe(0);
    await context.close();
  }, 300_000);

  test('the page in English on a phone', async () => {
    await api('PUT', '/v1/me', { locale: 'en' });
    await comment('Anna Smith', 'Доставка опять опоздала');
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'en-US',
      viewport: { width: 375, height: 800 },
    });
    const page = await context.newPage();
    await page.goto('/monitoring');
    await page.getByTestId('monitoring-mention').filter({ hasText: 'Доставка опять опоздала' }).waitFor();
    await page.getByText('Mark all read').waitFor();
    await screenshot(page, 'monitoring-en-375');
    await page.getByTestId('monitoring-edit').click();
    await page.getByTestId('monitoring-query-text').fill('delivery AND');
    await page.getByTestId('monitoring-save').click();
    await page.getByText('AND, OR or NOT is missing a word beside it').waitFor();
    await screenshot(page, 'monitoring-form-en-375');
    await context.close();
  }, 300_000);
});
