import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectKeptFile } from '../../../test/cdn';
import {
  connectBot,
  dialogOf,
  groupChat,
  MaxWorld,
  newBot,
  person,
  startMaxWorld,
  until,
  workerOf,
} from '../../../test/providers/max';
import { hooked } from '../../../test/providers/testbed';
import { items, messages, objects, outbox } from '../../db/schema';
import { PollingManager } from '../../jobs/pollers';
import { UPDATE_TYPES } from './types';

// MAX end to end against the emulator (issue #5 item 7, PROVIDERS §7e).

const w = hooked(new MaxWorld());
const created = (message: unknown) =>
  ({ update_type: 'message_created', timestamp: Date.now(), message }) as const;

async function withChat() {
  const bot = newBot(w.max);
  const { account } = await connectBot(w, bot.token);
  const peter = person();
  const first = w.max.customerMessage({ sender: peter, recipient: dialogOf(peter), text: 'Добрый день' });
  await w.max.deliver(bot.token, created(first));
  const chat = (await w.api('GET', `/v1/chats?object_id=${account.id}`)).items[0];
  return { bot, account, peter, first, chatId: chat.id as number, chatExternal: chat.external_id as string };
}

async function withComment() {
  const bot = newBot(w.max);
  const { account } = await connectBot(w, bot.token);
  const group = groupChat();
  const comment = w.max.customerMessage({ sender: person(), recipient: group, text: 'Сколько стоит?' });
  await w.max.deliver(bot.token, created(comment));
  const item = (await w.api('GET', `/v1/items?object_id=${account.id}`)).items[0];
  return { bot, account, group, comment, item };
}

describe('connecting', () => {
  it('checks the token with GET /me (Authorization header) and subscribes with the secret', async () => {
    const bot = newBot(w.max);
    const { account, row, secret } = await connectBot(w, bot.token);
    expect(account.name).toBe('Shop MAX bot');
    expect(row).toMatchObject({ externalId: String(bot.id), updatesMode: 'webhook' });
    const me = w.max.callsOf('GET', '/me').find((c) => c.token === bot.token)!;
    expect(me.query).toEqual({});
    const sub = w.max.callsOf('POST', '/subscriptions').find((c) => c.token === bot.token)!;
    expect(sub.body).toEqual({
      url: `${w.t.deps.config.appUrl}/v1/webhooks/max/${account.id}`,
      update_types: UPDATE_TYPES,
      secret,
    });
  });

  it("a wrong token is refused with MAX's text", async () => {
    const res = await w.t.app.inject({
      method: 'POST',
      url: '/v1/objects',
      headers: w.headers,
      payload: { provider: 'max', credentials: { access_token: 'nope' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('Invalid access_token');
  });
});

describe('inbound', () => {
  it('rejects a webhook without the secret; a redelivered update is stored once; edit and removal follow', async () => {
    const { bot, account, peter, first, chatId, chatExternal } = await withChat();
    expect(chatExternal).toBe(String(dialogOf(peter).chat_id));
    const url = `${w.t.deps.config.appUrl}/v1/webhooks/max/${account.id}`;
    const forged = w.max.customerMessage({ sender: peter, recipient: dialogOf(peter), text: 'forged' });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-max-bot-api-secret': 'wrong' },
      body: JSON.stringify(created(forged)),
    });
    expect(res.status).toBe(403);
    expect(await w.max.deliver(bot.token, created(first))).toEqual([200]);
    await w.max.deliver(bot.token, {
      update_type: 'message_edited',
      timestamp: Date.now(),
      message: { ...first, body: { ...first.body, text: 'Добрый день! Где заказ?' } },
    });
    const second = w.max.customerMessage({ sender: peter, recipient: dialogOf(peter), text: 'Алло?' });
    await w.max.deliver(bot.token, created(second));
    await w.max.deliver(bot.token, {
      update_type: 'message_removed',
      timestamp: Date.now(),
      message_id: second.body.mid,
      chat_id: dialogOf(peter).chat_id!,
      user_id: peter.user_id,
    });
    const stored = await w
      .db()
      .select()
      .from(messages)
      .where(eq(messages.chatId, chatId))
      .orderBy(asc(messages.id));
    expect(stored.map((m) => [m.externalId, m.text, m.isDeleted])).toEqual([
      [first.body.mid, 'Добрый день! Где заказ?', false],
      [second.body.mid, 'Алло?', true],
    ]);
  });

  it('group chat messages are comments, threaded by link.reply; attachments keep their URL', async () => {
    const { bot, account, group, comment } = await withComment();
    const answer = w.max.customerMessage({
      sender: person(),
      recipient: group,
      text: 'Смотрите фото',
      link: { type: 'reply', message: { mid: comment.body.mid } },
      body: { attachments: [{ type: 'image', payload: { url: 'https://i.max.ru/p/1.jpg', token: 't1' } }] },
    });
    await w.max.deliver(bot.token, created(answer));
    await w.max.deliver(bot.token, {
      update_type: 'message_removed',
      timestamp: Date.now(),
      message_id: comment.body.mid,
      chat_id: group.chat_id!,
      user_id: 1,
    });
    const rows = await w.db().select().from(items).where(eq(items.objectId, account.id));
    const parent = rows.find((r) => r.externalId === comment.body.mid)!;
    const child = rows.find((r) => r.externalId === answer.body.mid)!;
    expect(parent).toMatchObject({ isDeleted: true, status: 'deleted' });
    expect(child).toMatchObject({
      parentId: parent.id,
      attachments: [{ type: 'image', url: 'https://i.max.ru/p/1.jpg' }],
    });
  });
});

describe('files', () => {
  it("keeps what customers send from MAX's CDN, whose links expire: in a dialog and in a group chat", async () => {
    const { bot, account, peter, chatId } = await withChat();
    const photo = Buffer.from(`jpeg for ${account.id}`);
    const picture = Buffer.from(`png for ${account.id}`);
    const links = [`https://i.max.ru/p/${account.id}/1.jpg`, `https://i.max.ru/p/${account.id}/2.png`];
    w.cdn.route('i.max.ru', `/p/${account.id}/1.jpg`, photo, 'image/jpeg');
    w.cdn.route('i.max.ru', `/p/${account.id}/2.png`, picture, 'image/png');
    const image = (url: string) => ({
      attachments: [{ type: 'image' as const, payload: { url, token: 't1' } }],
    });
    const inDialog = w.max.customerMessage({
      sender: peter,
      recipient: dialogOf(peter),
      text: '',
      body: image(links[0]!),
    });
    await w.max.deliver(bot.token, created(inDialog));
    const [message] = await w.db().select().from(messages).where(eq(messages.externalId, inDialog.body.mid));
    expect(message).toMatchObject({ chatId, attachments: [{ type: 'image', url: links[0] }] });
    await expectKeptFile(w.t, {
      cdn: w.cdn,
      headers: w.headers,
      route: `/v1/messages/${message!.id}/attachments/0`,
      link: links[0]!,
      body: photo,
    });

    const inGroup = w.max.customerMessage({
      sender: person(),
      recipient: groupChat(),
      text: '',
      body: image(links[1]!),
    });
    await w.max.deliver(bot.token, created(inGroup));
    const [item] = await w.db().select().from(items).where(eq(items.externalId, inGroup.body.mid));
    expect(item).toMatchObject({ objectId: account.id, attachments: [{ type: 'image', url: links[1] }] });
    await expectKeptFile(w.t, {
      cdn: w.cdn,
      headers: w.headers,
      route: `/v1/items/${item!.id}/attachments/0`,
      link: links[1]!,
      body: picture,
    });
  });
});

describe('outbound', () => {
  it('a chat message is POST /messages?chat_id=; a comment reply quotes it with link reply', async () => {
    const { bot, chatId, chatExternal } = await withChat();
    const sent = await w.api('POST', `/v1/chats/${chatId}/messages`, { text: 'Заказ в пути' });
    await workerOf(w).run();
    const call = w.max.callsOf('POST', '/messages').find((c) => c.token === bot.token)!;
    expect(call.query).toEqual({ chat_id: chatExternal });
    expect(call.body).toEqual({ text: 'Заказ в пути' });
    const [row] = await w.db().select().from(messages).where(eq(messages.id, sent.message.id));
    expect(row).toMatchObject({ delivery: 'sent', externalId: expect.stringMatching(/^mid\./) });

    const c = await withComment();
    const reply = await w.api('POST', `/v1/items/${c.item.id}/reply`, { text: '1990 ₽' });
    await workerOf(w).run();
    const replyCall = w.max.callsOf('POST', '/messages').find((x) => x.token === c.bot.token)!;
    expect(replyCall.query).toEqual({ chat_id: String(c.group.chat_id) });
    expect(replyCall.body).toEqual({ text: '1990 ₽', link: { type: 'reply', mid: c.comment.body.mid } });

    await w.api('PUT', `/v1/items/${reply.reply.id}`, { text: '1890 ₽' });
    await w.api('POST', `/v1/items/${c.item.id}/delete`);
    await workerOf(w).run();
    const [ours] = await w.db().select().from(items).where(eq(items.id, reply.reply.id));
    expect(w.max.callsOf('PUT', '/messages').at(-1)).toMatchObject({
      query: { message_id: ours!.externalId },
      body: { text: '1890 ₽' },
    });
    expect(w.max.callsOf('DELETE', '/messages').at(-1)!.query).toEqual({ message_id: c.comment.body.mid });
    expect(w.max.messages.has(c.comment.body.mid)).toBe(false);
  });

  it('a 429 waits and then delivers', async () => {
    const { bot, chatId } = await withChat();
    const sent = await w.api('POST', `/v1/chats/${chatId}/messages`, { text: 'Скоро' });
    w.max.failNext('/messages', 429, 'too.many.requests', 'Too many requests', { 'retry-after': '3' });
    const worker = workerOf(w);
    await worker.run();
    const [row] = await w.db().select().from(outbox).where(eq(outbox.messageId, sent.message.id));
    expect(row).toMatchObject({ state: 'pending', lastError: 'Too many requests' });
    expect(row!.runAt.getTime() - worker.clock.ms).toBe(3_000);
    await worker.run(4_000);
    expect(w.max.callsOf('POST', '/messages').filter((c) => c.token === bot.token)).toHaveLength(2);
    const [msg] = await w.db().select().from(messages).where(eq(messages.id, sent.message.id));
    expect(msg!.delivery).toBe('sent');
  });

  it('a revoked token fails with the network text and flags the account; retry after reconnect delivers', async () => {
    const { bot, account, chatId } = await withChat();
    const fresh = w.max.reissue(bot.token);
    const sent = await w.api('POST', `/v1/chats/${chatId}/messages`, { text: 'Ещё раз' });
    await workerOf(w).run();
    const [failed] = await w.db().select().from(messages).where(eq(messages.id, sent.message.id));
    expect(failed).toMatchObject({ delivery: 'failed', deliveryError: 'Invalid access_token' });
    const errors = await w.api('GET', '/v1/errors');
    expect(errors.items).toContainEqual(
      expect.objectContaining({ id: account.id, error: 'Invalid access_token' }),
    );
    await w.api('POST', `/v1/objects/${account.id}/reconnect`, { credentials: { access_token: fresh } });
    await w.api('POST', `/v1/messages/${sent.message.id}/retry`);
    await workerOf(w).run();
    expect(w.max.callsOf('POST', '/messages').filter((c) => c.token === fresh)).toHaveLength(1);
    const [row] = await w.db().select().from(messages).where(eq(messages.id, sent.message.id));
    expect(row!.delivery).toBe('sent');
  });
});

describe('polling', () => {
  it('removes subscriptions, long-polls GET /updates and keeps the marker', async () => {
    const p = await startMaxWorld({ PROVIDER_UPDATES: 'polling', POLL_TIMEOUT_S: '1' });
    const bot = newBot(p.max);
    const { account, row } = await connectBot(p, bot.token);
    const manager = new PollingManager({ ...p.t.deps, db: p.t.deps.database.db }, `max-${Date.now()}`, {
      spaceIds: [row.spaceId],
    });
    try {
      expect(row.updatesMode).toBe('polling');
      expect(p.max.callsOf('GET', '/subscriptions').some((c) => c.token === bot.token)).toBe(true);
      const peter = person();
      const m = p.max.customerMessage({ sender: peter, recipient: dialogOf(peter), text: 'Из long poll' });
      await p.max.deliver(bot.token, created(m));
      await p.max.deliver(bot.token, created(m)); // the same message twice
      await manager.scan();
      const object = await until(async () => {
        const [o] = await p.t.deps.database.db.select().from(objects).where(eq(objects.id, account.id));
        return o?.pollCursor ? o : null;
      });
      const chats = (
        await p.t.app.inject({ url: `/v1/chats?object_id=${account.id}`, headers: p.headers })
      ).json();
      expect(chats.items.map((c: { last_message: string }) => c.last_message)).toEqual(['Из long poll']);
      await until(async () =>
        p.max
          .callsOf('GET', '/updates')
          .some((c) => c.token === bot.token && c.query.marker === object.pollCursor),
      );
      expect(p.max.state(bot.token).queue).toEqual([]);
      expect(p.max.callsOf('GET', '/updates').find((c) => c.token === bot.token)!.query).toMatchObject({
        timeout: '1',
      });
    } finally {
      await manager.stop();
      await p.close();
    }
  });
});
