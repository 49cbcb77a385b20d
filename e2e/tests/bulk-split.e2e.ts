// Issue 13, the inbox views: bulk actions on a selection (close with Undo, add a tag, keyboard x/Esc)
// and the split view — at 1381 px the list stays on the left while an item opens and is answered on the
// right; at 375 px there is no split. In ru and en, screenshots at both widths.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AppHandle,
  apiOk,
  type BrowserHandle,
  createConfirmedUser,
  launchBrowser,
  type SmtpHandle,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
} from '../harness';

const DESKTOP = { width: 1381, height: 900 };
const MOBILE = { width: 375, height: 812 };

const texts = {
  ru: {
    selected: 'Выбрано 3',
    closed: 'Закрыто: 3',
    restored: 'Возвращено: 3',
    tagged: /Теги добавлены: \d/,
    tag: 'Доставка',
    pick: 'Откройте комментарий в списке слева',
  },
  en: {
    selected: '3 selected',
    closed: 'Closed: 3',
    restored: 'Restored: 3',
    tagged: /Tags added: \d/,
    tag: 'Delivery',
    pick: 'Open a comment in the list on the left',
  },
} as const;

type Item = { id: number; text: string; status: string; tags: number[] };

describe('bulk actions and split view', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } }),
      launchBrowser(),
    ]);
    // A loaded machine (CI shared with other jobs) may take minutes to start the server.
  }, 600_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  /** An owner with a sandbox account, four customer comments and a tag; signed in on a page. */
  async function ownerWithComments(locale: 'ru' | 'en') {
    const owner = await createConfirmedUser(app.url, smtp, { name: 'Olga Admin', locale });
    const token = owner.tokens.access_token;
    const config = await apiOk<{ spaces: { id: number }[] }>(app.url, 'GET', '/v1/config', { token });
    const spaceId = config.spaces[0]!.id;
    const account = await apiOk<{ sandbox_url: string }>(app.url, 'POST', '/v1/objects', {
      token,
      body: { provider: 'sandbox', name: 'Coffee' },
    });
    const sandbox = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
    const words = ['Latte', 'Espresso', 'Cappuccino', 'Mocha'];
    for (const word of words) {
      await apiOk(app.url, 'POST', `/v1/sandbox/${sandbox}/comments`, {
        body: { author_name: 'Maria', text: `${word} please (${locale})` },
      });
    }
    const tag = await apiOk<{ id: number }>(app.url, 'POST', '/v1/tags', {
      token,
      body: { name: texts[locale].tag, space_id: spaceId },
    });
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: locale === 'ru' ? 'ru-RU' : 'en-US',
    });
    contexts.push(context);
    const page: Page = await context.newPage();
    // Generous waits: the suite may share two cores with many other jobs.
    page.setDefaultTimeout(60_000);
    const items = async () =>
      (
        await apiOk<{ items: Item[] }>(
          app.url,
          'GET',
          '/v1/items?status[]=new&status[]=inprogress&status[]=closed',
          { token },
        )
      ).items;
    return { token, page, tagId: tag.id, words, items };
  }

  const row = (page: Page, text: string) => page.getByTestId('item-row').filter({ hasText: text });

  for (const locale of ['ru', 'en'] as const) {
    test(`${locale}: select three, close, undo; then tag all; x and Esc`, async () => {
      const { page, tagId, words, items } = await ownerWithComments(locale);
      await page.setViewportSize(DESKTOP);
      await page.goto('/items');
      await row(page, words[3]!).waitFor();

      for (const word of words.slice(0, 3)) await row(page, word).getByTestId('row-select').click();
      const bar = page.getByTestId('bulk-bar');
      await bar.waitFor();
      expect(await page.getByTestId('bulk-count').textContent()).toBe(texts[locale].selected);
      await screenshot(page, `bulk-bar-${locale}-1381`);

      await page.getByTestId('bulk-close').click();
      const result = page.getByTestId('bulk-result').filter({ hasText: texts[locale].closed });
      await result.waitFor();
      // Pointer over the toast holds it open (Mantine pauses autoClose), as a person reading it would:
      // the checks below may take longer than its 8 s on a loaded machine.
      await result.hover();
      await screenshot(page, `bulk-closed-undo-${locale}-1381`);
      const chosen = (await items()).filter((i) => words.slice(0, 3).some((w) => i.text.startsWith(w)));
      expect(chosen.map((i) => i.status)).toEqual(['closed', 'closed', 'closed']);
      // The selection is done with; the bar goes.
      await bar.waitFor({ state: 'hidden' });

      await result.getByTestId('bulk-undo').click();
      await page.getByTestId('bulk-result').filter({ hasText: texts[locale].restored }).waitFor();
      const back = (await items()).filter((i) => words.slice(0, 3).some((w) => i.text.startsWith(w)));
      expect(back.map((i) => i.status)).toEqual(['new', 'new', 'new']);
      // The rows show it live (not faded as closed ones).
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll('[data-testid="item-row"]')].every(
            (el) => !el.hasAttribute('data-dimmed'),
          ),
        undefined,
        { timeout: 45_000 },
      );

      // Select all loaded rows, add a tag.
      await page.getByTestId('select-all').click();
      await page.getByTestId('bulk-tag').click();
      await page.getByTestId('bulk-tag-picker').getByLabel(texts[locale].tag).check();
      await screenshot(page, `bulk-tag-${locale}-1381`);
      await page.getByTestId('bulk-tag-apply').click();
      await page.getByTestId('bulk-result').filter({ hasText: texts[locale].tagged }).waitFor();
      expect((await items()).every((i) => i.tags.includes(tagId))).toBe(true);

      // Keyboard: Esc clears the selection, x toggles the focused row.
      await page.locator('body').click({ position: { x: 5, y: 300 } });
      await page.keyboard.press('Escape');
      await bar.waitFor({ state: 'hidden' });
      await page.keyboard.press('j');
      await page.keyboard.press('x');
      await bar.waitFor();
      expect(await page.getByTestId('bulk-count').textContent()).toMatch(/1/);
      await page.keyboard.press('Escape');
      await bar.waitFor({ state: 'hidden' });

      // A phone: the same bar over the list (the list is a page of its own there).
      await page.setViewportSize(MOBILE);
      for (const word of words.slice(0, 3)) await row(page, word).getByTestId('row-select').click();
      await bar.waitFor();
      expect(await page.getByTestId('bulk-count').textContent()).toBe(texts[locale].selected);
      await screenshot(page, `bulk-bar-${locale}-375`);
    }, 400_000);

    test(`${locale}: at 1381 px an item opens beside the list and is answered there; at 375 px no split`, async () => {
      const { page, words } = await ownerWithComments(locale);
      await page.setViewportSize(DESKTOP);
      await page.goto('/items');
      await row(page, words[0]!).waitFor();
      if ((await page.getByTestId('split-view').count()) === 0) {
        await screenshot(page, `split-missing-${locale}-1381`);
        throw new Error(
          `no split view at ${JSON.stringify(await page.evaluate(() => [innerWidth, innerHeight]))}`,
        );
      }
      expect(await page.getByTestId('split-empty').textContent()).toContain(texts[locale].pick);
      await screenshot(page, `split-empty-${locale}-1381`);

      await row(page, words[1]!).getByTestId('row-link').click();
      const pane = page.getByTestId('split-pane');
      await pane.getByTestId('item-page').waitFor();
      expect(new URL(page.url()).pathname).toMatch(/^\/items\/\d+$/);
      // The list is still there, the open row marked.
      await row(page, words[0]!).waitFor();
      expect(await row(page, words[1]!).getAttribute('data-focused')).not.toBeNull();

      await pane.getByTestId('composer-text').fill('Coming right up!');
      await pane.getByTestId('composer-send').click();
      await pane.getByTestId('thread-reply').filter({ hasText: 'Coming right up' }).waitFor();
      await row(page, words[3]!).waitFor();
      await screenshot(page, `split-item-${locale}-1381`);

      // Another row: the pane follows, the list stays; reload keeps both.
      await row(page, words[2]!).getByTestId('row-link').click();
      await pane.getByTestId('item-page').filter({ hasText: words[2]! }).waitFor();
      await page.reload();
      await page.getByTestId('split-pane').getByTestId('item-page').filter({ hasText: words[2]! }).waitFor();
      await row(page, words[0]!).waitFor();
      await page.goBack();
      await page.getByTestId('split-pane').getByTestId('item-page').filter({ hasText: words[1]! }).waitFor();

      // A phone: the item alone, the list alone — as before.
      await page.setViewportSize(MOBILE);
      await page.getByTestId('item-page').waitFor();
      expect(await page.getByTestId('split-view').count()).toBe(0);
      expect(await page.getByTestId('item-row').count()).toBe(0);
      await screenshot(page, `split-none-item-${locale}-375`);
      await page.goto('/items');
      await row(page, words[0]!).waitFor();
      expect(await page.getByTestId('split-view').count()).toBe(0);
      await screenshot(page, `split-none-list-${locale}-375`);
    }, 400_000);
  }
});
