import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectCommunity,
  eventually,
  itemsOf,
  messagesOf,
  objectRow,
  startVkWorld,
  type VkWorld,
} from '../../../test/providers/vk';
import { objects } from '../../db/schema';
import { ingest } from '../../modules/inbox/ingest/ingest';
import { connectorContext } from '../context';
import { ConnectorError } from '../types';
import { vkConnector } from './connector';

// VK Bots Long Poll (PROVIDERS §2): an account in polling mode ingests what the Callback API would have
// pushed, survives an expired key (failed 2) and lost history (failed 3); a revoked token is an auth error.
// The loop below does what jobs/pollers.ts does (poll → ingest → keep the cursor) for this file's accounts
// only: a PollingManager claims every polling account in the database, other test files' too.

let world: VkWorld;
const loops: Array<() => Promise<void>> = [];
beforeAll(async () => {
  world = await startVkWorld({ PROVIDER_UPDATES: 'polling' });
});
afterAll(async () => {
  for (const stop of loops) await stop();
  await world.close();
});

function pollInBackground(objectId: number) {
  const controller = new AbortController();
  const errors: unknown[] = [];
  const deps = { ...world.t.deps, db: world.t.deps.database.db };
  // A lease of our own keeps other files' PollingManagers off this account.
  const leased = deps.db
    .update(objects)
    .set({ pollLeaseNode: `vk-test-${process.pid}`, pollLeaseUntil: new Date(Date.now() + 3_600_000) })
    .where(eq(objects.id, objectId));
  const running = (async () => {
    await leased;
    while (!controller.signal.aborted) {
      const object = await objectRow(world, objectId);
      try {
        const ctx = connectorContext(deps, object);
        const { events, cursor } = await vkConnector.poll!(ctx, object.pollCursor, {
          timeoutSeconds: world.t.deps.config.POLL_TIMEOUT_S,
          signal: controller.signal,
        });
        if (events.length > 0) await ingest(deps, object, events);
        await deps.db.update(objects).set({ pollCursor: cursor }).where(eq(objects.id, objectId));
      } catch (error) {
        if (controller.signal.aborted) return;
        errors.push(error);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  })();
  const stop = async () => {
    controller.abort();
    await running;
  };
  loops.push(stop);
  return { errors, stop };
}

describe('Bots Long Poll', () => {
  it('ingests messages and comments the same way, across an expired key and lost history', async () => {
    const { object, groupId, group, customer } = await connectCommunity(world);
    expect(object.updatesMode).toBe('polling');
    expect(group.servers).toEqual([]);
    expect(group.longPoll.enabled).toBe(true);
    expect([...group.longPoll.events]).toEqual(expect.arrayContaining(['message_new', 'wall_reply_new']));
    const keyRequests = () =>
      world.emu.callsOf('groups.getLongPollServer').filter((c) => c.params.group_id === String(groupId))
        .length;
    pollInBackground(object.id);
    // Like VK, the long poll gives what happens after the poller got its server (the import covers before).
    await eventually(async () => expect(keyRequests()).toBe(1));
    await world.emu.userWrites(groupId, { from: customer.id, text: 'Через long poll' });
    await eventually(async () => {
      const { list } = await messagesOf(world, object.id, String(customer.id));
      expect(list.map((m) => m.text)).toEqual(['Через long poll']);
      expect(list[0]!.externalId).toBe('1');
    });
    const cursor = JSON.parse((await objectRow(world, object.id)).pollCursor!) as {
      server: string;
      ts: string;
    };
    expect(cursor.server).toBe(`${world.emu.url}/lp/${groupId}`);

    const before = keyRequests();
    world.emu.expireLongPollKey(groupId);
    const { commentId } = await world.emu.userComments(groupId, {
      from: customer.id,
      postId: 7,
      text: 'Коммент',
    });
    await eventually(async () => {
      const list = await itemsOf(world, object.id);
      expect(list.map((i) => [i.externalId, i.text])).toEqual([[`-${groupId}_${commentId}`, 'Коммент']]);
    });
    // failed 2: a new key from groups.getLongPollServer.
    await eventually(async () => expect(keyRequests()).toBeGreaterThan(before));

    const beforeLoss = keyRequests();
    world.emu.loseLongPollHistory(groupId);
    // failed 3 is answered to the next a_check; the poller then starts afresh with a new key and ts.
    await eventually(async () => {
      expect(group.longPoll.lost).toBe(false);
      expect(keyRequests()).toBeGreaterThan(beforeLoss);
    });
    await world.emu.userWrites(groupId, { from: customer.id, text: 'После потери истории' });
    await world.emu.userDeletesComment(groupId, { commentId });
    await eventually(async () => {
      expect((await itemsOf(world, object.id))[0]!.isDeleted).toBe(true);
      const { list } = await messagesOf(world, object.id, String(customer.id));
      expect(list.map((m) => m.text)).toEqual(['Через long poll', 'После потери истории']);
    });
    expect(keyRequests()).toBeGreaterThanOrEqual(3);
  });

  it('a revoked token is an auth error carrying VK text (the poller pauses and flags the account)', async () => {
    const { object, group } = await connectCommunity(world);
    world.emu.revoke(group.token);
    const { errors, stop } = pollInBackground(object.id);
    await eventually(async () => expect(errors.length).toBeGreaterThan(0));
    await stop();
    expect(errors[0]).toBeInstanceOf(ConnectorError);
    expect(errors[0]).toMatchObject({
      kind: 'auth',
      message: 'User authorization failed: invalid access_token (4).',
    });
  });
});
