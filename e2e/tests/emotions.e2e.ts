// Issue 21, emotions: a negative sandbox comment arrives and its row shows "Негатив", the inbox filter
// by emotion finds it (and not the kind one), stats/emotions counts it, and settings/emotions keeps a
// space's own word; a chat takes the emotion of its customer's latest message (badge on the row and on
// the message, the chat list's emotion filter). Screenshots in ru at 1381 px and in en at 375 px.
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

const NEGATIVE = 'Заказ опоздал на три дня, никто не предупредил';
const POSITIVE = 'Спасибо, всё пришло быстро, отличный сервис!';
const CHAT_ANGRY = 'Вы мошенники, верните мои деньги!';
const CHAT_GOOD = 'Спасибо большое, всё получил, вы лучшие!';

describe('emotions', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let spaceId: number;
  const env = { AUTH_RATE_LIMIT_PER_IP: '1000' };
  const api = <T>(method: string, path: string, body?: unknown) =>
    apiOk<T>(app.url, method, path, { token: owner.tokens.access_token, ...(body ? { body } : {}) });
  /** The drawer slides in: a screenshot waits for it to stop. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([startApp({ smtp, env }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    spaceId = (await api<{ spaces: { id: number }[] }>('GET', '/v1/config')).spaces[0]!.id;
    // settings/emotions comes with a special tariff: the operator moves the space there.
    const dataDir = app.dataDir;
    await app.stop({ keepData: true });
    runAdmin(dataDir, ['set-tariff', String(spaceId), '20']);
    app = await startApp({ smtp, env, dataDir });
    const account = await api<{ sandbox_url: string }>('POST', '/v1/objects', {
      provider: 'sandbox',
      name: 'Кофейня «Зерно»',
    });
    const token = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
    for (const [author_name, text] of [
      ['Анна Смирнова', NEGATIVE],
      ['Пётр Иванов', POSITIVE],
    ])
      await apiOk(app.url, 'POST', `/v1/sandbox/${token}/comments`, { body: { author_name, text } });
    for (const [author_name, text, peer] of [
      ['Игорь Злой', CHAT_ANGRY, 'angry-peer'],
      ['Мария Добрая', CHAT_GOOD, 'good-peer'],
    ])
      await apiOk(app.url, 'POST', `/v1/sandbox/${token}/messages`, { body: { author_name, text, peer } });
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('a negative comment shows its emotion, the filter finds it, stats/emotions counts it', async () => {
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    const page = await context.newPage();
    await page.goto('/items');
    const negativeRow = page.getByTestId('item-row').filter({ hasText: NEGATIVE });
    await negativeRow.getByTestId('emotion-badge').getByText('Негатив').waitFor();
    await page.getByTestId('item-row').filter({ hasText: POSITIVE }).getByText('Позитив').waitFor();
    await screenshot(page, 'emotions-items-ru-1381');

    await page.getByTestId('filter-button').click();
    await page.getByTestId('inbox-filters').waitFor();
    // A Mantine chip's test id is on its (hidden) input; the label is what a person clicks.
    await page.getByTestId('filter-sentiment-negative').locator('xpath=following-sibling::label').click();
    await settle();
    await screenshot(page, 'emotions-filter-ru-1381');
    await page.getByTestId('filter-apply').click();
    await page.waitForURL(/sentiment=negative/);
    await expect.poll(() => page.getByTestId('item-row').count()).toBe(1);
    await negativeRow.waitFor();

    await page.goto('/stats/emotions');
    await page.getByTestId('stats-tab-emotions').waitFor();
    // The sandbox account brings sample comments of its own: at least ours is counted.
    await expect
      .poll(() => page.getByTestId('emotions-total-negative').textContent())
      .toMatch(/^[1-9]\d* · \d/);
    expect(await page.getByTestId('emotions-total-positive').textContent()).toMatch(/^[1-9]\d* · \d/);
    await page.getByTestId('table-emotions-accounts').getByText('Кофейня «Зерно»').waitFor();
    await screenshot(page, 'emotions-stats-ru-1381');
    await context.close();
  }, 300_000);

  test('a chat shows its customer’s emotion; the chat list filters by it; the message has its badge', async () => {
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    const page = await context.newPage();
    await page.goto('/chats');
    const angryRow = page.getByTestId('chat-row').filter({ hasText: CHAT_ANGRY });
    await angryRow.locator('[data-testid="emotion-badge"][data-emotion="anger"]').waitFor();
    await page
      .getByTestId('chat-row')
      .filter({ hasText: CHAT_GOOD })
      .locator('[data-testid="emotion-badge"][data-emotion="positive"]')
      .waitFor();

    await page.getByTestId('filter-button').click();
    await page.getByTestId('inbox-filters').waitFor();
    await page.getByTestId('filter-sentiment-anger').locator('xpath=following-sibling::label').click();
    await page.getByTestId('filter-apply').click();
    await page.waitForURL(/sentiment=anger/);
    await expect.poll(() => page.getByTestId('chat-row').filter({ hasText: CHAT_GOOD }).count()).toBe(0);
    await angryRow.waitFor();
    await screenshot(page, 'emotions-chats-ru-1381');

    await angryRow.click();
    const message = page.getByTestId('message').filter({ hasText: CHAT_ANGRY });
    await message.locator('[data-testid="emotion-badge"][data-emotion="anger"]').waitFor();
    await screenshot(page, 'emotions-chat-ru-1381');
    await context.close();
  }, 300_000);

  test('settings/emotions keeps a word of the space; the tab and the screen in English on a phone', async () => {
    await api('PUT', '/v1/me', { locale: 'en' });
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'en-US',
      viewport: { width: 375, height: 800 },
    });
    const page = await context.newPage();
    await page.goto('/settings/emotions');
    await page.getByTestId('emotions-enabled').waitFor();
    await page.getByTestId('emotion-word-add').click();
    await page.getByTestId('emotion-word').fill('sick');
    await page.getByTestId('emotions-save').click();
    await page.getByText('Emotion settings saved').waitFor();
    const saved = await api<{ words: unknown[] }>('GET', `/v1/emotions/settings?space_id=${spaceId}`);
    expect(saved.words).toContainEqual({ word: 'sick', sentiment: 'positive' });
    await screenshot(page, 'emotions-settings-en-375');

    await page.goto('/stats/emotions');
    await expect
      .poll(() => page.getByTestId('emotions-total-negative').textContent())
      .toMatch(/^[1-9]\d* · \d/);
    await page.getByText('Share of negative, neutral and positive by day, %').waitFor();
    await screenshot(page, 'emotions-stats-en-375');
    await context.close();
  }, 300_000);
});
