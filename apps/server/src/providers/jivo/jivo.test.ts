import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JivoEmulator } from '../../../emulators/jivo/emulator';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildWorker, buildWorkspace } from '../../../test/inbox-actions';
import { chats, messages, objects, outbox } from '../../db/schema';

// Jivo Bot API connector against its emulator over real HTTP and a real database: connect, a client's
// message through the secret webhook address becomes a chat, the operator's answer goes back as a
// BOT_MESSAGE; 429 waits, a repeated event is stored once, a wrong secret stores nothing, a revoked
// token becomes the account's error.

let t: TestApp;
let emu: JivoEmulator;
let headers: Record<string, string>;
let spaceId: number;
let clock = Date.now();
let seq = 0;

beforeAll(async () => {
  emu = await JivoEmulator.start();
  t = await createTestApp({ PROVIDER_UPDATES: 'webhook', JIVO_API_URL: emu.url });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const appUrl = t.deps.config.appUrl;
  emu.rewrite = (url) => (url.startsWith(appUrl) ? base + url.slice(appUrl.length) : url);
  const admin = await buildWorkspace(t);
  headers = admin.headers;
  spaceId = admin.space.id;
});
afterAll(async () => {
  await t.close();
  await emu.close();
});

const db = () => t.deps.database.db;

async function connectBot() {
  seq += 1;
  const providerId = `otklik-${seq}`;
  const token = `jivo-bot-token-${seq}-${Date.now()}`;
  emu.addBot(providerId, token);
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/objects',
    headers,
    payload: { provider: 'jivo', credentials: { provider_id: providerId, token } },
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().id as number;
  const webhookUrl = res.json().setup.webhook_url as string;
  return { id, providerId, token, webhookUrl, client: `${1000 + seq}`, chat: `${2000 + seq}` };
}

const chatOf = async (objectId: number, externalId: string) =>
  (
    await db()
      .select()
      .from(chats)
      .where(and(eq(chats.objectId, objectId), eq(chats.externalId, externalId)))
  )[0];
const messagesOf = (chatId: number) =>
  db().select().from(messages).where(eq(messages.chatId, chatId)).orderBy(messages.id);
const messageRow = async (id: number) => (await db().select().from(messages).where(eq(messages.id, id)))[0]!;

async function writeFromInbox(chatId: number, text: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/chats/${chatId}/messages`,
    headers,
    payload: { text },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().message.id as number;
}

function drain(advanceMs?: number) {
  clock = advanceMs === undefined ? Math.max(clock, Date.now()) + 1_000 : clock + advanceMs;
  return buildWorker(t, { spaceIds: [spaceId], now: () => new Date(clock) }).drain();
}

async function chatWithClient() {
  const bot = await connectBot();
  const first = await emu.clientMessage(bot.webhookUrl, {
    clientId: bot.client,
    chatId: bot.chat,
    name: 'Анна',
    text: 'Здравствуйте, где мой заказ?',
  });
  expect(first.status).toBe(200);
  const chat = (await chatOf(bot.id, bot.chat))!;
  return { bot, chat, first };
}

describe('connecting', () => {
  it('keeps the token sealed and gives the secret events address to hand to Jivo', async () => {
    const bot = await connectBot();
    const [row] = await db().select().from(objects).where(eq(objects.id, bot.id));
    expect(row).toMatchObject({
      provider: 'jivo',
      externalId: bot.providerId,
      name: `Jivo ${bot.providerId}`,
    });
    expect(JSON.stringify(row!.credentials)).not.toContain(bot.token);
    expect(bot.webhookUrl).toMatch(
      new RegExp(`^${t.deps.config.appUrl}/v1/webhooks/jivo/${bot.id}\\?secret=[A-Za-z0-9_-]{20,}$`),
    );
    const later = await t.app.inject({ url: `/v1/objects/${bot.id}/setup`, headers });
    expect(later.json()).toEqual({ instructions: { webhook_url: bot.webhookUrl } });
    const shown = await t.app.inject({ url: `/v1/objects/${bot.id}`, headers });
    expect(shown.body).not.toContain(bot.token);
  });

  it('refuses a provider id or token that cannot be part of the endpoint, storing nothing', async () => {
    const before = await db().select().from(objects).where(eq(objects.spaceId, spaceId));
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/objects',
      headers,
      payload: { provider: 'jivo', credentials: { provider_id: 'otklik', token: 'a/b' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error_type: 'validation',
      fields: { 'credentials.token': expect.any(String) },
    });
    expect(await db().select().from(objects).where(eq(objects.spaceId, spaceId))).toHaveLength(before.length);
  });
});

describe('receiving', () => {
  it("makes the client's message a chat; a repeated event is stored once; other events store nothing", async () => {
    const { bot, chat, first } = await chatWithClient();
    expect(chat).toBeDefined();
    const again = await emu.clientMessage(bot.webhookUrl, {
      clientId: bot.client,
      chatId: bot.chat,
      text: 'Здравствуйте, где мой заказ?',
      id: first.id,
    });
    expect(again.status).toBe(200);
    expect(await emu.event(bot.webhookUrl, { event: 'CHAT_CLOSED', id: 'x-1', chat_id: bot.chat })).toBe(200);
    const stored = await messagesOf(chat.id);
    expect(stored.map((m) => [m.externalId, m.text])).toEqual([[first.id, 'Здравствуйте, где мой заказ?']]);
  });

  it('keeps a file the client sends as a link, with its caption', async () => {
    const bot = await connectBot();
    const status = await emu.event(bot.webhookUrl, {
      event: 'CLIENT_MESSAGE',
      id: `photo-${bot.id}`,
      client_id: bot.client,
      chat_id: bot.chat,
      sender: { id: Number(bot.client), name: 'Анна' },
      message: {
        type: 'PHOTO',
        file: 'https://files.jivosite.com/p.jpg',
        text: 'Вот чек',
        timestamp: 1_665_415_879,
      },
    });
    expect(status).toBe(200);
    const chat = (await chatOf(bot.id, bot.chat))!;
    const [stored] = await messagesOf(chat.id);
    expect(stored).toMatchObject({
      text: 'Вот чек',
      attachments: [{ type: 'image', url: 'https://files.jivosite.com/p.jpg' }],
      createdAt: new Date(1_665_415_879_000),
    });
  });

  it('refuses a call without the right secret (403) and stores nothing', async () => {
    const bot = await connectBot();
    const bare = bot.webhookUrl.split('?')[0]!;
    for (const url of [bare, `${bare}?secret=wrong-secret`, `${bare}?secret=`]) {
      const res = await emu.clientMessage(url, { clientId: bot.client, chatId: bot.chat, text: 'подделка' });
      expect(res.status, url).toBe(403);
    }
    expect(await chatOf(bot.id, bot.chat)).toBeUndefined();
  });
});

describe('answering', () => {
  it('sends the answer as a BOT_MESSAGE to the chat of that client', async () => {
    const { bot, chat } = await chatWithClient();
    const messageId = await writeFromInbox(chat.id, 'Заказ в пути');
    await drain();
    const sent = emu.received.at(-1)!;
    expect(sent).toMatchObject({
      providerId: bot.providerId,
      token: bot.token,
      body: {
        event: 'BOT_MESSAGE',
        client_id: bot.client,
        chat_id: bot.chat,
        message: { type: 'TEXT', text: 'Заказ в пути' },
      },
    });
    expect(await messageRow(messageId)).toMatchObject({ delivery: 'sent', externalId: sent.body.id });
  });

  it('waits after a 429 as Retry-After says, then delivers once', async () => {
    const { chat } = await chatWithClient();
    const messageId = await writeFromInbox(chat.id, 'Секунду');
    const before = emu.received.length;
    emu.failNext(429, '12');
    await drain();
    const [row] = await db().select().from(outbox).where(eq(outbox.messageId, messageId));
    expect(row).toMatchObject({ state: 'pending' });
    expect(row!.runAt.getTime()).toBe(clock + 12_000);
    expect(await drain(0)).toBe(0);
    await drain(12_000);
    expect(await messageRow(messageId)).toMatchObject({ delivery: 'sent' });
    expect(emu.received.length - before).toBe(1);
  });

  it('a revoked token fails the answer and becomes the account’s error', async () => {
    const { bot, chat } = await chatWithClient();
    emu.revoke(bot.providerId, bot.token);
    const messageId = await writeFromInbox(chat.id, 'Вы тут?');
    await drain();
    expect(await messageRow(messageId)).toMatchObject({ delivery: 'failed' });
    const errors = await t.app.inject({ url: '/v1/errors', headers });
    expect(errors.json().items.map((o: { id: number }) => o.id)).toContain(bot.id);
    const [row] = await db().select().from(objects).where(eq(objects.id, bot.id));
    expect(row!.error).toContain('failure.auth');
  });
});
