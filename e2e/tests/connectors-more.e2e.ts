// Issue #5 item 6 — the rest of the first wave in the browser, against their emulators on 127.0.0.1:
// an administrator connects a MAX bot and a Viber bot by pasting their tokens and an Avito account by
// its API keys on settings/accounts/add; a customer writes on the network, the message appears live in
// Personal messages; the operator's answer reaches the network's API (sent by the outbox worker).
import { randomInt } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AvitoEmulator } from '../../apps/server/emulators/avito/emulator';
import { type MaxEmulator, startMaxEmulator } from '../../apps/server/emulators/max/emulator';
import { ViberEmulator } from '../../apps/server/emulators/viber/emulator';
import {
  type ApiTokens,
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
  waitForTitle,
} from '../harness';

const DESKTOP = { width: 1381, height: 900 };

/** settings/accounts/add → the network's form, filled, connected. */
async function connect(page: Page, provider: string, fields: Record<string, string>) {
  await page.goto('/settings/accounts/add');
  await page.getByTestId('providers-ready').waitFor();
  await page.getByTestId(`connect-${provider}`).click();
  const form = page.locator(`[data-testid="connect-form"][data-provider="${provider}"]`);
  await form.waitFor();
  for (const [name, value] of Object.entries(fields))
    await form.getByTestId(`credential-${name}`).fill(value);
  await form.getByTestId('connect-submit').click();
  await waitForPath(page, '/settings/accounts/add/success');
}

/** Personal messages open; `write` makes the customer write `text`; the chat appears without a reload. */
async function customerWrites(page: Page, text: string, write: () => Promise<unknown>) {
  await page.goto('/chats');
  await waitForTitle(page, 'Личные сообщения — Otklik');
  await waitForSocket(page);
  await page.evaluate(() => {
    (window as unknown as { noReload: boolean }).noReload = true;
  });
  await write();
  const row = page.getByTestId('chat-row').filter({ hasText: text });
  await row.waitFor({ timeout: 20_000 });
  expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);
  await row.getByTestId('row-link').click();
  await page.getByTestId('chat-messages').getByText(text).waitFor();
}

/**
 * A customer's words with an order number of this try's own: a retried test writes into the same space, and
 * the first try's chat (its message may land late) must not make the row ambiguous.
 */
const ofThisTry = (text: string) => `${text} Заказ ${randomInt(1000, 9999)}.`;

async function answer(page: Page, text: string) {
  await page.getByTestId('composer-text').fill(text);
  await page.getByTestId('composer-send').click();
  await page.getByTestId('chat-messages').getByText(text).waitFor();
}

const reaches = (probe: () => boolean) => expect.poll(probe, { timeout: 45_000, interval: 200 }).toBe(true);

describe('connectors: MAX, Viber and Avito through the UI', () => {
  let smtp: SmtpHandle;
  let app: AppHandle;
  let browser: BrowserHandle;
  let max: MaxEmulator;
  let viber: ViberEmulator;
  let avito: AvitoEmulator;
  let tokens: ApiTokens;

  beforeAll(async () => {
    [smtp, max, viber, avito, browser] = await Promise.all([
      startSmtp(),
      startMaxEmulator(),
      ViberEmulator.start(),
      AvitoEmulator.start(),
      launchBrowser(),
    ]);
    app = await startApp({
      smtp,
      env: {
        AUTH_RATE_LIMIT_PER_IP: '1000',
        MAX_API_URL: max.url,
        VIBER_API_URL: viber.url,
        AVITO_API_URL: avito.url,
        PROVIDER_UPDATES: 'webhook',
      },
    });
    tokens = (await createConfirmedUser(app.url, smtp, { name: 'Олег Оператор', company: 'Сад и огород' }))
      .tokens;
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await Promise.all([max?.close(), viber?.close(), avito?.close(), smtp?.close()]);
  });

  test('MAX: paste the bot token; a customer message appears live; the answer is POST /messages', async () => {
    const id = randomInt(1_000_000, 2_000_000_000);
    const token = max.addBot({
      user_id: id,
      first_name: 'Сад',
      name: 'Сад и огород',
      username: `garden${id}_bot`,
    });
    const context = await signedInContext(browser, tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: DESKTOP,
    });
    try {
      const page = await context.newPage();
      await connect(page, 'max', { access_token: token });
      const customer = {
        user_id: randomInt(100_000, 2_000_000_000),
        first_name: 'Пётр',
        last_name: 'И.',
        name: 'Пётр И.',
        username: null,
        is_bot: false,
      };
      const question = ofThisTry('Есть ли рассада томатов?');
      await customerWrites(page, question, () =>
        max.deliver(token, {
          update_type: 'message_created',
          timestamp: Date.now(),
          message: max.customerMessage({
            sender: customer,
            recipient: { chat_id: customer.user_id + 1, chat_type: 'dialog' },
            text: question,
          }),
        }),
      );
      const reply = 'Да, привезём в субботу.';
      await answer(page, reply);
      await reaches(() =>
        max
          .callsOf('POST', '/messages')
          .some((c) => c.token === token && (c.body as { text?: string })?.text === reply),
      );
      await screenshot(page, 'connectors-max-chat-ru-1381');
    } finally {
      await context.close();
    }
  });

  test('Viber: paste the auth token; a customer message appears live; the answer is send_message', async () => {
    const token = `4453b6ac${randomInt(1e7, 9e7)}-e2e`;
    viber.addBot(token, 'Сад и огород');
    const context = await signedInContext(browser, tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: DESKTOP,
    });
    try {
      const page = await context.newPage();
      await connect(page, 'viber', { auth_token: token });
      const user = `01234567890A${randomInt(1000, 9999)}=`;
      const question = ofThisTry('Сколько стоит доставка?');
      await customerWrites(page, question, () =>
        viber.pushMessage(token, { userId: user, name: 'Анна', text: question }),
      );
      const reply = 'Бесплатно от 3000 ₽.';
      await answer(page, reply);
      await reaches(() =>
        viber.sent().some((c) => c.token === token && c.body.receiver === user && c.body.text === reply),
      );
      await screenshot(page, 'connectors-viber-chat-ru-1381');
    } finally {
      await context.close();
    }
  });

  test('Avito: type the API keys; a buyer message appears live; the answer reaches the Messenger API', async () => {
    const clientId = `e2e-client-${randomInt(1e6, 9e6)}`;
    const userId = randomInt(10_000_000, 20_000_000);
    avito.network.addClient(clientId, 'e2e-secret', { userId, name: 'Сад и огород' });
    const context = await signedInContext(browser, tokens, {
      baseURL: app.url,
      locale: 'ru-RU',
      viewport: DESKTOP,
    });
    try {
      const page = await context.newPage();
      await connect(page, 'avito', { client_id: clientId, client_secret: 'e2e-secret' });
      const chatId = `u2i-e2e${randomInt(1e6, 9e6)}`;
      const question = ofThisTry('Актуально? Заберу сегодня.');
      await customerWrites(page, question, () =>
        avito.pushMessage({
          accountId: userId,
          chatId,
          author: { id: 94_000_001, name: 'Покупатель' },
          text: question,
        }),
      );
      const reply = 'Актуально, ждём до 20:00.';
      await answer(page, reply);
      await reaches(() =>
        avito
          .sent()
          .some(
            (c) =>
              c.path.includes(`/chats/${chatId}/`) && (c.body?.message as { text?: string })?.text === reply,
          ),
      );
      await screenshot(page, 'connectors-avito-chat-ru-1381');
    } finally {
      await context.close();
    }
  });
});
