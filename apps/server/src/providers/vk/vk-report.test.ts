import { DEFAULT_LOCALE, translate } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildComment, buildObject } from '../../../test/inbox-actions';
import { hooked } from '../../../test/providers/testbed';
import { buildScene, itemsOf, VkWorld } from '../../../test/providers/vk';
import { activity, outbox } from '../../db/schema';

// Issue 13 #16: the catalogue's `report` action — a complaint about a customer's comment to the network
// (VK wall.reportComment with the admin user token), through the one send path (outbox), and refused
// with the network named where the API has no such call.

const world = hooked(new VkWorld());

describe('report a comment', () => {
  it('VK: queued, then wall.reportComment as the admin user; recorded in the history', async () => {
    const s = await buildScene(world, { userToken: true });
    const res = await s.inject('POST', `/v1/items/${s.item.id}/report`);
    expect(res.statusCode, res.body).toBe(200);
    await s.worker.drain();
    expect(world.emu.callsOf('wall.reportComment').at(-1)).toMatchObject({
      token: 'user',
      params: { owner_id: `-${s.groupId}`, comment_id: String(s.commentId), reason: '0' },
    });
    const stored = s.group.comments.get(`wall:-${s.groupId}_${s.commentId}`)!;
    expect(stored.reports).toEqual([{ userId: s.admin.id, reason: 0 }]);
    const [item] = await itemsOf(world, s.object.id);
    expect(item).toMatchObject({ isDeleted: false, deliveryError: null });
    const history = await world.t.deps.database.db
      .select()
      .from(activity)
      .where(and(eq(activity.itemId, s.item.id), eq(activity.type, 'item.moderated')));
    expect(history.map((a) => a.data.action)).toContain('report');
  });

  it('VK without the admin user token: refused up front, nothing queued', async () => {
    const s = await buildScene(world);
    const res = await s.inject('POST', `/v1/items/${s.item.id}/report`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ error: translate(DEFAULT_LOCALE, 'account.userTokenRequired') });
  });

  it('a network without a report call (Instagram): refused with its name, in ru and en', async () => {
    const s = await buildScene(world);
    const instagram = await buildObject(world.t, s.workspace.space.id, { provider: 'instagram' });
    const comment = await buildComment(world.t, instagram);
    const ru = await s.inject('POST', `/v1/items/${comment.id}/report`);
    expect(ru.statusCode).toBe(400);
    expect(ru.json().error).toBe('API Instagram не позволяет пожаловаться на комментарий');
    expect((await s.inject('PUT', '/v1/me', { locale: 'en' })).statusCode).toBe(200);
    const en = await s.inject('POST', `/v1/items/${comment.id}/report`);
    expect(en.json().error).toBe("Instagram's API does not allow reporting a comment");
    const queued = await world.t.deps.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.objectId, instagram.id));
    expect(queued).toHaveLength(0);
  });
});
