import { providers } from '@otklik/shared';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { buildObject, buildWorkspace } from '../../../../test/inbox-actions';
import { commentEvent, messageEvent } from '../../../../test/inbox-helpers';
import { chats, items, messages, objects } from '../../../db/schema';
import { ingest } from './ingest';

// Per-account settings (docs/product/screens-and-routes.md settings/accounts/{id}/exclude, exclude_messages, chats, stickers,
// reactions) as the settings screen saves them (PUT /v1/objects/:id), honoured by the one ingestion
// entry point: each setting both ways, asserting what is and is not stored.

let t: TestApp;
let spaceId: number;
let headers: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  const admin = await buildWorkspace(t);
  spaceId = admin.space.id;
  headers = admin.headers;
});
afterAll(() => t.close());

const db = () => t.deps.database.db;
const deps = () => ({ db: db(), bus: t.deps.bus });

/** A Telegram account (it offers all five settings) with `settings` saved through the API. */
async function accountWith(settings: Record<string, unknown>) {
  expect(providers.telegram.settings).toEqual(
    expect.arrayContaining(['exclude', 'exclude_messages', 'chats', 'stickers', 'reactions']),
  );
  const account = await buildObject(t, spaceId, { provider: 'telegram' });
  const res = await t.app.inject({
    method: 'PUT',
    url: `/v1/objects/${account.id}`,
    headers,
    payload: { settings },
  });
  expect(res.statusCode, res.body).toBe(200);
  const [row] = await db().select().from(objects).where(eq(objects.id, account.id));
  return row!;
}

const storedItems = (objectId: number) => db().select().from(items).where(eq(items.objectId, objectId));

async function storedMessages(objectId: number) {
  const chatRows = await db().select().from(chats).where(eq(chats.objectId, objectId));
  if (chatRows.length === 0) return [];
  return db()
    .select()
    .from(messages)
    .where(
      inArray(
        messages.chatId,
        chatRows.map((c) => c.id),
      ),
    );
}

const customer = (externalId: string, name = 'Customer') => ({ externalId, name });
const texts = (rows: Array<{ text: string }>) => rows.map((r) => r.text).sort();

describe('exclude (comments)', () => {
  it('skips comments by word (any case) and by author id or name; keeps the rest and our own', async () => {
    const account = await accountWith({ exclude: { words: ['казино'], authors: ['spam-1', 'Bot Vasya'] } });
    const result = await ingest(deps(), account, [
      commentEvent({ text: 'Лучшее КАЗИНО тут', author: customer('u-a') }),
      commentEvent({ text: 'by id', author: customer('spam-1') }),
      commentEvent({ text: 'by name', author: customer('u-b', 'bot vasya') }),
      commentEvent({ text: 'A real question', author: customer('u-c') }),
      commentEvent({ text: 'Our own reply about казино', isOwn: true, author: customer('page') }),
    ]);
    expect(result).toMatchObject({ created: 2, excluded: 3 });
    expect(texts(await storedItems(account.id))).toEqual(['A real question', 'Our own reply about казино']);
  });

  it('does not touch private messages', async () => {
    const account = await accountWith({ exclude: { words: ['казино'], authors: ['spam-1'] } });
    await ingest(deps(), account, [
      messageEvent({ text: 'Про казино', chatExternalId: 'p1', author: customer('p1') }),
      messageEvent({ text: 'from spam-1', chatExternalId: 'spam-1', author: customer('spam-1') }),
    ]);
    expect(texts(await storedMessages(account.id))).toEqual(['from spam-1', 'Про казино']);
  });
});

describe('exclude_messages (private messages)', () => {
  it('skips messages by word and by author; keeps the rest and our own', async () => {
    const account = await accountWith({
      exclude_messages: { words: ['crypto'], authors: ['spam-2', 'Mass Mailer'] },
    });
    const result = await ingest(deps(), account, [
      messageEvent({ text: 'Cheap CRYPTO', chatExternalId: 'c1', author: customer('c1') }),
      messageEvent({ text: 'by id', chatExternalId: 'spam-2', author: customer('spam-2') }),
      messageEvent({ text: 'by name', chatExternalId: 'c3', author: customer('c3', 'mass mailer') }),
      messageEvent({ text: 'Where is my order?', chatExternalId: 'c4', author: customer('c4') }),
      messageEvent({
        text: 'We sent crypto tips',
        chatExternalId: 'c4',
        isOwn: true,
        author: customer('bot'),
      }),
    ]);
    expect(result).toMatchObject({ created: 2, excluded: 3 });
    expect(texts(await storedMessages(account.id))).toEqual(['We sent crypto tips', 'Where is my order?']);
    // A chat exists only for the conversation that was kept.
    const chatRows = await db().select().from(chats).where(eq(chats.objectId, account.id));
    expect(chatRows.map((c) => c.externalId)).toEqual(['c4']);
  });

  it('does not touch comments', async () => {
    const account = await accountWith({ exclude_messages: { words: ['crypto'], authors: ['spam-2'] } });
    await ingest(deps(), account, [
      commentEvent({ text: 'About crypto', author: customer('u-1') }),
      commentEvent({ text: 'from spam-2', author: customer('spam-2') }),
    ]);
    expect(texts(await storedItems(account.id))).toEqual(['About crypto', 'from spam-2']);
  });
});

describe('chats (collect private messages)', () => {
  it('off: no chat and no message is stored, ours included; comments still are', async () => {
    const account = await accountWith({ chats: false });
    const result = await ingest(deps(), account, [
      messageEvent({ chatExternalId: 'q1', author: customer('q1') }),
      messageEvent({ chatExternalId: 'q1', isOwn: true, author: customer('bot') }),
      commentEvent({ text: 'A comment', author: customer('u-1') }),
    ]);
    expect(result).toMatchObject({ created: 1, excluded: 2 });
    expect(await db().select().from(chats).where(eq(chats.objectId, account.id))).toEqual([]);
    expect(texts(await storedItems(account.id))).toEqual(['A comment']);
  });

  it('on (the default): messages are stored', async () => {
    const account = await accountWith({ chats: true });
    const result = await ingest(deps(), account, [
      messageEvent({ chatExternalId: 'q2', author: customer('q2') }),
    ]);
    expect(result).toMatchObject({ created: 1, excluded: 0 });
    expect(await storedMessages(account.id)).toHaveLength(1);
  });
});

describe('stickers', () => {
  const withSticker = [
    { type: 'sticker', url: 'https://cdn.example/s.webp' },
    { type: 'image', url: 'https://cdn.example/p.jpg' },
  ];

  it('off: stickers are dropped from comments and messages, other files kept', async () => {
    const account = await accountWith({ stickers: false });
    await ingest(deps(), account, [
      commentEvent({ attachments: withSticker, author: customer('u-1') }),
      messageEvent({ attachments: withSticker, chatExternalId: 's1', author: customer('s1') }),
    ]);
    const [item] = await storedItems(account.id);
    const [message] = await storedMessages(account.id);
    expect(item!.attachments.map((a) => a.type)).toEqual(['image']);
    expect(message!.attachments.map((a) => a.type)).toEqual(['image']);
  });

  it('on: stickers are kept', async () => {
    const account = await accountWith({ stickers: true });
    await ingest(deps(), account, [
      commentEvent({ attachments: withSticker, author: customer('u-1') }),
      messageEvent({ attachments: withSticker, chatExternalId: 's2', author: customer('s2') }),
    ]);
    const [item] = await storedItems(account.id);
    const [message] = await storedMessages(account.id);
    expect(item!.attachments.map((a) => a.type)).toEqual(['sticker', 'image']);
    expect(message!.attachments.map((a) => a.type)).toEqual(['sticker', 'image']);
  });
});

describe('reactions', () => {
  const reacted = [{ value: '👍', count: 3 }];

  async function reactTo(settings: Record<string, unknown>) {
    const account = await accountWith(settings);
    await ingest(deps(), account, [
      commentEvent({ externalId: 'r-item', author: customer('u-1') }),
      messageEvent({ externalId: 'r-msg', chatExternalId: 'r1', author: customer('r1') }),
    ]);
    const result = await ingest(deps(), account, [
      { type: 'change', target: 'item', externalId: 'r-item', change: 'reactions', reactions: reacted },
      {
        type: 'change',
        target: 'message',
        chatExternalId: 'r1',
        externalId: 'r-msg',
        change: 'reactions',
        reactions: reacted,
      },
    ]);
    const [item] = await storedItems(account.id);
    const [message] = await storedMessages(account.id);
    return { result, item: item!, message: message! };
  }

  it('off: customers’ reactions are not stored on comments or messages', async () => {
    const { result, item, message } = await reactTo({ reactions: false });
    expect(result.updated).toBe(0);
    expect(item.reactions).toEqual([]);
    expect(message.reactions).toEqual([]);
  });

  it('on: they are', async () => {
    const { result, item, message } = await reactTo({ reactions: true });
    expect(result.updated).toBe(2);
    expect(item.reactions).toEqual(reacted);
    expect(message.reactions).toEqual(reacted);
  });

  it('off does not stop other changes (an edit still applies)', async () => {
    const account = await accountWith({ reactions: false });
    await ingest(deps(), account, [commentEvent({ externalId: 'e-item', author: customer('u-1') })]);
    const result = await ingest(deps(), account, [
      { type: 'change', target: 'item', externalId: 'e-item', change: 'edited', text: 'Edited' },
    ]);
    expect(result.updated).toBe(1);
    expect((await storedItems(account.id))[0]!.text).toBe('Edited');
  });
});
