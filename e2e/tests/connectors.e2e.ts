// Issue #5 item 7 — real networks in the browser, against their emulators on 127.0.0.1: an administrator
// connects a Telegram bot (pasting its token) and a VK community (through VK's OAuth popup) on
// settings/accounts/add; a customer writes to it on the network, the message appears live in Personal
// messages without a reload; the operator answers from the chat page and the network receives the
// reply (sendMessage / messages.send, sent by the outbox worker inside the app). The app runs with
// PROVIDER_UPDATES=webhook, so the emulators push to it the way the networks do.
import { randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTelegramEmulator, type TelegramEmulator } from '../../apps/server/emulators/telegram/emulator';
import { VkEmulator } from '../../apps/server/emulators/vk/emulator';
import { WhatsAppEmulator } from '../../apps/server/emulators/whatsapp/emulator';
import {
  type AppHandle,
  apiOk,
  type BrowserHandle,
  createConfirmedUser,
  launchBrowser,
  type SmtpHandle,
  screensDir,
  screenshot,
  signedInContext,
  startApp,
  startSmtp,
  waitForPath,
  waitForTitle,
} from '../harness';

const DESKTOP = { width: 1381, height: 900 };
const MOBILE = { width: 375, height: 812 };

/** Opens the add-account screen and the connect form of `provider`. */
async function openConnectForm(page: Page, provider: string) {
  await page.goto('/settings/accounts/add');
  await page.getByTestId('providers-ready').waitFor();
  await page.getByTestId(`connect-${provider}`).click();
  const form = page.locator(`[data-testid="connect-form"][data-provider="${provider}"]`);
  await form.waitFor();
  return form;
}

/** What the window shows (the form is a dialog over the catalogue: a full-page shot would be mostly catalogue). */
async function viewportShot(page: Page, name: string) {
  mkdirSync(screensDir, { recursive: true });
  await page.screenshot({ path: join(screensDir, `${name}.png`) });
}

/** Screenshots of the open connect form at laptop and phone widths (the form stays open across sizes). */
async function screenshotForm(page: Page, name: string) {
  await viewportShot(page, `${name}-1381`);
  await page.setViewportSize(MOBILE);
  await page.getByTestId('connect-form').waitFor();
  await viewportShot(page, `${name}-375`);
  await page.setViewportSize(DESKTOP);
}

/** Waits for the chat with `text` in Personal messages (without reloading the page) and opens it. */
async function openLiveChat(page: Page, text: string) {
  const row = page.getByTestId('chat-row').filter({ hasText: text });
  await row.waitFor({ timeout: 20_000 });
  expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);
  await row.getByTestId('row-link').click();
  await page.getByTestId('chat-page').waitFor();
  await page.getByTestId('chat-messages').getByText(text).waitFor();
}

/** Marks the page so a reload (which would clear it) shows up as a failed check. */
const markNoReload = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { noReload: boolean }).noReload = true;
  });

async function reply(page: Page, text: string) {
  await page.getByTestId('composer-text').fill(text);
  await page.getByTestId('composer-send').click();
  await page.getByTestId('chat-messages').getByText(text).waitFor();
}

async function screenshotChat(page: Page, name: string) {
  await screenshot(page, `${name}-1381`);
  await page.setViewportSize(MOBILE);
  await page.getByTestId('chat-page').waitFor();
  await screenshot(page, `${name}-375`);
  await page.setViewportSize(DESKTOP);
}

describe('connectors: Telegram and VK through the UI, live messages, replies reach the network', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let tg: TelegramEmulator;
  let vk: VkEmulator;
  let wa: WhatsAppEmulator;
  const waNumber = {
    phoneNumberId: '106540352242922',
    accessToken: 'EAAG-e2e-token',
    appSecret: 'e2e-app-secret',
  };

  beforeAll(async () => {
    [smtp, tg, vk, wa, browser] = await Promise.all([
      startSmtp(),
      startTelegramEmulator(),
      VkEmulator.start(),
      WhatsAppEmulator.start(waNumber),
      launchBrowser(),
    ]);
    app = await startApp({
      smtp,
      env: {
        AUTH_RATE_LIMIT_PER_IP: '1000',
        TELEGRAM_API_URL: tg.url,
        ...vk.env(),
        WHATSAPP_GRAPH_URL: wa.url,
        PROVIDER_UPDATES: 'webhook',
      },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await vk?.idle();
    await Promise.all([tg?.close(), vk?.stop(), wa?.close(), smtp?.close()]);
  });

  test('Telegram: paste the bot token, a customer message appears live, the reply goes out with sendMessage; a revoked token is reconnected', async () => {
    const owner = await createConfirmedUser(app.url, smtp, {
      name: 'Анна Оператор',
      company: 'Цветочная лавка',
    });
    const botId = randomInt(1_000_000, 2_000_000_000);
    const token = `${botId}:AAH${randomInt(1e9, 9e9)}e2e`;
    tg.addBot(token, { id: botId, first_name: 'Цветочная лавка', username: `flowers${botId}_bot` });
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: DESKTOP,
    });
    try {
      const page = await context.newPage();

      // Every catalogued network has a connector now: all are offered, none waits under "coming soon".
      await page.goto('/settings/accounts/add');
      await waitForTitle(page, 'Подключение аккаунта — Otklik');
      const ready = page.getByTestId('providers-ready');
      await ready.getByTestId('provider-telegram').waitFor();
      await ready.getByTestId('provider-vk').waitFor();
      await ready.getByTestId('provider-ok').waitFor();
      await ready.getByTestId('provider-twitter').waitFor();
      expect(await page.getByTestId('providers-soon').count()).toBe(0);
      expect(await page.getByText('Скоро', { exact: true }).count()).toBe(0);

      // The form comes from CONNECT_FIELDS: the token is a password field with @BotFather's hint.
      const form = await openConnectForm(page, 'telegram');
      const tokenField = form.getByTestId('credential-bot_token');
      expect(await tokenField.getAttribute('type')).toBe('password');
      await form.getByText('Создайте бота у @BotFather').waitFor();

      // Empty → the field says so; a token Telegram refuses → Telegram's own words on the form.
      await form.getByTestId('connect-submit').click();
      await form.getByText('Обязательное поле').waitFor();
      await tokenField.fill(`${botId}:wrong-token`);
      await form.getByTestId('connect-submit').click();
      const error = form.getByTestId('connect-error');
      await error.waitFor();
      expect(await error.textContent()).toContain('Unauthorized');
      await screenshotForm(page, 'connectors-telegram-form-ru');
      await tokenField.fill(token);
      expect(await form.getByTestId('connect-error').count()).toBe(0);

      await form.getByTestId('connect-submit').click();
      await waitForPath(page, '/settings/accounts/add/success');
      await page.getByTestId('connect-success').getByText('Цветочная лавка').first().waitFor();
      await screenshot(page, 'connectors-telegram-success-ru-1381');
      expect(tg.bot(token).webhook?.url).toMatch(new RegExp(`^${app.url}/v1/webhooks/telegram/\\d+$`));

      // The operator watches Personal messages; a customer writes to the bot in Telegram.
      await page.goto('/chats');
      await waitForTitle(page, 'Личные сообщения — Otklik');
      await markNoReload(page);
      const customer = {
        id: randomInt(100_000, 2_000_000_000),
        is_bot: false,
        first_name: 'Мария',
        last_name: 'Ковалёва',
        username: `maria${randomInt(1000, 9999)}`,
      };
      const chat = { id: customer.id, type: 'private' as const, first_name: customer.first_name };
      const question = 'Здравствуйте! Можно заказать букет на завтра к 10 утра?';
      const pushed = await tg.deliver(token, {
        message: tg.customerMessage(token, { chat, from: customer, text: question }),
      });
      expect(pushed.status).toBe(200);
      await openLiveChat(page, question);
      expect(await page.getByTestId('chat-page').textContent()).toContain('Мария');

      // The answer leaves through the outbox: Telegram records sendMessage to this chat with the text.
      const answer = 'Да, конечно! Соберём букет к 9:30 и привезём к 10.';
      await reply(page, answer);
      await expect
        .poll(
          () =>
            tg
              .callsOf('sendMessage')
              .some(
                (call) =>
                  call.token === token &&
                  String(call.params.chat_id) === String(customer.id) &&
                  call.params.text === answer,
              ),
          { timeout: 45_000, interval: 200 },
        )
        .toBe(true);

      // She sends a photo: it stays on Telegram behind the bot token; the chat shows it through the
      // media proxy (getFile, then the download link), live.
      const png = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGP43+CAFTEMLQkA2g1vwT86DrUAAAAASUVORK5CYII=',
        'base64',
      );
      const photo = tg.addFile(png, { mime: 'image/png' });
      await tg.deliver(token, {
        message: tg.customerMessage(token, {
          chat,
          from: customer,
          photo: [{ ...photo, width: 8, height: 8 }],
          caption: 'Вот такой букет',
        }),
      });
      await page.getByTestId('chat-messages').getByText('Вот такой букет').waitFor();
      const image = page.getByTestId('chat-messages').getByTestId('attachment-image').last();
      await image.waitFor();
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
          timeout: 45_000,
        })
        .toBe(8);
      expect(tg.callsOf('getFile').some((call) => call.params.file_id === photo.file_id)).toBe(true);
      await screenshotChat(page, 'connectors-telegram-chat-ru');
      const chatPath = new URL(page.url()).pathname;

      // The bot's token is revoked at @BotFather: the next reply fails with Telegram's text and the
      // account shows the error; its page offers to reconnect with the same field.
      tg.revoke(token);
      const later = 'Букет готов, курьер выехал.';
      await page.getByTestId('composer-text').fill(later);
      await page.getByTestId('composer-send').click();
      // The server's record, not the open page: the chat page can miss the live 'failed' state when the
      // push beats the send request's own answer (reported separately).
      const telegramAccount = async () => {
        const objects = await apiOk<{ items: { id: number; provider: string; error: string | null }[] }>(
          app.url,
          'GET',
          '/v1/objects',
          { token: owner.tokens.access_token },
        );
        return objects.items.find((item) => item.provider === 'telegram')!;
      };
      await expect
        .poll(async () => (await telegramAccount()).error, { timeout: 45_000 })
        .toBe('Unauthorized');
      const account = await telegramAccount();
      await page.goto(`/settings/accounts/${account.id}`);
      const reconnect = page.getByTestId('reconnect');
      await reconnect.waitFor();
      expect(await reconnect.getByTestId('credential-bot_token').getAttribute('type')).toBe('password');
      await screenshot(page, 'connectors-telegram-reconnect-ru-1381');
      const fresh = tg.reissue(token);
      await reconnect.getByTestId('credential-bot_token').fill(fresh);
      await reconnect.getByTestId('reconnect-submit').click();
      await page.getByText('Аккаунт переподключён').waitFor();
      await reconnect.waitFor({ state: 'detached' });
      expect(tg.callsOf('setWebhook').some((call) => call.token === fresh)).toBe(true);

      // The failed reply goes out with the new token on retry.
      await page.goto(chatPath);
      await page.getByTestId('delivery-retry').click();
      await expect
        .poll(
          () => tg.callsOf('sendMessage').some((call) => call.token === fresh && call.params.text === later),
          { timeout: 45_000, interval: 200 },
        )
        .toBe(true);

      // docs/product/errors.md on a callback page opened by itself: no code → 'Отсутствует параметр code'.
      await page.goto('/callback/vk?state=x');
      await page.getByTestId('callback-error').getByText('Отсутствует параметр code').waitFor();
    } finally {
      await context.close();
    }
  });

  test('VK: the OAuth popup against the emulator, a community message appears live, the reply is messages.send', async () => {
    const owner = await createConfirmedUser(app.url, smtp, {
      name: 'Ivan Operator',
      company: 'Bike Shop',
      locale: 'en',
    });
    const groupId = randomInt(100_000, 900_000_000);
    const community = vk.addCommunity({
      id: groupId,
      name: `Bike Shop ${groupId}`,
      screenName: `bikes${groupId}`,
    });
    const customer = vk.addUser({
      id: randomInt(1_000_000, 900_000_000),
      first_name: 'Olga',
      last_name: 'Rider',
      screen_name: `olga${groupId}`,
    });
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'en-US',
      viewport: DESKTOP,
    });
    try {
      const page = await context.newPage();
      const form = await openConnectForm(page, 'vk');
      await waitForTitle(page, 'Connect an account — Otklik');
      // Both ways: the popup (the community is chosen first) and the keys by hand.
      const button = form.getByTestId('connect-oauth');
      expect(await button.textContent()).toContain('Connect via VK');
      await form.getByTestId('credential-access_token').waitFor();
      expect(await form.getByTestId('credential-access_token').getAttribute('type')).toBe('password');
      await form.getByTestId('credential-group_id').fill(String(groupId));
      await screenshotForm(page, 'connectors-vk-form-en');

      // VK's authorize page (the emulator's) sends the popup back to /callback/vk with a code; the popup
      // finishes the connect, leaves the result in local storage and closes; this window moves on.
      // First the administrator refuses in VK's dialog: the popup reports it and closes, the form says why.
      vk.consent = false;
      const refusedOpened = page.waitForEvent('popup');
      await button.click();
      await (await refusedOpened).waitForEvent('close', { timeout: 20_000 });
      await form
        .getByTestId('connect-error')
        .getByText('You have not granted access to your account')
        .waitFor();
      vk.consent = true;

      const popupOpened = page.waitForEvent('popup');
      await button.click();
      const popup = await popupOpened;
      await popup.waitForEvent('close', { timeout: 20_000 });
      await waitForPath(page, '/settings/accounts/add/success');
      await page.getByTestId('connect-success').getByText(community.name).first().waitFor();
      await screenshot(page, 'connectors-vk-success-en-1381');
      const stored = await page.evaluate(() => window.localStorage.getItem('otklik.popup'));
      expect(stored).toBeNull(); // taken by the opener
      await vk.idle(); // the Callback API handshake

      await page.goto('/chats');
      await waitForTitle(page, 'Personal messages — Otklik');
      await markNoReload(page);
      const question = 'Hi! Do you have a 54 cm road frame in stock?';
      await vk.userWrites(groupId, { from: customer.id, text: question });
      await openLiveChat(page, question);

      const answer = 'Yes, two of them. Want us to hold one for you until Saturday?';
      await reply(page, answer);
      await expect
        .poll(
          () =>
            vk
              .callsOf('messages.send')
              .some(
                (call) =>
                  call.token === 'group' &&
                  (call.params.peer_ids ?? call.params.peer_id) === String(customer.id) &&
                  call.params.message === answer,
              ),
          { timeout: 45_000, interval: 200 },
        )
        .toBe(true);
      await screenshotChat(page, 'connectors-vk-chat-en');

      // A refusal in VK's dialog comes back as error=access_denied: docs/product/errors.md's text, in the user's language.
      await page.goto('/callback/vk?error=access_denied&error_description=User+denied+your+request&state=x');
      await page
        .getByTestId('callback-error')
        .getByText('You have not granted access to your account')
        .waitFor();
    } finally {
      await context.close();
    }
  });

  test("WhatsApp: the number's credentials connect it; its settings show what to paste into Meta's dashboard; a customer's message appears live and the answer reaches Graph", async () => {
    const owner = await createConfirmedUser(app.url, smtp, { name: 'Ольга Админ', company: 'Чайная' });
    const context = await signedInContext(browser, owner.tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: DESKTOP,
    });
    try {
      const page = await context.newPage();
      const form = await openConnectForm(page, 'whatsapp');
      await form.getByTestId('credential-phone_number_id').fill(waNumber.phoneNumberId);
      await form.getByTestId('credential-access_token').fill(waNumber.accessToken);
      await form.getByTestId('credential-app_secret').fill(waNumber.appSecret);
      await form.getByTestId('connect-submit').click();
      await waitForPath(page, '/settings/accounts/add/success');

      const { items } = await apiOk<{ items: Array<{ id: number; provider: string }> }>(
        app.url,
        'GET',
        '/v1/objects',
        { token: owner.tokens.access_token },
      );
      const account = items.find((o) => o.provider === 'whatsapp')!;
      await page.goto(`/settings/accounts/${account.id}`);
      const setup = page.getByTestId('account-setup');
      await setup.getByText('Настройка на стороне сети').waitFor();
      const callback = (await setup.getByTestId('setup-webhook_url').textContent())!.trim();
      const verifyToken = (await setup.getByTestId('setup-verify_token').textContent())!.trim();
      expect(callback).toBe(`${app.url}/v1/webhooks/whatsapp/${account.id}`);
      expect(verifyToken.length).toBeGreaterThanOrEqual(24);
      await screenshot(page, 'connectors-whatsapp-setup-ru-1381');
      await page.setViewportSize(MOBILE);
      await setup.waitFor();
      await screenshot(page, 'connectors-whatsapp-setup-ru-375');

      // What the administrator pastes is what Meta's hub.challenge handshake needs.
      expect(await wa.subscribe(callback, 'not-the-token')).toMatchObject({ verified: false });
      expect(await wa.subscribe(callback, verifyToken)).toMatchObject({ verified: true });

      // Subscribed: a customer's message (signed by Meta) appears live; the answer goes to Graph.
      await page.setViewportSize(DESKTOP);
      await page.goto('/chats');
      await markNoReload(page);
      const question = 'Добрый день! Улун ещё есть в наличии?';
      const pushed = await wa.pushMessage({ from: '79161234567', name: 'Ирина', text: question });
      expect(pushed.status).toBe(200);
      await openLiveChat(page, question);
      const answer = 'Да, есть. Отправим сегодня.';
      await reply(page, answer);
      await expect
        .poll(
          () =>
            wa
              .sent()
              .some(
                (call) =>
                  (call.body as { to?: string; text?: { body?: string } } | undefined)?.to ===
                    '79161234567' && (call.body as { text?: { body?: string } }).text?.body === answer,
              ),
          { timeout: 45_000, interval: 200 },
        )
        .toBe(true);
      await screenshotChat(page, 'connectors-whatsapp-chat-ru');
    } finally {
      await context.close();
    }
  });
});
