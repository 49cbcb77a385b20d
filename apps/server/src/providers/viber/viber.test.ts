import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectKeptFile } from '../../../test/cdn';
import { ViberTestbed } from '../../../test/providers/viber';
import { objects } from '../../db/schema';
import { EVENT_TYPES, parseViberJson } from './client';

// Viber bot connector against its emulator over real HTTP (issue #5 item 7, PROVIDERS.md §7b):
// connecting (set_webhook and its check call), signed callbacks, dedupe. Sending: viber-send.test.ts.

const w = new ViberTestbed();
beforeAll(() => w.start());
afterAll(() => w.close());

describe('connecting a bot', () => {
  it('checks the token, sets the webhook (which Viber calls at once), and removes it on disconnect', async () => {
    const bot = await w.connectBot();
    expect(bot.row).toMatchObject({ provider: 'viber', name: 'Otklik Shop', updatesMode: 'webhook' });
    const setCall = w.emu.calls.find((c) => c.method === 'set_webhook' && c.token === bot.token);
    expect(setCall!.body).toEqual({
      url: `${w.t.deps.config.appUrl}/v1/webhooks/viber/${bot.id}`,
      event_types: EVENT_TYPES,
      send_name: true,
      send_photo: true,
    });
    expect(w.emu.webhookOf(bot.token)).toBe(setCall!.body.url);

    const removed = await w.t.app.inject({
      method: 'DELETE',
      url: `/v1/objects/${bot.id}`,
      headers: w.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(w.emu.calls.at(-1)).toMatchObject({ method: 'set_webhook', token: bot.token, body: { url: '' } });
    expect(w.emu.webhookOf(bot.token)).toBe('');
  });

  it("refuses a bad token with Viber's status text and stores nothing", async () => {
    const before = await w.db().select().from(objects).where(eq(objects.spaceId, w.spaceId));
    const res = await w.connect({ auth_token: 'not-a-token' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('invalidAuthToken');
    expect(await w.db().select().from(objects).where(eq(objects.spaceId, w.spaceId))).toHaveLength(
      before.length,
    );
  });
});

describe('callbacks', () => {
  it('rejects a bad signature (403, nothing stored) and stores a redelivered message once', async () => {
    const bot = await w.connectBot();
    const forged = {
      event: 'message',
      timestamp: Date.now(),
      message_token: 1,
      sender: { id: bot.user, name: 'X' },
      message: { type: 'text', text: 'forged' },
    };
    expect((await w.emu.push(bot.token, forged, { signature: 'ab'.repeat(32) })).status).toBe(403);
    expect((await w.emu.push('another-bots-token', forged, { url: w.emu.webhookOf(bot.token) })).status).toBe(
      403,
    );
    expect(await w.chatOf(bot.id, bot.user)).toBeUndefined();

    const first = await w.emu.pushMessage(bot.token, {
      userId: bot.user,
      name: 'Иван',
      text: 'Здравствуйте!',
    });
    expect(first.status).toBe(200);
    const again = await w.emu.pushMessage(bot.token, {
      userId: bot.user,
      name: 'Иван',
      text: 'Здравствуйте!',
      token: BigInt(first.token),
    });
    expect(again.status).toBe(200);
    const chat = (await w.chatOf(bot.id, bot.user))!;
    const stored = await w.messagesOf(chat.id);
    // The 64-bit token survives exactly (a JS number would round it).
    expect(stored.map((m) => [m.externalId, m.text])).toEqual([[first.token, 'Здравствуйте!']]);
  });

  it('maps pictures and files; delivery statuses and subscriptions are acknowledged', async () => {
    const bot = await w.connectBot();
    await w.emu.pushMessage(bot.token, {
      userId: bot.user,
      message: { type: 'picture', text: 'Вот чек', media: 'https://dl-media.viber.com/p.jpg' },
    });
    await w.emu.pushMessage(bot.token, {
      userId: bot.user,
      message: {
        type: 'file',
        media: 'https://dl-media.viber.com/f.pdf',
        file_name: 'invoice.pdf',
        size: 1024,
      },
    });
    const chat = (await w.chatOf(bot.id, bot.user))!;
    const stored = await w.messagesOf(chat.id);
    expect(stored.map((m) => [m.text, m.attachments])).toEqual([
      ['Вот чек', [{ type: 'image', url: 'https://dl-media.viber.com/p.jpg' }]],
      ['', [{ type: 'document', url: 'https://dl-media.viber.com/f.pdf', name: 'invoice.pdf', size: 1024 }]],
    ]);
    expect((await w.emu.pushStatus(bot.token, 'seen', bot.user, '5741311803571721999')).status).toBe(200);
    expect(
      (await w.emu.push(bot.token, { event: 'subscribed', timestamp: Date.now(), user: { id: bot.user } }))
        .status,
    ).toBe(200);
  });

  it("keeps the pictures and files a customer sends from Viber's CDN, whose links expire", async () => {
    const bot = await w.connectBot();
    const photo = Buffer.from(`jpeg for ${bot.token}`);
    const pdf = Buffer.from(`%PDF for ${bot.token}`);
    const links = [
      `https://dl-media.viber.com/${bot.id}/p.jpg`,
      `https://dl-media.viber.com/${bot.id}/f.pdf`,
    ];
    w.cdn.route('dl-media.viber.com', `/${bot.id}/p.jpg`, photo, 'image/jpeg');
    w.cdn.route('dl-media.viber.com', `/${bot.id}/f.pdf`, pdf, 'application/pdf');
    await w.emu.pushMessage(bot.token, {
      userId: bot.user,
      message: { type: 'picture', text: 'Вот чек', media: links[0] },
    });
    await w.emu.pushMessage(bot.token, {
      userId: bot.user,
      message: { type: 'file', media: links[1], file_name: 'invoice.pdf', size: pdf.length },
    });
    const chat = (await w.chatOf(bot.id, bot.user))!;
    const [picture, file] = await w.messagesOf(chat.id);
    for (const [message, link, body] of [
      [picture!, links[0]!, photo],
      [file!, links[1]!, pdf],
    ] as const)
      await expectKeptFile(w.t, {
        cdn: w.cdn,
        headers: w.headers,
        route: `/v1/messages/${message.id}/attachments/0`,
        link,
        body,
      });
  });

  it('keeps 64-bit integers exact and leaves the rest of the JSON alone', () => {
    expect(
      parseViberJson(
        '{"message_token":5741311803571721087,"n":-12,"f":1.5e3,"s":"99999999999999999 \\"x\\""}',
      ),
    ).toEqual({
      message_token: '5741311803571721087',
      n: -12,
      f: 1500,
      s: '99999999999999999 "x"',
    });
  });
});
