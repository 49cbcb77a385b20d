import { DEFAULT_LOCALE, translate } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { COMMENT_EDIT_WINDOW_S } from '../../../emulators/vk/emulator-comments';
import { hooked } from '../../../test/providers/testbed';
import { buildScene, itemsOf, messagesOf, objectRow, VkWorld } from '../../../test/providers/vk';
import { authors } from '../../db/schema';
import { connectorContext } from '../context';
import { ConnectorError } from '../types';
import { vkConnector } from './connector';

// VK moderation (PROVIDERS §2): comment deletion, restoration, likes, edits and bans take a community
// admin's USER token; without one the connector refuses with a clear message before calling VK.

/** How far the emulated VK's clock runs ahead of ours. */
let vkAhead = 0;
const world = hooked(new VkWorld({}, { now: () => Date.now() + vkAhead }));

const scene = (opts: { userToken?: boolean } = {}) => buildScene(world, opts);

describe('moderation', () => {
  it('with only the community token, delete and like are refused up front with the user-token message', async () => {
    const s = await scene();
    const calls = world.emu.calls.length;
    const message = translate(DEFAULT_LOCALE, 'account.userTokenRequired');
    for (const action of ['delete', 'like']) {
      const res = await s.inject('POST', `/v1/items/${s.item.id}/${action}`);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ error: message, error_type: 'account' });
    }
    await s.worker.drain();
    const [item] = await itemsOf(world, s.object.id);
    // Nothing was recorded as done and nothing was queued: the comment is as it was.
    expect(item).toMatchObject({ isDeleted: false, isLiked: false, status: 'new', deliveryError: null });
    const moderation = world.emu.calls.slice(calls).filter((c) => /deleteComment|likes\./.test(c.method));
    expect(moderation).toEqual([]);
  });

  it('reactions on comments are refused: VK comments take likes', async () => {
    const s = await scene({ userToken: true });
    const res = await s.inject('POST', `/v1/items/${s.item.id}/react`, { value: '1' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error_type: 'not_supported' });
  });

  it('with the admin user token: deleteComment, restoreComment and likes.add reach VK', async () => {
    const s = await scene({ userToken: true });
    await s.inject('POST', `/v1/items/${s.item.id}/like`);
    await s.worker.drain();
    expect(world.emu.callsOf('likes.add').at(-1)).toMatchObject({
      token: 'user',
      params: { type: 'comment', owner_id: `-${s.groupId}`, item_id: String(s.commentId) },
    });
    await s.inject('POST', `/v1/items/${s.item.id}/delete`);
    await s.worker.drain();
    const stored = s.group.comments.get(`wall:-${s.groupId}_${s.commentId}`)!;
    expect(stored.deleted).toBe(true);
    expect(stored.likes.size).toBe(1);
    await world.emu.idle();
    expect((await itemsOf(world, s.object.id))[0]).toMatchObject({ isDeleted: true, isLiked: true });
    await s.inject('POST', `/v1/items/${s.item.id}/restore`);
    await s.worker.drain();
    expect(stored.deleted).toBe(false);
  });

  it('edits our reply with wall.editComment and reacts to a message with messages.sendReaction', async () => {
    const s = await scene({ userToken: true });
    const replied = await s.inject('POST', `/v1/items/${s.item.id}/reply`, { text: 'Было' });
    await s.worker.drain();
    const edited = await s.inject('PUT', `/v1/items/${replied.json().reply.id}`, { text: 'Стало' });
    expect(edited.statusCode, edited.body).toBe(200);
    await s.worker.drain();
    expect(world.emu.callsOf('wall.editComment').at(-1)!.params).toMatchObject({
      message: 'Стало',
      owner_id: `-${s.groupId}`,
    });
    const { list } = await messagesOf(world, s.object.id, String(s.customer.id));
    const reacted = await s.inject('POST', `/v1/messages/${list[0]!.id}/react`, { value: 2 });
    expect(reacted.statusCode, reacted.body).toBe(200);
    await s.worker.drain();
    expect(world.emu.callsOf('messages.sendReaction').at(-1)!.params).toMatchObject({
      peer_id: String(s.customer.id),
      cmid: '1',
      reaction_id: '2',
    });
  });

  it('bans the author with groups.ban (end_date) and unbans with groups.unban, as the admin user', async () => {
    const s = await scene({ userToken: true });
    const [author] = await world.t.deps.database.db
      .select()
      .from(authors)
      .where(and(eq(authors.spaceId, s.workspace.space.id), eq(authors.externalId, String(s.customer.id))));
    const blocked = await s.inject('POST', `/v1/authors/${author!.id}/block`, { duration: 'week' });
    expect(blocked.statusCode, blocked.body).toBe(200);
    await s.worker.drain();
    const ban = s.group.bans.get(s.customer.id)!;
    expect(ban.end_date - Date.now() / 1000).toBeGreaterThan(6 * 86_400);
    expect(world.emu.callsOf('groups.ban').at(-1)).toMatchObject({
      token: 'user',
      params: { group_id: String(s.groupId), owner_id: String(s.customer.id) },
    });
    await s.inject('POST', `/v1/authors/${author!.id}/unblock`);
    await s.worker.drain();
    expect(s.group.bans.has(s.customer.id)).toBe(false);
  });

  it("past VK's 43200 s window, wall.editComment is refused with VK's text", async () => {
    const s = await scene({ userToken: true });
    const ctx = connectorContext(
      { ...world.t.deps, db: world.t.deps.database.db },
      await objectRow(world, s.object.id),
    );
    const target = {
      externalId: s.item.externalId!,
      kind: 'comment' as const,
      postExternalId: `-${s.groupId}_321`,
      parentExternalId: null,
      authorExternalId: String(s.customer.id),
    };
    const sent = await vkConnector.sendReply(ctx, target, { text: 'Было', attachments: [] });
    const reply = { ...target, externalId: sent.externalId!, authorExternalId: `-${s.groupId}` };
    await vkConnector.editReply!(ctx, reply, { text: 'Стало', attachments: [] });
    vkAhead = (COMMENT_EDIT_WINDOW_S + 60) * 1000;
    try {
      const late = vkConnector.editReply!(ctx, reply, { text: 'Поздно', attachments: [] });
      await expect(late).rejects.toBeInstanceOf(ConnectorError);
      await expect(late).rejects.toMatchObject({
        kind: 'permanent',
        message: 'Permission to perform this action is denied',
      });
    } finally {
      vkAhead = 0;
    }
  });
});
