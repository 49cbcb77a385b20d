import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  connectBot,
  customer,
  discussionGroup,
  newBot,
  privateChat,
  startTelegramWorld,
  TelegramWorld,
  until,
  workerOf,
} from '../../../test/providers/telegram';
import { hooked } from '../../../test/providers/testbed';
import { items, messages, objects, outbox } from '../../db/schema';
import { PollingManager } from '../../jobs/pollers';
import type { TgUser } from './types';

// What leaves the inbox for Telegram (issue #5 item 7): replies and messages reach the emulator with the
// right method and fields, 429 waits retry_after, a revoked token fails visibly and a retry after
// reconnecting delivers; moderation (48 h delete window, reactions, edits, bans); polling with offsets.

const w = hooked(new TelegramWorld());

/** A connected bot with one customer chat in the inbox. */
async function withChat() {
  const bot = newBot(w.tg);
  const { account } = await connectBot(w, bot.token);
  const anna = customer();
  await w.tg.deliver(bot.token, {
    message: w.tg.customerMessage(bot.token, { chat: privateChat(anna), from: anna, text: 'Hi' }),
  });
  const chat = (await w.api('GET', `/v1/chats?object_id=${account.id}`)).items[0];
  return { bot, account, anna, chatId: chat.id as number };
}

/** A connected bot with one comment under a channel post in its discussion group. */
async function withComment(author: TgUser = customer()) {
  const bot = newBot(w.tg);
  const { account } = await connectBot(w, bot.token);
  const { group, channel } = discussionGroup();
  const forward = w.tg.customerMessage(bot.token, {
    chat: group,
    sender_chat: channel,
    is_automatic_forward: true,
    text: 'New collection',
  });
  const comment = w.tg.customerMessage(bot.token, {
    chat: group,
    from: author,
    message_thread_id: forward.message_id,
    reply_to_message: forward,
    text: 'Price?',
  });
  await w.tg.deliver(bot.token, { message: comment });
  const item = (await w.api('GET', `/v1/items?object_id=${account.id}`)).items[0];
  return { bot, account, group, comment, author, item };
}

describe('replies', () => {
  it('a chat message goes out with sendMessage and keeps the id Telegram gave it', async () => {
    const { bot, anna, chatId } = await withChat();
    const sent = await w.api('POST', `/v1/chats/${chatId}/messages`, { text: 'Your order ships today' });
    await workerOf(w).run();
    const call = w.tg.callsOf('sendMessage').find((c) => c.token === bot.token)!;
    expect(call.params).toEqual({ chat_id: String(anna.id), text: 'Your order ships today' });
    const [row] = await w.db().select().from(messages).where(eq(messages.id, sent.message.id));
    expect(row).toMatchObject({
      delivery: 'sent',
      externalId: expect.stringMatching(new RegExp(`^${anna.id}:\\d+$`)),
    });
  });

  it('a reply to a comment is threaded with reply_parameters in the discussion group', async () => {
    const { bot, group, comment, item } = await withComment();
    const res = await w.api('POST', `/v1/items/${item.id}/reply`, { text: '1990 ₽' });
    await workerOf(w).run();
    const call = w.tg.callsOf('sendMessage').find((c) => c.token === bot.token)!;
    expect(call.params).toEqual({
      chat_id: String(group.id),
      text: '1990 ₽',
      reply_parameters: { message_id: comment.message_id },
    });
    const [reply] = await w.db().select().from(items).where(eq(items.id, res.reply.id));
    expect(reply).toMatchObject({
      delivery: 'sent',
      externalId: expect.stringMatching(new RegExp(`^${group.id}:\\d+$`)),
    });
  });

  it('a 429 waits retry_after seconds, then delivers', async () => {
    const { bot, chatId } = await withChat();
    const sent = await w.api('POST', `/v1/chats/${chatId}/messages`, { text: 'Soon' });
    w.tg.failNext('sendMessage', 429, 'Too Many Requests: retry after 7', { retry_after: 7 });
    const worker = workerOf(w);
    await worker.run();
    const [row] = await w.db().select().from(outbox).where(eq(outbox.messageId, sent.message.id));
    expect(row).toMatchObject({ state: 'pending', lastError: 'Too Many Requests: retry after 7' });
    expect(row!.runAt.getTime() - worker.clock.ms).toBe(7_000);
    await worker.run(1_000); // not due yet
    expect(w.tg.callsOf('sendMessage').filter((c) => c.token === bot.token)).toHaveLength(1);
    await worker.run(7_000);
    expect(w.tg.callsOf('sendMessage').filter((c) => c.token === bot.token)).toHaveLength(2);
    const [msg] = await w.db().select().from(messages).where(eq(messages.id, sent.message.id));
    expect(msg!.delivery).toBe('sent');
  });

  it('a revoked token fails the message with the network text, flags the account; retry after reconnect delivers', async () => {
    const { bot, account, chatId } = await withChat();
    w.tg.revoke(bot.token);
    const sent = await w.api('POST', `/v1/chats/${chatId}/messages`, { text: 'Hello again' });
    await workerOf(w).run();
    const [failed] = await w.db().select().from(messages).where(eq(messages.id, sent.message.id));
    expect(failed).toMatchObject({ delivery: 'failed', deliveryError: 'Unauthorized' });
    const errors = await w.api('GET', '/v1/errors');
    expect(errors.items).toContainEqual(expect.objectContaining({ id: account.id, error: 'Unauthorized' }));

    const fresh = w.tg.reissue(bot.token);
    const reconnected = await w.api('POST', `/v1/objects/${account.id}/reconnect`, {
      credentials: { bot_token: fresh },
    });
    expect(reconnected.error).toBeNull();
    expect(w.tg.callsOf('setWebhook').some((c) => c.token === fresh)).toBe(true);
    await w.api('POST', `/v1/messages/${sent.message.id}/retry`);
    await workerOf(w).run();
    expect(w.tg.callsOf('sendMessage').filter((c) => c.token === fresh)).toHaveLength(1);
    const [row] = await w.db().select().from(messages).where(eq(messages.id, sent.message.id));
    expect(row!.delivery).toBe('sent');
  });

  it("'Direct' to a commenter who never started the bot fails with Telegram's 403 text, the account stays healthy", async () => {
    const { account, item, author } = await withComment();
    const res = await w.api('POST', `/v1/items/${item.id}/direct`, { text: 'Write to us in private' });
    await workerOf(w).run();
    const [row] = await w.db().select().from(messages).where(eq(messages.id, res.message.id));
    expect(row).toMatchObject({
      delivery: 'failed',
      deliveryError: "Forbidden: bot can't initiate conversation with a user",
    });
    expect(w.tg.callsOf('sendMessage').at(-1)!.params.chat_id).toBe(author.id);
    const [object] = await w.db().select().from(objects).where(eq(objects.id, account.id));
    expect(object!.error).toBeNull();
  });
});

describe('moderation', () => {
  it('deletes with deleteMessage; after 48 h the network refuses and the delete is undone with its text', async () => {
    const { bot, group, comment, item } = await withComment();
    await w.api('POST', `/v1/items/${item.id}/delete`);
    await workerOf(w).run();
    expect(w.tg.callsOf('deleteMessage').at(-1)!.params).toEqual({
      chat_id: String(group.id),
      message_id: comment.message_id,
    });
    expect(w.tg.bot(bot.token).messages.has(`${group.id}:${comment.message_id}`)).toBe(false);

    const old = await withComment();
    w.tg.advance(49 * 3600_000);
    try {
      await w.api('POST', `/v1/items/${old.item.id}/delete`);
      await workerOf(w).run();
    } finally {
      w.tg.advance(-49 * 3600_000);
    }
    const [row] = await w.db().select().from(items).where(eq(items.id, old.item.id));
    expect(row).toMatchObject({ isDeleted: false, deliveryError: "Bad Request: message can't be deleted" });
  });

  it('reacts with setMessageReaction, edits our reply with editMessageText, bans with banChatMember', async () => {
    const { bot, group, comment, item, author } = await withComment();
    await w.api('POST', `/v1/items/${item.id}/react`, { value: '🔥' });
    const reply = await w.api('POST', `/v1/items/${item.id}/reply`, { text: 'Thanks!' });
    const worker = workerOf(w);
    await worker.run();
    expect(w.tg.callsOf('setMessageReaction').at(-1)!.params).toEqual({
      chat_id: String(group.id),
      message_id: comment.message_id,
      reaction: [{ type: 'emoji', emoji: '🔥' }],
    });
    await w.api('PUT', `/v1/items/${reply.reply.id}`, { text: 'Thanks a lot!' });
    await worker.run();
    const [sentReply] = await w.db().select().from(items).where(eq(items.id, reply.reply.id));
    const messageId = Number(sentReply!.externalId!.split(':')[1]);
    expect(w.tg.callsOf('editMessageText').at(-1)!.params).toEqual({
      chat_id: String(group.id),
      message_id: messageId,
      text: 'Thanks a lot!',
    });
    expect(sentReply!.deliveryError).toBeNull();

    const before = Date.now();
    await w.api('POST', `/v1/authors/${item.author.id}/block`, { duration: 'week' });
    await worker.run();
    const ban = w.tg.callsOf('banChatMember').at(-1)!.params;
    expect(ban).toMatchObject({ chat_id: String(group.id), user_id: author.id });
    expect(Number(ban.until_date)).toBeGreaterThanOrEqual(Math.floor(before / 1000) + 604_800);
    expect(w.tg.bot(bot.token).bans.has(`${group.id}:${author.id}`)).toBe(true);
  });
});

describe('polling', () => {
  it('deletes the webhook, long-polls getUpdates and confirms with offset = last update_id + 1', async () => {
    const p = await startTelegramWorld({ PROVIDER_UPDATES: 'polling', POLL_TIMEOUT_S: '1' });
    const bot = newBot(p.tg);
    const { account, row } = await connectBot(p, bot.token);
    const manager = new PollingManager({ ...p.t.deps, db: p.t.deps.database.db }, `tg-${Date.now()}`, {
      spaceIds: [row.spaceId],
    });
    try {
      expect(row.updatesMode).toBe('polling');
      expect(p.tg.callsOf('deleteWebhook').some((c) => c.token === bot.token)).toBe(true);
      const anna = customer();
      const message = p.tg.customerMessage(bot.token, {
        chat: privateChat(anna),
        from: anna,
        text: 'Polled hello',
      });
      const queued = await p.tg.deliver(bot.token, { message });
      await p.tg.deliver(bot.token, { update_id: queued.update!.update_id, message }); // redelivered
      await manager.scan();
      const cursor = String(queued.update!.update_id + 1);
      const object = await until(async () => {
        const [o] = await p.t.deps.database.db.select().from(objects).where(eq(objects.id, account.id));
        return o?.pollCursor === cursor ? o : null;
      });
      expect(object.pollCursor).toBe(cursor);
      const chats = (
        await p.t.app.inject({ url: `/v1/chats?object_id=${account.id}`, headers: p.headers })
      ).json();
      expect(chats.items.map((c: { last_message: string }) => c.last_message)).toEqual(['Polled hello']);
      await until(async () =>
        p.tg.callsOf('getUpdates').some((c) => c.token === bot.token && c.params.offset === Number(cursor)),
      );
      expect(p.tg.bot(bot.token).pending).toEqual([]);
      const first = p.tg.callsOf('getUpdates').find((c) => c.token === bot.token)!;
      expect(first.params).toMatchObject({
        timeout: 1,
        allowed_updates: expect.arrayContaining(['message_reaction']),
      });
    } finally {
      await manager.stop();
      await p.close();
    }
  });

  it('a button press that arrives by getUpdates is answered (answerCallbackQuery) and stored as the customer’s choice', async () => {
    const p = await startTelegramWorld({ PROVIDER_UPDATES: 'polling', POLL_TIMEOUT_S: '1' });
    const bot = newBot(p.tg);
    const { account, row } = await connectBot(p, bot.token);
    const manager = new PollingManager({ ...p.t.deps, db: p.t.deps.database.db }, `tg-cb-${Date.now()}`, {
      spaceIds: [row.spaceId],
    });
    try {
      const anna = customer();
      const asked = p.tg.customerMessage(bot.token, { chat: privateChat(anna), from: anna, text: 'Оцените' });
      await p.tg.deliver(bot.token, { message: asked });
      await p.tg.deliver(bot.token, {
        callback_query: { id: 'cq-polled-1', from: anna, message: asked, data: '5' },
      });
      await manager.scan();
      await until(async () =>
        p.tg.callsOf('answerCallbackQuery').some((c) => c.params.callback_query_id === 'cq-polled-1'),
      );
      const answered = p.tg.callsOf('answerCallbackQuery').filter((c) => c.token === bot.token);
      expect(answered.map((c) => c.params.callback_query_id)).toEqual(['cq-polled-1']);
      const texts = await until(async () => {
        const res = await p.t.app.inject({ url: `/v1/chats?object_id=${account.id}`, headers: p.headers });
        const chat = res.json().items[0] as { id: number } | undefined;
        if (!chat) return null;
        const list = await p.t.app.inject({ url: `/v1/chats/${chat.id}/messages`, headers: p.headers });
        const got = (list.json().items as Array<{ text: string }>).map((m) => m.text);
        return got.length >= 2 ? got : null;
      });
      expect(texts).toEqual(expect.arrayContaining(['Оцените', '5']));
    } finally {
      await manager.stop();
      await p.close();
    }
  });
});
