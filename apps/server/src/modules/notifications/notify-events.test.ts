import type { AddressInfo } from 'node:net';
import type { NotificationListWire, NotificationWatchWire, SubscriptionsWire } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { commentEvent } from '../../../test/inbox-helpers';
import { rulesWorkerOf } from '../../../test/rules-worker';
import { openSocket } from '../../../test/socket';
import { ruleQueue, savedFilters, spaces, userGroups } from '../../db/schema';
import { SpaceExpiryJob } from '../../jobs/space-expiry';
import { readKit } from '../inbox/read/read-kit';
import { recordAccountError } from '../objects/account-error';
import { NOTIFY_QUEUE_TRIGGER } from './watches';

// Issue 18, the events raised outside the inbox's actions: a new item in watched accounts (`new_item`),
// a new item matching a saved comments filter (`comments_filter`, socket type comments_filter), an
// account that broke (`account_error`) and a space about to expire (`space_expiry`) — on the real
// database, the arrivals matched by the rules worker after the ingestion committed.

let t: TestApp;
let wsBase: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws?access_token=`;
});
afterAll(() => t.close());

const { db, buildTeam, buildMember, ingestEvents, get } = readKit(() => t);

async function put(headers: Record<string, string>, url: string, payload: unknown, status = 200) {
  const res = await t.app.inject({
    method: 'PUT',
    url,
    headers,
    payload: payload as Record<string, unknown>,
  });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
  return res.json();
}

const worker = (spaceId: number) => rulesWorkerOf(t, [spaceId]);

const inapp = (event: string) => ({ event, channel: 'inapp', frequency: 'at_once' });

describe('notification events', () => {
  it('new items in watched accounts and saved-filter matches notify after the commit; nothing unwatched', async () => {
    const team = await buildTeam();
    const spaceId = team.space.id;
    const anna = await buildMember(spaceId, 'operator', { name: 'Anna' });
    // Opt-in events: nobody gets them until they choose.
    const before = await get<SubscriptionsWire>(
      anna.headers,
      `/v1/notifications/subscriptions?space_id=${spaceId}`,
    );
    expect(before.items.filter((i) => i.event === 'new_item' || i.event === 'comments_filter')).toSatisfy(
      (rows: Array<{ frequency: string }>) => rows.every((r) => r.frequency === 'never'),
    );

    // No watch in the space: intake queues nothing for the notifications.
    const quiet = await ingestEvents(team.sandbox, [commentEvent()]);
    const queued = await db()
      .select()
      .from(ruleQueue)
      .where(and(eq(ruleQueue.spaceId, spaceId), eq(ruleQueue.trigger, NOTIFY_QUEUE_TRIGGER)));
    expect(queued).toEqual([]);
    expect(quiet.itemIds).toHaveLength(1);

    const [filter] = await db()
      .insert(savedFilters)
      .values({
        userId: anna.user.id,
        name: 'Возвраты',
        query: { q: 'refund', provider: ['vk'] },
        route: 'items',
      })
      .returning();
    const [foreign] = await db()
      .insert(savedFilters)
      .values({ userId: team.user.id, name: 'Owner’s', query: {}, route: 'items' })
      .returning();
    await put(anna.headers, '/v1/notifications/subscriptions', {
      space_id: spaceId,
      items: [inapp('new_item'), inapp('comments_filter')],
    });
    const watch = (await put(anna.headers, '/v1/notifications/watches', {
      space_id: spaceId,
      object_ids: [team.sandbox.id, 999_999],
      filter_ids: [filter!.id, foreign!.id],
    })) as NotificationWatchWire;
    // Accounts of other spaces and other people's filters are dropped.
    expect(watch).toMatchObject({ object_ids: [team.sandbox.id], filter_ids: [filter!.id] });
    expect(watch.filters).toEqual([{ id: filter!.id, name: 'Возвраты' }]);

    const socket = await openSocket(wsBase + anna.token);
    try {
      await socket.waitFor((m) => m.type === 'hello');
      const arrivals = worker(spaceId);
      await ingestEvents(team.sandbox, [commentEvent({ text: 'Hello from the sandbox' })]);
      await ingestEvents(team.vk, [commentEvent({ text: 'I want a REFUND please' })]);
      await ingestEvents(team.vk, [commentEvent({ text: 'Nothing to see' })]);
      expect(await arrivals.drain()).toBe(3);
      const got = await socket.waitFor(
        (m) => m.type === 'notify' && (m.notification as { event?: string })?.event === 'comments_filter',
      );
      expect(got.notification).toMatchObject({
        type: 'comments_filter',
        title: 'Новая запись по фильтру «Возвраты»',
      });
    } finally {
      await socket.close();
    }
    const list = await get<NotificationListWire>(anna.headers, '/v1/notifications');
    expect(list.items.map((i) => [i.event, i.text])).toEqual([
      ['comments_filter', 'I want a REFUND please'],
      ['new_item', 'Hello from the sandbox'],
    ]);
    expect((await get<NotificationListWire>(team.headers, '/v1/notifications')).items).toEqual([]);
    // The queue is empty again.
    expect(await db().select().from(ruleQueue).where(eq(ruleQueue.spaceId, spaceId))).toEqual([]);
  });

  it('a watcher limited to a user group is not told about accounts outside it', async () => {
    const team = await buildTeam();
    const spaceId = team.space.id;
    const [group] = await db()
      .insert(userGroups)
      .values({ spaceId, name: 'VK only', objectIds: [team.vk.id] })
      .returning();
    const limited = await buildMember(spaceId, 'operator', { name: 'Limited', groupId: group!.id });
    await put(limited.headers, '/v1/notifications/subscriptions', {
      space_id: spaceId,
      items: [inapp('new_item')],
    });
    await put(limited.headers, '/v1/notifications/watches', {
      space_id: spaceId,
      object_ids: [team.sandbox.id, team.vk.id],
      filter_ids: [],
    });
    await ingestEvents(team.sandbox, [commentEvent({ text: 'sandbox' })]);
    await ingestEvents(team.vk, [commentEvent({ text: 'vk' })]);
    await worker(spaceId).drain();
    const list = await get<NotificationListWire>(limited.headers, '/v1/notifications');
    expect(list.items.map((i) => i.text)).toEqual(['vk']);
  });

  it('a broken account tells the administrators once per breakage', async () => {
    const team = await buildTeam();
    const anna = await buildMember(team.space.id, 'operator', { name: 'Anna' });
    const deps = { db: db(), bus: t.deps.bus };
    await recordAccountError(deps, team.vk.id, 'token revoked');
    await recordAccountError(deps, team.vk.id, 'token revoked');
    const list = await get<NotificationListWire>(team.headers, '/v1/notifications');
    expect(list.items).toMatchObject([{ event: 'account_error', text: 'token revoked' }]);
    expect(list.items[0]!.title).toContain(team.vk.name);
    expect((await get<NotificationListWire>(anna.headers, '/v1/notifications')).items).toEqual([]);
  });

  it('a space about to expire tells its administrators with the billing warning', async () => {
    const team = await buildTeam();
    const now = new Date();
    await db()
      .update(spaces)
      .set({ expiresAt: new Date(now.getTime() + 2.5 * 86_400_000) })
      .where(eq(spaces.id, team.space.id));
    const job = new SpaceExpiryJob({
      db: db(),
      log: t.deps.log,
      mailer: t.deps.mailer,
      appUrl: 'https://otklik.test',
      bus: t.deps.bus,
    });
    expect(await job.warn(now, { among: [team.space.id] })).toBe(1);
    expect(await job.warn(now, { among: [team.space.id] })).toBe(0);
    const list = await get<NotificationListWire>(team.headers, '/v1/notifications');
    expect(list.items).toMatchObject([{ event: 'space_expiry' }]);
    expect(list.items[0]!.title).toContain('истекает');
  });
});
