import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_SECRET, PHONE_ID, WhatsAppTestbed } from '../../../test/providers/whatsapp';
import { objects } from '../../db/schema';
import { connectorContext } from '../context';
import { whatsappConnector } from './connector';

// WhatsApp Cloud API connector against its emulator over real HTTP (issue #5 item 7): connecting and
// webhooks (PROVIDERS.md §3). Sending from the inbox is in whatsapp-send.test.ts.

const w = new WhatsAppTestbed();
beforeAll(() => w.start());
afterAll(() => w.close());

describe('connecting a number', () => {
  it('checks the number and token with Graph, and refuses a bad token with Meta’s text', async () => {
    const { id, token } = await w.connectNumber();
    const [row] = await w.db().select().from(objects).where(eq(objects.id, id));
    expect(row).toMatchObject({ provider: 'whatsapp', name: 'Otklik Shop', externalId: PHONE_ID });
    const check = w.emu.calls.find((c) => c.method === 'GET' && c.authorization === `Bearer ${token}`);
    expect(check).toMatchObject({
      path: `/${w.t.deps.config.WHATSAPP_API_VERSION}/${PHONE_ID}`,
      query: { fields: 'display_phone_number,verified_name' },
    });

    const before = await w.db().select().from(objects).where(eq(objects.spaceId, w.spaceId));
    const bad = await w.t.app.inject({
      method: 'POST',
      url: '/v1/objects',
      headers: w.headers,
      payload: {
        provider: 'whatsapp',
        credentials: { phone_number_id: PHONE_ID, access_token: 'EAAG-wrong', app_secret: APP_SECRET },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('Error validating access token');
    expect(await w.db().select().from(objects).where(eq(objects.spaceId, w.spaceId))).toHaveLength(
      before.length,
    );
  });

  it('gives the administrator the callback URL and verify token for Meta’s dashboard', async () => {
    const account = await w.connectNumber();
    const ctx = connectorContext({ ...w.t.deps, db: w.db() }, account.row);
    const expected = {
      webhook_url: `${w.t.deps.config.appUrl}/v1/webhooks/whatsapp/${account.id}`,
      verify_token: account.verifyToken,
    };
    expect(whatsappConnector.setupInstructions(ctx)).toEqual(expected);
    // Shown in the connect answer, and later on the account's settings for its administrators.
    expect(account.setup).toEqual(expected);
    const later = await w.t.app.inject({ url: `/v1/objects/${account.id}/setup`, headers: w.headers });
    expect(later.statusCode, later.body).toBe(200);
    expect(later.json()).toEqual({ instructions: expected });
  });
});

describe('webhooks', () => {
  it('answers the hub.challenge handshake only with the right verify token', async () => {
    const account = await w.connectNumber();
    const wrong = await w.emu.subscribe(account.callback, 'not-the-token');
    expect(wrong).toMatchObject({ status: 403, verified: false });
    const right = await w.emu.subscribe(account.callback, account.verifyToken);
    expect(right).toMatchObject({ status: 200, verified: true });
  });

  it('rejects a bad signature (403, nothing stored) and stores a redelivered message once', async () => {
    const account = await w.connectNumber();
    const payload = {
      object: 'whatsapp_business_account',
      entry: [
        {
          changes: [
            {
              field: 'messages',
              value: {
                metadata: { phone_number_id: PHONE_ID },
                messages: [
                  {
                    from: account.customer,
                    id: 'wamid.FORGED',
                    timestamp: '1749416383',
                    type: 'text',
                    text: { body: 'Привет' },
                  },
                ],
              },
            },
          ],
        },
      ],
    };
    expect((await w.emu.push(payload, { signature: 'sha256=00' })).status).toBe(403);
    // Signed over a re-serialised body (no \uXXXX escapes): not the bytes Meta sent, so not valid.
    const reserialised = `sha256=${createHmac('sha256', APP_SECRET).update(JSON.stringify(payload)).digest('hex')}`;
    expect((await w.emu.push(payload, { signature: reserialised })).status).toBe(403);
    expect(await w.chatOf(account.id, account.customer)).toBeUndefined();

    const text = 'Привет 👋 есть синий/красный?';
    const first = await w.emu.pushMessage({ from: account.customer, name: 'Шина', text });
    expect(first.status).toBe(200);
    const again = await w.emu.pushMessage({ from: account.customer, name: 'Шина', text, id: first.id });
    expect(again.status).toBe(200);
    const chat = (await w.chatOf(account.id, account.customer))!;
    const stored = await w.messagesOf(chat.id);
    expect(stored.map((m) => [m.externalId, m.text])).toEqual([[first.id, text]]);
  });

  it('maps media, voice and reactions; statuses are accepted', async () => {
    const account = await w.connectNumber();
    const image = await w.emu.pushMessage({
      from: account.customer,
      message: { type: 'image', image: { id: 'media-1', mime_type: 'image/jpeg', caption: 'Вот фото' } },
    });
    await w.emu.pushMessage({
      from: account.customer,
      message: { type: 'audio', audio: { id: 'media-2', mime_type: 'audio/ogg', voice: true } },
    });
    await w.emu.pushMessage({
      from: account.customer,
      message: {
        type: 'document',
        document: { id: 'media-3', filename: 'check.pdf', mime_type: 'application/pdf' },
      },
    });
    await w.emu.pushMessage({
      from: account.customer,
      message: { type: 'reaction', reaction: { message_id: image.id, emoji: '❤️' } },
    });
    const chat = (await w.chatOf(account.id, account.customer))!;
    const stored = await w.messagesOf(chat.id);
    expect(stored.map((m) => [m.text, m.attachments[0]?.type])).toEqual([
      ['Вот фото', 'image'],
      ['', 'voice'],
      ['', 'document'],
    ]);
    expect(stored[2]!.attachments[0]).toMatchObject({ name: 'check.pdf', url: 'whatsapp-media:media-3' });
    expect(stored[0]!.reactions).toEqual([{ value: '❤️', count: 1, own: false }]);
    await w.emu.pushMessage({
      from: account.customer,
      message: { type: 'reaction', reaction: { message_id: image.id } },
    });
    expect((await w.messageRow(stored[0]!.id)).reactions).toEqual([]);
    expect((await w.emu.pushStatus(account.customer, 'wamid.OUT', 'delivered')).status).toBe(200);
  });
});
