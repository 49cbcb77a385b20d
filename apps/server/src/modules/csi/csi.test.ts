import { CSI_DEFAULT_TEXTS, type CsiStats } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildObject, messageEvent } from '../../../test/inbox-helpers';
import {
  connectBot,
  customer,
  newBot,
  privateChat,
  startTelegramWorld,
  type TelegramWorld,
  until,
  workerOf,
} from '../../../test/providers/telegram';
import { chats, csiSurveys, messages } from '../../db/schema';
import { updateToEvents } from '../../providers/telegram/mapping';
import { ingest } from '../inbox/ingest/ingest';
import { setSpaceFlags } from '../spaces/manage';

// CSI surveys end to end on the server (issue 21): a Telegram chat closed by an operator gets the survey
// with an inline keyboard, a button press is the score, the comment follows, the chat stays closed; a
// network without buttons gets "reply with a digit" and a digit answers; late answers are ordinary
// messages; one survey per chat per period; the stats/csi figures match a count made here.

let w: TelegramWorld;
beforeAll(async () => {
  w = await startTelegramWorld();
  await setSpaceFlags(w.t.deps.database.db, w.spaceId, { csi_menu: true }, { asOperator: true });
});
afterAll(() => w.close());

const db = () => w.t.deps.database.db;

const texts = {
  ru: { ...CSI_DEFAULT_TEXTS.ru, comment: 'Что можно улучшить?' },
  en: { survey: 'Rate us 1-5', thanks: 'Thanks!', comment: 'What could be better?' },
};
const enable = (objectId: number, extra: Record<string, unknown> = {}) =>
  w.api('PUT', `/v1/csi/accounts/${objectId}`, {
    enabled: true,
    language: 'auto',
    texts,
    window_hours: 24,
    period_days: 7,
    ...extra,
  });

async function telegramChat(first = 'Hello, where is my parcel?') {
  const bot = newBot(w.tg);
  const { account } = await connectBot(w, bot.token);
  const anna = customer();
  await w.tg.deliver(bot.token, {
    message: w.tg.customerMessage(bot.token, { chat: privateChat(anna), from: anna, text: first }),
  });
  const chat = (await w.api('GET', `/v1/chats?object_id=${account.id}`)).items[0];
  return { bot, account, anna, chatId: chat.id as number };
}

const closeChat = (chatId: number) => w.api('PUT', `/v1/chats/${chatId}/status`, { status: 'closed' });
const surveysOf = (chatId: number) => db().select().from(csiSurveys).where(eq(csiSurveys.chatId, chatId));
const chatRow = async (chatId: number) => (await db().select().from(chats).where(eq(chats.id, chatId)))[0]!;

describe('CSI on Telegram', () => {
  it('sends the survey with buttons on close, records the press and the comment, keeps the chat closed', async () => {
    const { bot, account, anna, chatId } = await telegramChat();
    const saved = await enable(account.id);
    expect(saved).toMatchObject({ object_id: account.id, enabled: true, buttons: true });
    // settings/csi lists it as saved, texts included.
    const { accounts } = await w.api('GET', `/v1/csi/accounts?space_id=${w.spaceId}`);
    expect(accounts).toContainEqual(saved);
    await w.api('POST', `/v1/chats/${chatId}/messages`, { text: 'It ships today' });
    await closeChat(chatId);
    await workerOf(w).run();

    const sent = w.tg.callsOf('sendMessage').filter((c) => c.token === bot.token);
    const survey = sent.at(-1)!;
    expect(survey.params).toMatchObject({
      chat_id: String(anna.id),
      text: 'Rate us 1-5',
      reply_markup: {
        inline_keyboard: [['1', '2', '3', '4', '5'].map((n) => ({ text: n, callback_data: n }))],
      },
    });
    const [row] = await surveysOf(chatId);
    expect(row).toMatchObject({
      language: 'en',
      score: null,
      objectId: account.id,
      userId: expect.any(Number),
    });

    // The customer presses "4": a callback_query that the webhook answers.
    const bot_message = { message_id: 9_999, chat: privateChat(anna), date: Math.floor(Date.now() / 1000) };
    const pressed = await w.tg.pressButton(bot.token, anna, bot_message, '4');
    expect(pressed.status).toBe(200);
    await until(async () => (await surveysOf(chatId))[0]?.score === 4);
    expect((await chatRow(chatId)).status).toBe('closed');
    // The comment question goes out, then the comment is recorded and thanked.
    await workerOf(w).run();
    expect(
      w.tg
        .callsOf('sendMessage')
        .filter((c) => c.token === bot.token)
        .at(-1)!.params.text,
    ).toBe('What could be better?');
    await w.tg.deliver(bot.token, {
      message: w.tg.customerMessage(bot.token, {
        chat: privateChat(anna),
        from: anna,
        text: 'Faster please',
      }),
    });
    await until(async () => (await surveysOf(chatId))[0]?.comment === 'Faster please');
    await workerOf(w).run();
    expect(
      w.tg
        .callsOf('sendMessage')
        .filter((c) => c.token === bot.token)
        .at(-1)!.params.text,
    ).toBe('Thanks!');
    // A second press changes the score (the last answer wins) and sends nothing more.
    const before = w.tg.callsOf('sendMessage').length;
    await w.tg.pressButton(bot.token, anna, bot_message, '5');
    await until(async () => (await surveysOf(chatId))[0]?.score === 5);
    await workerOf(w).run();
    expect(w.tg.callsOf('sendMessage').length).toBe(before);
    expect((await chatRow(chatId)).status).toBe('closed');

    const list = await w.api('GET', `/v1/csi/responses?space_id=${w.spaceId}&object_id=${account.id}`);
    expect(list.responses).toEqual([
      expect.objectContaining({ chat_id: chatId, score: 5, comment: 'Faster please', provider: 'telegram' }),
    ]);
  });

  it('a late answer is an ordinary message and reopens the chat', async () => {
    const { bot, account, anna, chatId } = await telegramChat();
    await enable(account.id);
    await closeChat(chatId);
    const [row] = await surveysOf(chatId);
    await db()
      .update(csiSurveys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(csiSurveys.id, row!.id));
    await w.tg.deliver(bot.token, {
      message: w.tg.customerMessage(bot.token, { chat: privateChat(anna), from: anna, text: '2' }),
    });
    await until(async () => (await chatRow(chatId)).status !== 'closed');
    expect((await surveysOf(chatId))[0]).toMatchObject({ score: null, answeredAt: null });
  });

  it('one survey per chat per period', async () => {
    const { account, chatId, bot, anna } = await telegramChat();
    await enable(account.id);
    await closeChat(chatId);
    await w.tg.deliver(bot.token, {
      message: w.tg.customerMessage(bot.token, {
        chat: privateChat(anna),
        from: anna,
        text: 'One more thing',
      }),
    });
    await until(async () => (await chatRow(chatId)).status !== 'closed');
    await closeChat(chatId);
    expect(await surveysOf(chatId)).toHaveLength(1);
    // With a period of 0 days every closing surveys once the last survey is done.
    await enable(account.id, { period_days: 0 });
    await db()
      .update(csiSurveys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(csiSurveys.chatId, chatId));
    await w.api('PUT', `/v1/chats/${chatId}/status`, { status: 'open' });
    await closeChat(chatId);
    expect(await surveysOf(chatId)).toHaveLength(2);
  });

  it('a disabled account sends no survey', async () => {
    const { account, chatId } = await telegramChat();
    await enable(account.id, { enabled: false });
    await closeChat(chatId);
    expect(await surveysOf(chatId)).toHaveLength(0);
  });
});

describe('Telegram button presses', () => {
  it('a press in a private chat is the customer message with the button data; elsewhere nothing', () => {
    const anna = customer();
    const message = { message_id: 7, chat: privateChat(anna), date: 1_700_000_000 };
    const [event] = updateToEvents({
      update_id: 42,
      callback_query: { id: 'cq1', from: anna, message, data: '3' },
    });
    expect(event).toMatchObject({
      type: 'message',
      chatExternalId: String(anna.id),
      externalId: `${anna.id}:cb42`,
      text: '3',
      isOwn: false,
      author: { externalId: String(anna.id) },
    });
    const group = { id: -100_123, type: 'supergroup' as const, title: 'Shop chat' };
    expect(
      updateToEvents({
        update_id: 43,
        callback_query: { id: 'cq2', from: anna, message: { ...message, chat: group }, data: '3' },
      }),
    ).toEqual([]);
  });
});

describe('CSI on a network without buttons', () => {
  it('asks for a digit in the customer language and records a digit reply', async () => {
    const object = await buildObject(w.t, w.spaceId, { provider: 'sandbox' });
    const deps = { db: db(), bus: w.t.deps.bus };
    await ingest(deps, object, [
      messageEvent({
        chatExternalId: 'p-ru',
        author: { externalId: 'p-ru', name: 'Ivan' },
        text: 'Здравствуйте',
      }),
    ]);
    const [chat] = await db()
      .select()
      .from(chats)
      .where(and(eq(chats.objectId, object.id), eq(chats.externalId, 'p-ru')));
    const account = await enable(object.id);
    expect(account.buttons).toBe(false);
    await closeChat(chat!.id);
    const [question] = await db()
      .select()
      .from(messages)
      .where(and(eq(messages.chatId, chat!.id), eq(messages.isOwn, true)));
    expect(question!.text).toBe(`${CSI_DEFAULT_TEXTS.ru.survey}\nОтветьте цифрой от 1 до 5.`);
    await ingest(deps, object, [
      messageEvent({ chatExternalId: 'p-ru', author: { externalId: 'p-ru', name: 'Ivan' }, text: ' 3 ' }),
    ]);
    expect((await surveysOf(chat!.id))[0]).toMatchObject({ score: 3, language: 'ru' });
    expect((await chatRow(chat!.id)).status).toBe('closed');
  });
});

describe('stats/csi', () => {
  it('CSAT, average and response rate match a count of the surveys', async () => {
    const rows = (await db().select().from(csiSurveys)).filter((s) => s.spaceId === w.spaceId);
    const answered = rows.filter((s) => s.score !== null);
    const satisfied = answered.filter((s) => s.score! >= 4).length;
    const average = answered.reduce((sum, s) => sum + s.score!, 0) / answered.length;
    const stats = (await w.api('GET', `/v1/stats/csi?space_id=${w.spaceId}&preset=7d`)) as CsiStats;
    expect(stats.total).toEqual({
      sent: rows.length,
      answered: answered.length,
      satisfied,
      csat: Math.round((satisfied / answered.length) * 1000) / 10,
      average: Math.round(average * 100) / 100,
      response_rate: Math.round((answered.length / rows.length) * 1000) / 10,
    });
    expect(stats.scores.reduce((n, s) => n + s.count, 0)).toBe(answered.length);
    expect(stats.by_provider.map((p) => p.provider).sort()).toEqual(['sandbox', 'telegram']);
    expect(stats.by_day.reduce((n, d) => n + d.sent, 0)).toBe(rows.length);
  });

  it('is refused without the csi feature and to non-members', async () => {
    await setSpaceFlags(db(), w.spaceId, { csi_menu: false }, { asOperator: true });
    await w.api('GET', `/v1/stats/csi?space_id=${w.spaceId}`, undefined, 403);
    await w.api('GET', `/v1/csi/responses?space_id=${w.spaceId}`, undefined, 403);
    await setSpaceFlags(db(), w.spaceId, { csi_menu: true }, { asOperator: true });
    await w.api('GET', `/v1/csi/responses?space_id=${w.spaceId + 100000}`, undefined, 403);
  });
});

describe('CSI: documented answers (issue 12 point 4, packages/shared csi.ts)', () => {
  type Schema = { required?: string[]; properties?: Record<string, Schema>; items?: Schema };
  const success = async (method: string, path: string): Promise<Schema> => {
    const doc = await w.api('GET', '/v1/openapi.json');
    const schema = doc.paths[path]?.[method]?.responses?.['200']?.content?.['application/json']?.schema;
    expect(schema, `${method} ${path}`).toBeTruthy();
    return schema;
  };
  const ACCOUNT = ['object_id', 'space_id', 'name', 'provider', 'buttons', 'enabled', 'language', 'texts'];

  it('settings per account and the responses page', async () => {
    const list = await success('get', '/v1/csi/accounts');
    expect(list.required).toEqual(['accounts']);
    expect(list.properties?.accounts?.items?.required).toEqual(expect.arrayContaining(ACCOUNT));
    expect((await success('put', '/v1/csi/accounts/{id}')).required).toEqual(expect.arrayContaining(ACCOUNT));
    const page = await success('get', '/v1/csi/responses');
    expect(page.required).toEqual(['responses', 'total', 'page', 'page_size']);
    expect(page.properties?.responses?.items?.required).toEqual(
      expect.arrayContaining(['id', 'chat_id', 'author_name', 'user_id', 'score', 'comment', 'answered_at']),
    );
  });
});
