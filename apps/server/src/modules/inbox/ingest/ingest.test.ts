import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { buildObject, commentEvent, messageEvent } from '../../../../test/inbox-helpers';
import type { Db } from '../../../db/client';
import { activity, authors, chats, inboxCounters, items, messages, posts } from '../../../db/schema';
import type { BusEvent } from '../../../realtime/bus';
import { INGEST_CHUNK, ingest } from './ingest';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const deps = () => ({ db: t.deps.database.db, bus: t.deps.bus });

async function setup(settings: Record<string, unknown> = {}) {
  const { space } = await buildUser(t);
  const object = await buildObject(t, space.id, { settings });
  return { space, object };
}

function captureEvents() {
  const seen: BusEvent[] = [];
  const stop = t.deps.bus.subscribe((e) => seen.push(e));
  /** With Redis the event comes back through pub/sub, a moment after publish. */
  const waitFor = async (type: string, spaceId: number) => {
    for (let i = 0; i < 100; i++) {
      const found = seen.find((e) => e.type === type && e.spaceId === spaceId);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no ${type} event`);
  };
  return { seen, stop, waitFor };
}

async function counters(objectId: number) {
  const rows = await t.deps.database.db
    .select()
    .from(inboxCounters)
    .where(eq(inboxCounters.objectId, objectId));
  return Object.fromEntries(rows.filter((r) => r.count !== 0).map((r) => [`${r.kind}:${r.status}`, r.count]));
}

describe('ingest — items', () => {
  it('stores a comment with its post and author, records it, counts it and publishes it', async () => {
    const { object } = await setup();
    const { waitFor, stop } = captureEvents();
    const event = commentEvent({ text: 'Где мой заказ?' });
    const result = await ingest(deps(), object, [event]);
    expect(result).toMatchObject({ created: 1, duplicates: 0, excluded: 0, invalid: [] });
    const [row] = await t.deps.database.db.select().from(items).where(eq(items.id, result.itemIds[0]!));
    expect(row).toMatchObject({ kind: 'comment', status: 'new', text: 'Где мой заказ?', isOwn: false });
    expect(row!.postId).not.toBeNull();
    const [author] = await t.deps.database.db.select().from(authors).where(eq(authors.id, row!.authorId!));
    expect(author).toMatchObject({ name: 'Customer One', provider: 'sandbox', externalId: 'u-1' });
    expect(await counters(object.id)).toEqual({ 'items:new': 1 });
    const [record] = await t.deps.database.db.select().from(activity).where(eq(activity.itemId, row!.id));
    expect(record).toMatchObject({ type: 'item.received', causeKind: 'customer' });
    const created = await waitFor('items.created', object.spaceId);
    stop();
    expect((created.payload.items as Array<{ text: string; author: { name: string } }>)[0]).toMatchObject({
      text: 'Где мой заказ?',
      author: { name: 'Customer One' },
    });
  });

  it('the same event delivered twice stores one item and changes nothing', async () => {
    const { object } = await setup();
    const event = commentEvent();
    await ingest(deps(), object, [event]);
    const [before] = await t.deps.database.db.select().from(items).where(eq(items.objectId, object.id));
    const { seen, stop } = captureEvents();
    const again = await ingest(deps(), object, [event, event]);
    await new Promise((r) => setTimeout(r, 100));
    stop();
    expect(again).toMatchObject({ created: 0, duplicates: 1 });
    const rows = await t.deps.database.db.select().from(items).where(eq(items.objectId, object.id));
    expect(rows).toEqual([before]);
    expect(await counters(object.id)).toEqual({ 'items:new': 1 });
    expect(seen.filter((e) => e.spaceId === object.spaceId)).toEqual([]);
  });

  it('links replies to parents whichever arrives first', async () => {
    const { object } = await setup();
    const parent = commentEvent({ externalId: 'p-1' });
    const child = commentEvent({
      externalId: 'c-1',
      parentExternalId: 'p-1',
      author: { externalId: 'u-2', name: 'Two' },
    });
    await ingest(deps(), object, [child]);
    await ingest(deps(), object, [parent]);
    const rows = await t.deps.database.db.select().from(items).where(eq(items.objectId, object.id));
    const p = rows.find((r) => r.externalId === 'p-1')!;
    expect(rows.find((r) => r.externalId === 'c-1')!.parentId).toBe(p.id);
  });

  it("fills in a post's text when the first event about it carried none", async () => {
    const { object } = await setup();
    await ingest(deps(), object, [commentEvent({ post: { externalId: 'p-late', text: '' } })]);
    await ingest(deps(), object, [
      commentEvent({ post: { externalId: 'p-late', text: 'The channel post' } }),
    ]);
    await ingest(deps(), object, [commentEvent({ post: { externalId: 'p-late', text: 'Changed later' } })]);
    const [post] = await t.deps.database.db.select().from(posts).where(eq(posts.objectId, object.id));
    expect(post!.text).toBe('The channel post');
  });

  it('applies the account exclusions by word and by author', async () => {
    const { object } = await setup({ exclude: { words: ['casino'], authors: ['spammer'] } });
    const result = await ingest(deps(), object, [
      commentEvent({ text: 'Best CASINO here' }),
      commentEvent({ author: { externalId: 'spammer', name: 'S' } }),
      commentEvent({ text: 'A real question' }),
    ]);
    expect(result).toMatchObject({ created: 1, excluded: 2 });
  });

  it('stores a batch of only our own replies (made in the network app) as closed history', async () => {
    const { object } = await setup();
    const result = await ingest(deps(), object, [
      commentEvent({ isOwn: true, author: { externalId: 'page', name: 'Page' } }),
    ]);
    expect(result.created).toBe(1);
    const [row] = await t.deps.database.db.select().from(items).where(eq(items.objectId, object.id));
    expect(row).toMatchObject({ isOwn: true, status: 'closed', delivery: 'sent' });
    expect(await counters(object.id)).toEqual({});
  });

  it('reports invalid events and stores the valid ones', async () => {
    const { object } = await setup();
    const result = await ingest(deps(), object, [{ type: 'item', kind: 'comment' }, commentEvent()]);
    expect(result.created).toBe(1);
    expect(result.invalid).toHaveLength(1);
    expect(result.invalid[0]!.index).toBe(0);
  });

  it('edits, deletions and restorations update the stored item once', async () => {
    const { object } = await setup();
    const event = commentEvent({ externalId: 'e-1' });
    await ingest(deps(), object, [event]);
    const edit = { type: 'change', target: 'item', externalId: 'e-1', change: 'edited', text: 'Edited text' };
    expect((await ingest(deps(), object, [edit])).updated).toBe(1);
    expect((await ingest(deps(), object, [edit])).updated).toBe(0);
    await ingest(deps(), object, [{ type: 'change', target: 'item', externalId: 'e-1', change: 'deleted' }]);
    let [row] = await t.deps.database.db.select().from(items).where(eq(items.objectId, object.id));
    expect(row).toMatchObject({ text: 'Edited text', isDeleted: true, status: 'deleted' });
    expect(await counters(object.id)).toEqual({ 'items:deleted': 1 });
    await ingest(deps(), object, [{ type: 'change', target: 'item', externalId: 'e-1', change: 'restored' }]);
    [row] = await t.deps.database.db.select().from(items).where(eq(items.objectId, object.id));
    expect(row).toMatchObject({ isDeleted: false, status: 'new' });
  });
});

describe('ingest — a big round', () => {
  it('stores events past one chunk in order, each once, with one refused event losing only itself', async () => {
    const { object } = await setup();
    const total = INGEST_CHUNK * 2 + 5;
    const events: unknown[] = Array.from({ length: total }, (_, i) =>
      commentEvent({
        externalId: `big-${object.id}-${i}`,
        author: { externalId: `big-author-${i % 50}`, name: `Author ${i % 50}` },
        text: `Comment ${i}`,
      }),
    );
    // An id of 2,000 characters is refused (validation): that event alone is left out, in the second chunk.
    events[INGEST_CHUNK + 3] = commentEvent({ externalId: 'x'.repeat(2_000), text: 'too long an id' });
    const result = await ingest(deps(), object, events);
    expect(result.created).toBe(total - 1);
    expect(result.invalid.map((i) => i.index)).toEqual([INGEST_CHUNK + 3]);
    const again = await ingest(deps(), object, events.slice(0, INGEST_CHUNK + 1));
    expect(again).toMatchObject({ created: 0, duplicates: INGEST_CHUNK + 1 });
    expect(await counters(object.id)).toEqual({ 'items:new': total - 1 });
  });
});

describe('ingest — private messages', () => {
  it('creates the chat, appends messages, counts unread, dedupes, and reopens a closed chat', async () => {
    const { object } = await setup();
    const first = messageEvent({ externalId: 'm1', createdAt: new Date('2026-11-20T10:00:00Z') });
    const second = messageEvent({
      externalId: 'm2',
      text: 'Hello?',
      createdAt: new Date('2026-11-20T10:01:00Z'),
    });
    await ingest(deps(), object, [first, second, first]);
    let [chat] = await t.deps.database.db.select().from(chats).where(eq(chats.objectId, object.id));
    expect(chat).toMatchObject({
      status: 'new',
      unreadCount: 2,
      lastMessageText: 'Hello?',
      externalId: 'peer-1',
    });
    const stored = await t.deps.database.db.select().from(messages).where(eq(messages.chatId, chat!.id));
    expect(stored).toHaveLength(2);
    // Each customer message is recorded once for statistics (the duplicate is not).
    const records = await t.deps.database.db.select().from(activity).where(eq(activity.chatId, chat!.id));
    expect(records.map((r) => [r.type, r.causeKind, r.objectId, r.data.message_id]).sort()).toEqual(
      stored.map((m) => ['chat.received', 'customer', object.id, m.id]).sort(),
    );

    await t.deps.database.db
      .update(chats)
      .set({ status: 'closed', closeReason: 'reply' })
      .where(eq(chats.id, chat!.id));
    expect(await counters(object.id)).toEqual({ 'chats:closed': 1 });
    await ingest(deps(), object, [messageEvent({ externalId: 'm3', text: 'One more thing' })]);
    [chat] = await t.deps.database.db.select().from(chats).where(eq(chats.id, chat!.id));
    expect(chat).toMatchObject({ status: 'new', closeReason: null, unreadCount: 3 });
    expect(await counters(object.id)).toEqual({ 'chats:new': 1 });

    // Put off until tomorrow: the customer writing again ends the delay.
    await t.deps.database.db
      .update(chats)
      .set({ status: 'delayed', delayedUntil: new Date(Date.now() + 86_400_000) })
      .where(eq(chats.id, chat!.id));
    await ingest(deps(), object, [messageEvent({ externalId: 'm4', text: 'Are you there?' })]);
    [chat] = await t.deps.database.db.select().from(chats).where(eq(chats.id, chat!.id));
    expect(chat).toMatchObject({ status: 'new', delayedUntil: null, unreadCount: 4 });
    expect(await counters(object.id)).toEqual({ 'chats:new': 1 });
  });

  it('skips private messages when the account does not collect them', async () => {
    const { object } = await setup({ chats: false });
    const result = await ingest(deps(), object, [messageEvent()]);
    expect(result).toMatchObject({ created: 0, excluded: 1 });
    expect(
      await t.deps.database.db
        .select()
        .from(chats)
        .where(and(eq(chats.objectId, object.id))),
    ).toEqual([]);
  });

  it('drops stickers when the account setting says so', async () => {
    const { object } = await setup({ stickers: false });
    await ingest(deps(), object, [
      messageEvent({
        attachments: [
          { type: 'sticker', url: 'https://x/s.webp' },
          { type: 'image', url: 'https://x/p.jpg' },
        ],
      }),
    ]);
    const [chat] = await t.deps.database.db.select().from(chats).where(eq(chats.objectId, object.id));
    const [message] = await t.deps.database.db.select().from(messages).where(eq(messages.chatId, chat!.id));
    expect(message!.attachments.map((a) => a.type)).toEqual(['image']);
  });
});

/**
 * Runs `write` in a transaction of its own that stays open while `ingest` starts (so ingest's statements
 * wait on its rows), then commits it; returns what ingest returned. On PGlite the two simply run in turn.
 */
async function whileAnotherTransactionWrites(
  write: (tx: Db) => Promise<unknown>,
  store: () => ReturnType<typeof ingest>,
) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let written!: () => void;
  const didWrite = new Promise<void>((resolve) => {
    written = resolve;
  });
  const other = t.deps.database.db.transaction(async (tx) => {
    await write(tx as unknown as Db);
    written();
    await held;
  });
  await didWrite;
  const storing = store();
  await new Promise((r) => setTimeout(r, 100));
  release();
  await other;
  return storing;
}

describe('ingest — concurrent writers', () => {
  it('a new chat gets its customer even when another transaction created that author meanwhile', async () => {
    const { space, object } = await setup();
    const db = t.deps.database.db;
    const person = `u-new-chat-${Date.now()}`;
    await whileAnotherTransactionWrites(
      (tx) =>
        tx
          .insert(authors)
          .values({ spaceId: space.id, provider: object.provider, externalId: person, name: 'Борис' }),
      () =>
        ingest(deps(), object, [
          messageEvent({ chatExternalId: person, author: { externalId: person, name: 'Борис' } }),
        ]),
    );
    const [author] = await db
      .select()
      .from(authors)
      .where(and(eq(authors.spaceId, space.id), eq(authors.externalId, person)));
    const [chat] = await db.select().from(chats).where(eq(chats.objectId, object.id));
    expect(chat!.authorId).toBe(author!.id);
  });

  // Another node (or a poll beside a webhook) may create the same author or chat a moment earlier; the
  // batch that waited on that row must still find it and link to it.
  it('finds an author and a chat another transaction created while this batch waited', async () => {
    const { space, object } = await setup();
    const db = t.deps.database.db;
    const person = `u-concurrent-${Date.now()}`;
    const result = await whileAnotherTransactionWrites(
      async (tx) => {
        await tx
          .insert(authors)
          .values({ spaceId: space.id, provider: object.provider, externalId: person, name: 'Анна' });
        await tx.insert(chats).values({
          spaceId: space.id,
          objectId: object.id,
          externalId: person,
          lastMessageAt: new Date('2026-01-01T00:00:00Z'),
        });
      },
      () =>
        ingest(deps(), object, [
          commentEvent({ author: { externalId: person, name: 'Анна' } }),
          messageEvent({ chatExternalId: person, author: { externalId: person, name: 'Анна' } }),
        ]),
    );
    expect(result.created).toBe(2);
    const [author] = await db
      .select()
      .from(authors)
      .where(and(eq(authors.spaceId, space.id), eq(authors.externalId, person)));
    const [item] = await db.select().from(items).where(eq(items.id, result.itemIds[0]!));
    expect(item!.authorId).toBe(author!.id);
    const chatRows = await db.select().from(chats).where(eq(chats.objectId, object.id));
    expect(chatRows).toHaveLength(1);
    const [message] = await db.select().from(messages).where(eq(messages.id, result.messageIds[0]!));
    expect(message!.chatId).toBe(chatRows[0]!.id);
  });
});
