import { translate } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  botChat,
  connectBot,
  customer,
  newBot,
  privateChat,
  startTelegramWorld,
  type TelegramWorld,
  workerOf,
} from '../../../test/providers/telegram';
import { rulesWorkerOf } from '../../../test/rules-worker';
import { startReceiver, verifyStandardWebhook } from '../../../test/webhook-receiver';
import { botSessions, chats } from '../../db/schema';
import type { TgUser } from '../../providers/telegram/types';
import { mergeSpaceSettings } from '../users/testing';

// Chat-bots (issue 17) on the real database and the Telegram emulator: the bot greets, shows its options
// as an inline keyboard (reply_markup recorded by the emulator), takes a button press (callback_query),
// refuses a bad phone with the retry message, accepts a good one and hands the chat to operators with
// the phone shown on the chat; an operator's reply stops the bot; stats/bots counts the funnel.

let w: TelegramWorld;
beforeAll(async () => {
  // The webhook step's endpoint listens on 127.0.0.1.
  w = await startTelegramWorld({ WEBHOOKS_ALLOW_PRIVATE: 'true' });
  // The space's `bots` flag (docs/product/roles.md `bots.manage`).
  await mergeSpaceSettings(w.t, w.spaceId, { bots: true });
}, 240_000);
afterAll(() => w?.close());

const db = () => w.t.deps.database.db;

const FLOW = [
  { id: 'greet', type: 'message', text: 'Здравствуйте! Я бот магазина.' },
  {
    id: 'menu',
    type: 'menu',
    text: 'Чем помочь?',
    options: [
      { label: 'Статус заказа', keywords: ['заказ'], next: 'phone' },
      { label: 'Другое', next: 'handoff' },
    ],
  },
  {
    id: 'phone',
    type: 'collect',
    field: 'phone',
    text: 'Напишите ваш телефон',
    retry_text: 'Это не телефон',
  },
  { id: 'handoff', type: 'handoff', text: 'Передаю оператору' },
];

describe('chat-bots on Telegram', { timeout: 120_000 }, () => {
  it('greets, shows buttons, validates a phone, hands off with the fields; an operator reply stops it; the funnel counts', async () => {
    const bot = newBot(w.tg);
    const { account } = await connectBot(w, bot.token);
    const rules = rulesWorkerOf(w.t, [w.spaceId]);
    const outbox = workerOf(w);
    const settle = async () => {
      await rules.drain();
      await outbox.run();
    };
    const sentTo = (user: TgUser) =>
      w.tg
        .callsOf('sendMessage')
        .filter((c) => c.token === bot.token && String(c.params.chat_id) === String(user.id));
    const say = async (user: TgUser, text: string) => {
      await w.tg.deliver(bot.token, {
        message: w.tg.customerMessage(bot.token, { chat: privateChat(user), from: user, text }),
      });
      await settle();
    };

    // A bad flow is refused in the caller's language: a `next` to a step that does not exist.
    const bad = await w.api(
      'POST',
      '/v1/bots',
      { space_id: w.spaceId, object_id: account.id, name: 'Бот', steps: [{ ...FLOW[0], next: 'nowhere' }] },
      400,
    );
    expect(Object.values(bad.fields as Record<string, string>)).toContain('Такого шага нет');

    const created = await w.api('POST', '/v1/bots', {
      space_id: w.spaceId,
      object_id: account.id,
      name: 'Магазин',
      steps: FLOW,
    });
    // One bot per account.
    await w.api(
      'POST',
      '/v1/bots',
      { space_id: w.spaceId, object_id: account.id, name: 'Второй', steps: FLOW },
      409,
    );

    // 1. Greeting and the menu as an inline keyboard.
    const anna = customer();
    await say(anna, 'Привет');
    let sent = sentTo(anna);
    expect(sent.map((c) => c.params.text)).toEqual(['Здравствуйте! Я бот магазина.', 'Чем помочь?']);
    expect(sent[1]!.params.reply_markup).toEqual({
      inline_keyboard: [
        [{ text: 'Статус заказа', callback_data: 'Статус заказа' }],
        [{ text: 'Другое', callback_data: 'Другое' }],
      ],
    });
    const chatId = (await w.api('GET', `/v1/chats?object_id=${account.id}`)).items[0].id as number;

    // 2. A button press arrives as callback_query: answered, and the bot asks for the phone.
    const menuMessage = lastBotMessage(anna);
    await w.tg.deliver(bot.token, {
      callback_query: { id: 'cq-1', from: anna, message: menuMessage, data: 'Статус заказа' },
    });
    await settle();
    expect(w.tg.callsOf('answerCallbackQuery').map((c) => c.params.callback_query_id)).toContain('cq-1');
    sent = sentTo(anna);
    expect(sent.at(-1)!.params.text).toBe('Напишите ваш телефон');
    expect(sent.at(-1)!.params.reply_markup).toBeUndefined();

    // 3. A bad phone: the retry message; a good one: hand-off.
    await say(anna, 'не скажу');
    expect(sentTo(anna).at(-1)!.params.text).toBe('Это не телефон');
    await say(anna, '8 (900) 123-45-67');
    expect(sentTo(anna).at(-1)!.params.text).toBe('Передаю оператору');
    const view = await w.api('GET', `/v1/chats/${chatId}/bot`);
    expect(view.session).toMatchObject({
      bot_id: created.id,
      bot_name: 'Магазин',
      state: 'handed_off',
      step_id: 'handoff',
      fields: { phone: '+79001234567' },
    });
    const [chat] = await db().select().from(chats).where(eq(chats.id, chatId));
    expect(chat!.status).toBe('new');
    expect(chat!.unreadCount).toBeGreaterThan(0);
    expect(chat!.firstReplyAt).toBeNull(); // the bot's messages are not the team's first reply
    // After the hand-off the bot stays out of the chat.
    const before = sentTo(anna).length;
    await say(anna, 'Ау?');
    expect(sentTo(anna).length).toBe(before);

    // 4. An operator's reply stops the bot in another chat; it does not answer again.
    const boris = customer();
    await say(boris, 'Здравствуйте');
    expect(sentTo(boris)).toHaveLength(2);
    const borisChat = (await w.api('GET', `/v1/chats?object_id=${account.id}`)).items.find(
      (c: { id: number }) => c.id !== chatId,
    ).id as number;
    await w.api('POST', `/v1/chats/${borisChat}/messages`, { text: 'Я оператор, слушаю' });
    await outbox.run();
    const [stopped] = await db().select().from(botSessions).where(eq(botSessions.chatId, borisChat));
    expect(stopped!.state).toBe('stopped');
    await say(boris, 'Статус заказа');
    expect(sentTo(boris).map((c) => c.params.text)).toEqual([
      'Здравствуйте! Я бот магазина.',
      'Чем помочь?',
      'Я оператор, слушаю',
    ]);

    // 5. The funnel: two conversations, one handed off, one dropped at the menu.
    const stats = await w.api('GET', `/v1/stats/bots?space_id=${w.spaceId}&preset=7d`);
    const mine = stats.bots.find((b: { bot_id: number }) => b.bot_id === created.id);
    expect(mine).toMatchObject({ started: 2, completed: 0, handed_off: 1, dropped: 1, active: 0 });
    const step = (id: string) => mine.steps.find((s: { step_id: string }) => s.step_id === id);
    expect(step('greet')).toMatchObject({ reached: 2, dropped: 0 });
    expect(step('menu')).toMatchObject({ reached: 2, dropped: 1 });
    expect(step('phone')).toMatchObject({ reached: 1, dropped: 0 });
    expect(step('handoff')).toMatchObject({ reached: 1, dropped: 0 });

    function lastBotMessage(user: TgUser) {
      const mine = [...w.tg.bot(bot.token).messages.values()].filter(
        (m) => m.fromBot && m.message.chat.id === user.id,
      );
      return mine.at(-1)!.message;
    }
  });

  it('outside business hours runs the off-hours flow, which can end by itself (completed)', async () => {
    const bot = newBot(w.tg);
    const { account } = await connectBot(w, bot.token);
    // Business hours of one minute a day (00:00–00:01): now is outside them.
    await w.api('PUT', '/v1/workinghours/business', {
      space_id: w.spaceId,
      week: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: 0, end: 1 })),
      special_days: [],
    });
    const created = await w.api('POST', '/v1/bots', {
      space_id: w.spaceId,
      object_id: account.id,
      name: 'Ночной',
      steps: [{ id: 'day', type: 'message', text: 'Днём отвечаем сразу' }],
      off_hours_steps: [{ id: 'night', type: 'message', text: 'Мы ответим утром' }],
    });
    const rules = rulesWorkerOf(w.t, [w.spaceId]);
    expect(await botChat(w, bot, rules)(customer(), 'Есть кто?')).toEqual(['Мы ответим утром']);
    const [session] = await db().select().from(botSessions).where(eq(botSessions.botId, created.id));
    expect(session).toMatchObject({ flow: 'off_hours', state: 'completed', path: ['night'] });
    await w.api('PUT', '/v1/workinghours/business', { space_id: w.spaceId, week: [], special_days: [] });
  });

  it('calls the webhook step signed, retries a 500, and puts a call that failed every try in the chat history', async () => {
    const receiver = await startReceiver(
      [500],
      JSON.stringify({ text: 'Заказ 42 в пути', fields: { order: '42' } }),
    );
    try {
      const bot = newBot(w.tg);
      const { account } = await connectBot(w, bot.token);
      const made = await w.api('POST', '/v1/webhooks', {
        space_id: w.spaceId,
        url: receiver.url,
        description: 'CRM',
        events: ['task.changed'],
        is_enabled: true,
      });
      const { webhook, secret } = made as { webhook: { id: number }; secret: string };
      await w.api('POST', '/v1/bots', {
        space_id: w.spaceId,
        object_id: account.id,
        name: 'С вебхуком',
        steps: [
          { id: 'hook', type: 'webhook', webhook_id: webhook.id },
          { id: 'bye', type: 'message', text: 'Спасибо' },
        ],
      });
      const rules = rulesWorkerOf(w.t, [w.spaceId], { webhookBackoffMs: [1, 1] });
      const write = botChat(w, bot, rules);
      // 1st try 500, 2nd 200: the same message id, signed with the endpoint's secret; its text is sent.
      expect(await write(customer(), 'Где заказ?')).toEqual(['Заказ 42 в пути', 'Спасибо']);
      expect(receiver.received).toHaveLength(2);
      const [a, b] = receiver.received;
      expect(a!.headers['webhook-id']).toBe(b!.headers['webhook-id']);
      expect(verifyStandardWebhook(secret, b!.headers, b!.body)).toBe(true);
      expect(verifyStandardWebhook(secret, b!.headers, `${b!.body} `)).toBe(false);
      expect(JSON.parse(b!.body)).toMatchObject({ type: 'bot.step', data: { step_id: 'hook' } });

      // Every try fails: the flow goes on, and the chat's history says which bot and step failed, and why.
      receiver.statuses.push(500, 500, 500);
      const gleb = customer();
      expect(await write(gleb, 'Алло')).toEqual(['Спасибо']);
      expect(receiver.received).toHaveLength(5);
      const chats = (await w.api('GET', `/v1/chats?object_id=${account.id}`)).items as Array<{ id: number }>;
      const histories = await Promise.all(chats.map((c) => w.api('GET', `/v1/chats/${c.id}/history`)));
      const failed = histories.flatMap((h) => h.items).filter((e: { type: string }) => e.type === 'chat.bot');
      expect(failed).toEqual([
        expect.objectContaining({
          data: { bot: 'С вебхуком', status: 'failed', step_id: 'hook', error: 'HTTP 500' },
        }),
      ]);
    } finally {
      await receiver.close();
    }
  });

  it("says its own retry texts in the customer's language (their answer, else their earlier messages)", async () => {
    const bot = newBot(w.tg);
    const { account } = await connectBot(w, bot.token);
    await w.api('POST', '/v1/bots', {
      space_id: w.spaceId,
      object_id: account.id,
      name: 'Телефон',
      steps: [{ id: 'phone', type: 'collect', field: 'phone', text: 'Напишите телефон' }],
    });
    const rules = rulesWorkerOf(w.t, [w.spaceId]);
    const write = botChat(w, bot, rules);
    const last = async (user: TgUser, text: string) => (await write(user, text)).at(-1);
    const en = customer();
    expect(await last(en, 'Hello, I need help with my order')).toBe('Напишите телефон');
    expect(await last(en, 'no way')).toBe(translate('en', 'bots.retry.phone'));
    // "12" has no letters: the customer's earlier English decides.
    expect(await last(en, '12')).toBe(translate('en', 'bots.retry.phone'));
    const ru = customer();
    await last(ru, 'Здравствуйте');
    expect(await last(ru, '12')).toBe(translate('ru', 'bots.retry.phone'));
  });

  it('gives other networks numbered options and matches a typed number (shared helpers)', async () => {
    const { matchBotOption, numberedOptions, validateBotField } = await import('@otklik/shared');
    const options = [{ label: 'Статус заказа', keywords: ['заказ'] }, { label: 'Другое' }];
    expect(numberedOptions('Чем помочь?', options)).toBe('Чем помочь?\n\n1. Статус заказа\n2. Другое');
    expect(matchBotOption(options, '2')).toBe(1);
    expect(matchBotOption(options, 'где мой заказ')).toBe(0);
    expect(matchBotOption(options, 'погода')).toBe(-1);
    expect(validateBotField('email', 'Anna@Example.com')).toBe('anna@example.com');
    expect(validateBotField('email', 'anna@')).toBeNull();
    expect(validateBotField('phone', '+1 555 123 4567')).toBe('+15551234567');
    expect(validateBotField('phone', '12345')).toBeNull();
  });
});
