// The author lists are like the comment and chat lists: a virtualized list that asks for the next keyset
// page near the end, j/k + Enter, live rows from the socket. And the top bar's filter button counts what
// the list counts; closed rows can be filtered by how they were closed.
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
  waitForTitle,
} from '../harness';

/** Authors' page size on the server (modules/authors/schemas.ts PAGE_LIMIT_DEFAULT). */
const PAGE = 50;
const WRITERS = PAGE + 2;

describe('authors: virtual list, paging, keyboard, live; filter count and close reason', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let token: string;

  const setLocale = (locale: 'ru' | 'en') =>
    apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale } });
  /** The drawer slides in: a screenshot waits for it to stop. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

  const comment = (author_name: string, text: string) =>
    apiOk(app.url, 'POST', `/v1/sandbox/${token}/comments`, { body: { author_name, text } });

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([startApp({ smtp }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Анна Оператор', company: 'Кофейня' });
    const account = await apiOk<{ sandbox_url: string }>(app.url, 'POST', '/v1/objects', {
      token: owner.tokens.access_token,
      body: { provider: 'sandbox', name: 'Кофейня «Зерно»' },
    });
    token = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
    // More commenters than one page holds (the sandbox's sample comment adds one more).
    for (let i = 1; i <= WRITERS; i++) await comment(`Клиент ${String(i).padStart(2, '0')}`, `Вопрос ${i}`);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('the commenters list renders through the virtual list, loads the next page, opens with Enter and takes new authors live', async () => {
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: { width: 1381, height: 900 },
    });
    try {
      const page = await context.newPage();
      await page.goto('/items/authors');
      await waitForTitle(page, 'Авторы комментариев — Otklik');
      const list = page.getByTestId('virtual-list');
      await page.getByTestId('author-row').first().waitFor();
      // The first page is in the list, but only a screenful of rows is in the document.
      expect(Number(await list.getAttribute('data-count'))).toBe(PAGE);
      expect(await page.getByTestId('author-row').count()).toBeLessThan(PAGE);
      // Newest first: the last one who wrote is on top.
      expect(await page.getByTestId('author-row').first().textContent()).toContain(`Клиент ${WRITERS}`);
      await screenshot(page, 'authors-list-1381-ru');

      // Scrolling to the end asks for the next page.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await expect.poll(async () => Number(await list.getAttribute('data-count'))).toBe(WRITERS + 1);
      await page.getByText('Это всё').waitFor();

      // A new customer appears on top without a reload.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.evaluate(() => {
        (window as unknown as { noReload: boolean }).noReload = true;
      });
      await comment('Новый Покупатель', 'Здравствуйте!');
      await expect
        .poll(async () => page.getByTestId('author-row').first().textContent(), { timeout: 45_000 })
        .toContain('Новый Покупатель');
      expect(Number(await list.getAttribute('data-count'))).toBe(WRITERS + 2);
      // A shown author's count follows their new comment.
      await comment('Новый Покупатель', 'И ещё вопрос');
      await expect
        .poll(async () => page.getByTestId('author-row').first().getByTestId('author-counts').textContent(), {
          timeout: 45_000,
        })
        .toContain('2 комм.');
      expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);

      // j focuses the first row, j the second, k back; Enter opens the focused author.
      await page.locator('body').click({ position: { x: 5, y: 300 } });
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      await page.keyboard.press('k');
      const first = page.getByTestId('author-row').first();
      expect(await first.getAttribute('data-focused')).not.toBeNull();
      const id = await first.getAttribute('data-author-id');
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/author/${id}`);
      await page.getByTestId('author-page').waitFor();
      await page.getByTestId('item-row').first().waitFor();
      expect(await page.getByTestId('item-row').count()).toBe(2);
      await screenshot(page, 'author-page-1381-ru');

      // Labels are not in this tariff: the label's authors explain it like Settings → Labels, no error.
      await page.goto('/settings/labels/1/authors');
      await page.getByTestId('labels-off').waitFor();
      expect(await page.getByRole('alert').count()).toBe(1);
      expect(await page.getByRole('alert').textContent()).toBe('Метки авторов не входят в текущий тариф.');
      await screenshot(page, 'label-authors-off-1381-ru');

      // Narrow screen, English.
      await setLocale('en');
      await page.setViewportSize({ width: 768, height: 900 });
      await page.goto('/items/authors');
      await waitForTitle(page, 'Comment authors — Otklik');
      await page.getByTestId('author-row').first().waitFor();
      await screenshot(page, 'authors-list-768-en');
      await page.goto('/settings/labels/1/authors');
      await page.getByTestId('labels-off').waitFor();
      await screenshot(page, 'label-authors-off-768-en');
      await setLocale('ru');
    } finally {
      await context.close();
    }
  });

  test('the filter button counts what the list counts; closed rows filter by how they were closed', async () => {
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'en-US',
      viewport: { width: 1381, height: 900 },
    });
    try {
      await setLocale('en');
      const page = await context.newPage();
      const button = page.getByTestId('filter-button');
      // A Mantine chip's test id is on its (hidden) input; the label is what a person clicks.
      const chip = (testId: string) => page.getByTestId(testId).locator('xpath=following-sibling::label');
      for (const search of ['?status=new&status=inprogress', '?object_id=abc', '?status=bogus']) {
        await page.goto(`/items${search}`);
        await page.getByTestId('item-row').first().waitFor();
        expect(await button.getAttribute('data-count')).toBe('0');
        expect(await page.getByTestId('applied-filters').count()).toBe(0);
      }

      await page.goto('/items');
      await page.getByTestId('item-row').first().waitFor();
      await button.click();
      const drawer = page.getByTestId('inbox-filters');
      await drawer.waitFor();
      expect(await page.getByTestId('filter-close-reason').count()).toBe(0);
      await chip('filter-status-closed').click();
      await page.getByTestId('filter-close-reason').waitFor();
      await chip('filter-close-reason-noreply').click();
      await settle();
      await screenshot(page, 'filters-close-reason-1381-en');
      await page.getByTestId('filter-apply').click();
      await page.waitForURL(/close_reason=noreply/);
      // statuses + close reason: two filters, on the button and over the list alike.
      await expect.poll(() => button.getAttribute('data-count')).toBe('2');
      expect(await page.getByTestId('applied-filters').textContent()).toContain('2');
      // The close reason narrows closed rows only: the new comments stay listed.
      await page.getByTestId('item-row').first().waitFor();
      expect(await page.getByTestId('list-empty').count()).toBe(0);

      // The address brings it back into the drawer.
      await setLocale('ru');
      await page.setViewportSize({ width: 768, height: 900 });
      await page.goto('/items?status=closed&close_reason=reply');
      await page.getByTestId('list-empty').waitFor();
      await button.click();
      await page.getByTestId('filter-close-reason').waitFor();
      expect(await page.getByTestId('filter-close-reason-reply').isChecked()).toBe(true);
      await settle();
      await screenshot(page, 'filters-close-reason-768-ru');
    } finally {
      await context.close();
    }
  });
});
