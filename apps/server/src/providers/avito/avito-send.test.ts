import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AvitoTestbed } from '../../../test/providers/avito';
import { messages, objects, outbox } from '../../db/schema';
import { connectorContext } from '../context';
import { deleteOwnMessage } from './connector';

// Writing from the inbox to Avito (issue #5 item 7, PROVIDERS.md §7a): the message reaches the Messenger
// API with the right fields; an expired token is renewed; 429 waits; revoked keys fail the message and
// flag the account until reconnect; our messages can be deleted only within an hour.

const w = new AvitoTestbed();
beforeAll(() => w.start());
afterAll(() => w.close());

async function chatWithCustomer() {
  const account = await w.connectAccount();
  await w.emu.pushMessage({
    accountId: account.userId,
    chatId: account.chatId,
    author: account.customer,
    text: 'Торг уместен?',
  });
  const chat = (await w.chatOf(account.id, account.chatId))!;
  return { account, chat };
}

const tokenRequests = (clientId: string) =>
  w.emu.calls.filter((c) => c.path === '/token' && c.body?.client_id === clientId);

describe('writing from the inbox', () => {
  it('sends the text to the chat with the right method and fields', async () => {
    const { account, chat } = await chatWithCustomer();
    const messageId = await w.writeFromInbox(chat.id, 'Да, немного');
    await w.drain();
    const call = w.emu.sent().at(-1)!;
    expect(call).toMatchObject({
      method: 'POST',
      path: `/messenger/v1/accounts/${account.userId}/chats/${account.chatId}/messages`,
      authorization: expect.stringMatching(/^Bearer .+/),
      body: { message: { text: 'Да, немного' }, type: 'text' },
    });
    const onNetwork = w.emu.network.chats.get(account.chatId)!.messages.at(-1)!;
    expect(onNetwork).toMatchObject({ author_id: account.userId, content: { text: 'Да, немного' } });
    expect(await w.messageRow(messageId)).toMatchObject({ delivery: 'sent', externalId: onNetwork.id });
  });

  it('renews an expired token once and delivers', async () => {
    const { account, chat } = await chatWithCustomer();
    const before = tokenRequests(account.clientId).length;
    w.emu.network.expireTokens();
    const messageId = await w.writeFromInbox(chat.id, 'После обновления токена');
    await w.drain();
    expect(await w.messageRow(messageId)).toMatchObject({ delivery: 'sent' });
    expect(tokenRequests(account.clientId)).toHaveLength(before + 1);
  });

  it('waits as long as Retry-After says, then delivers', async () => {
    const { chat } = await chatWithCustomer();
    const messageId = await w.writeFromInbox(chat.id, 'Минуту');
    w.emu.rateLimitNext(45);
    await w.drain();
    const [row] = await w.db().select().from(outbox).where(eq(outbox.messageId, messageId));
    expect(row).toMatchObject({ state: 'pending', lastError: 'Too Many Requests' });
    expect(row!.runAt.getTime()).toBe(w.clock + 45_000);
    expect(await w.drain(0)).toBe(0);
    await w.drain(45_000);
    expect(await w.messageRow(messageId)).toMatchObject({ delivery: 'sent' });
  });

  it('revoked keys fail the message and flag the account; after reconnecting, retry delivers', async () => {
    const { account, chat } = await chatWithCustomer();
    w.emu.network.revokeClient(account.clientId);
    const messageId = await w.writeFromInbox(chat.id, 'Вы тут?');
    await w.drain();
    const text = 'Client authentication failed: invalid client_id or client_secret';
    expect(await w.messageRow(messageId)).toMatchObject({ delivery: 'failed', deliveryError: text });
    expect(await w.listedError(account.id)).toMatchObject({ error: text });

    w.emu.network.renewClient(account.clientId, 'secret-renewed');
    const reconnect = await w.api('POST', `/v1/objects/${account.id}/reconnect`, {
      credentials: { client_id: account.clientId, client_secret: 'secret-renewed' },
    });
    expect(reconnect.error).toBeNull();
    await w.api('POST', `/v1/messages/${messageId}/retry`);
    await w.drain();
    expect(await w.messageRow(messageId)).toMatchObject({ delivery: 'sent' });
  });

  it('deletes our message within an hour; later Avito refuses with its text', async () => {
    const { account, chat } = await chatWithCustomer();
    const first = await w.writeFromInbox(chat.id, 'Удалю');
    const second = await w.writeFromInbox(chat.id, 'Не успею');
    await w.drain();
    const [row] = await w.db().select().from(objects).where(eq(objects.id, account.id));
    const ctx = connectorContext({ ...w.t.deps, db: w.db() }, row!);
    const firstId = (await w.messageRow(first)).externalId!;
    await deleteOwnMessage(ctx, account.chatId, firstId);
    const onNetwork = w.emu.network.chats.get(account.chatId)!.messages;
    expect(onNetwork.find((m) => m.id === firstId)?.type).toBe('deleted');

    w.emu.network.clock += 61 * 60_000;
    const late = deleteOwnMessage(ctx, account.chatId, (await w.messageRow(second)).externalId!);
    await expect(late).rejects.toMatchObject({
      kind: 'permanent',
      message: 'message can be deleted only within an hour',
    });
  });
});

describe('voice messages', () => {
  it("a customer's voice message is fetched through getVoiceFiles and kept", async () => {
    const account = await w.connectAccount();
    const audio = Buffer.from('ftypM4A voice bytes');
    const voiceId = w.emu.addVoice(audio);
    await w.emu.pushMessage({
      accountId: account.userId,
      chatId: account.chatId,
      author: account.customer,
      type: 'voice',
      content: { voice: { voice_id: voiceId } },
    });
    const chat = (await w.chatOf(account.id, account.chatId))!;
    const [message] = await w.db().select().from(messages).where(eq(messages.chatId, chat.id));
    expect(message!.attachments).toEqual([{ type: 'voice', url: `avito-voice:${voiceId}` }]);
    const res = await w.t.app.inject({
      url: `/v1/messages/${message!.id}/attachments/0`,
      headers: w.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mp4');
    expect(res.rawPayload.equals(audio)).toBe(true);
    const asked = w.emu.calls.filter((c) => c.path.endsWith('/getVoiceFiles'));
    expect(asked.length).toBeGreaterThanOrEqual(1);
    expect(asked[0]!.query.voice_ids).toBe(voiceId);
  });
});
