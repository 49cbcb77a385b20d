import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScene, eventually, itemsOf, startVkWorld, type VkWorld } from '../../../test/providers/vk';
import { rulesWorkerOf } from '../../../test/rules-worker';
import { ruleMatches } from '../../db/schema';

// Issue 17's acceptance scene on the VK emulator: an insulting wall comment arrives by the Callback API
// webhook and an auto-rule deletes it on VK (wall.deleteComment) within two seconds.

let world: VkWorld;
beforeAll(async () => {
  world = await startVkWorld();
}, 240_000);
afterAll(() => world?.close());

describe('auto-rules on VK', { timeout: 120_000 }, () => {
  it('deletes an insulting wall comment with wall.deleteComment; a polite one stays', async () => {
    const s = await buildScene(world, { userToken: true });
    const spaceId = s.workspace.space.id;
    const created = await s.inject('POST', '/v1/rules', {
      space_id: spaceId,
      name: 'Удалять оскорбления',
      trigger: 'item_created',
      minutes: null,
      paused: false,
      stop_processing: false,
      position: 0,
      conditions: {
        all: [
          { type: 'network', providers: ['vk'] },
          { type: 'text_contains', values: ['идиот'] },
        ],
      },
      actions: [{ type: 'delete' }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const rules = rulesWorkerOf(world.t, [spaceId]);
    const { commentId } = await world.emu.userComments(s.groupId, {
      from: s.customer.id,
      postId: 321,
      text: 'Вы идиоты',
    });
    await world.emu.userComments(s.groupId, { from: s.customer.id, postId: 321, text: 'Спасибо!' });
    await world.emu.idle();
    const insult = await eventually(async () => {
      const found = (await itemsOf(world, s.object.id)).find((i) => i.text === 'Вы идиоты');
      expect(found).toBeDefined();
      return found!;
    });
    // From the webhook's item to VK's deleteComment: the worker is woken by the bus in production.
    const started = Date.now();
    await rules.drain();
    await s.worker.drain();
    const call = world.emu.callsOf('wall.deleteComment').at(-1);
    expect(call).toMatchObject({
      token: 'user',
      params: { owner_id: `-${s.groupId}`, comment_id: String(commentId) },
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(s.group.comments.get(`wall:-${s.groupId}_${commentId}`)!.deleted).toBe(true);
    const runs = await world.t.deps.database.db
      .select()
      .from(ruleMatches)
      .where(eq(ruleMatches.itemId, insult.id));
    expect(runs[0]).toMatchObject({ status: 'ok', actionsDone: 1 });
    // The polite comment and the scene's first one are untouched.
    const polite = (await itemsOf(world, s.object.id)).find((i) => i.text === 'Спасибо!')!;
    expect(polite).toMatchObject({ isDeleted: false, status: 'new' });
    expect(world.emu.callsOf('wall.deleteComment')).toHaveLength(1);
  });
});
