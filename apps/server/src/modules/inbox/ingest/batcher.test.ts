import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../../test/auth-helpers';
import { failInsertsContaining, marker } from '../../../../test/db-faults';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { buildObject, commentEvent, messageEvent } from '../../../../test/inbox-helpers';
import { chats, items, messages } from '../../../db/schema';
import { IngestBatcher, withDeadlockRetry } from './batcher';

// The webhook batcher (issue #5 ingest speed): concurrent requests of one account share transactions,
// every caller learns its own outcome, and an edit never overtakes the message it edits.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const deps = () => ({ db: t.deps.database.db, bus: t.deps.bus });

async function account() {
  const { space } = await buildUser(t);
  return buildObject(t, space.id);
}

describe('IngestBatcher', () => {
  it('stores a burst of one account in shared batches; each caller gets its own invalid indexes', async () => {
    const object = await account();
    const batcher = new IngestBatcher(deps());
    const burst = Array.from({ length: 40 }, (_, i) =>
      batcher.submit(object, [
        messageEvent({
          chatExternalId: `peer-${i % 5}`,
          author: { externalId: `peer-${i % 5}`, name: 'Клиент' },
        }),
        ...(i === 7 ? [{ type: 'message', text: 'no chat, no id' }] : []),
      ]),
    );
    const results = await Promise.all(burst);
    // Batched: some transaction stored more than one request's message.
    expect(Math.max(...results.map((r) => r.created))).toBeGreaterThan(1);
    expect(results[7]!.invalid.map((i) => i.index)).toEqual([1]);
    expect(results.filter((r, i) => i !== 7 && r.invalid.length > 0)).toEqual([]);
    const chatRows = await t.deps.database.db.select().from(chats).where(eq(chats.objectId, object.id));
    expect(chatRows).toHaveLength(5);
    const stored = await t.deps.database.db
      .select()
      .from(messages)
      .where(
        inArray(
          messages.chatId,
          chatRows.map((c) => c.id),
        ),
      );
    expect(stored).toHaveLength(40);
    expect(chatRows.reduce((sum, c) => sum + c.unreadCount, 0)).toBe(40);
  });

  it('an edit submitted while message batches run waits for them, so it finds its message', async () => {
    const object = await account();
    const batcher = new IngestBatcher(deps(), { maxBatch: 2, lingerMs: 1, overlap: 2 });
    const pending = Array.from({ length: 6 }, (_, i) =>
      batcher.submit(object, [
        messageEvent({ chatExternalId: 'peer', externalId: `m${i}`, text: `Сообщение ${i}` }),
      ]),
    );
    pending.push(
      batcher.submit(object, [
        {
          type: 'change',
          target: 'message',
          chatExternalId: 'peer',
          externalId: 'm5',
          change: 'edited',
          text: 'Исправлено',
        },
      ]),
    );
    const results = await Promise.all(pending);
    expect(results.at(-1)!.updated).toBe(1);
    const [chat] = await t.deps.database.db.select().from(chats).where(eq(chats.objectId, object.id));
    const [edited] = await t.deps.database.db
      .select()
      .from(messages)
      .where(eq(messages.chatId, chat!.id))
      .then((rows) => rows.filter((m) => m.externalId === 'm5'));
    expect(edited!.text).toBe('Исправлено');
  });

  it('comments go alone and in order: a reply submitted after its parent is linked to it', async () => {
    const object = await account();
    const batcher = new IngestBatcher(deps(), { maxBatch: 1, lingerMs: 1, overlap: 2 });
    const parent = commentEvent({ externalId: 'parent' });
    const [first, second] = await Promise.all([
      batcher.submit(object, [parent]),
      batcher.submit(object, [commentEvent({ externalId: 'child', parentExternalId: 'parent' })]),
    ]);
    const [child] = await t.deps.database.db.select().from(items).where(eq(items.id, second!.itemIds[0]!));
    expect(child!.parentId).toBe(first!.itemIds[0]);
  });
});

describe('a request that fails the merged batch', () => {
  it('is stored on its own, so only its caller gets the error and the other requests are stored', async () => {
    const object = await account();
    // A failure that is not a refusal of the data (SQLSTATE P0001, not 22/23/54): ingest() throws it.
    const poison = marker();
    const db = t.deps.database.db;
    const undo = await failInsertsContaining(db, 'messages', poison);
    try {
      // A long linger: every request of the burst joins one merged batch.
      const batcher = new IngestBatcher(deps(), { maxBatch: 500, lingerMs: 50, overlap: 1 });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          batcher.submit(object, [
            messageEvent({ chatExternalId: `peer-${i}`, text: i === 5 ? poison : `Сообщение ${i}` }),
          ]),
        ),
      );
      expect(outcomes.map((o) => o.status)).toEqual([
        ...Array(5).fill('fulfilled'),
        'rejected',
        'fulfilled',
        'fulfilled',
      ]);
      expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.created : 0))).toEqual([
        1, 1, 1, 1, 1, 0, 1, 1,
      ]);
      const chatRows = await db.select().from(chats).where(eq(chats.objectId, object.id));
      expect(chatRows.map((c) => c.lastMessageText).sort()).toEqual(
        [0, 1, 2, 3, 4, 6, 7].map((i) => `Сообщение ${i}`),
      );
    } finally {
      await undo();
    }
  });
});

describe('withDeadlockRetry', () => {
  it('stores again after a deadlock (40P01, possibly wrapped), and gives up on anything else', async () => {
    let calls = 0;
    const deadlock = Object.assign(new Error('query failed'), { cause: { code: '40P01' } });
    await expect(
      withDeadlockRetry(async () => {
        calls += 1;
        if (calls === 1) throw deadlock;
        return 'stored';
      }),
    ).resolves.toBe('stored');
    expect(calls).toBe(2);
    const other = Object.assign(new Error('unique violation'), { code: '23505' });
    await expect(
      withDeadlockRetry(async () => {
        throw other;
      }),
    ).rejects.toBe(other);
  });
});
