import { presetFor, ROLE_PRESET_NAMES, type RolePresetName } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { commentEvent } from '../../../test/inbox-helpers';
import { authors, chats, itemTags, spaces, tags } from '../../db/schema';
import { ingest } from '../inbox/ingest/ingest';
import {
  authorIdOf,
  buildAdmin,
  buildMember,
  buildObject,
  buildUserGroup,
  type ObjectRow,
  writeAsCustomer,
} from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const get = (url: string, headers: Headers) => t.app.inject({ url, headers });
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** A space with one account and a customer who wrote 3 comments and 2 chat messages there. */
async function spaceWithCustomer() {
  const admin = await buildAdmin(t);
  const object = await buildObject(t, admin.space.id);
  const at = new Date('2026-03-01T10:00:00Z');
  const written = await writeAsCustomer(
    t,
    object,
    { externalId: 'cust-1', name: 'Анна Иванова', screenName: 'anna' },
    { comments: 3, messages: 2, at },
  );
  const authorId = await authorIdOf(t, object, 'cust-1');
  return { admin, object, at, written, authorId };
}

describe('GET /v1/authors/:id — the author page', () => {
  it('shows the author with labels and what they wrote: counts, first and last seen', async () => {
    const { admin, object, at, authorId } = await spaceWithCustomer();
    const res = await get(`/v1/authors/${authorId}`, admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      author: {
        id: authorId,
        space_id: admin.space.id,
        provider: object.provider,
        external_id: 'cust-1',
        name: 'Анна Иванова',
        screen_name: 'anna',
        image: null,
        url: null,
        blocked_until: null,
        blocked_forever: false,
        is_blocked: false,
        labels: [],
      },
      stats: {
        items_count: 3,
        chats_count: 1,
        first_seen: unix(at),
        last_seen: unix(at) + 2, // the third comment, 2 s after the first
      },
    });
  });

  it("is 404 for a missing author and for another space's author", async () => {
    const { authorId } = await spaceWithCustomer();
    const stranger = await buildAdmin(t);
    for (const url of [
      `/v1/authors/${authorId}`,
      `/v1/authors/${authorId}/items`,
      `/v1/authors/${authorId}/chats`,
      '/v1/authors/999999999',
    ]) {
      const res = await get(url, stranger.headers);
      expect(res.statusCode, url).toBe(404);
    }
    const label = await t.app.inject({
      method: 'PUT',
      url: `/v1/authors/${authorId}/labels`,
      headers: stranger.headers,
      payload: { label_ids: [] },
    });
    expect(label.statusCode).toBe(404);
  });

  it('a member limited to a user group sees only authors who wrote on their accounts', async () => {
    const { admin, object, authorId } = await spaceWithCustomer();
    const otherObject = await buildObject(t, admin.space.id);
    await writeAsCustomer(t, otherObject, { externalId: 'cust-2', name: 'Борис' }, { comments: 1 });
    const otherAuthorId = await authorIdOf(t, otherObject, 'cust-2');
    const group = await buildUserGroup(t, admin.space.id, [object.id]);
    const limited = await buildMember(t, admin.space.id, 'read-only', { groupId: group.id });

    expect((await get(`/v1/authors/${authorId}`, limited.headers)).statusCode).toBe(200);
    expect((await get(`/v1/authors/${otherAuthorId}`, limited.headers)).statusCode).toBe(404);
    const list = (await get('/v1/authors?scope=items', limited.headers)).json();
    expect(list.items.map((a: { id: number }) => a.id)).toEqual([authorId]);

    const empty = await buildUserGroup(t, admin.space.id, []);
    const nobody = await buildMember(t, admin.space.id, 'read-only', { groupId: empty.id });
    expect((await get(`/v1/authors/${authorId}`, nobody.headers)).statusCode).toBe(404);
  });

  it('a member who sees comments but not personal messages gets 403 on the chats tab, zero chats', async () => {
    const { admin, authorId } = await spaceWithCustomer();
    const commentsOnly = await buildMember(t, admin.space.id, { ...presetFor('read-only'), messages: false });
    const page = (await get(`/v1/authors/${authorId}`, commentsOnly.headers)).json();
    expect(page.stats).toMatchObject({ items_count: 3, chats_count: 0 });
    expect((await get(`/v1/authors/${authorId}/items`, commentsOnly.headers)).statusCode).toBe(200);
    const chatsRes = await get(`/v1/authors/${authorId}/chats`, commentsOnly.headers);
    expect(chatsRes.statusCode).toBe(403);
    expect(chatsRes.json().error).toBe('Нет доступа к личным сообщениям');
    expect((await get('/v1/authors?scope=chats', commentsOnly.headers)).statusCode).toBe(403);
  });
});

describe('GET /v1/authors/:id/items and /chats', () => {
  it('lists their comments newest first with tags, page by page with `before`', async () => {
    const { admin, object, written, authorId } = await spaceWithCustomer();
    const [tag] = await t.deps.database.db
      .insert(tags)
      .values({ spaceId: admin.space.id, name: 'Вопрос' })
      .returning();
    const newest = written.itemIds[2]!;
    await t.deps.database.db
      .insert(itemTags)
      .values({ itemId: newest, tagId: tag!.id, spaceId: admin.space.id });

    const first = (await get(`/v1/authors/${authorId}/items?limit=2`, admin.headers)).json();
    expect(first.items.map((i: { id: number }) => i.id)).toEqual([written.itemIds[2], written.itemIds[1]]);
    expect(first.items[0]).toMatchObject({
      space_id: admin.space.id,
      object_id: object.id,
      provider: object.provider,
      tags: [tag!.id],
      author: { id: authorId, name: 'Анна Иванова' },
    });
    expect(first.next_before).toBe(written.itemIds[1]);
    const second = (
      await get(`/v1/authors/${authorId}/items?limit=2&before=${first.next_before}`, admin.headers)
    ).json();
    expect(second).toMatchObject({ items: [{ id: written.itemIds[0] }], next_before: null });

    expect((await get(`/v1/authors/${authorId}/items?limit=101`, admin.headers)).statusCode).toBe(400);
    expect((await get(`/v1/authors/${authorId}/items?limit=0`, admin.headers)).statusCode).toBe(400);
  });

  it('lists their chats, latest first', async () => {
    const { admin, object, authorId } = await spaceWithCustomer();
    const second = await buildObject(t, admin.space.id);
    await writeAsCustomer(t, second, { externalId: 'cust-1', name: 'Анна Иванова' }, { messages: 1 });
    // Same person on another account of the same network is the same author (space, provider, id).
    expect(await authorIdOf(t, second, 'cust-1')).toBe(authorId);
    const res = (await get(`/v1/authors/${authorId}/chats?limit=1`, admin.headers)).json();
    expect(res.items).toHaveLength(1);
    expect(res.items[0]).toMatchObject({ object_id: second.id, author: { id: authorId }, tags: [] });
    const rest = (await get(`/v1/authors/${authorId}/chats?before=${res.next_before}`, admin.headers)).json();
    expect(rest).toMatchObject({ items: [{ object_id: object.id }], next_before: null });
    const page = (await get(`/v1/authors/${authorId}`, admin.headers)).json();
    expect(page.stats.chats_count).toBe(2);
  });
});

describe('GET /v1/authors — {items|chats|issues}/authors', () => {
  async function crowd() {
    const admin = await buildAdmin(t);
    const object = await buildObject(t, admin.space.id);
    await writeAsCustomer(t, object, { externalId: 'a', name: 'Alice 100%' }, { comments: 1 });
    await writeAsCustomer(t, object, { externalId: 'b', name: 'Bob_Smith' }, { comments: 1, messages: 1 });
    await writeAsCustomer(t, object, { externalId: 'c', name: 'Carol' }, { messages: 3 });
    // Our own reply is the account speaking: its author is not a customer. (Sent with a customer's
    // comment: ingest cannot yet take a batch of only own items — reported to modules/inbox.)
    await ingest({ db: t.deps.database.db, bus: t.deps.bus }, object, [
      commentEvent({ author: { externalId: 'a', name: 'Alice 100%' } }),
      commentEvent({ isOwn: true, author: { externalId: 'account', name: 'Our account' } }),
    ]);
    const ids = {
      a: await authorIdOf(t, object, 'a'),
      b: await authorIdOf(t, object, 'b'),
      c: await authorIdOf(t, object, 'c'),
    };
    return { admin, object, ids };
  }
  const names = (body: { items: Array<{ name: string }> }) => body.items.map((a) => a.name);

  it('scope=items: authors of comments with their counts, newest first; scope=chats: of chats', async () => {
    const { admin, ids } = await crowd();
    const items = (await get('/v1/authors?scope=items', admin.headers)).json();
    expect(names(items)).toEqual(['Bob_Smith', 'Alice 100%']);
    expect(items.items[0]).toMatchObject({
      id: ids.b,
      space_id: admin.space.id,
      items_count: 1,
      chats_count: 1,
    });
    expect(items.items[1]).toMatchObject({ id: ids.a, items_count: 2, chats_count: 0, labels: [] });
    expect(items.next_before).toBeNull();
    expect(names((await get('/v1/authors', admin.headers)).json())).toEqual(['Bob_Smith', 'Alice 100%']);
    const chatsList = (await get('/v1/authors?scope=chats', admin.headers)).json();
    expect(names(chatsList)).toEqual(['Carol', 'Bob_Smith']);
    expect(chatsList.items[0]).toMatchObject({ items_count: 0, chats_count: 1 });
  });

  it('scope=issues: the authors the visible tasks are about, linked themselves or through a dialog', async () => {
    const { admin, ids } = await crowd();
    // Without the space's tasks flag nobody lists task authors there.
    expect((await get('/v1/authors?scope=issues', admin.headers)).statusCode).toBe(403);
    await t.deps.database.db
      .update(spaces)
      .set({ settings: { labels: true, issues: true } })
      .where(eq(spaces.id, admin.space.id));
    expect((await get('/v1/authors?scope=issues', admin.headers)).json()).toEqual({
      items: [],
      next_before: null,
    });
    const [carolChat] = await t.deps.database.db.select().from(chats).where(eq(chats.authorId, ids.c));
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/issues',
      headers: admin.headers,
      payload: {
        space_id: admin.space.id,
        title: 'Перезвонить',
        links: [
          { kind: 'author', id: ids.a },
          { kind: 'chat', id: carolChat!.id },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const listed = (await get('/v1/authors?scope=issues', admin.headers)).json();
    // Bob wrote too, but no task is about him.
    expect(names(listed)).toEqual(['Carol', 'Alice 100%']);
    expect(listed.items[1]).toMatchObject({ id: ids.a, items_count: 2 });
  });

  it('pages with before/next_before', async () => {
    const { admin, ids } = await crowd();
    const first = (await get('/v1/authors?scope=chats&limit=1', admin.headers)).json();
    expect(first).toMatchObject({ items: [{ id: ids.c }], next_before: ids.c });
    const second = (await get(`/v1/authors?scope=chats&limit=1&before=${ids.c}`, admin.headers)).json();
    expect(second).toMatchObject({ items: [{ id: ids.b }], next_before: null });
  });

  it('searches names (wildcards taken literally), filters by label, blocked state and account', async () => {
    const { admin, object, ids } = await crowd();
    const search = async (q: string) =>
      names((await get(`/v1/authors?scope=items&q=${encodeURIComponent(q)}`, admin.headers)).json());
    expect(await search('ali')).toEqual(['Alice 100%']);
    expect(await search('%')).toEqual(['Alice 100%']);
    expect(await search('_')).toEqual(['Bob_Smith']);
    expect(await search('b_s')).toEqual(['Bob_Smith']);
    expect(await search('o%s')).toEqual([]);
    expect(await search('  ')).toEqual(['Bob_Smith', 'Alice 100%']);

    await t.deps.database.db.update(authors).set({ blockedForever: true }).where(eq(authors.id, ids.a));
    await t.deps.database.db
      .update(authors)
      .set({ blockedUntil: new Date(Date.now() - 1000) })
      .where(eq(authors.id, ids.b)); // an expired block is no block
    const blocked = (await get('/v1/authors?scope=items&blocked=1', admin.headers)).json();
    expect(blocked.items).toMatchObject([{ id: ids.a, is_blocked: true, blocked_forever: true }]);
    expect(names((await get('/v1/authors?scope=items&blocked=0', admin.headers)).json())).toEqual([
      'Bob_Smith',
    ]);

    const label = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/labels',
        headers: admin.headers,
        payload: { space_id: admin.space.id, name: 'VIP' },
      })
    ).json();
    await t.app.inject({
      method: 'PUT',
      url: `/v1/authors/${ids.b}/labels`,
      headers: admin.headers,
      payload: { label_ids: [label.id] },
    });
    const labelled = (await get(`/v1/authors?scope=items&label_id=${label.id}`, admin.headers)).json();
    expect(labelled.items).toMatchObject([{ id: ids.b, labels: [label.id] }]);

    const other = await buildObject(t, admin.space.id);
    await writeAsCustomer(t, other, { externalId: 'd', name: 'Dan' }, { comments: 1 });
    expect(names((await get(`/v1/authors?object_id=${other.id}`, admin.headers)).json())).toEqual(['Dan']);
    expect(names((await get(`/v1/authors?object_id=${object.id}`, admin.headers)).json())).toEqual([
      'Bob_Smith',
      'Alice 100%',
    ]);
  });

  it("never lists another space's authors", async () => {
    const { admin } = await crowd();
    const stranger = await buildAdmin(t);
    const list = (await get('/v1/authors?scope=items', stranger.headers)).json();
    expect(list).toEqual({ items: [], next_before: null });
    const asked = (await get(`/v1/authors?space_id=${admin.space.id}`, stranger.headers)).json();
    expect(asked.items).toEqual([]);
  });
});

describe('the five named roles (docs/product/roles.md) on authors', () => {
  let authorId: number;
  let labelId: number;
  const headersOf = {} as Record<RolePresetName, Headers>;
  let object: ObjectRow;

  beforeAll(async () => {
    const admin = await buildAdmin(t);
    object = await buildObject(t, admin.space.id);
    await writeAsCustomer(
      t,
      object,
      { externalId: 'role-1', name: 'Customer' },
      { comments: 1, messages: 1 },
    );
    authorId = await authorIdOf(t, object, 'role-1');
    labelId = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/labels',
        headers: admin.headers,
        payload: { space_id: admin.space.id, name: 'Role label' },
      })
    ).json().id;
    for (const role of ROLE_PRESET_NAMES)
      headersOf[role] = (await buildMember(t, admin.space.id, role)).headers;
  });

  // A changed cell is a permission change: review it as one.
  const MAY_LABEL: Record<RolePresetName, number> = {
    'read-only': 403,
    analyst: 403,
    moderator: 200,
    operator: 200,
    administrator: 200,
  };

  it.each(ROLE_PRESET_NAMES.map((role) => [role] as const))(
    '%s views the author page, items and chats',
    async (role) => {
      for (const url of [
        `/v1/authors/${authorId}`,
        `/v1/authors/${authorId}/items`,
        `/v1/authors/${authorId}/chats`,
      ]) {
        expect((await get(url, headersOf[role])).statusCode, url).toBe(200);
      }
      const list = (await get('/v1/authors?scope=items', headersOf[role])).json();
      expect(list.items.map((a: { id: number }) => a.id)).toEqual([authorId]);
    },
  );

  it.each(ROLE_PRESET_NAMES.map((role) => [role, MAY_LABEL[role]] as const))(
    '%s labels an author → %i',
    async (role, expected) => {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/v1/authors/${authorId}/labels`,
        headers: headersOf[role],
        payload: { label_ids: [labelId] },
      });
      expect(res.statusCode, res.body).toBe(expected);
      if (expected === 200) expect(res.json().author).toMatchObject({ id: authorId, labels: [labelId] });
    },
  );

  it('the chat an author wrote in is the one the page counts', async () => {
    const [chat] = await t.deps.database.db.select().from(chats).where(eq(chats.objectId, object.id));
    expect(chat!.authorId).toBe(authorId);
  });
});
