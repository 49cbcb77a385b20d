import type { AddressInfo } from 'node:net';
import { MATCH_END, MATCH_START, presetFor } from '@otklik/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { commentEvent, messageEvent } from '../../../../test/inbox-helpers';
import { openSocket } from '../../../../test/socket';
import { authorLabels, chats, items, itemTags, labels, tags, userGroups } from '../../../db/schema';
import { decodeCursor, encodeCursor } from './list-params';
import { at, ids, readKit, unix } from './read-kit';

let t: TestApp;
let wsBase: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws?access_token=`;
});
afterAll(() => t.close());

const { db, buildTeam, buildMember, ingestEvents, get } = readKit(() => t);

interface ListedItem {
  id: number;
  text: string;
  status: string;
  kind: string;
  provider: string;
  object_id: number;
  tags: number[];
  excerpt: string;
  author: { id: number; name: string } | null;
}

const listItems = (headers: Record<string, string>, query = '') =>
  get<{ items: ListedItem[]; next: string | null }>(headers, `/v1/items${query ? `?${query}` : ''}`);

async function setItem(id: number, values: Partial<typeof items.$inferInsert>) {
  await db().update(items).set(values).where(eq(items.id, id));
}

/**
 * Nine items over two accounts with known statuses, kinds, authors, dates, tags and assignees.
 * Listed newest first by default: c9 … c1 (only those still new/in progress).
 */
async function buildInbox() {
  const team = await buildTeam();
  const ev = (n: number, extra: Record<string, unknown> = {}) =>
    commentEvent({ externalId: `c${n}`, createdAt: at(n), text: `Comment number ${n}`, ...extra });
  const vkResult = await ingestEvents(team.vk, [
    ev(1, { text: 'Где мой заказ? Жду уже неделю' }),
    ev(2, { kind: 'review', rating: 2, text: 'I ordered shoes and they never came' }),
    ev(3, { author: { externalId: 'u-2', name: 'Second Author' } }),
    ev(4),
    ev(5, { kind: 'mention' }),
    // Our own reply made in the network's app: history, never listed.
    ev(6, { isOwn: true, parentExternalId: 'c1', author: { externalId: 'acc', name: 'Account' } }),
  ]);
  const sbResult = await ingestEvents(team.sandbox, [
    ev(7),
    ev(8),
    ev(9, { text: 'Отличный сервис, спасибо' }),
  ]);
  const byExternal = new Map<string, number>();
  const rows = await db()
    .select({ id: items.id, externalId: items.externalId })
    .from(items)
    .where(inArray(items.id, [...vkResult.itemIds, ...sbResult.itemIds]));
  for (const r of rows) byExternal.set(r.externalId!, r.id);
  const id = (n: number) => byExternal.get(`c${n}`)!;
  await setItem(id(3), { status: 'inprogress', assignedUserId: team.user.id });
  await setItem(id(4), { status: 'closed', closeReason: 'noreply' });
  await setItem(id(8), { status: 'closed', closeReason: 'reply' });
  await setItem(id(7), { status: 'inprogress' });
  const [tagA, tagB] = await db()
    .insert(tags)
    .values([
      { spaceId: team.space.id, name: 'Доставка' },
      { spaceId: team.space.id, name: 'Refund' },
    ])
    .returning();
  await db()
    .insert(itemTags)
    .values([
      { itemId: id(1), tagId: tagA!.id, spaceId: team.space.id },
      { itemId: id(1), tagId: tagB!.id, spaceId: team.space.id },
      { itemId: id(7), tagId: tagB!.id, spaceId: team.space.id },
    ]);
  return { ...team, id, tagA: tagA!, tagB: tagB! };
}

describe('GET /v1/items', () => {
  it('lists new and in-progress customer items newest first, with author, tags and provider', async () => {
    const inbox = await buildInbox();
    const [item1] = await db()
      .select()
      .from(items)
      .where(eq(items.id, inbox.id(1)));
    const [vip] = await db().insert(labels).values({ spaceId: inbox.space.id, name: 'VIP' }).returning();
    await db()
      .insert(authorLabels)
      .values({ authorId: item1!.authorId!, labelId: vip!.id, spaceId: inbox.space.id });
    const list = await listItems(inbox.headers);
    expect(ids(list)).toEqual([9, 7, 5, 3, 2, 1].map(inbox.id));
    expect(list.next).toBeNull();
    const first = list.items.find((i) => i.id === inbox.id(1))!;
    expect(first).toMatchObject({
      provider: 'vk',
      object_id: inbox.vk.id,
      status: 'new',
      author: { name: 'Customer One', labels: [vip!.id] },
    });
    expect(first.tags.sort()).toEqual([inbox.tagA.id, inbox.tagB.id].sort());
    expect(list.items.find((i) => i.id === inbox.id(9))).toMatchObject({ provider: 'sandbox', tags: [] });
    expect(list.items.find((i) => i.id === inbox.id(3))!.author).toMatchObject({ name: 'Second Author' });
  });

  it('applies every filter, alone and together, and accepts a=1&a=2, a[]=1 and a lone a=1', async () => {
    const inbox = await buildInbox();
    const { id } = inbox;
    const author2 = (
      await db()
        .select()
        .from(items)
        .where(eq(items.id, id(3)))
    )[0]!.authorId!;
    const cases: Array<[string, number[]]> = [
      ['status=closed', [8, 4]],
      ['status[]=closed', [8, 4]],
      ['status=new&status=closed', [9, 8, 5, 4, 2, 1]],
      ['kind=review', [2]],
      ['kind[]=review&kind[]=mention', [5, 2]],
      ['provider=sandbox', [9, 7]],
      [`object_id=${inbox.vk.id}`, [5, 3, 2, 1]],
      [`tag_id=${inbox.tagB.id}`, [7, 1]],
      [`tag_id=${inbox.tagA.id}&tag_id=${inbox.tagB.id}`, [7, 1]],
      [`assigned_user_id=${inbox.user.id}`, [3]],
      ['assigned_user_id=none', [9, 7, 5, 2, 1]],
      [`assigned_user_id=none&assigned_user_id=${inbox.user.id}`, [9, 7, 5, 3, 2, 1]],
      [`author_id=${author2}`, [3]],
      [`created_at_from=${unix(at(3))}&created_at_to=${unix(at(7))}`, [7, 5, 3]],
      [`created_at_from=${unix(at(8))}`, [9]],
      ['status=closed&close_reason=noreply', [4]],
      // The close reason narrows closed rows only; the new ones stay.
      ['status=new&status=closed&close_reason=noreply', [9, 5, 4, 2, 1]],
      ['q=заказа', [1]],
      [`provider=vk&kind=comment&tag_id=${inbox.tagA.id}&created_at_to=${unix(at(2))}`, [1]],
      [`object_id=${inbox.sandbox.id}&status=new&status=inprogress&status=closed&reversed=1`, [7, 8, 9]],
      [`object_id=${inbox.vk.id}&object_id=${inbox.sandbox.id}`, [9, 7, 5, 3, 2, 1]],
      // Many accounts × every status: merged per space instead of per account (the same answer).
      [
        `${['new', 'inprogress', 'open', 'closed', 'deleted', 'delayed', 'waiting'].map((st) => `status=${st}`).join('&')}&${[inbox.vk.id, inbox.sandbox.id, ...Array.from({ length: 8 }, (_, n) => 900_000_000 + n)].map((o) => `object_id=${o}`).join('&')}`,
        [9, 8, 7, 5, 4, 3, 2, 1],
      ],
    ];
    for (const [query, expected] of cases) {
      expect(ids(await listItems(inbox.headers, query)), query).toEqual(expected.map(id));
    }
  });

  it('pages with a cursor without duplicates or gaps, across statuses and equal timestamps, both ways', async () => {
    const team = await buildTeam();
    const same = at(100);
    const events = Array.from({ length: 11 }, (_, n) =>
      commentEvent({ externalId: `p${n}`, createdAt: n % 3 === 0 ? same : at(n) }),
    );
    const result = await ingestEvents(team.vk, events);
    // Spread over the two default statuses so every page merges both.
    await db()
      .update(items)
      .set({ status: 'inprogress' })
      .where(
        inArray(
          items.id,
          result.itemIds.filter((_, i) => i % 2 === 0),
        ),
      );
    const all = await db()
      .select({ id: items.id, createdAt: items.createdAt })
      .from(items)
      .where(eq(items.objectId, team.vk.id));
    const newest = [...all]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
      .map((r) => r.id);

    for (const [reversed, expected] of [
      ['0', newest],
      ['1', [...newest].reverse()],
    ] as const) {
      const seen: number[] = [];
      let next: string | null = null;
      let pages = 0;
      do {
        const cursor: string = next ? `&before=${next}` : '';
        const page = await listItems(team.headers, `limit=3&reversed=${reversed}${cursor}`);
        expect(page.items.length).toBeLessThanOrEqual(3);
        seen.push(...ids(page));
        next = page.next;
        pages += 1;
      } while (next && pages < 10);
      expect(seen).toEqual(expected);
      expect(pages).toBe(4);
    }
  });

  it('finds words in any form, Russian and English (q)', async () => {
    const team = await buildTeam();
    const result = await ingestEvents(team.vk, [
      commentEvent({ text: 'Где мой заказ?' }),
      commentEvent({ text: 'Заказы приходят вовремя' }),
      commentEvent({ text: 'The order was delivered late' }),
      commentEvent({ text: 'Nothing to see here' }),
    ]);
    const [zakaz, zakazy, order] = result.itemIds;
    const search = async (q: string) =>
      ids(await listItems(team.headers, `q=${encodeURIComponent(q)}`)).sort();
    expect(await search('заказа')).toEqual([zakaz, zakazy].sort());
    expect(await search('orders')).toEqual([order]);
    expect(await search('delivering')).toEqual([order]);
    expect(await search('заказ -вовремя')).toEqual([zakaz]);
    expect(await search('"order was"')).toEqual([order]);
    expect(await search('самолёт')).toEqual([]);
  });

  it('searches every status when no status is asked for; an explicit status still narrows the search', async () => {
    const team = await buildTeam();
    const result = await ingestEvents(team.vk, [
      commentEvent({ text: 'Верните деньги за заказ', createdAt: at(1) }),
      commentEvent({ text: 'Заказ пришёл, спасибо', createdAt: at(2) }),
      commentEvent({ text: 'Где заказ?', createdAt: at(3) }),
      commentEvent({ text: 'Просто отзыв', createdAt: at(4) }),
    ]);
    const [closed, waiting, fresh, other] = result.itemIds as [number, number, number, number];
    await setItem(closed, { status: 'closed', closeReason: 'reply' });
    await setItem(waiting, { status: 'waiting' });
    await setItem(other, { status: 'deleted' });
    const search = async (query: string) => ids(await listItems(team.headers, query));
    expect(await search(`q=${encodeURIComponent('заказ')}`)).toEqual([fresh, waiting, closed]);
    expect(await search(`q=${encodeURIComponent('отзыв')}`)).toEqual([other]);
    expect(await search(`q=${encodeURIComponent('заказ')}&status=new`)).toEqual([fresh]);
    // Without a text the list keeps docs/product/limits.md's default queue (new and in progress).
    expect(await search('')).toEqual([fresh]);
  });

  it('gives each row found by text the passage around the words found, those words marked', async () => {
    const team = await buildTeam();
    const long = `${'Спасибо за кофе и за быстрое обслуживание в центре. '.repeat(6)}Но заказ потерялся по дороге, верните деньги.`;
    const [found] = (await ingestEvents(team.vk, [commentEvent({ text: long })])).itemIds;
    const row = (await listItems(team.headers, `q=${encodeURIComponent('заказы')}`)).items.find(
      (i) => i.id === found,
    ) as unknown as { excerpt: string; match: { text: string } };
    // The 100-character excerpt is the text's start; the passage is where the word is.
    expect(row.excerpt).not.toContain('заказ');
    expect(row.match.text).toContain(`${MATCH_START}заказ${MATCH_END} потерялся`);
    expect(row.match.text.length).toBeLessThan(long.length);
    // Without a search there is no passage.
    const plain = (await listItems(team.headers)).items.find((i) => i.id === found) as unknown as object;
    expect(plain).not.toHaveProperty('match');
  });

  it('shows nothing of other spaces, and a group member only the group accounts', async () => {
    const inbox = await buildInbox();
    const stranger = await buildTeam();
    await ingestEvents(stranger.vk, [commentEvent({ text: 'Stranger text' })]);
    expect(ids(await listItems(stranger.headers))).toHaveLength(1);
    expect(ids(await listItems(stranger.headers, `object_id=${inbox.vk.id}`))).toEqual([]);
    await get(stranger.headers, `/v1/items/${inbox.id(1)}`, 404);

    const [group] = await db()
      .insert(userGroups)
      .values({ spaceId: inbox.space.id, name: 'Sandbox desk', objectIds: [inbox.sandbox.id] })
      .returning();
    const limited = await buildMember(inbox.space.id, 'operator', { groupId: group!.id });
    expect(ids(await listItems(limited.headers))).toEqual([9, 7].map(inbox.id));
    // Asking for another account narrows nothing into view.
    expect(ids(await listItems(limited.headers, `object_id=${inbox.vk.id}`))).toEqual([]);
    await get(limited.headers, `/v1/items/${inbox.id(1)}`, 404);
    await get(limited.headers, `/v1/items/${inbox.id(9)}`);
  });

  it('refuses a caller without the comments role, and bad parameters', async () => {
    const inbox = await buildInbox();
    const chatsOnly = await buildMember(inbox.space.id, { ...presetFor('read-only'), items: false });
    const denied = await t.app.inject({ url: '/v1/items', headers: chatsOnly.headers });
    expect(denied.statusCode).toBe(403);
    await get(inbox.headers, '/v1/items?limit=201', 400);
    await get(inbox.headers, '/v1/items?limit=0', 400);
    await get(inbox.headers, '/v1/items?status=bogus', 400);
    await get(inbox.headers, '/v1/items?before=not-a-cursor', 400);
    await get(inbox.headers, '/v1/items?created_at_from=yesterday', 400);
    const unauthenticated = await t.app.inject({ url: '/v1/items' });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('documents the inbox endpoints in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json() as {
      paths: Record<string, unknown>;
    };
    for (const path of [
      '/v1/items',
      '/v1/items/{id}',
      '/v1/chats',
      '/v1/chats/{id}',
      '/v1/chats/{id}/messages',
      '/v1/search',
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });

  it('keeps cursors opaque and exact to the microsecond', () => {
    const cursor = { at: '2026-03-01T10:00:00.123456Z', id: 42 };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor(Buffer.from('2026-03-01~1').toString('base64url'))).toBeNull();
    expect(decodeCursor('')).toBeNull();
  });
});

describe('GET /v1/items/:id', () => {
  it('returns the item with its post, parent, replies in order (ours included) and author', async () => {
    const team = await buildTeam();
    await ingestEvents(team.vk, [
      commentEvent({ externalId: 'root', createdAt: at(0), text: 'Root question' }),
      commentEvent({ externalId: 'q', createdAt: at(1), parentExternalId: 'root', text: 'Follow-up' }),
      commentEvent({
        externalId: 'own',
        createdAt: at(3),
        parentExternalId: 'q',
        isOwn: true,
        author: { externalId: 'acc', name: 'Our account' },
        text: 'Our answer',
      }),
      commentEvent({
        externalId: 'r2',
        createdAt: at(2),
        parentExternalId: 'q',
        author: { externalId: 'u-9', name: 'Neighbour' },
        text: 'Me too',
      }),
    ]);
    const rows = await db().select().from(items).where(eq(items.objectId, team.vk.id));
    const byExt = (e: string) => rows.find((r) => r.externalId === e)!;
    const detail = await get<{
      item: ListedItem;
      post: { text: string };
      parent: ListedItem | null;
      thread: Array<ListedItem & { is_own: boolean }>;
      author: { name: string };
    }>(team.headers, `/v1/items/${byExt('q').id}`);
    expect(detail.item).toMatchObject({ id: byExt('q').id, text: 'Follow-up', provider: 'vk' });
    expect(detail.post).toMatchObject({ text: 'Our post' });
    expect(detail.parent).toMatchObject({ id: byExt('root').id, text: 'Root question' });
    expect(detail.thread.map((i) => [i.text, i.is_own])).toEqual([
      ['Me too', false],
      ['Our answer', true],
    ]);
    expect(detail.thread[0]!.author).toMatchObject({ name: 'Neighbour' });
    expect(detail.author).toMatchObject({ name: 'Customer One' });
    await get(team.headers, '/v1/items/999999999', 404);
  });
});

describe('GET /v1/counts', () => {
  it('counts waiting comments and chats in the caller scope from the maintained counters', async () => {
    const team = await buildTeam();
    const counts = () =>
      get<{ items_count: number; chats_count: number }>(team.headers, '/v1/counts').then((c) => ({
        items: c.items_count,
        chats: c.chats_count,
      }));
    expect(await counts()).toEqual({ items: 0, chats: 0 });
    const vkItems = await ingestEvents(team.vk, [commentEvent(), commentEvent(), commentEvent()]);
    await ingestEvents(team.sandbox, [
      commentEvent(),
      messageEvent({ chatExternalId: 'a' }),
      messageEvent({ chatExternalId: 'b' }),
    ]);
    expect(await counts()).toEqual({ items: 4, chats: 2 });
    await setItem(vkItems.itemIds[0]!, { status: 'inprogress' });
    await setItem(vkItems.itemIds[1]!, { status: 'closed', closeReason: 'reply' });
    await db().update(chats).set({ status: 'open' }).where(eq(chats.objectId, team.sandbox.id));
    expect(await counts()).toEqual({ items: 3, chats: 2 });
    const config = await get<{ items_count: number }>(team.headers, '/v1/config');
    expect(config.items_count).toBe(3);

    const [group] = await db()
      .insert(userGroups)
      .values({ spaceId: team.space.id, name: 'VK desk', objectIds: [team.vk.id] })
      .returning();
    const limited = await buildMember(team.space.id, 'operator', { groupId: group!.id });
    expect(await get(limited.headers, '/v1/counts')).toMatchObject({ items_count: 2, chats_count: 0 });
    const stranger = await buildTeam();
    expect(await get(stranger.headers, '/v1/counts')).toMatchObject({ items_count: 0, chats_count: 0 });
  });
});

describe('GET /v1/search', () => {
  it('searches comments and messages in scope, with long excerpts', async () => {
    const team = await buildTeam();
    const long = `Заказ ${'очень длинный текст '.repeat(60)}`;
    await ingestEvents(team.vk, [
      commentEvent({ text: long }),
      commentEvent({ text: 'Nothing relevant' }),
      messageEvent({ text: 'Где мой заказ?' }),
    ]);
    const stranger = await buildTeam();
    await ingestEvents(stranger.vk, [commentEvent({ text: 'Мой заказ потерялся' })]);
    const found = await get<{
      items: Array<{ text: string; excerpt: string }>;
      messages: Array<{ chat_id: number; message: { text: string }; excerpt: string }>;
    }>(team.headers, `/v1/search?q=${encodeURIComponent('заказы')}`);
    expect(found.items).toHaveLength(1);
    expect(Array.from(found.items[0]!.excerpt)).toHaveLength(801);
    expect(found.items[0]!.excerpt.endsWith('…')).toBe(true);
    expect(found.messages).toHaveLength(1);
    expect(found.messages[0]).toMatchObject({
      message: { text: 'Где мой заказ?' },
      excerpt: 'Где мой заказ?',
    });
    const [chat] = await db().select().from(chats).where(eq(chats.objectId, team.vk.id));
    expect(found.messages[0]!.chat_id).toBe(chat!.id);
    await get(team.headers, '/v1/search', 400);
  });
});

describe('socket locks on items and chats', () => {
  it('one operator holds a lock; the other sees who, and gets it once the holder leaves', async () => {
    const team = await buildTeam();
    const created = await ingestEvents(team.vk, [commentEvent(), messageEvent()]);
    const itemId = created.itemIds[0]!;
    const [chat] = await db()
      .select()
      .from(chats)
      .where(and(eq(chats.objectId, team.vk.id)));
    const anna = await buildMember(team.space.id, 'operator', { name: 'Anna' });
    const boris = await buildMember(team.space.id, 'operator', { name: 'Boris' });
    const viewer = await buildMember(team.space.id, 'read-only', { name: 'Viktor' });
    const a = await openSocket(wsBase + anna.token);
    const b = await openSocket(wsBase + boris.token);
    const v = await openSocket(wsBase + viewer.token);
    try {
      await Promise.all([a, b, v].map((s) => s.waitFor((m) => m.type === 'hello')));
      const after = (s: typeof a) => {
        const from = s.messages.length;
        return (match: (m: Record<string, unknown>) => boolean) =>
          s.waitFor((m) => s.messages.indexOf(m) >= from && match(m));
      };
      const key = `item:${itemId}`;

      let bNext = after(b);
      a.send({ type: 'lock', key });
      expect(await a.waitFor((m) => m.type === 'lock' && m.key === key)).toMatchObject({ acquired: true });
      expect(await bNext((m) => m.type === 'locked' && m.key === key)).toMatchObject({
        user: { id: anna.user.id, name: 'Anna' },
      });

      bNext = after(b);
      b.send({ type: 'lock', key });
      expect(await bNext((m) => m.type === 'lock' && m.key === key)).toMatchObject({
        acquired: false,
        holder: { id: anna.user.id, name: 'Anna' },
      });

      // Viewing is not answering: a read-only member may not take the lock, but may see who holds it.
      v.send({ type: 'lock', key: `chat:${chat!.id}` });
      expect(await v.waitFor((m) => m.type === 'error' && m.request === 'lock')).toBeTruthy();
      v.send({ type: 'watch', key });
      expect(await v.waitFor((m) => m.type === 'lock_state' && m.key === key)).toMatchObject({
        holder: { name: expect.any(String) },
      });

      bNext = after(b);
      await a.close();
      expect(await bNext((m) => m.type === 'unlocked' && m.key === key)).toBeTruthy();
      bNext = after(b);
      b.send({ type: 'lock', key });
      expect(await bNext((m) => m.type === 'lock' && m.key === key)).toMatchObject({
        acquired: true,
        holder: { name: 'Boris' },
      });

      bNext = after(b);
      b.send({ type: 'lock', key: `chat:${chat!.id}` });
      expect(await bNext((m) => m.type === 'lock' && m.key === `chat:${chat!.id}`)).toMatchObject({
        acquired: true,
      });
    } finally {
      await Promise.all([a.close(), b.close(), v.close()]);
    }
  });

  it('refuses a lock on an item of another space', async () => {
    const team = await buildTeam();
    const created = await ingestEvents(team.vk, [commentEvent()]);
    const stranger = await buildTeam();
    const s = await openSocket(wsBase + stranger.token);
    try {
      s.send({ type: 'lock', key: `item:${created.itemIds[0]}` });
      expect(await s.waitFor((m) => m.type === 'error' && m.request === 'lock')).toBeTruthy();
      expect(s.messages.some((m) => m.type === 'lock')).toBe(false);
    } finally {
      await s.close();
    }
  });
});
