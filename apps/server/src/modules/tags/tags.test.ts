import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { chats, chatTags, companies, itemTags, tags } from '../../db/schema';
import { buildAdmin, buildMember, buildObject, writeAsCustomer } from '../authors/test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Headers = Record<string, string>;

async function createTag(headers: Headers, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/v1/tags', headers, payload });
}

async function tagOk(headers: Headers, payload: Record<string, unknown>) {
  const res = await createTag(headers, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; name: string; parent_id: number | null; group_id: number | null };
}

describe('tags — create, read, update', () => {
  it('creates a tag, shows it in GET /v1/tags and GET /v1/tags/:id with its children', async () => {
    const admin = await buildAdmin(t);
    const parent = await tagOk(admin.headers, {
      space_id: admin.space.id,
      name: '  Доставка ',
      color: '#ff0000',
    });
    expect(parent).toEqual({
      id: parent.id,
      name: 'Доставка',
      color: '#ff0000',
      space_id: admin.space.id,
      company_id: null,
      parent_id: null,
      group_id: null,
    });
    const late = await tagOk(admin.headers, {
      space_id: admin.space.id,
      name: 'Опоздание',
      parent_id: parent.id,
    });
    const courier = await tagOk(admin.headers, {
      space_id: admin.space.id,
      name: 'Курьер',
      parent_id: parent.id,
    });

    const one = (await t.app.inject({ url: `/v1/tags/${parent.id}`, headers: admin.headers })).json();
    expect(one).toMatchObject({ id: parent.id, name: 'Доставка' });
    expect(one.children.map((c: { id: number }) => c.id)).toEqual([courier.id, late.id]); // by name
    const children = (
      await t.app.inject({ url: `/v1/tags/${parent.id}/children`, headers: admin.headers })
    ).json();
    expect(children.items.map((c: { name: string }) => c.name)).toEqual(['Курьер', 'Опоздание']);

    const list = (await t.app.inject({ url: '/v1/tags', headers: admin.headers })).json();
    expect(list.items.map((x: { id: number }) => x.id)).toEqual(expect.arrayContaining([parent.id, late.id]));
  });

  it("requires a name: 'Введите название' (ru) / 'Enter a name' (en)", async () => {
    const admin = await buildAdmin(t);
    const missing = await createTag(admin.headers, { space_id: admin.space.id });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: 'Введите название', fields: { name: 'Введите название' } });
    const blank = await t.app.inject({
      method: 'POST',
      url: '/v1/tags?locale=en',
      headers: admin.headers,
      payload: { space_id: admin.space.id, name: '   ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields).toEqual({ name: 'Enter a name' });
    const badColor = await createTag(admin.headers, { space_id: admin.space.id, name: 'x', color: 'red' });
    expect(badColor.statusCode).toBe(400);
    expect(badColor.json().fields).toHaveProperty('color');
  });

  it('refuses a name already used by a sibling (case-insensitively), allows it under another parent', async () => {
    const admin = await buildAdmin(t);
    const space_id = admin.space.id;
    const a = await tagOk(admin.headers, { space_id, name: 'Оплата' });
    const b = await tagOk(admin.headers, { space_id, name: 'Возврат' });
    const dup = await createTag(admin.headers, { space_id, name: 'оплата' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toMatchObject({ error_type: 'name_taken', fields: { name: expect.any(String) } });

    await tagOk(admin.headers, { space_id, name: 'Карта', parent_id: a.id });
    await tagOk(admin.headers, { space_id, name: 'Карта', parent_id: b.id }); // another parent: fine
    expect((await createTag(admin.headers, { space_id, name: 'КАРТА', parent_id: a.id })).statusCode).toBe(
      400,
    );

    // Renaming into a taken name and moving next to a namesake are refused too.
    const rename = await t.app.inject({
      method: 'PUT',
      url: `/v1/tags/${b.id}`,
      headers: admin.headers,
      payload: { name: 'Оплата' },
    });
    expect(rename.json()).toMatchObject({ error_type: 'name_taken' });
    const top = await tagOk(admin.headers, { space_id, name: 'Карта' });
    const move = await t.app.inject({
      method: 'PUT',
      url: `/v1/tags/${top.id}`,
      headers: admin.headers,
      payload: { parent_id: a.id },
    });
    expect(move.statusCode).toBe(400);
    expect(move.json()).toMatchObject({ error_type: 'name_taken' });
    // Renaming a tag to its own name (other case) is not a clash with itself.
    const same = await t.app.inject({
      method: 'PUT',
      url: `/v1/tags/${a.id}`,
      headers: admin.headers,
      payload: { name: 'ОПЛАТА' },
    });
    expect(same.json()).toMatchObject({ name: 'ОПЛАТА' });
  });

  it('updates name, colour, group and parent; null clears them', async () => {
    const admin = await buildAdmin(t);
    const space_id = admin.space.id;
    const group = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/tag_groups',
        headers: admin.headers,
        payload: { space_id, name: 'G' },
      })
    ).json();
    const parent = await tagOk(admin.headers, { space_id, name: 'P' });
    const tag = await tagOk(admin.headers, { space_id, name: 'T', parent_id: parent.id, group_id: group.id });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v1/tags/${tag.id}`,
      headers: admin.headers,
      payload: { name: 'T2', color: '#00ff00', parent_id: null, group_id: null },
    });
    expect(res.json()).toMatchObject({
      id: tag.id,
      name: 'T2',
      color: '#00ff00',
      parent_id: null,
      group_id: null,
    });
    const kept = await t.app.inject({
      method: 'PUT',
      url: `/v1/tags/${tag.id}`,
      headers: admin.headers,
      payload: { group_id: group.id },
    });
    expect(kept.json()).toMatchObject({ name: 'T2', color: '#00ff00', group_id: group.id });
  });
});

describe('tags — hierarchy', () => {
  it('refuses cycles: a tag under itself or under its own descendant', async () => {
    const admin = await buildAdmin(t);
    const space_id = admin.space.id;
    const a = await tagOk(admin.headers, { space_id, name: 'A' });
    const b = await tagOk(admin.headers, { space_id, name: 'B', parent_id: a.id });
    const c = await tagOk(admin.headers, { space_id, name: 'C', parent_id: b.id });
    for (const parent_id of [a.id, c.id, b.id]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/v1/tags/${a.id}`,
        headers: admin.headers,
        payload: { parent_id },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        error_type: 'tag_cycle',
        fields: { parent_id: expect.any(String) },
      });
    }
    // Moving a leaf elsewhere in the tree is fine.
    const ok = await t.app.inject({
      method: 'PUT',
      url: `/v1/tags/${c.id}`,
      headers: admin.headers,
      payload: { parent_id: a.id },
    });
    expect(ok.json()).toMatchObject({ parent_id: a.id });
  });

  it("refuses a parent, group or company of another space; another space's tag is 404", async () => {
    const admin = await buildAdmin(t);
    const other = await buildAdmin(t);
    const foreignTag = await tagOk(other.headers, { space_id: other.space.id, name: 'Чужой' });
    const foreignGroup = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/tag_groups',
        headers: other.headers,
        payload: { space_id: other.space.id, name: 'Чужая группа' },
      })
    ).json();
    const [foreignCompany] = await t.deps.database.db
      .insert(companies)
      .values({ spaceId: other.space.id, name: 'Other Co' })
      .returning();
    const space_id = admin.space.id;
    for (const [field, value] of [
      ['parent_id', foreignTag.id],
      ['group_id', foreignGroup.id],
      ['company_id', foreignCompany!.id],
    ] as const) {
      const res = await createTag(admin.headers, { space_id, name: `x-${field}`, [field]: value });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toHaveProperty(field);
    }
    const mine = await tagOk(admin.headers, { space_id, name: 'Мой' });
    const move = await t.app.inject({
      method: 'PUT',
      url: `/v1/tags/${mine.id}`,
      headers: admin.headers,
      payload: { parent_id: foreignTag.id },
    });
    expect(move.statusCode).toBe(400);

    // Creating in a space that is not mine: 403; reading or changing its tags: 404.
    expect((await createTag(admin.headers, { space_id: other.space.id, name: 'x' })).statusCode).toBe(403);
    for (const [method, url] of [
      ['GET', `/v1/tags/${foreignTag.id}`],
      ['GET', `/v1/tags/${foreignTag.id}/children`],
      ['PUT', `/v1/tags/${foreignTag.id}`],
      ['DELETE', `/v1/tags/${foreignTag.id}`],
      ['GET', `/v1/tag_groups/${foreignGroup.id}`],
      ['PUT', `/v1/tag_groups/${foreignGroup.id}`],
      ['DELETE', `/v1/tag_groups/${foreignGroup.id}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: admin.headers, payload: { name: 'hijack' } });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const [still] = await t.deps.database.db.select().from(tags).where(eq(tags.id, foreignTag.id));
    expect(still!.name).toBe('Чужой');
  });

  it('a company of the same space is accepted', async () => {
    const admin = await buildAdmin(t);
    const [company] = await t.deps.database.db
      .insert(companies)
      .values({ spaceId: admin.space.id, name: 'Brand' })
      .returning();
    const tag = await tagOk(admin.headers, {
      space_id: admin.space.id,
      name: 'Бренд',
      company_id: company!.id,
    });
    expect(tag).toMatchObject({ company_id: company!.id });
  });
});

describe('tags — delete', () => {
  it('moves the children up to its parent and removes the tag from comments and chats', async () => {
    const admin = await buildAdmin(t);
    const space_id = admin.space.id;
    const root = await tagOk(admin.headers, { space_id, name: 'Root' });
    const middle = await tagOk(admin.headers, { space_id, name: 'Middle', parent_id: root.id });
    const leaf1 = await tagOk(admin.headers, { space_id, name: 'Leaf 1', parent_id: middle.id });
    const leaf2 = await tagOk(admin.headers, { space_id, name: 'Leaf 2', parent_id: middle.id });

    const object = await buildObject(t, space_id);
    const written = await writeAsCustomer(
      t,
      object,
      { externalId: 'del-1', name: 'Tagged' },
      { comments: 1, messages: 1 },
    );
    const itemId = written.itemIds[0]!;
    const [chat] = await t.deps.database.db.select().from(chats).where(eq(chats.objectId, object.id));
    const db = t.deps.database.db;
    await db.insert(itemTags).values([
      { itemId, tagId: middle.id, spaceId: space_id },
      { itemId, tagId: leaf1.id, spaceId: space_id },
    ]);
    await db.insert(chatTags).values({ chatId: chat!.id, tagId: middle.id, spaceId: space_id });

    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v1/tags/${middle.id}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'ok', moved_ids: expect.arrayContaining([leaf1.id, leaf2.id]) });

    expect(await db.select().from(tags).where(eq(tags.id, middle.id))).toEqual([]);
    const leaves = await db
      .select()
      .from(tags)
      .where(inArray(tags.id, [leaf1.id, leaf2.id]));
    expect(leaves.map((l) => l.parentId)).toEqual([root.id, root.id]);
    expect(await db.select().from(itemTags).where(eq(itemTags.itemId, itemId))).toEqual([
      { itemId, tagId: leaf1.id, spaceId: space_id },
    ]);
    expect(await db.select().from(chatTags).where(eq(chatTags.chatId, chat!.id))).toEqual([]);
    expect((await t.app.inject({ url: `/v1/tags/${middle.id}`, headers: admin.headers })).statusCode).toBe(
      404,
    );
  });

  it('deleting a top-level tag makes its children top-level; a name clash there is a 409', async () => {
    const admin = await buildAdmin(t);
    const space_id = admin.space.id;
    const top = await tagOk(admin.headers, { space_id, name: 'Top' });
    const child = await tagOk(admin.headers, { space_id, name: 'Child', parent_id: top.id });
    const clashParent = await tagOk(admin.headers, { space_id, name: 'Clash parent' });
    await tagOk(admin.headers, { space_id, name: 'Top' + ' child', parent_id: clashParent.id });
    await tagOk(admin.headers, { space_id, name: 'Child' }); // a top-level namesake of `child`

    const clash = await t.app.inject({ method: 'DELETE', url: `/v1/tags/${top.id}`, headers: admin.headers });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ error_type: 'name_taken', names: ['Child'] });
    // Nothing changed.
    const [still] = await t.deps.database.db.select().from(tags).where(eq(tags.id, child.id));
    expect(still!.parentId).toBe(top.id);

    await t.app.inject({
      method: 'PUT',
      url: `/v1/tags/${child.id}`,
      headers: admin.headers,
      payload: { name: 'Child 2' },
    });
    const ok = await t.app.inject({ method: 'DELETE', url: `/v1/tags/${top.id}`, headers: admin.headers });
    expect(ok.statusCode).toBe(200);
    const [moved] = await t.deps.database.db.select().from(tags).where(eq(tags.id, child.id));
    expect(moved!.parentId).toBeNull();
  });
});

describe('tags — who may', () => {
  it('only administrators change tags; every member reads them', async () => {
    const admin = await buildAdmin(t);
    const tag = await tagOk(admin.headers, { space_id: admin.space.id, name: 'Shared' });
    const operator = await buildMember(t, admin.space.id, 'operator');
    expect((await t.app.inject({ url: `/v1/tags/${tag.id}`, headers: operator.headers })).statusCode).toBe(
      200,
    );
    expect((await createTag(operator.headers, { space_id: admin.space.id, name: 'Nope' })).statusCode).toBe(
      403,
    );
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v1/tags/${tag.id}`,
      headers: operator.headers,
      payload: { name: 'Nope' },
    });
    expect(put.statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/tags/${tag.id}`, headers: operator.headers }))
        .statusCode,
    ).toBe(403);
    const group = await t.app.inject({
      method: 'POST',
      url: '/v1/tag_groups',
      headers: operator.headers,
      payload: { space_id: admin.space.id, name: 'Nope' },
    });
    expect(group.statusCode).toBe(403);
  });

  it('requires a token', async () => {
    expect((await t.app.inject({ url: '/v1/tags/1' })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/tag_groups', payload: { space_id: 1, name: 'x' } }))
        .statusCode,
    ).toBe(401);
  });
});

describe('tag groups', () => {
  it('create, list, read, rename (unique per space), delete (tags stay, ungrouped)', async () => {
    const admin = await buildAdmin(t);
    const other = await buildAdmin(t);
    const space_id = admin.space.id;
    const post = (name: string, headers = admin.headers, sid = space_id) =>
      t.app.inject({ method: 'POST', url: '/v1/tag_groups', headers, payload: { space_id: sid, name } });
    const g1 = (await post('Эмоции')).json();
    expect(g1).toEqual({ id: g1.id, name: 'Эмоции', space_id });
    const g2 = (await post('Темы')).json();
    await post('Чужая', other.headers, other.space.id);

    const missing = await t.app.inject({
      method: 'POST',
      url: '/v1/tag_groups',
      headers: admin.headers,
      payload: { space_id },
    });
    expect(missing.json()).toMatchObject({ error: 'Введите название' });
    expect((await post('эмоции')).json()).toMatchObject({ error_type: 'name_taken' });

    const list = (await t.app.inject({ url: '/v1/tag_groups', headers: admin.headers })).json();
    expect(list.items.map((g: { name: string }) => g.name)).toEqual(['Темы', 'Эмоции']);
    const filtered = await t.app.inject({
      url: `/v1/tag_groups?space_id=${other.space.id}`,
      headers: admin.headers,
    });
    expect(filtered.statusCode).toBe(403);
    expect((await t.app.inject({ url: `/v1/tag_groups/${g1.id}`, headers: admin.headers })).json()).toEqual(
      g1,
    );

    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/v1/tag_groups/${g2.id}`,
      headers: admin.headers,
      payload: { name: 'Темы обращений' },
    });
    expect(renamed.json()).toEqual({ id: g2.id, name: 'Темы обращений', space_id });
    const clash = await t.app.inject({
      method: 'PUT',
      url: `/v1/tag_groups/${g2.id}`,
      headers: admin.headers,
      payload: { name: 'Эмоции' },
    });
    expect(clash.statusCode).toBe(400);

    const tag = await tagOk(admin.headers, { space_id, name: 'Радость', group_id: g1.id });
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/v1/tag_groups/${g1.id}`,
      headers: admin.headers,
    });
    expect(del.json()).toEqual({ message: 'ok' });
    expect((await t.app.inject({ url: `/v1/tag_groups/${g1.id}`, headers: admin.headers })).statusCode).toBe(
      404,
    );
    const after = (await t.app.inject({ url: `/v1/tags/${tag.id}`, headers: admin.headers })).json();
    expect(after).toMatchObject({ id: tag.id, group_id: null });
  });
});
