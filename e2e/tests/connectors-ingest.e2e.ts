// Issue 20 (Pulse) and the review sites without an API: an administrator adds a Pulse account on
// settings/accounts/add, gets the ingestion token once on the success page, a collector posts a comment
// with it to POST /v1/ingest/items, the comment appears live in Comments, the operator's answer is handed
// to the collector by GET /v1/ingest/replies, and the collector's report of the site id delivers it.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AppHandle,
  type BrowserHandle,
  createConfirmedUser,
  launchBrowser,
  type SmtpHandle,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
  waitForPath,
} from '../harness';

describe('connectors: Pulse through the UI, fed by a collector', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;

  beforeAll(async () => {
    [smtp, browser] = await Promise.all([startSmtp(), launchBrowser()]);
    app = await startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('the token shown once; a collected comment appears live; the answer goes back through the replies feed', async () => {
    const { tokens } = await createConfirmedUser(app.url, smtp, {
      name: 'Ира Оператор',
      company: 'Инвестклуб',
      locale: 'ru',
    });
    const context = await signedInContext(browser, tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    try {
      const page = await context.newPage();
      await page.goto('/settings/accounts/add');
      await page.getByTestId('providers-ready').getByTestId('provider-tpulse').waitFor();
      await page.getByTestId('connect-tpulse').click();
      const form = page.locator('[data-testid="connect-form"][data-provider="tpulse"]');
      await form.waitFor();
      await form.getByTestId('connect-submit').click();
      await waitForPath(page, '/settings/accounts/add/success');
      const token = (await page.getByTestId('ingest-token').textContent())!.trim();
      expect(token).toMatch(/^otk_/);
      await screenshot(page, 'connectors-tpulse-token-ru-1381');

      await page.goto('/items');
      await page.locator('main').waitFor();
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const question = 'Когда выплата дивидендов?';
      const posted = await fetch(`${app.url}/v1/ingest/items`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          items: [
            {
              external_id: 'pulse-post-1',
              kind: 'comment',
              text: question,
              author: { id: 'investor-7', name: 'Инвестор Семь' },
              created_at: new Date().toISOString(),
            },
          ],
        }),
      });
      expect(posted.status, await posted.clone().text()).toBe(200);
      const row = page.getByTestId('item-row').filter({ hasText: question });
      await row.waitFor({ timeout: 20_000 });
      await row.getByTestId('row-link').click();
      await page.getByTestId('item-page').waitFor();
      const answer = 'Дата будет объявлена на собрании акционеров.';
      await page.getByTestId('composer-text').fill(answer);
      await page.getByTestId('composer-send').click();

      // The collector picks the answer up, posts it on the site and reports the site's id.
      let reply: { id: number; in_reply_to: string; text: string } | undefined;
      await expect
        .poll(
          async () => {
            const feed = await fetch(`${app.url}/v1/ingest/replies`, { headers: auth });
            const items = ((await feed.json()) as { items: NonNullable<typeof reply>[] }).items;
            reply = items.find((r) => r.text === answer);
            return reply?.in_reply_to;
          },
          { timeout: 45_000, interval: 300 },
        )
        .toBe('pulse-post-1');
      const ack = await fetch(`${app.url}/v1/ingest/replies/${reply!.id}`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ external_id: 'pulse-answer-1' }),
      });
      expect(((await ack.json()) as { delivery: string }).delivery).toBe('delivered');
      await screenshot(page, 'connectors-tpulse-answered-ru-1381');
    } finally {
      await context.close();
    }
  });
});
