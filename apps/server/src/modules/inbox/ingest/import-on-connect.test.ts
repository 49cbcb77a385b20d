import { IMPORT_ON_CONNECT_LIMIT } from '@otklik/shared';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { buildWorkspace } from '../../../../test/inbox-actions';
import { commentEvent, messageEvent } from '../../../../test/inbox-helpers';
import { chats, items, messages } from '../../../db/schema';
import { registerConnector } from '../../../providers/registry';
import { sandboxConnector } from '../../../providers/sandbox/connector';

// docs/product/limits.md "Data import on connect up to 100 items": connecting through the API stores at most 100 of
// what the network offers, even when its connector hands over more.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const db = () => t.deps.database.db;

/** The sandbox, except that its import offers `events` whatever limit it is asked for. */
function overOfferingSandbox(events: () => unknown[]) {
  const asked: number[] = [];
  const undo = registerConnector({
    ...sandboxConnector,
    importRecent: async (_ctx, limit) => {
      asked.push(limit);
      return events() as never;
    },
  });
  return { asked, undo };
}

async function connect() {
  const { headers } = await buildWorkspace(t);
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/objects',
    headers,
    payload: { provider: 'sandbox' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; imported: number };
}

async function storedMessageTexts(objectId: number) {
  const chatIds = (await db().select({ id: chats.id }).from(chats).where(eq(chats.objectId, objectId))).map(
    (c) => c.id,
  );
  if (chatIds.length === 0) return [];
  return (await db().select().from(messages).where(inArray(messages.chatId, chatIds))).map((m) => m.text);
}

describe('import on connect (docs/product/limits.md: up to 100)', () => {
  it('the limit is 100', () => {
    expect(IMPORT_ON_CONNECT_LIMIT).toBe(100);
  });

  it('offered 150 comments, stores exactly the first 100', async () => {
    const offered = Array.from({ length: 150 }, (_, i) =>
      commentEvent({
        externalId: `imp-${i}`,
        text: `comment ${i}`,
        author: { externalId: `a-${i}`, name: 'A' },
      }),
    );
    const { asked, undo } = overOfferingSandbox(() => offered);
    try {
      const account = await connect();
      expect(asked).toEqual([100]);
      expect(account.imported).toBe(100);
      const stored = await db().select().from(items).where(eq(items.objectId, account.id));
      expect(stored).toHaveLength(100);
      expect(new Set(stored.map((r) => r.externalId))).toEqual(
        new Set(offered.slice(0, 100).map((e) => e.externalId as string)),
      );
    } finally {
      undo();
    }
  });

  it('counts comments and private messages together', async () => {
    const offered = Array.from({ length: 130 }, (_, i) =>
      i % 2 === 0
        ? commentEvent({
            externalId: `mix-c-${i}`,
            text: `c${i}`,
            author: { externalId: `a-${i}`, name: 'A' },
          })
        : messageEvent({
            externalId: `mix-m-${i}`,
            text: `m${i}`,
            chatExternalId: `peer-${i}`,
            author: { externalId: `peer-${i}`, name: 'P' },
          }),
    );
    const { undo } = overOfferingSandbox(() => offered);
    try {
      const account = await connect();
      expect(account.imported).toBe(100);
      const storedItems = await db().select().from(items).where(eq(items.objectId, account.id));
      const storedMessages = await storedMessageTexts(account.id);
      expect(storedItems).toHaveLength(50);
      expect(storedMessages).toHaveLength(50);
      // The 101st offered event (index 100) and later are not stored.
      expect(storedItems.map((r) => r.text)).not.toContain('c100');
      expect(storedMessages).not.toContain('m101');
    } finally {
      undo();
    }
  });

  it('fewer than 100 offered: all are stored', async () => {
    const offered = Array.from({ length: 7 }, (_, i) =>
      commentEvent({ externalId: `few-${i}`, author: { externalId: `f-${i}`, name: 'F' } }),
    );
    const { undo } = overOfferingSandbox(() => offered);
    try {
      const account = await connect();
      expect(account.imported).toBe(7);
      expect(await db().select().from(items).where(eq(items.objectId, account.id))).toHaveLength(7);
    } finally {
      undo();
    }
  });
});
