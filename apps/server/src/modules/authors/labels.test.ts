import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { authorLabels } from '../../db/schema';
import {
  authorIdOf,
  buildAdmin,
  buildMember,
  buildObject,
  buildUserGroup,
  writeAsCustomer,
} from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Headers = Record<string, string>;

const createLabel = (headers: Headers, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/v1/labels', headers, payload });
const putLabels = (headers: Headers, authorId: number, label_ids: number[]) =>
  t.app.inject({ method: 'PUT', url: `/v1/authors/${authorId}/labels`, headers, payload: { label_ids } });

describe('labels — settings', () => {
  it('create, list, read, update, delete; names required and unique per space', async () => {
    const admin = await buildAdmin(t);
    const space_id = admin.space.id;
    const vip = await createLabel(admin.headers, { space_id, name: ' VIP ', color: '#ffd700' });
    expect(vip.statusCode, vip.body).toBe(200);
    expect(vip.json()).toEqual({ id: vip.json().id, name: 'VIP', color: '#ffd700', space_id });
    const troll = (await createLabel(admin.headers, { space_id, name: 'Тролль' })).json();
    expect(troll).toMatchObject({ color: null });

    expect((await createLabel(admin.headers, { space_id })).json()).toMatchObject({
      error: 'Введите название',
    });
    expect((await createLabel(admin.headers, { space_id, name: 'vip' })).json()).toMatchObject({
      error_type: 'name_taken',
    });

    const list = (await t.app.inject({ url: '/v1/labels', headers: admin.headers })).json();
    expect(list.items.map((l: { name: string }) => l.name).sort()).toEqual(['VIP', 'Тролль']);
    expect((await t.app.inject({ url: `/v1/labels/${troll.id}`, headers: admin.headers })).json()).toEqual(
      troll,
    );

    const updated = await t.app.inject({
      method: 'PUT',
      url: `/v1/labels/${troll.id}`,
      headers: admin.headers,
      payload: { color: '#000000' },
    });
    expect(updated.json()).toEqual({ ...troll, color: '#000000' });
    const clash = await t.app.inject({
      method: 'PUT',
      url: `/v1/labels/${troll.id}`,
      headers: admin.headers,
      payload: { name: 'VIP' },
    });
    expect(clash.statusCode).toBe(400);

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/v1/labels/${troll.id}`,
      headers: admin.headers,
    });
    expect(del.json()).toEqual({ message: 'ok' });
    expect((await t.app.inject({ url: `/v1/labels/${troll.id}`, headers: admin.headers })).statusCode).toBe(
      404,
    );
  });

  it('only administrators of a space with the labels feature manage labels', async () => {
    const admin = await buildAdmin(t);
    const operator = await buildMember(t, admin.space.id, 'operator');
    expect((await createLabel(operator.headers, { space_id: admin.space.id, name: 'X' })).statusCode).toBe(
      403,
    );
    const label = (await createLabel(admin.headers, { space_id: admin.space.id, name: 'X' })).json();
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v1/labels/${label.id}`,
      headers: operator.headers,
      payload: { name: 'Y' },
    });
    expect(put.statusCode).toBe(403);
    expect(
      (await t.app.inject({ url: `/v1/labels/${label.id}`, headers: operator.headers })).statusCode,
    ).toBe(200);

    const noFeature = await buildAdmin(t, {});
    expect(
      (await createLabel(noFeature.headers, { space_id: noFeature.space.id, name: 'X' })).statusCode,
    ).toBe(403);
  });

  it("another space's labels are 404 and never listed", async () => {
    const admin = await buildAdmin(t);
    const stranger = await buildAdmin(t);
    const label = (await createLabel(admin.headers, { space_id: admin.space.id, name: 'Private' })).json();
    for (const [method, url] of [
      ['GET', `/v1/labels/${label.id}`],
      ['GET', `/v1/labels/${label.id}/authors`],
      ['PUT', `/v1/labels/${label.id}`],
      ['DELETE', `/v1/labels/${label.id}`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: stranger.headers, payload: { name: 'hijack' } });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await t.app.inject({ url: '/v1/labels', headers: stranger.headers })).json()).toEqual({
      items: [],
    });
    const asked = await t.app.inject({
      url: `/v1/labels?space_id=${admin.space.id}`,
      headers: stranger.headers,
    });
    expect(asked.statusCode).toBe(403);
    expect((await createLabel(stranger.headers, { space_id: admin.space.id, name: 'X' })).statusCode).toBe(
      403,
    );
  });
});

describe('labels on authors', () => {
  it('PUT /v1/authors/:id/labels replaces the set; labels of another space are refused', async () => {
    const admin = await buildAdmin(t);
    const stranger = await buildAdmin(t);
    const object = await buildObject(t, admin.space.id);
    await writeAsCustomer(t, object, { externalId: 'l-1', name: 'Labelled' }, { comments: 1 });
    const authorId = await authorIdOf(t, object, 'l-1');
    const a = (await createLabel(admin.headers, { space_id: admin.space.id, name: 'A' })).json();
    const b = (await createLabel(admin.headers, { space_id: admin.space.id, name: 'B' })).json();
    const foreign = (await createLabel(stranger.headers, { space_id: stranger.space.id, name: 'F' })).json();

    const set = await putLabels(admin.headers, authorId, [b.id, a.id, b.id]);
    expect(set.json().author).toMatchObject({ id: authorId, labels: [a.id, b.id].sort((x, y) => x - y) });
    const page = (await t.app.inject({ url: `/v1/authors/${authorId}`, headers: admin.headers })).json();
    expect(page.author.labels).toEqual([a.id, b.id].sort((x, y) => x - y));

    const bad = await putLabels(admin.headers, authorId, [a.id, foreign.id]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('label_ids');
    expect((await putLabels(admin.headers, authorId, [999_999_999])).statusCode).toBe(400);

    expect((await putLabels(admin.headers, authorId, [b.id])).json().author.labels).toEqual([b.id]);
    expect((await putLabels(admin.headers, authorId, [])).json().author.labels).toEqual([]);
  });

  it('a space without the labels feature cannot label authors', async () => {
    const admin = await buildAdmin(t, {});
    const object = await buildObject(t, admin.space.id);
    await writeAsCustomer(t, object, { externalId: 'nf-1', name: 'No feature' }, { comments: 1 });
    const authorId = await authorIdOf(t, object, 'nf-1');
    expect((await putLabels(admin.headers, authorId, [])).statusCode).toBe(403);
  });

  it('GET /v1/labels/:id/authors lists the labelled authors the caller sees, paginated', async () => {
    const admin = await buildAdmin(t);
    const object = await buildObject(t, admin.space.id);
    const otherObject = await buildObject(t, admin.space.id);
    await writeAsCustomer(t, object, { externalId: 'x-1', name: 'First' }, { comments: 1 });
    await writeAsCustomer(t, object, { externalId: 'x-2', name: 'Second' }, { messages: 1 });
    await writeAsCustomer(t, otherObject, { externalId: 'x-3', name: 'Third' }, { comments: 1 });
    await writeAsCustomer(t, object, { externalId: 'x-4', name: 'Unlabelled' }, { comments: 1 });
    const ids = [
      await authorIdOf(t, object, 'x-1'),
      await authorIdOf(t, object, 'x-2'),
      await authorIdOf(t, otherObject, 'x-3'),
    ];
    const label = (await createLabel(admin.headers, { space_id: admin.space.id, name: 'Loyal' })).json();
    for (const id of ids) await putLabels(admin.headers, id, [label.id]);

    const first = (
      await t.app.inject({ url: `/v1/labels/${label.id}/authors?limit=2`, headers: admin.headers })
    ).json();
    expect(first.items.map((a: { name: string }) => a.name)).toEqual(['Third', 'Second']);
    expect(first.items[1]).toMatchObject({ items_count: 0, chats_count: 1, labels: [label.id] });
    const rest = (
      await t.app.inject({
        url: `/v1/labels/${label.id}/authors?before=${first.next_before}`,
        headers: admin.headers,
      })
    ).json();
    expect(rest).toMatchObject({ items: [{ name: 'First' }], next_before: null });
    const searched = (
      await t.app.inject({ url: `/v1/labels/${label.id}/authors?q=sec`, headers: admin.headers })
    ).json();
    expect(searched.items.map((a: { name: string }) => a.name)).toEqual(['Second']);

    // A member limited to one account sees only the labelled authors who wrote there.
    const group = await buildUserGroup(t, admin.space.id, [object.id]);
    const limited = await buildMember(t, admin.space.id, 'read-only', { groupId: group.id });
    const theirs = (
      await t.app.inject({ url: `/v1/labels/${label.id}/authors`, headers: limited.headers })
    ).json();
    expect(theirs.items.map((a: { name: string }) => a.name)).toEqual(['Second', 'First']);

    // Deleting the label takes it off every author.
    await t.app.inject({ method: 'DELETE', url: `/v1/labels/${label.id}`, headers: admin.headers });
    expect(
      await t.deps.database.db.select().from(authorLabels).where(eq(authorLabels.labelId, label.id)),
    ).toEqual([]);
    const page = (await t.app.inject({ url: `/v1/authors/${ids[0]}`, headers: admin.headers })).json();
    expect(page.author.labels).toEqual([]);
  });
});
