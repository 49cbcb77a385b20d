import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  connectBot,
  customer,
  discussionGroup,
  newBot,
  privateChat,
  TelegramWorld,
  until,
} from '../../../test/providers/telegram';
import { hooked } from '../../../test/providers/testbed';
import { chats, items, messages } from '../../db/schema';
import { ALLOWED_UPDATES } from './types';

// Telegram end to end against the emulator (issue #5 item 7): connect with getMe, the webhook with its
// secret header, private messages, channel comments with threads, edits, reactions, attachments, and
// redelivery. Outbound calls, failures and polling: telegram-outbound.test.ts.

const w = hooked(new TelegramWorld());

const get = async (url: string) => (await w.t.app.inject({ url, headers: w.headers })).json();

async function chatOf(objectId: number) {
  const [chat] = await w.t.deps.database.db.select().from(chats).where(eq(chats.objectId, objectId));
  return chat;
}

describe('connecting a bot', () => {
  it('checks the token with getMe and subscribes the webhook with the account secret', async () => {
    const bot = newBot(w.tg);
    const { account, row, secret } = await connectBot(w, bot.token);
    expect(account.name).toBe('Shop Bot');
    expect(row).toMatchObject({
      externalId: String(bot.id),
      screenName: `shop${bot.id}_bot`,
      updatesMode: 'webhook',
    });
    const set = w.tg.callsOf('setWebhook').find((c) => c.token === bot.token)!;
    expect(set.params).toEqual({
      url: `${w.t.deps.config.appUrl}/v1/webhooks/telegram/${account.id}`,
      secret_token: secret,
      allowed_updates: ALLOWED_UPDATES,
    });
    expect(set.params.allowed_updates).toContain('message_reaction');
    expect(w.tg.bot(bot.token).webhook).toEqual({ url: set.params.url, secret });
  });

  it("answers a wrong token with Telegram's text and stores nothing", async () => {
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/v1/objects',
      headers: w.headers,
      payload: { provider: 'telegram', credentials: { bot_token: '123:wrong' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('Unauthorized');
    expect(w.tg.callsOf('setWebhook').filter((c) => c.token === '123:wrong')).toEqual([]);
  });
});

describe('webhooks', () => {
  it('rejects a call without the secret header (403, nothing stored) and stores a redelivered update once', async () => {
    const bot = newBot(w.tg);
    const { account } = await connectBot(w, bot.token);
    const anna = customer();
    const message = w.tg.customerMessage(bot.token, {
      chat: privateChat(anna),
      from: anna,
      text: 'Where is my order?',
    });
    const body = JSON.stringify({ update_id: 42, message });
    const url = `${w.t.deps.config.appUrl}/v1/webhooks/telegram/${account.id}`;
    for (const secret of [undefined, 'not-the-secret']) {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(secret ? { 'x-telegram-bot-api-secret-token': secret } : {}),
        },
        body,
      });
      expect(res.status).toBe(403);
    }
    expect(await chatOf(account.id)).toBeUndefined();

    for (let i = 0; i < 2; i++) {
      const pushed = await w.tg.deliver(bot.token, { update_id: 42, message });
      expect(pushed.status).toBe(200);
    }
    const chat = (await chatOf(account.id))!;
    const stored = await w.t.deps.database.db.select().from(messages).where(eq(messages.chatId, chat.id));
    expect(stored.map((m) => [m.externalId, m.text])).toEqual([
      [`${anna.id}:${message.message_id}`, 'Where is my order?'],
    ]);
  });
});

describe('inbound', () => {
  it('a private message reaches GET /v1/chats; edits, reactions and a photo follow', async () => {
    const bot = newBot(w.tg);
    const { account } = await connectBot(w, bot.token);
    const anna = customer();
    const chatRef = privateChat(anna);
    const first = w.tg.customerMessage(bot.token, { chat: chatRef, from: anna, text: 'Hello' });
    await w.tg.deliver(bot.token, { message: first });
    const list = await get(`/v1/chats?object_id=${account.id}`);
    expect(list.items).toHaveLength(1);
    expect(list.items[0].author).toMatchObject({
      external_id: String(anna.id),
      name: 'Anna K',
      screen_name: anna.username,
    });

    await w.tg.deliver(bot.token, {
      edited_message: { ...first, text: 'Hello, order #55?', edit_date: first.date + 60 },
    });
    await w.tg.deliver(bot.token, {
      message_reaction: {
        chat: chatRef,
        message_id: first.message_id,
        user: anna,
        date: first.date,
        old_reaction: [],
        new_reaction: [{ type: 'emoji', emoji: '👍' }],
      },
    });
    const photo = w.tg.customerMessage(bot.token, {
      chat: chatRef,
      from: anna,
      caption: 'Broken on arrival',
      photo: [
        { file_id: 'AgAC-small', file_unique_id: 's', width: 90, height: 67, file_size: 1200 },
        { file_id: 'AgAC-big', file_unique_id: 'b', width: 1280, height: 960, file_size: 98000 },
      ],
    });
    await w.tg.deliver(bot.token, { message: photo });
    const page = await get(`/v1/chats/${list.items[0].id}/messages`);
    expect(page.items.map((m: { text: string }) => m.text)).toEqual([
      'Hello, order #55?',
      'Broken on arrival',
    ]);
    expect(page.items[0].reactions).toEqual([{ value: '👍', count: 1 }]);
    expect(page.items[1].attachments).toEqual([
      { type: 'image', url: 'tg-file:AgAC-big', size: 98000, width: 1280, height: 960 },
    ]);
  });

  it('comments in the discussion group become items under the channel post, threaded, with edits and reactions', async () => {
    const bot = newBot(w.tg);
    const { account } = await connectBot(w, bot.token);
    const { group, channel } = discussionGroup();
    // The channel post, forwarded automatically into the discussion group (PROVIDERS §1).
    const forward = w.tg.customerMessage(bot.token, {
      chat: group,
      sender_chat: channel,
      is_automatic_forward: true,
      forward_origin: { type: 'channel', chat: channel, message_id: 77, date: 1_735_680_000 },
      text: 'Sale today',
    });
    await w.tg.deliver(bot.token, {
      channel_post: { message_id: 77, chat: channel, date: 1_735_680_000, text: 'Sale today' },
    });
    await w.tg.deliver(bot.token, { message: forward });
    const anna = customer();
    const boris = customer();
    const comment = w.tg.customerMessage(bot.token, {
      chat: group,
      from: anna,
      message_thread_id: forward.message_id,
      reply_to_message: forward,
      text: 'Is delivery free?',
    });
    const answer = w.tg.customerMessage(bot.token, {
      chat: group,
      from: boris,
      message_thread_id: forward.message_id,
      reply_to_message: comment,
      text: 'Yes, over 50',
    });
    await w.tg.deliver(bot.token, { message: comment });
    await w.tg.deliver(bot.token, { message: answer });

    const list = await get(`/v1/items?object_id=${account.id}`);
    expect(list.items.map((i: { text: string }) => i.text).sort()).toEqual([
      'Is delivery free?',
      'Yes, over 50',
    ]);
    const reply = list.items.find((i: { text: string }) => i.text === 'Yes, over 50');
    const detail = await get(`/v1/items/${reply.id}`);
    expect(detail.post).toMatchObject({
      external_id: `${group.id}:${forward.message_id}`,
      text: 'Sale today',
      url: `https://t.me/${channel.username}/77`,
    });
    expect(detail.parent).toMatchObject({
      text: 'Is delivery free?',
      external_id: `${group.id}:${comment.message_id}`,
    });

    await w.tg.deliver(bot.token, {
      edited_message: { ...comment, text: 'Is delivery free to Kazan?', edit_date: comment.date + 5 },
    });
    await w.tg.deliver(bot.token, {
      message_reaction_count: {
        chat: group,
        message_id: comment.message_id,
        date: comment.date,
        reactions: [{ type: { type: 'emoji', emoji: '🔥' }, total_count: 3 }],
      },
    });
    const [edited] = await w.t.deps.database.db
      .select()
      .from(items)
      .where(eq(items.externalId, `${group.id}:${comment.message_id}`));
    expect(edited).toMatchObject({
      text: 'Is delivery free to Kazan?',
      reactions: [{ value: '🔥', count: 3 }],
    });
    expect(edited!.editedAt).not.toBeNull();
  });

  it('stores documents, voices and stickers as file refs with their size', async () => {
    const bot = newBot(w.tg);
    const { account } = await connectBot(w, bot.token);
    const anna = customer();
    const chatRef = privateChat(anna);
    for (const media of [
      {
        document: {
          file_id: 'BQAC-doc',
          file_unique_id: 'd',
          file_name: 'invoice.pdf',
          mime_type: 'application/pdf',
          file_size: 52_000,
        },
      },
      {
        voice: {
          file_id: 'AwAC-voice',
          file_unique_id: 'v',
          mime_type: 'audio/ogg',
          file_size: 9_000,
          duration: 3,
        },
      },
      {
        sticker: {
          file_id: 'CAAC-sticker',
          file_unique_id: 'k',
          width: 512,
          height: 512,
          file_size: 20_000,
          emoji: '😀',
        },
      },
    ])
      await w.tg.deliver(bot.token, {
        message: w.tg.customerMessage(bot.token, { chat: chatRef, from: anna, ...media }),
      });
    const chat = await until(() => chatOf(account.id));
    const stored = await w.t.deps.database.db
      .select()
      .from(messages)
      .where(eq(messages.chatId, chat.id))
      .orderBy(asc(messages.id));
    expect(stored.flatMap((m) => m.attachments)).toEqual([
      {
        type: 'document',
        url: 'tg-file:BQAC-doc',
        name: 'invoice.pdf',
        mime: 'application/pdf',
        size: 52_000,
      },
      { type: 'voice', url: 'tg-file:AwAC-voice', mime: 'audio/ogg', size: 9_000 },
      { type: 'sticker', url: 'tg-file:CAAC-sticker', size: 20_000, width: 512, height: 512 },
    ]);
  });
});
