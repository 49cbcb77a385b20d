// Issue 13, "The item page and inbox views": Mine / Unassigned / All with live counts, j/k through the
// list on the item page, `?` help in ru and en, and the history timeline where a Direct (defect 5)
// links to its chat — desktop and mobile.
import type { BrowserContext, Page } from 'playwright-core';
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

describe("the operator's day: views, item navigation, shortcuts, history", () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let token: string;
  const contexts: BrowserContext[] = [];

  async function comment(text: string, author = 'Мария Ковалёва') {
    await apiOk(app.url, 'POST', `/v1/sandbox/${token}/comments`, { body: { author_name: author, text } });
  }

  async function itemsByText() {
    const list = await apiOk<{ items: { id: number; text: string }[] }>(app.url, 'GET', '/v1/items', {
      token: owner.tokens.access_token,
    });
    return new Map(list.items.map((i) => [i.text, i.id]));
  }

  async function open(locale: string, path: string, viewport?: { width: number; height: number }) {
    const context = await signedInContext(browser, owner.tokens, { baseURL: app.url, locale, viewport });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(path);
    return page;
  }

  const count = (page: Page, view: string) => page.getByTestId(`view-${view}-count`).textContent();
  const waitCount = async (page: Page, view: string, value: string) => {
    await page
      .getByTestId(`view-${view}-count`)
      .filter({ hasText: new RegExp(`^${value}$`) })
      .waitFor();
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } }),
      launchBrowser(),
    ]);
  });

  // Each try of the test starts in a space of its own: a retry must not meet the first try's comments
  // (their texts and the Mine count would be there twice).
  async function freshSpace() {
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    const account = await apiOk<{ sandbox_url: string }>(app.url, 'POST', '/v1/objects', {
      token: owner.tokens.access_token,
      body: { provider: 'sandbox', name: 'Кофейня «Зерно»' },
    });
    token = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
  }

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('views count live; j/k walk the list from the item page; ? lists the shortcuts; a Direct shows in the history with its chat', async () => {
    await freshSpace();
    await comment('Первый вопрос про доставку');
    await comment('Второй вопрос про меню');
    await comment('Третий вопрос про бронь', 'Иван Петров');
    const ids = await itemsByText();
    const me = await apiOk<{ id: number }>(app.url, 'GET', '/v1/me', { token: owner.tokens.access_token });
    await apiOk(app.url, 'PUT', `/v1/items/${ids.get('Первый вопрос про доставку')}/assign`, {
      token: owner.tokens.access_token,
      body: { user_id: me.id },
    });

    // The views and their counts.
    const page = await open('ru-RU', '/items');
    await page.getByTestId('inbox-views').waitFor();
    // The sandbox account may come with comments of its own: the counts are read, then followed.
    const views = await apiOk<{ items: { all: number } }>(app.url, 'GET', '/v1/counts/views', {
      token: owner.tokens.access_token,
    });
    const all = views.items.all;
    expect(all).toBeGreaterThanOrEqual(3);
    await waitCount(page, 'all', String(all));
    expect(await count(page, 'mine')).toBe('1');
    expect(await count(page, 'unassigned')).toBe(String(all - 1));
    await page.getByTestId('view-unassigned').click();
    await page.waitForURL(/assigned_user_id=none/);
    await page.getByTestId('item-row').filter({ hasText: 'Третий вопрос' }).waitFor();
    // The list re-renders as the filtered page arrives: wait for it to settle on the count.
    await expect.poll(() => page.getByTestId('item-row').count()).toBe(all - 1);

    // A new comment arrives: the counts follow over the socket, no reload.
    await comment('Четвёртый вопрос про кофе');
    await waitCount(page, 'unassigned', String(all));
    await waitCount(page, 'all', String(all + 1));
    await screenshot(page, 'workday-views-ru');

    // From the All list into the newest comment, then j/k without going back to the list.
    await page.getByTestId('view-all').click();
    await page.getByTestId('item-row').filter({ hasText: 'Четвёртый вопрос' }).waitFor();
    // The All list may show its cached rows for a moment before its re-read puts the newest on top.
    await expect
      .poll(async () => {
        const order = await page.getByTestId('item-row').allTextContents();
        return [order[0]?.includes('Четвёртый'), order[1]?.includes('Третий')];
      })
      .toEqual([true, true]);
    await page
      .getByTestId('item-row')
      .filter({ hasText: 'Четвёртый вопрос' })
      .getByTestId('row-link')
      .click();
    await page.getByTestId('item-page').waitFor();
    await page
      .getByTestId('record-position')
      .filter({ hasText: `1 из ${all + 1}` })
      .waitFor();
    await page.keyboard.press('j');
    await page.getByTestId('item-main').filter({ hasText: 'Третий вопрос' }).waitFor();
    await page
      .getByTestId('record-position')
      .filter({ hasText: `2 из ${all + 1}` })
      .waitFor();
    await page.keyboard.press('k');
    await page.getByTestId('item-main').filter({ hasText: 'Четвёртый вопрос' }).waitFor();
    // t opens the tags; e closes it (the page's own Close button, so its confirmations apply).
    await page.keyboard.press('t');
    await page.locator('[data-testid="tag-picker"]:focus').waitFor();
    await page.keyboard.press('Escape');
    // Shortcuts act only when no field has the focus; Escape closes the picker's list but keeps the focus
    // in it, so take the focus off (a click on the page could land on whatever a slow render put there).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.locator('[data-testid="tag-picker"]:focus').waitFor({ state: 'detached' });
    await page.keyboard.press('e');
    await page.getByTestId('history-entry').filter({ hasText: 'Закрыто' }).waitFor();
    await page.keyboard.press('j');
    await page.getByTestId('item-main').filter({ hasText: 'Третий вопрос' }).waitFor();

    // ? opens the help with every shortcut, in Russian.
    await page.keyboard.press('?');
    const help = page.getByRole('dialog');
    await help.getByText('Горячие клавиши').first().waitFor();
    for (const text of ['Ответить', 'Закрыть', 'Назначить на себя', 'Поставить тег', 'Поиск', 'Эта справка'])
      expect(await help.textContent()).toContain(text);
    expect(await help.getByTestId(/^key-/).count()).toBe(8);
    await screenshot(page, 'workday-shortcuts-ru');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });

    // r goes to the reply box; typing there is "started answering" in the history, live.
    await page.keyboard.press('r');
    await page.getByTestId('composer-text').and(page.locator(':focus')).waitFor();
    await page.keyboard.type('Добрый день');
    await page.getByTestId('history-entry').filter({ hasText: 'Начат ответ' }).waitFor();
    expect(await page.getByTestId('history-entry').filter({ hasText: 'Просмотрено' }).count()).toBe(1);
    await page.getByTestId('composer-text').fill('');
    await page.locator('body').click({ position: { x: 5, y: 300 } });

    // a assigns to me; the history says so, live.
    await page.keyboard.press('a');
    await page.getByTestId('history-entry').filter({ hasText: 'Назначено: Ольга Админ' }).waitFor();

    // Direct: the comment's history shows it with a link to the chat, and the chat's history links back.
    const itemId = ids.get('Третий вопрос про бронь')!;
    await apiOk(app.url, 'POST', `/v1/items/${itemId}/direct`, {
      token: owner.tokens.access_token,
      body: { text: 'Напишу вам в личные сообщения' },
    });
    const direct = page.getByTestId('history-entry').filter({ hasText: 'Ответ в личные сообщения' });
    await direct.waitFor();
    expect(await page.getByTestId('history-entry').first().textContent()).toContain('Получено');
    await screenshot(page, 'workday-history-direct-ru');
    await direct.getByTestId('history-link-chat').click();
    await page.getByTestId('chat-page').waitFor();
    await page
      .getByTestId('history-entry')
      .filter({ hasText: 'Ответ на комментарий в личные сообщения' })
      .waitFor();
    await page.getByTestId('history-link-item').click();
    await page.waitForURL(new RegExp(`/items/${itemId}$`));

    // English, and a phone.
    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'en' } });
    const en = await open('en-US', `/items/${itemId}`);
    await en.getByTestId('item-page').waitFor();
    await en.getByTestId('history-entry').filter({ hasText: 'Replied in private messages' }).waitFor();
    await en.keyboard.press('?');
    await en.getByRole('dialog').getByText('Keyboard shortcuts').first().waitFor();
    expect(await en.getByRole('dialog').textContent()).toContain('Assign to me');
    await screenshot(en, 'workday-shortcuts-en');
    await en.keyboard.press('Escape');
    await en.goto('/items');
    // e closed the fourth comment and the Direct the third (a reply closes it, docs/product/states.md).
    await waitCount(en, 'all', String(all - 1));
    expect(await en.getByTestId('view-mine').textContent()).toContain('Mine');
    await screenshot(en, 'workday-views-en');

    await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: 'ru' } });
    const phone = await open('ru-RU', `/items/${itemId}`, { width: 390, height: 844 });
    await phone.getByTestId('history-entry').filter({ hasText: 'Ответ в личные сообщения' }).waitFor();
    await screenshot(phone, 'workday-item-mobile-ru');
    await phone.goto('/items');
    await phone.getByTestId('inbox-views').waitFor();
    await screenshot(phone, 'workday-views-mobile-ru');
  });
});
