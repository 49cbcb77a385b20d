// Issue 21, monitoring: a person adds the keyword query "доставка AND NOT спасибо" on the monitoring page
// (a broken one is refused with the parser's message), a matching sandbox comment arrives through the
// sandbox API and the top-bar counter and the page move without a reload; a non-matching one is not
// listed; marking it read clears the counter. Screenshots in ru at 1381 px and in en at 375 px.
// YouScan: connecting a topic with a wrong key shows YouScan's refusal under the key; the right key
// imports the topic's mentions (sentiment shown), "import now" brings a new one, the counter follows.
// Saved filters and actions: the unread filter is saved as a chip, reset and applied again; a mention
// becomes a task (then it is read, so the unread filter no longer lists it).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startYouscanEmulator, type YouscanEmulator } from '../../apps/server/emulators/youscan/emulator';
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
  let youscan: YouscanEmulator;
  let env: Record<string, string>;
  const api = <T>(method: string, path: string, body?: unknown) =>
    apiOk<T>(app.url, method, path, { token: owner.tokens.access_token, ...(body ? { body } : {}) });
  const comment = (author_name: string, text: string) =>
    apiOk(app.url, 'POST', `/v1/sandbox/${token}/comments`, { body: { author_name, text } });

  beforeAll(async () => {
    [smtp, youscan] = await Promise.all([startSmtp(), startYouscanEmulator()]);
    env = { AUTH_RATE_LIMIT_PER_IP: '1000', YOUSCAN_API_URL: youscan.url };
    [app, browser] = await Promise.all([startApp({ smtp, env }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    const spaceId = (await api<{ spaces: { id: number }[] }>('GET', '/v1/config')).spaces[0]!.id;
    // How many queries a space keeps is the instance operator's setting.
    const dataDir = app.dataDir;
    await app.stop({ keepData: true });
    runAdmin(dataDir, ['monitoring', String(spaceId), '5']);
    runAdmin(dataDir, ['feature', String(spaceId), 'youscan', 'on']);
    runAdmin(dataDir, ['feature', String(spaceId), 'issues', 'on']);
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
    await youscan?.close();
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

  test('a YouScan topic: a wrong key is refused, the right one imports, import now brings more', async () => {
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    youscan.add('brand', {
      id: 'y1',
      text: 'Кофейня «Зерно» — лучший раф в городе',
      published: ago(90),
      author: { name: 'Мария К.', url: 'https://example.com/maria' },
      source: 'instagram.com',
      sentiment: 'positive',
    });
    youscan.add('brand', {
      id: 'y2',
      text: 'В «Зерне» опять очередь на полчаса, бариста грубит',
      published: ago(30),
      author: { name: 'Игорь', url: 'https://example.com/igor' },
      source: 'vk.com',
      sentiment: 'negative',
    });
    await api('PUT', '/v1/me', { locale: 'ru' });
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    const page = await context.newPage();
    await page.goto('/monitoring');
    await page.getByTestId('youscan-connect').click();
    await page.getByTestId('youscan-name').fill('Бренд «Зерно»');
    await page.getByTestId('youscan-topic-id').fill('brand');
    await page.getByTestId('youscan-api-key').fill('wrong-key');
    await page.getByTestId('youscan-save').click();
    await page.getByText('YouScan не принял ключ API').waitFor();
    await page.getByTestId('youscan-api-key').fill(youscan.apiKey);
    await page.getByTestId('youscan-save').click();
    await page.getByTestId('youscan-status').filter({ hasText: 'Подключено' }).waitFor();
    const mention = page.getByTestId('youscan-mention');
    await expect.poll(() => mention.count()).toBe(2);
    expect(await mention.first().getByTestId('youscan-sentiment').textContent()).toBe('Негатив');
    const badge = page.getByTestId('menu-monitoring').first();
    await badge.getByLabel('3 открыты').waitFor({ timeout: 30_000 });

    youscan.add('brand', {
      id: 'y3',
      text: 'Спасибо за бесплатный кофе!',
      published: ago(1),
      sentiment: 'positive',
    });
    await page.getByTestId('youscan-import').click();
    await mention.filter({ hasText: 'бесплатный кофе' }).waitFor();
    await expect.poll(() => mention.count()).toBe(3);
    await screenshot(page, 'youscan-ru-1381');
    await page.getByTestId('youscan-read-all').click();
    await expect.poll(() => mention.first().getAttribute('data-read')).toBe('true');
    await context.close();

    await api('PUT', '/v1/me', { locale: 'en' });
    const phone = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'en-US',
      viewport: { width: 375, height: 800 },
    });
    const small = await phone.newPage();
    await small.goto('/monitoring');
    await small.getByTestId('youscan-topic').click();
    await small.getByTestId('youscan-status').filter({ hasText: 'Connected' }).waitFor();
    await small.getByTestId('youscan-mention').first().waitFor();
    await screenshot(small, 'youscan-en-375');
    await phone.close();
  }, 300_000);

  test('a saved filter is applied from its chip; a mention becomes a task', async () => {
    await api('PUT', '/v1/me', { locale: 'ru' });
    await comment('Олег', 'Доставка сломала коробку');
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    const page = await context.newPage();
    await page.goto('/monitoring?read=unread');
    const mention = page.getByTestId('monitoring-mention');
    const broken = mention.filter({ hasText: 'Доставка сломала коробку' });
    await broken.waitFor();
    // Unread: this one and the one of the English test; the first test's mention was read.
    await expect.poll(() => mention.count()).toBe(2);
    await page.getByTestId('monitoring-filter-save').click();
    await page.getByTestId('monitoring-filter-name').fill('Непрочитанные');
    await page.getByTestId('monitoring-filter-name-save').click();
    const chip = page.getByTestId('monitoring-saved-filter').filter({ hasText: 'Непрочитанные' });
    await chip.waitFor();
    await page.getByRole('button', { name: 'Сбросить' }).click();
    await expect.poll(() => mention.count()).toBe(3);
    await chip.getByText('Непрочитанные').click();
    await expect.poll(() => mention.count()).toBe(2);
    expect(new URL(page.url()).searchParams.get('read')).toBe('unread');
    await screenshot(page, 'monitoring-filters-ru-1381');

    // A task from the mention: it is read afterwards, so the unread filter no longer lists it.
    await broken.getByTestId('mention-to-issue').click();
    await page.getByText('Задача создана').waitFor();
    await expect.poll(() => mention.count()).toBe(1);
    const issues = await api<{ items: Array<{ description: string }> }>('GET', '/v1/issues');
    expect(issues.items.map((i) => i.description)).toContain('Доставка сломала коробку');
    await context.close();

    await api('PUT', '/v1/me', { locale: 'en' });
    const phone = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'en-US',
      viewport: { width: 375, height: 800 },
    });
    const small = await phone.newPage();
    await small.goto('/monitoring');
    await small.getByTestId('monitoring-saved-filter').filter({ hasText: 'Непрочитанные' }).waitFor();
    await small.getByTestId('mention-to-inbox').first().waitFor();
    await screenshot(small, 'monitoring-filters-en-375');
    await phone.close();
  }, 300_000);
});
