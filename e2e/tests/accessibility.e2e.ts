// Issue 13 "Done when": an axe-core pass over the login, inbox (comments list), item, chat and settings
// screens finds no serious or critical violation, in ru and en; and the main actions are reachable by
// keyboard alone (Tab to the reply button, the close action and the settings menu).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AppHandle,
  apiOk,
  type BrowserHandle,
  type ConfirmedUser,
  createConfirmedUser,
  launchBrowser,
  type SmtpHandle,
  signedInContext,
  startApp,
  startSmtp,
} from '../harness';

/** Serious and critical violations on the page as it is now, one line each (rule, target, help). */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')} ${n.html.slice(0, 160)}`));
}

/** Presses Tab (bounded) until the element with `testId` has the focus; false when it never does. */
async function tabTo(page: Page, testId: string, maxTabs = 80): Promise<boolean> {
  for (let i = 0; i < maxTabs; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
    if (focused === testId) return true;
  }
  return false;
}

/** While fixing, one locale can be run alone (A11Y_LOCALE=ru-RU). */
const ONLY_LOCALE = process.env.A11Y_LOCALE;

describe('accessibility (axe-core, keyboard)', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let owner: ConfirmedUser;

  beforeAll(async () => {
    smtp = await startSmtp();
    [app, browser] = await Promise.all([startApp({ smtp }), launchBrowser()]);
    owner = await createConfirmedUser(app.url, smtp, { name: 'Анна Доступность', company: 'Кофейня' });
    // The sandbox arrives with a customer's comment and a private message (the chat page).
    await apiOk(app.url, 'POST', '/v1/objects', {
      token: owner.tokens.access_token,
      body: { provider: 'sandbox', name: 'Кофейня «Зерно»' },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await smtp?.close();
  });

  for (const locale of ONLY_LOCALE ? [ONLY_LOCALE] : ['ru-RU', 'en-US']) {
    test(`login, comments, item, chat and settings have no serious violation (${locale})`, async () => {
      const guest = await browser.newContext({ baseURL: app.url, locale });
      const context = await signedInContext(browser, owner.tokens, { baseURL: app.url, locale });
      // Every screen is checked before failing, so one run lists all that is left to fix.
      const found: string[] = [];
      try {
        const login = await guest.newPage();
        await login.goto('/login');
        await login.locator('input[type="password"]').waitFor();
        found.push(...(await seriousViolations(login)).map((v) => `login: ${v}`));

        const page = await context.newPage();
        await page.goto('/items');
        await page.getByTestId('item-row').first().waitFor();
        found.push(...(await seriousViolations(page)).map((v) => `items: ${v}`));

        await page.getByTestId('item-row').first().getByTestId('row-link').click();
        await page.getByTestId('item-page').waitFor();
        await page.getByTestId('composer-text').waitFor();
        found.push(...(await seriousViolations(page)).map((v) => `item: ${v}`));

        await page.goto('/chats');
        await page.getByTestId('chat-row').first().waitFor();
        await page.getByTestId('chat-row').first().getByTestId('row-link').click();
        await page.getByTestId('chat-page').waitFor();
        found.push(...(await seriousViolations(page)).map((v) => `chat: ${v}`));

        await page.goto('/settings/tags');
        await page.locator('main').waitFor();
        await page.getByRole('heading').first().waitFor();
        found.push(...(await seriousViolations(page)).map((v) => `settings/tags: ${v}`));
        expect(found).toEqual([]);
      } finally {
        await guest.close();
        await context.close();
      }
    });
  }

  test('the reply button, the close action and the settings menu are reached with Tab', async () => {
    const context = await signedInContext(browser, owner.tokens, { baseURL: app.url, locale: 'ru-RU' });
    try {
      const page = await context.newPage();
      await page.goto('/items');
      await page.getByTestId('item-row').first().getByTestId('row-link').click();
      await page.getByTestId('composer-text').waitFor();
      // The send button is enabled once there is text to send.
      await page.getByTestId('composer-text').fill('Спасибо за вопрос!');
      await page.locator('body').focus();
      expect(await tabTo(page, 'composer-send'), 'reply button').toBe(true);
      await page.locator('body').focus();
      const close =
        (await page.getByTestId('action-close').count()) > 0 ? 'action-close' : 'action-close-noreply';
      expect(await tabTo(page, close), 'close action').toBe(true);
      await page.locator('body').focus();
      expect(await tabTo(page, 'settings-menu'), 'settings menu').toBe(true);
      // And it opens from the keyboard.
      await page.keyboard.press('Enter');
      await page.getByRole('menu').waitFor();
    } finally {
      await context.close();
    }
  });
});
