// Issue 20 (Discord): an administrator connects a Discord bot on settings/accounts/add (the bot token and
// the channels to follow), against the Discord emulator on 127.0.0.1 with its websocket gateway; a wrong
// token shows Discord's refusal on the form; the server's polling manager opens the gateway, a message
// in a followed channel appears live in Comments (one in another channel does not), and the operator's
// reply goes out over REST as a reply to the customer's message.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiscordEmulator } from '../../apps/server/emulators/discord/emulator';
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
  waitForSocket,
} from '../harness';

const DESKTOP = { width: 1381, height: 900 };
const GUILD = '1100000000000000042';
const CHANNEL = '1200000000000000042';
const OTHER_CHANNEL = '1200000000000000043';

async function openForm(page: Page) {
  await page.goto('/settings/accounts/add');
  await page.getByTestId('providers-ready').getByTestId('provider-discord').waitFor();
  await page.getByTestId('connect-discord').click();
  const form = page.locator('[data-testid="connect-form"][data-provider="discord"]');
  await form.waitFor();
  return form;
}

describe('connectors: Discord through the UI', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let discord: DiscordEmulator;

  beforeAll(async () => {
    [smtp, discord, browser] = await Promise.all([startSmtp(), DiscordEmulator.start(), launchBrowser()]);
    app = await startApp({
      smtp,
      env: {
        AUTH_RATE_LIMIT_PER_IP: '1000',
        DISCORD_API_URL: discord.url,
        DISCORD_GATEWAY_URL: discord.wsUrl,
      },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([discord?.close(), smtp?.close()]);
  });

  test('bot token (a wrong one is refused); a channel message appears live; the reply goes out over REST', async () => {
    const bot = discord.addBot('bakerybot');
    const { tokens } = await createConfirmedUser(app.url, smtp, {
      name: 'Ира Оператор',
      company: 'Пекарня',
      locale: 'ru',
    });
    const context = await signedInContext(browser, tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: DESKTOP,
    });
    try {
      const page = await context.newPage();
      const refused = await openForm(page);
      await refused.getByTestId('credential-bot_token').fill('not-a-discord-token');
      await refused.getByTestId('credential-channel_ids').fill(CHANNEL);
      await refused.getByTestId('connect-submit').click();
      await refused.getByTestId('connect-error').waitFor();
      await screenshot(page, 'connectors-discord-refused-ru-1381');

      const form = await openForm(page);
      await form.getByTestId('credential-bot_token').fill(bot.token);
      await form.getByTestId('credential-channel_ids').fill(CHANNEL);
      await form.getByTestId('connect-submit').click();
      await waitForPath(page, '/settings/accounts/add/success');
      await page.getByTestId('connect-success').waitFor();

      // The server's polling manager picks the account up and identifies on the gateway.
      await expect.poll(() => Boolean(discord.sessionOf(bot)), { timeout: 30_000, interval: 200 }).toBe(true);

      await page.goto('/items');
      await page.locator('main').waitFor();
      await waitForSocket(page);
      const question = 'Пеките ли вы без глютена?';
      discord.userWrites(bot, { channelId: OTHER_CHANNEL, guildId: GUILD, text: 'Не наш канал' });
      discord.userWrites(bot, { channelId: CHANNEL, guildId: GUILD, text: question });
      const row = page.getByTestId('item-row').filter({ hasText: question });
      await row.waitFor({ timeout: 20_000 });
      await screenshot(page, 'connectors-discord-items-ru-1381');
      expect(await page.getByTestId('item-row').filter({ hasText: 'Не наш канал' }).count()).toBe(0);

      await row.getByTestId('row-link').click();
      await page.getByTestId('item-page').waitFor();
      const reply = 'Да, по пятницам.';
      await page.getByTestId('composer-text').fill(reply);
      await page.getByTestId('composer-send').click();
      await expect
        .poll(() => discord.sent.some((m) => m.channelId === CHANNEL && m.content === reply && m.replyTo), {
          timeout: 45_000,
          interval: 200,
        })
        .toBe(true);
      await screenshot(page, 'connectors-discord-reply-ru-1381');
    } finally {
      await context.close();
    }
  });
});
