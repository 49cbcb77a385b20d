import { describe, expect, it } from 'vitest';
import { hooked } from '../../../test/providers/testbed';
import { connectCommunity, itemsOf, messagesOf, VkWorld } from '../../../test/providers/vk';

// A VK account's life around its content: the import on connect (docs/product/limits.md), reconnecting without piling
// up callback servers (VK allows 10), and disconnecting removing ours.

const world = hooked(new VkWorld());

describe('a VK account over time', () => {
  it('imports the latest conversations, and wall comments when an admin token is given', async () => {
    const { object, customer, groupId, imported } = await connectCommunity(world, {
      withUserToken: true,
      seed: async (c) => {
        // Nothing is subscribed yet: these happened before connecting.
        world.emu.addPost(c.groupId, { id: 10, text: 'Пост до подключения' });
        await world.emu.userComments(c.groupId, { from: c.customer.id, postId: 10, text: 'Старый коммент' });
        await world.emu.userWrites(c.groupId, { from: c.customer.id, text: 'Старое сообщение' });
      },
    });
    expect(imported).toBe(2);
    const { list } = await messagesOf(world, object.id, String(customer.id));
    expect(list.map((m) => m.text)).toEqual(['Старое сообщение']);
    const [item] = await itemsOf(world, object.id);
    expect(item).toMatchObject({
      text: 'Старый коммент',
      externalId: expect.stringMatching(`^-${groupId}_`),
    });
    expect(world.emu.callsOf('wall.getComments').at(-1)!.token).toBe('user');
  });

  it('without an admin token the import takes the conversations only', async () => {
    const { imported } = await connectCommunity(world, {
      seed: async (c) => {
        await world.emu.userComments(c.groupId, { from: c.customer.id, postId: 10, text: 'Коммент' });
        await world.emu.userWrites(c.groupId, { from: c.customer.id, text: 'Сообщение' });
      },
    });
    expect(imported).toBe(1);
  });

  it('reconnecting re-uses our callback server; disconnecting removes it', async () => {
    const { object, group, credentials, workspace } = await connectCommunity(world);
    const reconnect = await world.t.app.inject({
      method: 'POST',
      url: `/v1/objects/${object.id}/reconnect`,
      headers: workspace.headers,
      payload: { credentials },
    });
    expect(reconnect.statusCode, reconnect.body).toBe(200);
    await world.emu.idle();
    expect(group.servers).toHaveLength(1);
    expect(group.servers[0]!.status).toBe('ok');

    const removed = await world.t.app.inject({
      method: 'DELETE',
      url: `/v1/objects/${object.id}`,
      headers: workspace.headers,
    });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    expect(group.servers).toEqual([]);
  });
});
