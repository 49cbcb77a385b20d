import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ViberTestbed } from '../../../test/providers/viber';
import { outbox } from '../../db/schema';

// Writing from the inbox to Viber (issue #5 item 7, PROVIDERS.md §7b): send_message with the right
// fields, status 12 waits, status 6 fails the message, a revoked token also flags the account.

const w = new ViberTestbed();
beforeAll(() => w.start());
afterAll(() => w.close());

async function chatWithCustomer() {
  const bot = await w.connectBot();
  await w.emu.pushMessage(bot.token, { userId: bot.user, name: 'Иван', text: 'Где мой заказ?' });
  const chat = (await w.chatOf(bot.id, bot.user))!;
  return { bot, chat };
}

describe('writing from the inbox', () => {
  it('sends the message with the right fields and keeps Viber’s token', async () => {
    const { bot, chat } = await chatWithCustomer();
    const messageId = await w.writeFromInbox(chat.id, 'Заказ в пути');
    await w.drain();
    expect(w.emu.sent().at(-1)).toMatchObject({
      token: bot.token,
      body: {
        receiver: bot.user,
        type: 'text',
        text: 'Заказ в пути',
        sender: { name: 'Otklik Shop' },
        min_api_version: 1,
      },
    });
    expect(await w.messageRow(messageId)).toMatchObject({
      delivery: 'sent',
      externalId: expect.stringMatching(/^\d{19}$/),
    });
  });

  it('delivered and seen from Viber move our message forward; a late delivered does not undo seen', async () => {
    const { bot, chat } = await chatWithCustomer();
    const messageId = await w.writeFromInbox(chat.id, 'Заказ собран');
    await w.drain();
    const token = (await w.messageRow(messageId)).externalId!;
    expect((await w.emu.pushStatus(bot.token, 'delivered', bot.user, token)).status).toBe(200);
    expect((await w.messageRow(messageId)).delivery).toBe('delivered');
    await w.emu.pushStatus(bot.token, 'seen', bot.user, token);
    await w.emu.pushStatus(bot.token, 'delivered', bot.user, token);
    expect((await w.messageRow(messageId)).delivery).toBe('read');
  });

  it('waits after tooManyRequests, then delivers', async () => {
    const { chat } = await chatWithCustomer();
    const messageId = await w.writeFromInbox(chat.id, 'Секунду');
    w.emu.failNext('tooManyRequests');
    await w.drain();
    const [row] = await w.db().select().from(outbox).where(eq(outbox.messageId, messageId));
    expect(row).toMatchObject({ state: 'pending', lastError: 'tooManyRequests' });
    expect(row!.runAt.getTime()).toBe(w.clock + 30_000);
    expect(await w.drain(0)).toBe(0);
    await w.drain(30_000);
    expect(await w.messageRow(messageId)).toMatchObject({ delivery: 'sent' });
  });

  it('a user who unsubscribed fails the message with Viber’s text; the account stays fine', async () => {
    const bot = await w.connectBot();
    await w.emu.pushMessage(bot.token, { userId: bot.user, text: 'Привет' });
    const chat = (await w.chatOf(bot.id, bot.user))!;
    expect((await w.emu.unsubscribe(bot.token, bot.user)).status).toBe(200);
    const messageId = await w.writeFromInbox(chat.id, 'Ответ');
    await w.drain();
    expect(await w.messageRow(messageId)).toMatchObject({
      delivery: 'failed',
      deliveryError: 'receiverNotSubscribed',
    });
    expect(await w.listedError(bot.id)).toBeUndefined();
  });

  it('a revoked token fails the message and flags the account; after reconnecting, retry delivers', async () => {
    const { bot, chat } = await chatWithCustomer();
    w.emu.revokeToken(bot.token);
    const messageId = await w.writeFromInbox(chat.id, 'Вы тут?');
    await w.drain();
    expect(await w.messageRow(messageId)).toMatchObject({
      delivery: 'failed',
      deliveryError: 'invalidAuthToken',
    });
    expect(await w.listedError(bot.id)).toMatchObject({ error: 'invalidAuthToken' });

    const renewed = `${bot.token}-renewed`;
    w.emu.addBot(renewed);
    const reconnect = await w.api('POST', `/v1/objects/${bot.id}/reconnect`, {
      credentials: { auth_token: renewed },
    });
    expect(reconnect.error).toBeNull();
    // The re-created bot has its own subscribers: the customer writes again.
    await w.emu.pushMessage(renewed, { userId: bot.user, text: 'Да' });
    await w.api('POST', `/v1/messages/${messageId}/retry`);
    await w.drain();
    expect(await w.messageRow(messageId)).toMatchObject({ delivery: 'sent' });
    expect(w.emu.sent().at(-1)).toMatchObject({ token: renewed, body: { receiver: bot.user } });
  });
});
