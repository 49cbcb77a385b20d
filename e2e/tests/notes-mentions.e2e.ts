// Issue 13: internal notes with @mentions. Two colleagues in their own browsers: Anna writes a note on a
// comment mentioning Boris through the `@` picker; Boris gets the toast and the Mentions count, opens
// it from the Mentions view, and the count drops. The customer's page never shows the note.
import type { BrowserContext, Page } from 'playwright-core';
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
  waitForSocket,
} from '../harness';

interface ConfigBody {
  spaces: { id: number }[];
  user_statuses: { id: number; offline: boolean; hidden: boolean; space_id: number }[];
}

describe('internal notes with @mentions', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let spaceId: number;
  let onlineStatus: number;
  let token: string;
  const contexts: BrowserContext[] = [];

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
      { body: { name, password: 'Member-pass9!', locale: 'ru' } },
    );
    // Online, so no "you are offline" dialog covers the page.
    await apiOk(app.url, 'PUT', '/v1/me/status', {
      token: signedUp.token.access_token,
      body: { status: onlineStatus, space_id: spaceId },
    });
    return signedUp.token;
  }

  async function customerComment(text: string): Promise<number> {
    await apiOk(app.url, 'POST', `/v1/sandbox/${token}/comments`, {
      body: { author_name: 'Мария Ковалёва', text },
    });
    const list = await apiOk<{ items: { id: number; text: string }[] }>(app.url, 'GET', '/v1/items', {
      token: owner.tokens.access_token,
    });
    return list.items.find((item) => item.text === text)!.id;
  }

  async function pageFor(
    tokens: ApiTokens,
    path: string,
    opts: { locale?: string; viewport?: { width: number; height: number } } = {},
  ): Promise<Page> {
    const context = await signedInContext(browser, tokens, {
      baseURL: app.url,
      locale: opts.locale ?? 'ru-RU',
      viewport: opts.viewport ?? { width: 1381, height: 900 },
      timeoutMs: 45_000,
    });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error on ${path}: ${error.message}`));
    await page.goto(path);
    return page;
  }

  // The machine may be shared and slow: the server's first start gets time.
  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([
      startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } }),
      launchBrowser(),
    ]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Кофейня' });
    const config = await apiOk<ConfigBody>(app.url, 'GET', '/v1/config', {
      token: owner.tokens.access_token,
    });
    spaceId = config.spaces[0]!.id;
    onlineStatus = config.user_statuses.find((s) => s.space_id === spaceId && !s.offline && !s.hidden)!.id;
    await apiOk(app.url, 'PUT', '/v1/me/status', {
      token: owner.tokens.access_token,
      body: { status: onlineStatus, space_id: spaceId },
    });
    const account = await apiOk<{ sandbox_url: string }>(app.url, 'POST', '/v1/objects', {
      token: owner.tokens.access_token,
      body: { provider: 'sandbox', name: 'Кофейня «Зерно»' },
    });
    token = new URL(account.sandbox_url).pathname.split('/').filter(Boolean).pop()!;
  }, 600_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('Anna mentions Boris in a note: he gets the toast and the count, opens it, the count drops', async () => {
    const itemId = await customerComment('Можно ли заказать торт на субботу?');
    const [anna, boris] = await Promise.all([operator('Анна Оператор'), operator('Борис Коллега')]);

    // Boris works the list; his Mentions count is 0.
    const borisPage = await pageFor(boris, '/items');
    const borisCount = borisPage.getByTestId('view-mentions-count');
    await expect.poll(() => borisCount.textContent(), { timeout: 45_000 }).toBe('0');
    // His toast comes only over the socket: it must be open before Anna mentions him.
    await waitForSocket(borisPage);

    // Anna writes a note on the comment and picks Boris from the `@` picker with the keyboard.
    const annaPage = await pageFor(anna, `/items/${itemId}`);
    await annaPage
      .getByTestId('item-page')
      .waitFor({ timeout: 45_000 })
      .catch(async (error) => {
        await screenshot(annaPage, 'notes-debug-item');
        throw error;
      });
    const input = annaPage.getByTestId('note-input');
    await input.click();
    await input.pressSequentially('Про торт спросим кондитера, @Бор');
    const option = annaPage.getByTestId('mention-option').filter({ hasText: 'Борис Коллега' });
    await option.waitFor();
    // The picker narrows the colleagues who see the comment to the typed name.
    const offered = await annaPage.getByTestId('mention-option').allTextContents();
    expect(offered).toEqual(['Борис Коллега']);
    await input.press('Enter');
    expect(await input.inputValue()).toBe('Про торт спросим кондитера, @Борис Коллега ');
    await input.pressSequentially('глянь, пожалуйста');
    // The letters typed after the pick stay where they were typed (the caret is not moved back into them).
    expect(await input.inputValue()).toBe('Про торт спросим кондитера, @Борис Коллега глянь, пожалуйста');
    await annaPage.getByTestId('note-submit').click();
    const note = annaPage.getByTestId('note').filter({ hasText: 'глянь, пожалуйста' });
    await note.waitFor({ timeout: 45_000 });
    expect(await note.getByTestId('note-mention').textContent()).toBe('@Борис Коллега');
    // The history says a note was added and whom it mentioned.
    await annaPage
      .locator('[data-testid="history-entry"][data-type="note.added"]')
      .filter({ hasText: 'упомянуты: Борис Коллега' })
      .waitFor({ timeout: 45_000 });

    // Boris: the toast (his own socket only) and the live count.
    const toast = borisPage.locator('.notify-mention');
    await toast.waitFor({ timeout: 45_000 });
    expect(await toast.textContent()).toContain('Анна Оператор упоминает вас в заметке');
    expect(await toast.textContent()).toContain('@Борис Коллега глянь, пожалуйста');
    await expect.poll(() => borisCount.textContent(), { timeout: 45_000 }).toBe('1');
    await screenshot(borisPage, 'notes-mention-toast-ru');
    await screenshot(annaPage, 'notes-item-after-note-ru');
    // Anna, the author, was not notified, nor counted.
    expect(await annaPage.locator('.notify-mention').count()).toBe(0);

    // The Mentions view lists it; opening it is seeing it.
    await borisPage.getByTestId('view-mentions').click();
    const row = borisPage.getByTestId('mention-row').filter({ hasText: 'глянь, пожалуйста' });
    await row.waitFor({ timeout: 45_000 });
    await row.getByTestId('mention-open').click();
    await borisPage.getByTestId('item-page').waitFor({ timeout: 45_000 });
    await borisPage.getByTestId('note').filter({ hasText: 'глянь, пожалуйста' }).waitFor();
    // A colleague cannot edit someone else's note.
    expect(await borisPage.getByTestId('note').getByRole('button', { name: 'Изменить' }).count()).toBe(0);
    await borisPage.goBack();
    await expect.poll(() => borisCount.textContent(), { timeout: 45_000 }).toBe('0');
    await borisPage.getByTestId('mentions-empty').waitFor({ timeout: 45_000 });

    // Never on the customer's page.
    const sandboxPage = await apiOk<unknown>(app.url, 'GET', `/v1/sandbox/${token}`);
    expect(JSON.stringify(sandboxPage)).not.toContain('кондитера');
  }, 600_000);

  test('notes and Mentions in ru and en, 375 and 1381 wide', async () => {
    const itemId = await customerComment('Есть ли у вас безглютеновая выпечка?');
    const colleague = await operator('Вера Смена');
    const me = await apiOk<{ id: number }>(app.url, 'GET', '/v1/me', { token: owner.tokens.access_token });
    for (const [locale, lang] of [
      ['ru-RU', 'ru'],
      ['en-US', 'en'],
    ] as const) {
      await apiOk(app.url, 'PUT', '/v1/me', { token: owner.tokens.access_token, body: { locale: lang } });
      for (const width of [375, 1381]) {
        // A fresh mention each time: opening the item below marks the earlier one seen.
        await apiOk(app.url, 'POST', `/v1/items/${itemId}/notes`, {
          token: colleague.access_token,
          body: { text: `Уточнила у пекаря, есть по пятницам. <@${me.id}> проверь прайс` },
        });
        const page = await pageFor(owner.tokens, '/items?view=mentions', {
          locale,
          viewport: { width, height: 900 },
        });
        await page.getByTestId('mention-row').first().waitFor({ timeout: 45_000 });
        await page
          .getByText(lang === 'ru' ? 'Упоминания' : 'Mentions')
          .first()
          .waitFor();
        await screenshot(page, `notes-mentions-view-${lang}-${width}`);

        // The item page: the note, and the picker open under the note box.
        const item = await pageFor(owner.tokens, `/items/${itemId}`, {
          locale,
          viewport: { width, height: 900 },
        });
        await item.getByTestId('note').first().waitFor({ timeout: 45_000 });
        const input = item.getByTestId('note-input');
        await input.click();
        await input.pressSequentially('@');
        await item.getByTestId('mention-picker').waitFor();
        await screenshot(item, `notes-item-${lang}-${width}`);
      }
    }
  }, 900_000);
});
