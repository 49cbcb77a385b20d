// Issue 21, monitoring from RSS/Atom: an administrator adds a feed on the monitoring page (a non-web
// address is refused with the form's message); the feed — served by a real HTTP server on 127.0.0.1 — is
// checked at once, its matching entry is listed as a mention of the query, the other entry is not; a new
// entry fetched in the background moves the top-bar counter without a reload; a broken feed shows its
// error on the feed, in the reader's language. Screenshot in ru at 1381 px.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

const rss = (entries: Array<[string, string]>) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Городские новости</title>
${entries
  .map(
    ([guid, title]) =>
      `<item><guid>${guid}</guid><title>${title}</title><link>https://news.example/${guid}</link><description>Подробности в статье</description></item>`,
  )
  .join('\n')}
</channel></rss>`;

describe('monitoring feeds', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let feedServer: Server;
  let feedUrl: string;
  let body = rss([
    ['n1', 'Кофейня «Зерно» открыла доставка-сервис'],
    ['n2', 'Погода на выходные'],
  ]);
  const api = <T>(method: string, path: string, payload?: unknown) =>
    apiOk<T>(app.url, method, path, {
      token: owner.tokens.access_token,
      ...(payload ? { body: payload } : {}),
    });

  beforeAll(async () => {
    feedServer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
      res.end(body);
    });
    await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
    feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/feed.xml`;
    smtp = await startSmtp();
    const env = { AUTH_RATE_LIMIT_PER_IP: '1000', FEEDS_ALLOW_PRIVATE: 'true' };
    [app, browser] = await Promise.all([startApp({ smtp, env }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    const spaceId = (await api<{ spaces: { id: number }[] }>('GET', '/v1/config')).spaces[0]!.id;
    const dataDir = app.dataDir;
    await app.stop({ keepData: true });
    runAdmin(dataDir, ['monitoring', String(spaceId), '5']);
    app = await startApp({ smtp, env, dataDir });
    await api('POST', '/v1/monitoring/queries', {
      space_id: spaceId,
      name: 'Доставка',
      query: 'доставка OR кофейня',
    });
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
    await new Promise((resolve) => feedServer?.close(resolve));
  });

  test('a feed is added, its matching entry becomes a mention, a new one moves the counter live, errors show', async () => {
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    const page = await context.newPage();
    await page.goto('/monitoring');
    await page.getByTestId('feeds-section').waitFor();
    await page.getByTestId('feed-add').click();
    await page.getByTestId('feed-name').fill('Городские новости');
    await page.getByTestId('feed-url').fill('ftp://news.example/feed');
    await page.getByTestId('feed-save').click();
    await page.getByText('Введите адрес ленты RSS или Atom').waitFor();
    await page.getByTestId('feed-url').fill(feedUrl);
    await page.getByTestId('feed-save').click();
    await page.getByText('Лента сохранена').waitFor();
    await page.getByTestId('feed-fetched').filter({ hasText: 'Проверена' }).waitFor();

    const mention = page.getByTestId('monitoring-mention');
    await mention.filter({ hasText: 'открыла доставка-сервис' }).waitFor({ timeout: 30_000 });
    await expect.poll(() => mention.count()).toBe(1);

    // A new entry, fetched from outside this page: the socket brings the counter and the list.
    const badge = page.getByTestId('menu-monitoring').first();
    await badge.getByLabel('1 открыта').waitFor();
    body = rss([
      ['n3', 'Новая кофейня на Ленина'],
      ['n1', 'Кофейня «Зерно» открыла доставка-сервис'],
    ]);
    const feeds = await api<{ items: Array<{ id: number }> }>('GET', '/v1/monitoring/feeds');
    await api('POST', `/v1/monitoring/feeds/${feeds.items[0]!.id}/fetch`, {});
    await badge.getByLabel('2 открыты').waitFor({ timeout: 30_000 });
    await mention.filter({ hasText: 'Новая кофейня на Ленина' }).waitFor();
    await screenshot(page, 'monitoring-feeds-ru-1381');

    body = '<rss><channel><item>broken';
    await page.getByTestId('feed-fetch').click();
    await page.getByTestId('feed-error').filter({ hasText: 'Это не лента RSS или Atom' }).waitFor();
    await expect.poll(() => mention.count()).toBe(2);
    await context.close();
  }, 300_000);
});
