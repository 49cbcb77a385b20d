import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { buildObject, buildWorkspace } from '../../test/inbox-actions';
import { outbox, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { enqueueOutbox } from '../modules/outbox/queue';
import { OUTBOX_DONE_KEEP_DAYS, OutboxPruner, WEBHOOK_DELIVERY_KEEP_DAYS } from './outbox-prune';

// The outbox keeps pending and failed rows (work, and what settings/errors shows) and lets carried-out
// ones go after OUTBOX_DONE_KEEP_DAYS.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const db = () => t.deps.database.db;
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

describe('outbox pruning', () => {
  it('deletes carried-out rows past the keeping time and nothing else', async () => {
    const admin = await buildWorkspace(t);
    const object = await buildObject(t, admin.space.id, { provider: 'vk' });
    const row = async (state: 'pending' | 'done' | 'failed', doneAt: Date | null) => {
      const queued = await enqueueOutbox(db(), {
        spaceId: admin.space.id,
        objectId: object.id,
        action: 'like',
        payload: {},
      });
      await db().update(outbox).set({ state, doneAt }).where(eq(outbox.id, queued.id));
      return queued.id;
    };
    const old = await row('done', daysAgo(OUTBOX_DONE_KEEP_DAYS + 1));
    const older = await row('done', daysAgo(OUTBOX_DONE_KEEP_DAYS * 3));
    const recent = await row('done', daysAgo(OUTBOX_DONE_KEEP_DAYS - 1));
    const failed = await row('failed', daysAgo(OUTBOX_DONE_KEEP_DAYS * 3));
    const pending = await row('pending', null);

    const pruner = new OutboxPruner({ db: db(), log: t.deps.log });
    expect(await pruner.prune()).toBeGreaterThanOrEqual(2);
    const left = await db()
      .select({ id: outbox.id })
      .from(outbox)
      .where(inArray(outbox.id, [old, older, recent, failed, pending]));
    expect(left.map((r) => r.id).sort((a, b) => a - b)).toEqual(
      [recent, failed, pending].sort((a, b) => a - b),
    );
    expect(await pruner.prune()).toBe(0);
  });
});

describe('webhook delivery log pruning', () => {
  it('deletes finished deliveries past the keeping time; pending ones and recent ones stay', async () => {
    const admin = await buildWorkspace(t);
    const [endpoint] = await db()
      .insert(webhookEndpoints)
      .values({ spaceId: admin.space.id, url: 'https://hooks.example.test/in', secretSealed: 'sealed' })
      .returning();
    let n = 0;
    const delivery = async (state: 'pending' | 'done' | 'failed', createdAt: Date) => {
      n += 1;
      const [row] = await db()
        .insert(webhookDeliveries)
        .values({
          spaceId: admin.space.id,
          endpointId: endpoint!.id,
          messageId: `msg_${admin.space.id}_${n}`,
          eventKey: `prune-${n}`,
          eventType: 'item.created',
          payload: {},
          state,
          createdAt,
        })
        .returning({ id: webhookDeliveries.id });
      return row!.id;
    };
    const sentLongAgo = await delivery('done', daysAgo(WEBHOOK_DELIVERY_KEEP_DAYS + 1));
    const failedLongAgo = await delivery('failed', daysAgo(WEBHOOK_DELIVERY_KEEP_DAYS * 2));
    const sentRecently = await delivery('done', daysAgo(WEBHOOK_DELIVERY_KEEP_DAYS - 1));
    const stillPending = await delivery('pending', daysAgo(WEBHOOK_DELIVERY_KEEP_DAYS * 2));

    const pruner = new OutboxPruner({ db: db(), log: t.deps.log });
    expect(await pruner.prune()).toBeGreaterThanOrEqual(2);
    const left = await db()
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.id, [sentLongAgo, failedLongAgo, sentRecently, stillPending]));
    expect(left.map((r) => r.id).sort((a, b) => a - b)).toEqual(
      [sentRecently, stillPending].sort((a, b) => a - b),
    );
  });
});
