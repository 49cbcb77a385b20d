import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OkTestbed } from '../../../test/providers/ok';
import { authors, objects, outbox } from '../../db/schema';

// OK group Bot API against its emulator over real HTTP (issue 20, PROVIDERS.md §7d): connecting with the
// group key (webhook subscribed with our secret, unsubscribed on removal), webhook verification by that
// secret, ingest and dedupe on `message.mid`, replies, FLOOD_BLOCKED / 429 waits, a revoked key.

const w = new OkTestbed();
beforeAll(() => w.start());
afterAll(() => w.close());

describe('connecting a group', () => {
  it('checks the key, subscribes the webhook with our secret, unsubscribes on removal', async () => {
    const account = await w.connectGroup();
    expect(account.row).toMatchObject({
      provider: 'ok',
      name: account.group.name,
      externalId: account.group.id.replace('group:', ''),
      updatesMode: 'webhook',
    });
    const url = `${w.t.deps.config.appUrl}/v1/webhooks/ok/${account.id}?secret=${encodeURIComponent(account.webhookSecret)}`;
    expect(w.emu.subscriptionsOf(account.token)).toEqual([url]);
    expect(
      w.emu.calls.find((c) => c.path === '/graph/me/subscribe' && c.token === account.token),
    ).toMatchObject({ method: 'POST', body: { url } });

    const removed = await w.t.app.inject({
      method: 'DELETE',
      url: `/v1/objects/${account.id}`,
      headers: w.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(w.emu.calls.at(-1)).toMatchObject({ path: '/graph/me/unsubscribe', body: { url } });
    expect(w.emu.subscriptionsOf(account.token)).toEqual([]);
  });

  it('refuses a wrong key in the user’s language and stores nothing', async () => {
    const before = await w.db().select().from(objects).where(eq(objects.spaceId, w.spaceId));
    const res = await w.connect({ access_token: 'not-a-key' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBeTruthy();
    expect(await w.db().select().from(objects).where(eq(objects.spaceId, w.spaceId))).toHaveLength(
      before.length,
    );
  });
});

describe('webhooks', () => {
  it('refuses calls without our secret (403, nothing stored) and stores a redelivered message once', async () => {
    const account = await w.connectGroup();
    const hook = `${w.base}/v1/webhooks/ok/${account.id}`;
    const update = w.emu.message({
      chatId: account.chatId,
      ...account.customer,
      text: 'Здравствуйте',
      image: 'https://i.mycdn.me/i?r=photo1',
    });
    expect(await w.emu.deliver(account.token, update, { url: hook })).toEqual([403]);
    expect(await w.emu.deliver(account.token, update, { url: `${hook}?secret=wrong` })).toEqual([403]);
    expect(await w.chatOf(account.id, account.chatId)).toBeUndefined();

    expect(await w.emu.deliver(account.token, update)).toEqual([200]);
    expect(await w.emu.deliver(account.token, update)).toEqual([200]);
    // Updates we do not store (a chat system event) and bodies we cannot read still get 200 (OK retries otherwise).
    expect(
      await w.emu.deliver(account.token, {
        webhookType: 'CHAT_SYSTEM',
        recipient: { chat_id: account.chatId },
      }),
    ).toEqual([200]);
    expect(await w.emu.deliver(account.token, '{"sender": 1}')).toEqual([200]);

    const chat = (await w.chatOf(account.id, account.chatId))!;
    const stored = await w.messagesOf(chat.id);
    expect(stored.map((m) => [m.externalId, m.text, m.isOwn])).toEqual([
      [update.message.mid, 'Здравствуйте', false],
    ]);
    expect(stored[0]!.attachments).toEqual([{ type: 'image', url: 'https://i.mycdn.me/i?r=photo1' }]);
    const [author] = await w.db().select().from(authors).where(eq(authors.id, chat.authorId!));
    expect(author).toMatchObject({ externalId: account.customer.userId, name: 'Ольга' });
  });
});

describe('replies', () => {
  async function chatWithCustomer() {
    const account = await w.connectGroup();
    const update = w.emu.message({ chatId: account.chatId, ...account.customer, text: 'Где заказ?' });
    expect(await w.emu.deliver(account.token, update)).toEqual([200]);
    return { account, chat: (await w.chatOf(account.id, account.chatId))! };
  }

  it('sends to the chat with the group key and keeps OK’s message id', async () => {
    const { account, chat } = await chatWithCustomer();
    const messageId = await w.writeFromInbox(chat.id, 'Заказ в пути');
    await w.drain();
    const call = w.emu.calls.filter((c) => c.path.startsWith('/graph/me/messages/')).at(-1);
    expect(call).toMatchObject({
      method: 'POST',
      path: `/graph/me/messages/${encodeURIComponent(account.chatId)}`,
      token: account.token,
      body: { recipient: { chat_id: account.chatId }, message: { text: 'Заказ в пути' } },
    });
    expect(await w.messageRow(messageId)).toMatchObject({
      delivery: 'sent',
      externalId: w.emu.sent.at(-1)!.mid,
    });
  });

  it('waits after FLOOD_BLOCKED and after HTTP 429 (its Retry-After), then delivers', async () => {
    const { chat } = await chatWithCustomer();
    const messageId = await w.writeFromInbox(chat.id, 'Секунду');
    w.emu.failNext('flood');
    await w.drain();
    const [first] = await w.db().select().from(outbox).where(eq(outbox.messageId, messageId));
    expect(first).toMatchObject({ state: 'pending' });
    expect(first!.runAt.getTime()).toBe(w.clock + 60_000);
    expect(await w.drain(0)).toBe(0);

    w.emu.failNext('http429');
    await w.drain(60_000);
    const [second] = await w.db().select().from(outbox).where(eq(outbox.messageId, messageId));
    expect(second).toMatchObject({ state: 'pending' });
    expect(second!.runAt.getTime()).toBe(w.clock + 30_000);
    await w.drain(30_000);
    expect(await w.messageRow(messageId)).toMatchObject({ delivery: 'sent' });
  });

  it('a revoked key fails the message and flags the account; a new key reconnects it', async () => {
    const { account, chat } = await chatWithCustomer();
    w.emu.revoke(account.token);
    const messageId = await w.writeFromInbox(chat.id, 'Вы тут?');
    await w.drain();
    expect(await w.messageRow(messageId)).toMatchObject({ delivery: 'failed' });
    const flagged = await w.listedError(account.id);
    expect(flagged?.error).toContain('failure.auth');
    expect(flagged?.error).toContain('PARAM_SESSION_EXPIRED');

    // A new key from the group's settings: the same account, the error clears, the webhook is set again.
    const renewed = `${account.token}-renewed`;
    w.emu.addGroup(renewed, account.group.name);
    const reconnect = await w.api('POST', `/v1/objects/${account.id}/reconnect`, {
      credentials: { access_token: renewed },
    });
    expect(reconnect.error).toBeNull();
    expect(w.emu.subscriptionsOf(renewed)).toEqual([
      `${w.t.deps.config.appUrl}/v1/webhooks/ok/${account.id}?secret=${encodeURIComponent(account.webhookSecret)}`,
    ]);
  });
});
