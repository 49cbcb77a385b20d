import { describe, expect, it } from 'vitest';
import { hooked } from '../../../test/providers/testbed';
import { buildScene, itemsOf, messagesOf, objectRow, VkWorld } from '../../../test/providers/vk';
import { connectorContext } from '../context';
import { vkConnector } from './connector';

// VK outbound (issue #5 item 7): replies and chat messages reach VK with its idempotency keys; rate limits
// wait, a revoked token shows on the account and the reply.

const world = hooked(new VkWorld());

const scene = () => buildScene(world);

describe('replies and messages', () => {
  it('a comment reply is wall.createComment under the post, with reply_to_comment and guid; its echo is no second item', async () => {
    const s = await scene();
    const res = await s.inject('POST', `/v1/items/${s.item.id}/reply`, { text: 'Завтра' });
    expect(res.statusCode, res.body).toBe(200);
    await s.worker.drain();
    const [call] = world.emu.callsOf('wall.createComment');
    expect(call!.params).toMatchObject({
      owner_id: `-${s.groupId}`,
      post_id: '321',
      reply_to_comment: String(s.commentId),
      from_group: String(s.groupId),
      message: 'Завтра',
    });
    expect(call!.params.guid).toMatch(/^[0-9a-f]{32}$/);
    expect(call!.token).toBe('group');
    await world.emu.idle();
    const list = await itemsOf(world, s.object.id);
    const mine = list.filter((i) => i.isOwn);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      delivery: 'sent',
      text: 'Завтра',
      externalId: `-${s.groupId}_${s.commentId + 1}`,
    });
  });

  it('a chat reply is messages.send with peer_ids and random_id, keyed by its cmid', async () => {
    const s = await scene();
    const res = await s.inject('POST', `/v1/chats/${s.chat.id}/messages`, { text: 'Здравствуйте' });
    expect(res.statusCode, res.body).toBe(200);
    await s.worker.drain();
    const [call] = world.emu
      .callsOf('messages.send')
      .filter((c) => c.params.peer_ids === String(s.customer.id));
    expect(Number(call!.params.random_id)).toBeGreaterThan(0);
    expect(call!.params.message).toBe('Здравствуйте');
    await world.emu.idle();
    const { list } = await messagesOf(world, s.object.id, String(s.customer.id));
    expect(list.map((m) => [m.externalId, m.text, m.isOwn, m.delivery])).toEqual([
      ['1', 'Привет', false, 'received'],
      ['2', 'Здравствуйте', true, 'sent'],
    ]);
  });

  it("'direct' writes to the commenter's own conversation (peer = their user id)", async () => {
    const s = await scene();
    const res = await s.inject('POST', `/v1/items/${s.item.id}/direct`, { text: 'Напишу в личку' });
    expect(res.statusCode, res.body).toBe(200);
    await s.worker.drain();
    const stored = s.group.conversations.get(s.customer.id)!.at(-1)!;
    expect(stored).toMatchObject({ text: 'Напишу в личку', out: 1 });
    await world.emu.idle();
    const { list } = await messagesOf(world, s.object.id, String(s.customer.id));
    expect(list.at(-1)).toMatchObject({
      externalId: String(stored.conversation_message_id),
      delivery: 'sent',
    });
    expect(list.filter((m) => m.text === 'Напишу в личку')).toHaveLength(1);
  });

  it('the same random_id twice is one message on VK', async () => {
    const s = await scene();
    const ctx = connectorContext(
      { ...world.t.deps, db: world.t.deps.database.db },
      await objectRow(world, s.object.id),
    );
    const content = { text: 'Один раз', attachments: [], idempotencyKey: 'outbox-1' };
    const first = await vkConnector.sendMessage!(
      ctx,
      { externalId: String(s.customer.id), authorExternalId: null },
      content,
    );
    const again = await vkConnector.sendMessage!(
      ctx,
      { externalId: String(s.customer.id), authorExternalId: null },
      content,
    );
    expect(again).toEqual(first);
    expect(s.group.conversations.get(s.customer.id)!.filter((m) => m.text === 'Один раз')).toHaveLength(1);
  });
});

describe('when VK says no, or not now', () => {
  it('error 6 (too many requests per second) waits, then delivers', async () => {
    const s = await scene();
    world.emu.failNext('wall.createComment', 6);
    await s.inject('POST', `/v1/items/${s.item.id}/reply`, { text: 'Ответ' });
    await s.worker.drain();
    let reply = (await itemsOf(world, s.object.id)).find((i) => i.isOwn)!;
    expect(reply.delivery).not.toBe('sent');
    expect(world.emu.callsOf('wall.createComment').filter((c) => c.params.message === 'Ответ')).toHaveLength(
      1,
    );
    s.clock.skew += 2_000;
    await s.worker.drain();
    reply = (await itemsOf(world, s.object.id)).find((i) => i.isOwn)!;
    expect(reply.delivery).toBe('sent');
    const attempts = world.emu.callsOf('wall.createComment').filter((c) => c.params.message === 'Ответ');
    expect(attempts).toHaveLength(2);
    // Both attempts carry the outbox row's key, so VK could drop the second had the first gone through.
    expect(attempts[1]!.params.guid).toBe(attempts[0]!.params.guid);
  });

  it('a chat message retried after error 9 (flood control) keeps its random_id', async () => {
    const s = await scene();
    world.emu.failNext('messages.send', 9);
    await s.inject('POST', `/v1/chats/${s.chat.id}/messages`, { text: 'Повтор' });
    await s.worker.drain();
    s.clock.skew += 60_000;
    await s.worker.drain();
    const attempts = world.emu.callsOf('messages.send').filter((c) => c.params.message === 'Повтор');
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.params.random_id).toBe(attempts[0]!.params.random_id);
    expect(s.group.conversations.get(s.customer.id)!.filter((m) => m.text === 'Повтор')).toHaveLength(1);
  });

  it('VK being down is temporary: the reply waits and goes out when VK is back', async () => {
    const s = await scene();
    world.emu.down = true;
    try {
      await s.inject('POST', `/v1/items/${s.item.id}/reply`, { text: 'Пока VK лежит' });
      await s.worker.drain();
      const reply = (await itemsOf(world, s.object.id)).find((i) => i.isOwn)!;
      expect(reply.delivery).not.toBe('failed');
    } finally {
      world.emu.down = false;
    }
    s.clock.skew += 10_000;
    await s.worker.drain();
    expect((await itemsOf(world, s.object.id)).find((i) => i.isOwn)!.delivery).toBe('sent');
  });

  it('a revoked token (error 5) fails the reply with VK text and flags the account; after reconnecting the retry delivers', async () => {
    const s = await scene();
    world.emu.revoke(s.group.token);
    await s.inject('POST', `/v1/items/${s.item.id}/reply`, { text: 'Ответ' });
    await s.worker.drain();
    const text = 'User authorization failed: invalid access_token (4).';
    const reply = (await itemsOf(world, s.object.id)).find((i) => i.isOwn)!;
    expect(reply).toMatchObject({ delivery: 'failed', deliveryError: text });
    const errors = await world.t.app.inject({ url: '/v1/errors', headers: s.workspace.headers });
    expect(errors.json().items).toContainEqual(expect.objectContaining({ id: s.object.id, error: text }));

    const fresh = world.emu.state.issueGroupToken(s.group);
    const reconnect = await s.inject('POST', `/v1/objects/${s.object.id}/reconnect`, {
      credentials: { group_id: String(s.groupId), access_token: fresh },
    });
    expect(reconnect.json()).toMatchObject({ error: null });
    const retry = await s.inject('POST', `/v1/items/${reply.id}/retry`);
    expect(retry.statusCode, retry.body).toBe(200);
    await s.worker.drain();
    expect((await itemsOf(world, s.object.id)).find((i) => i.id === reply.id)!.delivery).toBe('sent');
  });
});
