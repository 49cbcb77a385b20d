// Issue #4 — the inbox loop a new user sees on a fresh machine, in the browser: a customer writes on the
// sandbox account's public page, the comment appears live in Comments (no reload), an operator answers
// and the customer page shows the answer, the comments counter drops; a second operator sees who is
// answering (once the first one types) and has the reply box locked; a moderator (invited, signed up through the invitation link)
// has no reply box at all; a comment is closed from the list with the keyboard (j, e).
import type { Page } from 'playwright-core';
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
  waitForTitle,
} from '../harness';

interface ConfigBody {
  spaces: { id: number }[];
  user_statuses: { id: number; offline: boolean; hidden: boolean; space_id: number }[];
}

/** The number on the Comments menu entry (0 when the badge is gone). */
async function commentsCounter(page: Page): Promise<number> {
  const badge = page.getByTestId('menu-items').locator('.mantine-Badge-root').first();
  if ((await badge.count()) === 0) return 0;
  return Number((await badge.textContent())?.trim() || 0);
}

async function waitForCounter(page: Page, expected: number) {
  await expect.poll(() => commentsCounter(page), { timeout: 45_000, interval: 250 }).toBe(expected);
}

describe('inbox: sandbox → comments → reply → customer page', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;
  let spaceId: number;
  let onlineStatus: number;
  let sandboxPath: string;

  /** Invites `role`, signs up through the mailed link and goes online (a new member starts offline). */
  async function member(role: 'operator' | 'moderator', name: string): Promise<ApiTokens> {
    const email = uniqueEmail(role);
    await apiOk(app.url, 'POST', '/v1/users', {
      token: owner.tokens.access_token,
      body: { email, space_id: spaceId, role },
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
      startApp({ smtp, env: { AUTH_RATE_LIMIT_PER_IP: '1000' } }),
      launchBrowser(),
    ]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Анна Оператор', company: 'Кофейня' });
    const config = await apiOk<ConfigBody>(app.url, 'GET', '/v1/config', {
      token: owner.tokens.access_token,
    });
    spaceId = config.spaces[0]!.id;
    onlineStatus = config.user_statuses.find((s) => s.space_id === spaceId && !s.offline && !s.hidden)!.id;
    const account = await apiOk<{ sandbox_url: string }>(app.url, 'POST', '/v1/objects', {
      token: owner.tokens.access_token,
      body: { provider: 'sandbox', name: 'Кофейня «Зерно»' },
    });
    sandboxPath = new URL(account.sandbox_url).pathname;
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  test('a customer comment appears live, the operator answers, the customer sees it, the counter drops; colleagues see the lock; a moderator has no reply box', async () => {
    const operator = await signedInContext(browser, owner.tokens, { baseURL: app.url, locale: 'ru-RU' });
    const customer = await browser.newContext({ baseURL: app.url, locale: 'ru-RU' });
    try {
      // The operator watches Comments: the sandbox's sample comment is there already.
      const inbox = await operator.newPage();
      await inbox.goto('/items');
      await waitForTitle(inbox, 'Комментарии — Otklik');
      await inbox.getByTestId('item-row').first().waitFor();
      await waitForCounter(inbox, 1);
      await inbox.evaluate(() => {
        (window as unknown as { noReload: boolean }).noReload = true;
      });

      // The customer writes under the account's post on the public sandbox page (no login).
      const page = await customer.newPage();
      await page.goto(sandboxPath);
      await waitForTitle(page, 'Песочница — Otklik');
      await page.getByTestId('sandbox-account').filter({ hasText: 'Кофейня «Зерно»' }).waitFor();
      await page.getByTestId('sandbox-name').fill('Мария Ковалёва');
      const post = page.getByTestId('sandbox-post').first();
      await post
        .getByTestId('sandbox-comment-form')
        .locator('textarea')
        .fill('Есть ли у вас овсяное молоко?');
      await post.getByTestId('sandbox-comment-form').locator('textarea').press('Enter');
      await post.getByText('Есть ли у вас овсяное молоко?').waitFor();
      await screenshot(page, 'inbox-sandbox-customer-ru');

      // It appears at the top of Comments without a reload, and the counter goes up.
      const row = inbox.getByTestId('item-row').filter({ hasText: 'Есть ли у вас овсяное молоко?' });
      await row.waitFor({ timeout: 45_000 });
      expect(await inbox.getByTestId('item-row').first().textContent()).toContain('Мария Ковалёва');
      expect(await inbox.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);
      await waitForCounter(inbox, 2);
      await screenshot(inbox, 'inbox-comments-live-ru');

      // The operator opens it to answer.
      await row.getByTestId('row-link').click();
      await inbox.getByTestId('item-page').waitFor();
      await waitForTitle(inbox, 'Комментарий — Otklik');
      await inbox.getByTestId('composer-text').waitFor();
      const itemUrl = new URL(inbox.url()).pathname;

      // The operator starts typing: that holds the lock (opening does not: e2e/tests/team-locks.e2e.ts).
      await inbox.getByTestId('composer-text').pressSequentially('Да');

      // A second operator opening the same comment sees who is answering; their reply box is locked.
      const colleague = await signedInContext(browser, await member('operator', 'Борис Коллега'), {
        baseURL: app.url,
        locale: 'ru-RU',
      });
      try {
        const other = await colleague.newPage();
        await other.goto(itemUrl);
        await other.getByTestId('item-page').waitFor();
        const locked = other.getByTestId('composer-locked');
        await locked.waitFor({ timeout: 45_000 });
        expect(await locked.textContent()).toContain('Анна Оператор отвечает');
        expect(await other.getByTestId('composer-text').count()).toBe(0);
        await screenshot(other, 'inbox-item-locked-ru');

        // The operator answers: the reply box counts characters left for the network.
        await inbox.getByTestId('composer-text').fill('Да, есть! Добавим в любой напиток без доплаты.');
        expect(await inbox.getByTestId('composer-chars').textContent()).toContain('Осталось символов: 4050');
        await inbox.getByTestId('composer-send').click();
        const reply = inbox.getByTestId('thread-reply').filter({ hasText: 'Да, есть!' });
        await reply.waitFor();
        await inbox.getByTestId('status-badge').filter({ hasText: 'Закрыт с ответом' }).first().waitFor();
        await waitForCounter(inbox, 1);
        await screenshot(inbox, 'inbox-item-replied-ru');

        // Once the answer is sent, the colleague's reply box opens.
        await other.getByTestId('composer-text').waitFor({ timeout: 45_000 });
        await inbox.goto('/items');
      } finally {
        await colleague.close();
      }

      // The customer page shows the account's answer (it polls every 2 s).
      await page
        .locator('[data-testid="sandbox-entry"][data-from-account]')
        .filter({ hasText: 'Да, есть! Добавим в любой напиток без доплаты.' })
        .waitFor({ timeout: 45_000 });
      await screenshot(page, 'inbox-sandbox-replied-ru');

      // The remaining comment is closed from the list with the keyboard: j to focus, e to close.
      await inbox.getByTestId('item-row').first().waitFor();
      await waitForCounter(inbox, 1);
      await inbox.keyboard.press('j');
      await inbox.locator('[data-testid="item-row"][data-focused]').waitFor();
      await inbox.keyboard.press('e');
      await waitForCounter(inbox, 0);

      // A text search (another word form): the row shows where the word was found, marked.
      await inbox.goto(`/items?status=closed&q=${encodeURIComponent('молоком')}`);
      const found = inbox
        .getByTestId('item-row')
        .filter({ hasText: 'овсяное' })
        .getByTestId('row-match')
        .locator('mark');
      await found.first().waitFor({ timeout: 45_000 });
      expect(await found.first().textContent()).toBe('молоко');
      await screenshot(inbox, 'inbox-search-ru');

      // A moderator (invited, signed up by the link) sees the comment but has no reply box.
      const moderator = await signedInContext(browser, await member('moderator', 'Вера Модератор'), {
        baseURL: app.url,
        locale: 'ru-RU',
      });
      try {
        const view = await moderator.newPage();
        await view.goto(itemUrl);
        await view.getByTestId('item-page').waitFor();
        await view.getByTestId('thread-reply').filter({ hasText: 'Да, есть!' }).waitFor();
        expect(await view.getByTestId('composer').count()).toBe(0);
        expect(await view.getByTestId('composer-locked').count()).toBe(0);
        await view.getByTestId('actions-menu').waitFor();
        await screenshot(view, 'inbox-item-moderator-ru');
      } finally {
        await moderator.close();
      }
    } finally {
      await operator.close();
      await customer.close();
    }
  });

  test('an open comment shows a customer’s reply in its thread live; the socket carried the row without its text', async () => {
    const operator = await signedInContext(browser, owner.tokens, { baseURL: app.url, locale: 'ru-RU' });
    try {
      const token = sandboxPath.split('/').pop();
      const question = `Доставляете ли вы в выходные? ${Date.now()}`;
      const entry = await apiOk<{ id: number }>(app.url, 'POST', `/v1/sandbox/${token}/comments`, {
        body: { author_name: 'Ольга Заказчица', text: question },
      });
      const list = await apiOk<{ items: { id: number; text: string }[] }>(app.url, 'GET', '/v1/items', {
        token: owner.tokens.access_token,
      });
      const itemId = list.items.find((item) => item.text === question)!.id;

      const page = await operator.newPage();
      const frames: string[] = [];
      page.on('websocket', (ws) => ws.on('framereceived', (frame) => frames.push(String(frame.payload))));
      await page.goto(`/items/${itemId}`);
      await page.getByTestId('item-page').waitFor();
      await page.getByTestId('item-main').filter({ hasText: question }).waitFor();
      await waitForSocket(page);

      // The customer answers under their own comment: the open page shows the reply, without a reload.
      const more = `И в воскресенье тоже? ${Date.now()}`;
      await apiOk(app.url, 'POST', `/v1/sandbox/${token}/comments`, {
        body: { author_name: 'Ольга Заказчица', text: more, parent_id: entry.id },
      });
      await page.getByTestId('thread-reply').filter({ hasText: more }).waitFor({ timeout: 45_000 });

      // The push itself was slim: the reply's row with its excerpt, not its text (the page read the rest).
      const pushes = frames
        .map((raw) => JSON.parse(raw) as { type: string; items?: Array<Record<string, unknown>> })
        .filter((m) => m.type === 'items.created');
      const row = pushes.flatMap((m) => m.items ?? []).find((r) => r.excerpt === more);
      expect(row).toMatchObject({ parent_id: itemId, excerpt: more });
      expect(row).not.toHaveProperty('text');
    } finally {
      await operator.close();
    }
  });

  test('a comment stored while the page was still connecting its socket shows once the socket opens, without a reload', async () => {
    const operator = await signedInContext(browser, owner.tokens, { baseURL: app.url, locale: 'ru-RU' });
    try {
      const inbox = await operator.newPage();
      // The page's socket reaches the server only when the test lets it: until then nothing it could be
      // told arrives (the server has not said hello; the page is not "open").
      let letThrough!: () => void;
      const held = new Promise<void>((resolve) => {
        letThrough = resolve;
      });
      await inbox.routeWebSocket(/\/v1\/ws/, async (ws) => {
        await held;
        ws.connectToServer();
      });
      await inbox.goto('/items?status=new&status=closed');
      await inbox.getByTestId('item-row').first().waitFor();
      await inbox.evaluate(() => {
        (window as unknown as { noReload: boolean }).noReload = true;
      });
      expect(await inbox.locator('html').getAttribute('data-realtime')).not.toBe('open');

      // Stored after the list was read, before the socket is live: no message will ever tell the page.
      const text = `Вы работаете в праздники? ${Date.now()}`;
      const token = sandboxPath.split('/').pop();
      await apiOk(app.url, 'POST', `/v1/sandbox/${token}/comments`, {
        body: { author_name: 'Пётр Опоздавший', text },
      });

      letThrough();
      await waitForSocket(inbox);
      await inbox.getByTestId('item-row').filter({ hasText: text }).waitFor({ timeout: 45_000 });
      expect(await inbox.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);
    } finally {
      await operator.close();
    }
  });
});
