import { chatWireSchema, itemWireSchema, pageWireSchema } from '@otklik/shared';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, loginTokens } from '../../../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { buildObject, commentEvent, messageEvent } from '../../../../test/inbox-helpers';
import { authorLabels, authors, chats, chatTags, items, itemTags, labels, tags } from '../../../db/schema';
import { ingest } from '../ingest/ingest';
import { presentChats, presentItems } from './read-present';

// List pages are written as JSON by PostgreSQL (list-json.ts); presenter.ts defines the shape. The same
// rows through both must be equal, field by field, for every kind of value a row can hold, and the page
// must be what the shared wire schema (packages/shared inbox-wire.ts) declares: the route sends these
// bytes as they are (http/prebuilt-json.ts), so this is where the page is held to the contract.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const db = () => t.deps.database.db;

const TEXTS = [
  'Короткий ответ',
  '  Пробелы\tтабы\nи переводы строк\r\n  ',
  'Неразрывный\u00a0пробел и\u2003широкий\u3000пробел\ufeff',
  'а'.repeat(100),
  'б'.repeat(101),
  `${'😀'.repeat(99)}é`,
  `${'😀'.repeat(120)} хвост`,
  '',
];

async function scene() {
  const { user, space } = await buildUser(t);
  const tokens = await loginTokens(t, user.email);
  const object = await buildObject(t, space.id, { provider: 'vk' });
  const deps = { db: db(), bus: t.deps.bus };
  const comments = await ingest(
    deps,
    object,
    TEXTS.map((text, i) =>
      commentEvent({
        text,
        author: { externalId: `author-${i % 3}`, name: `Автор ${i % 3}` },
        attachments:
          i === 1 ? [{ type: 'image', url: 'https://example.test/a.jpg', width: 10, height: 20 }] : [],
        ...(i === 2 ? { kind: 'review', rating: 4 } : {}),
      }),
    ),
  );
  await ingest(
    deps,
    object,
    TEXTS.map((text, i) =>
      messageEvent({
        chatExternalId: `peer-${i}`,
        text,
        author: { externalId: `author-${i % 3}`, name: 'Автор' },
      }),
    ),
  );
  const authorRows = await db().select().from(authors).where(eq(authors.spaceId, space.id));
  const byExternal = (id: string) => authorRows.find((a) => a.externalId === id)!;
  // Blocked forever, blocked until later, block that ended; one with two labels.
  await db()
    .update(authors)
    .set({ blockedForever: true })
    .where(eq(authors.id, byExternal('author-0').id));
  await db()
    .update(authors)
    .set({ blockedUntil: new Date(Date.now() + 3_600_000) })
    .where(eq(authors.id, byExternal('author-1').id));
  await db()
    .update(authors)
    .set({ blockedUntil: new Date(Date.now() - 3_600_000) })
    .where(eq(authors.id, byExternal('author-2').id));
  const [l1, l2] = await db()
    .insert(labels)
    .values([
      { spaceId: space.id, name: 'VIP' },
      { spaceId: space.id, name: 'Опт' },
    ])
    .returning();
  await db()
    .insert(authorLabels)
    .values([
      { authorId: byExternal('author-1').id, labelId: l2!.id, spaceId: space.id },
      { authorId: byExternal('author-1').id, labelId: l1!.id, spaceId: space.id },
    ]);
  const [tagA, tagB] = await db()
    .insert(tags)
    .values([
      { spaceId: space.id, name: 'Доставка' },
      { spaceId: space.id, name: 'Оплата' },
    ])
    .returning();
  const [first, second] = comments.itemIds;
  await db()
    .insert(itemTags)
    .values([
      { itemId: first!, tagId: tagB!.id, spaceId: space.id },
      { itemId: first!, tagId: tagA!.id, spaceId: space.id },
    ]);
  await db()
    .update(items)
    .set({
      status: 'inprogress',
      delayedUntil: new Date('2026-12-01T10:00:00.750Z'),
      assignedUserId: user.id,
      reactions: [{ value: '1', count: 2, own: true }],
      editedAt: new Date('2026-11-02T10:00:00.999Z'),
    })
    .where(eq(items.id, second!));
  const chatRows = await db().select().from(chats).where(eq(chats.objectId, object.id));
  await db().insert(chatTags).values({ chatId: chatRows[0]!.id, tagId: tagA!.id, spaceId: space.id });
  await db()
    .update(chats)
    .set({ status: 'inprogress', delayedUntil: new Date('2026-12-01T10:00:00Z'), assignedUserId: user.id })
    .where(eq(chats.id, chatRows[1]!.id));
  return {
    headers: bearer(tokens.access_token),
    object,
    itemIds: comments.itemIds,
    chatIds: chatRows.map((c) => c.id),
  };
}

const byId = <T extends { id: number }>(list: T[]) => [...list].sort((a, b) => a.id - b.id);

describe('list pages written by PostgreSQL', () => {
  it('items are exactly what presentItems gives for the same rows', async () => {
    const s = await scene();
    const res = await t.app.inject({ url: '/v1/items?limit=100', headers: s.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const page = pageWireSchema(itemWireSchema).strict().safeParse(res.json());
    expect(page.error).toBeUndefined();
    const listed = res.json().items as Array<{ id: number }>;
    expect(listed).toHaveLength(TEXTS.length);
    const rows = await db().select().from(items).where(inArray(items.id, s.itemIds));
    const presented = await presentItems(db(), rows);
    expect(byId(listed)).toEqual(byId(JSON.parse(JSON.stringify(presented))));
  });

  it('chats are exactly what presentChats gives for the same rows', async () => {
    const s = await scene();
    const res = await t.app.inject({ url: '/v1/chats?limit=100', headers: s.headers });
    expect(res.statusCode, res.body).toBe(200);
    const page = pageWireSchema(chatWireSchema).strict().safeParse(res.json());
    expect(page.error).toBeUndefined();
    const listed = res.json().items as Array<{ id: number }>;
    expect(listed).toHaveLength(TEXTS.length);
    const rows = await db().select().from(chats).where(inArray(chats.id, s.chatIds));
    const presented = await presentChats(db(), rows);
    expect(byId(listed)).toEqual(byId(JSON.parse(JSON.stringify(presented))));
  });
});
