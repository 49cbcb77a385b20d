import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPH_ERRORS } from '../../../emulators/whatsapp/emulator';
import { APP_SECRET, PHONE_ID, WhatsAppTestbed } from '../../../test/providers/whatsapp';
import { messages, objects, outbox } from '../../db/schema';

// Writing from the inbox to WhatsApp (issue #5 item 7, PROVIDERS.md §3): the reply and reaction reach
// Graph with the right fields; rate limits wait; the 24-hour window and a revoked token fail visibly.

const w = new WhatsAppTestbed();
beforeAll(() => w.start());
afterAll(() => w.close());

describe('writing from the inbox', () => {
  it('sends the reply and a reaction to Graph with the right fields', async () => {
    const account = await w.connectNumber();
    const inbound = await w.emu.pushMessage({ from: account.customer, text: 'Does it come in blue?' });
    const chat = (await w.chatOf(account.id, account.customer))!;
    const messageId = await w.writeFromInbox(chat.id, 'Yes, blue and red.');
    await w.drain();
    expect(w.emu.sent().at(-1)).toMatchObject({
      path: `/${w.t.deps.config.WHATSAPP_API_VERSION}/${PHONE_ID}/messages`,
      authorization: `Bearer ${account.token}`,
      body: {
        messaging_product: 'whatsapp',
        to: account.customer,
        type: 'text',
        text: { body: 'Yes, blue and red.' },
      },
    });
    expect(await w.messageRow(messageId)).toMatchObject({
      delivery: 'sent',
      externalId: expect.stringMatching(/^wamid\./),
    });

    const [customerMessage] = await w.db().select().from(messages).where(eq(messages.externalId, inbound.id));
    const react = await w.t.app.inject({
      method: 'POST',
      url: `/v1/messages/${customerMessage!.id}/react`,
      headers: w.headers,
      payload: { value: '👍' },
    });
    expect(react.statusCode, react.body).toBe(200);
    await w.drain();
    expect(w.emu.sent().at(-1)!.body).toMatchObject({
      to: account.customer,
      type: 'reaction',
      reaction: { message_id: inbound.id, emoji: '👍' },
    });
  });

  it("Meta's statuses move our message forward (delivered, read), never back; a failure shows its reason", async () => {
    const account = await w.connectNumber();
    await w.emu.pushMessage({ from: account.customer, text: 'Когда доставка?' });
    const chat = (await w.chatOf(account.id, account.customer))!;
    const messageId = await w.writeFromInbox(chat.id, 'Завтра');
    await w.drain();
    const { externalId } = await w.messageRow(messageId);
    await w.emu.pushStatus(account.customer, externalId!, 'delivered');
    expect((await w.messageRow(messageId)).delivery).toBe('delivered');
    await w.emu.pushStatus(account.customer, externalId!, 'read');
    expect((await w.messageRow(messageId)).delivery).toBe('read');
    // Statuses can arrive late or twice: read stays read.
    await w.emu.pushStatus(account.customer, externalId!, 'delivered');
    await w.emu.pushStatus(account.customer, externalId!, 'sent');
    expect((await w.messageRow(messageId)).delivery).toBe('read');

    const second = await w.writeFromInbox(chat.id, 'И ещё');
    await w.drain();
    const wamid = (await w.messageRow(second)).externalId!;
    await w.emu.pushStatus(account.customer, wamid, 'failed', [
      { code: 131026, title: 'Message undeliverable' },
    ]);
    expect(await w.messageRow(second)).toMatchObject({
      delivery: 'failed',
      deliveryError: 'Message undeliverable',
    });
  });

  it("a customer's photo is fetched from Graph with the token once and shown inline", async () => {
    const account = await w.connectNumber();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const mediaId = w.emu.addMedia(png, 'image/png');
    const inbound = await w.emu.pushMessage({
      from: account.customer,
      message: { type: 'image', image: { id: mediaId, mime_type: 'image/png', caption: 'Вот так' } },
    });
    const [stored] = await w.db().select().from(messages).where(eq(messages.externalId, inbound.id));
    expect(stored!.attachments[0]!.url).toBe(`whatsapp-media:${mediaId}`);
    const res = await w.t.app.inject({ url: `/v1/messages/${stored!.id}/attachments/0`, headers: w.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(png)).toBe(true);
    const fetched = w.emu.calls.filter((c) => c.path.endsWith(`/${mediaId}`));
    expect(fetched).toHaveLength(2);
    expect(fetched.every((c) => c.authorization === `Bearer ${account.token}`)).toBe(true);
  });

  it('waits out a rate limit, then delivers', async () => {
    const account = await w.connectNumber();
    await w.emu.pushMessage({ from: account.customer, text: 'Hello?' });
    const chat = (await w.chatOf(account.id, account.customer))!;
    const messageId = await w.writeFromInbox(chat.id, 'One moment');
    w.emu.failNext(GRAPH_ERRORS.pairRateLimit);
    await w.drain();
    const [row] = await w.db().select().from(outbox).where(eq(outbox.messageId, messageId));
    expect(row).toMatchObject({
      state: 'pending',
      lastError: expect.stringContaining('pair rate limit hit'),
    });
    expect(row!.runAt.getTime()).toBe(w.clock + 6_000);
    expect((await w.messageRow(messageId)).delivery).toBe('queued');
    await w.drain(6_000);
    expect(await w.messageRow(messageId)).toMatchObject({ delivery: 'sent' });
  });

  it('outside the 24-hour window the reply fails with Meta’s text; the account stays fine', async () => {
    const account = await w.connectNumber();
    await w.emu.pushMessage({ from: account.customer, text: 'Hi' });
    const chat = (await w.chatOf(account.id, account.customer))!;
    w.emu.advance(24 * 60 * 60 * 1000 + 60_000);
    const messageId = await w.writeFromInbox(chat.id, 'Sorry for the wait');
    await w.drain();
    expect(await w.messageRow(messageId)).toMatchObject({
      delivery: 'failed',
      deliveryError: expect.stringContaining('(#131047) Re-engagement message'),
    });
    const [row] = await w.db().select().from(objects).where(eq(objects.id, account.id));
    expect(row!.error).toBeNull();
  });

  it('a revoked token fails the reply and flags the account; after reconnecting, retry delivers', async () => {
    const account = await w.connectNumber();
    await w.emu.pushMessage({ from: account.customer, text: 'Hi' });
    const chat = (await w.chatOf(account.id, account.customer))!;
    w.emu.revokeToken(account.token);
    const messageId = await w.writeFromInbox(chat.id, 'Hello!');
    await w.drain();
    expect(await w.messageRow(messageId)).toMatchObject({
      delivery: 'failed',
      deliveryError: GRAPH_ERRORS.expiredToken.message,
    });
    expect(await w.listedError(account.id)).toMatchObject({ error: GRAPH_ERRORS.expiredToken.message });

    w.emu.addToken('EAAG-renewed');
    const reconnect = await w.api('POST', `/v1/objects/${account.id}/reconnect`, {
      credentials: { phone_number_id: PHONE_ID, access_token: 'EAAG-renewed', app_secret: APP_SECRET },
    });
    expect(reconnect.error).toBeNull();
    await w.api('POST', `/v1/messages/${messageId}/retry`);
    await w.drain();
    expect(await w.messageRow(messageId)).toMatchObject({ delivery: 'sent' });
    expect(w.emu.sent().at(-1)!.authorization).toBe('Bearer EAAG-renewed');
  });
});
