import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvitoTestbed } from '../../../test/providers/avito';
import { authors, objects } from '../../db/schema';
import { connectorContext } from '../context';
import { avitoConnector } from './connector';

// Avito connector against its emulator over real HTTP (issue #5 item 7, PROVIDERS.md §7a): connecting
// (client credentials, webhook v3 with our secret), webhooks, polling. Sending: avito-send.test.ts.

const w = new AvitoTestbed();
beforeAll(() => w.start());
afterAll(() => w.close());

describe('connecting an account', () => {
  it('gets a token, reads the account, subscribes the webhook with our secret, unsubscribes on disconnect', async () => {
    const account = await w.connectAccount();
    expect(account.row).toMatchObject({
      provider: 'avito',
      name: 'Магазин 1',
      externalId: String(account.userId),
    });
    const tokenCall = w.emu.calls.find((c) => c.path === '/token' && c.body?.client_id === account.clientId);
    expect(tokenCall!.body).toEqual({
      grant_type: 'client_credentials',
      client_id: account.clientId,
      client_secret: account.secret,
    });
    const url = `${w.t.deps.config.appUrl}/v1/webhooks/avito/${account.id}?secret=${encodeURIComponent(account.webhookSecret)}`;
    expect(w.emu.calls.find((c) => c.path === '/messenger/v3/webhook' && c.body?.url === url)).toBeDefined();
    expect([...(w.emu.network.subscriptions.get(account.userId) ?? [])]).toEqual([url]);

    const removed = await w.t.app.inject({
      method: 'DELETE',
      url: `/v1/objects/${account.id}`,
      headers: w.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(w.emu.calls.at(-1)).toMatchObject({ path: '/messenger/v1/webhook/unsubscribe', body: { url } });
    expect(w.emu.network.subscriptions.get(account.userId)?.size).toBe(0);
  });

  it("refuses wrong keys with Avito's text and stores nothing", async () => {
    const before = await w.db().select().from(objects).where(eq(objects.spaceId, w.spaceId));
    const res = await w.connect({ client_id: 'nobody', client_secret: 'nothing' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('Client authentication failed');
    expect(await w.db().select().from(objects).where(eq(objects.spaceId, w.spaceId))).toHaveLength(
      before.length,
    );
  });
});

describe('webhooks', () => {
  it('rejects calls without our secret (403, nothing stored) and stores a redelivered message once', async () => {
    const account = await w.connectAccount();
    const hook = `${w.base}/v1/webhooks/avito/${account.id}`;
    const message = w.emu.network.addMessage({
      chatId: account.chatId,
      accountId: account.userId,
      author: account.customer,
      content: { text: 'Здравствуйте, актуально?' },
    });
    expect(await w.emu.deliver(account.userId, message, { url: hook })).toEqual([403]);
    expect(await w.emu.deliver(account.userId, message, { url: `${hook}?secret=wrong` })).toEqual([403]);
    expect(await w.chatOf(account.id, account.chatId)).toBeUndefined();

    expect(await w.emu.deliver(account.userId, message)).toEqual([200]);
    expect(await w.emu.deliver(account.userId, message)).toEqual([200]);
    // Avito's own reachability check (`curl <url> -d '{}'`).
    expect(await w.emu.deliver(account.userId, message, { body: '{}' })).toEqual([200]);
    const chat = (await w.chatOf(account.id, account.chatId))!;
    const stored = await w.messagesOf(chat.id);
    expect(stored.map((m) => [m.externalId, m.text, m.isOwn])).toEqual([
      [message.id, 'Здравствуйте, актуально?', false],
    ]);
    const [author] = await w.db().select().from(authors).where(eq(authors.id, chat.authorId!));
    expect(author).toMatchObject({ externalId: String(account.customer.id), name: 'Покупатель' });
  });

  it("ignores the account's own messages (the echo of a reply) but follows their deletion", async () => {
    const account = await w.connectAccount();
    await w.emu.pushMessage({
      accountId: account.userId,
      chatId: account.chatId,
      author: account.customer,
      text: 'Есть доставка?',
    });
    const chat = (await w.chatOf(account.id, account.chatId))!;
    const messageId = await w.writeFromInbox(chat.id, 'Да, есть');
    await w.drain();
    const sent = w.emu.network.chats.get(account.chatId)!.messages.at(-1)!;
    // Avito pushes our own message back to the webhook: nothing new is stored.
    expect(await w.emu.deliver(account.userId, sent)).toEqual([200]);
    expect((await w.messagesOf(chat.id)).map((m) => [m.text, m.isOwn])).toEqual([
      ['Есть доставка?', false],
      ['Да, есть', true],
    ]);
    const client = w.emu.network.clients.get(account.clientId)!;
    expect(w.emu.network.deleteMessage(client, account.chatId, sent.id)).toBeNull();
    expect(await w.emu.deliver(account.userId, sent)).toEqual([200]);
    expect(await w.messageRow(messageId)).toMatchObject({ externalId: sent.id, isDeleted: true });
  });
});

describe('polling and the import on connect', () => {
  it('reads new messages of changed chats once, and imports recent ones', async () => {
    const account = await w.connectAccount();
    const ctx = (now: number) =>
      connectorContext({ ...w.t.deps, db: w.db(), now: () => new Date(now) }, account.row);
    const signal = new AbortController().signal;
    const start = w.emu.network.clock;
    const first = w.emu.network.addMessage({
      chatId: account.chatId,
      accountId: account.userId,
      author: account.customer,
      content: { text: 'Первое' },
    });
    const round1 = await avitoConnector.poll!(ctx(start), null, { timeoutSeconds: 0, signal });
    expect(round1.events).toMatchObject([
      { type: 'message', externalId: first.id, text: 'Первое', author: { name: 'Покупатель' } },
    ]);
    const round2 = await avitoConnector.poll!(ctx(start), round1.cursor, { timeoutSeconds: 0, signal });
    expect(round2.events).toEqual([]);
    w.emu.network.clock += 5_000;
    const second = w.emu.network.addMessage({
      chatId: account.chatId,
      accountId: account.userId,
      author: account.customer,
      content: { text: 'Второе' },
    });
    const round3 = await avitoConnector.poll!(ctx(start), round2.cursor, { timeoutSeconds: 0, signal });
    expect(round3.events.map((e) => e.type === 'message' && e.externalId)).toEqual([second.id]);

    const imported = await avitoConnector.importRecent!(ctx(start), 100);
    expect(imported.map((e) => e.type === 'message' && e.text).sort()).toEqual(['Второе', 'Первое']);
  });
});
