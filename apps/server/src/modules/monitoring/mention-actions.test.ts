import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { commentEvent } from '../../../test/inbox-helpers';
import { auditLog, issueLinks, issues, items, itemTags, tags } from '../../db/schema';
import { buildAdmin, buildMember, buildObject, buildUserGroup } from '../authors/test-helpers';
import { ingest } from '../inbox/ingest/ingest';

// Mention actions (issue 21) on the real database: send to inbox, tag, turn into a task — each through
// the item's own action (abilities, scope, records); another space's user and a user outside the account's
// group get 404; the mention is marked read once acted upon. Also the mention list's narrowing.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 240_000);
afterAll(() => t?.close());

type Headers = Record<string, string>;
const ON = { monitoring_count: 3, issues: true };
const db = () => t.deps.database.db;
let n = 0;

async function arrive(object: Awaited<ReturnType<typeof buildObject>>, text: string) {
  n += 1;
  const result = await ingest({ db: db(), bus: t.deps.bus }, object, [
    commentEvent({ text, author: { externalId: `act-${n}`, name: 'Покупатель' } }),
  ]);
  return result.itemIds[0]!;
}

type Mention = {
  id: number;
  item_id: number;
  text: string;
  read: boolean;
  status: string;
  tag_ids: number[];
  sentiment: string | null;
};
async function mentions(headers: Headers, queryId: number, query = '') {
  const res = await t.app.inject({ url: `/v1/monitoring/queries/${queryId}/mentions${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: Mention[] }).items;
}

async function setup() {
  const admin = await buildAdmin(t, ON);
  const spaceId = admin.space.id;
  const object = await buildObject(t, spaceId);
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/monitoring/queries',
    headers: admin.headers,
    payload: { space_id: spaceId, name: 'Доставка', query: 'доставка' },
  });
  expect(created.statusCode, created.body).toBe(200);
  return { admin, spaceId, object, queryId: (created.json() as { id: number }).id };
}

const post = (url: string, headers: Headers, payload: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'POST', url, headers, payload });

describe('monitoring mention actions', { timeout: 120_000 }, () => {
  it('sends a closed mention back to the inbox as new, keeps a waiting one, logs it and marks it read', async () => {
    const { admin, spaceId, object, queryId } = await setup();
    const closedId = await arrive(object, 'Доставка опять задержалась');
    const waitingId = await arrive(object, 'Когда будет доставка?');
    await db().update(items).set({ status: 'closed', closeReason: 'noreply' }).where(eq(items.id, closedId));
    const listed = await mentions(admin.headers, queryId);
    const closed = listed.find((m) => m.item_id === closedId)!;
    const waiting = listed.find((m) => m.item_id === waitingId)!;
    expect(closed.status).toBe('closed');

    const other = await buildAdmin(t, ON);
    expect((await post(`/v1/monitoring/mentions/${closed.id}/inbox`, other.headers)).statusCode).toBe(404);
    // A read-only member may not reopen it (the status action's own ability check).
    const viewer = await buildMember(t, spaceId, 'read-only');
    expect((await post(`/v1/monitoring/mentions/${closed.id}/inbox`, viewer.headers)).statusCode).toBe(403);
    expect((await post(`/v1/monitoring/mentions/${waiting.id}/inbox`, viewer.headers)).statusCode).toBe(403);
    const [still] = await db().select({ status: items.status }).from(items).where(eq(items.id, closedId));
    expect(still!.status).toBe('closed');

    const sent = await post(`/v1/monitoring/mentions/${closed.id}/inbox`, admin.headers);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ item_id: closedId, status: 'new', reopened: true });
    const kept = await post(`/v1/monitoring/mentions/${waiting.id}/inbox`, admin.headers);
    expect(kept.json()).toEqual({ item_id: waitingId, status: 'new', reopened: false });

    const inbox = await t.app.inject({
      url: `/v1/items/${closedId}`,
      headers: admin.headers,
    });
    expect(inbox.statusCode, inbox.body).toBe(200);
    expect(JSON.stringify(inbox.json())).toContain('"status":"new"');
    const after = await mentions(admin.headers, queryId);
    expect(after.every((m) => m.read)).toBe(true);
    const logged = await db()
      .select({ kind: auditLog.kind })
      .from(auditLog)
      .where(and(eq(auditLog.spaceId, spaceId), eq(auditLog.kind, 'monitoring_query.to_inbox')));
    expect(logged).toHaveLength(2);
  });

  it('tags a mention with the space’s tags only; a user outside the account’s group gets 404', async () => {
    const { admin, spaceId, object, queryId } = await setup();
    const itemId = await arrive(object, 'Доставка курьером ужасна');
    const [mention] = await mentions(admin.headers, queryId);
    const [tag] = await db().insert(tags).values({ spaceId, name: 'Жалоба' }).returning();
    const other = await buildAdmin(t, ON);
    const [foreignTag] = await db()
      .insert(tags)
      .values({ spaceId: other.space.id, name: 'Чужой' })
      .returning();

    const foreign = await t.app.inject({
      method: 'PUT',
      url: `/v1/monitoring/mentions/${mention!.id}/tags`,
      headers: other.headers,
      payload: { tag_ids: [foreignTag!.id] },
    });
    expect(foreign.statusCode).toBe(404);
    const wrongTag = await t.app.inject({
      method: 'PUT',
      url: `/v1/monitoring/mentions/${mention!.id}/tags`,
      headers: admin.headers,
      payload: { tag_ids: [foreignTag!.id] },
    });
    expect(wrongTag.statusCode).toBe(400);
    const otherObject = await buildObject(t, spaceId);
    const group = await buildUserGroup(t, spaceId, [otherObject.id]);
    const limited = await buildMember(t, spaceId, 'operator', { groupId: group.id });
    const outside = await t.app.inject({
      method: 'PUT',
      url: `/v1/monitoring/mentions/${mention!.id}/tags`,
      headers: limited.headers,
      payload: { tag_ids: [tag!.id] },
    });
    expect(outside.statusCode).toBe(404);

    const tagged = await t.app.inject({
      method: 'PUT',
      url: `/v1/monitoring/mentions/${mention!.id}/tags`,
      headers: admin.headers,
      payload: { tag_ids: [tag!.id] },
    });
    expect(tagged.statusCode, tagged.body).toBe(200);
    const rows = await db().select().from(itemTags).where(eq(itemTags.itemId, itemId));
    expect(rows.map((r) => r.tagId)).toEqual([tag!.id]);
    const [after] = await mentions(admin.headers, queryId);
    expect(after).toMatchObject({ tag_ids: [tag!.id], read: true });
  });

  it('turns a mention into a task linked to its comment with the text as description', async () => {
    const { admin, spaceId, object, queryId } = await setup();
    const itemId = await arrive(object, 'Доставка потеряла мою посылку, верните деньги');
    const [mention] = await mentions(admin.headers, queryId);
    const other = await buildAdmin(t, ON);
    expect((await post(`/v1/monitoring/mentions/${mention!.id}/issue`, other.headers)).statusCode).toBe(404);
    // A read-only member sees the mention but may not make tasks of it.
    const viewer = await buildMember(t, spaceId, 'read-only');
    expect((await mentions(viewer.headers, queryId)).map((m) => m.id)).toEqual([mention!.id]);
    expect((await post(`/v1/monitoring/mentions/${mention!.id}/issue`, viewer.headers)).statusCode).toBe(403);

    const created = await post(`/v1/monitoring/mentions/${mention!.id}/issue`, admin.headers);
    expect(created.statusCode, created.body).toBe(200);
    const body = created.json() as { id: number; title: string; space_id: number };
    expect(body).toMatchObject({ space_id: spaceId, title: 'Доставка: Покупатель' });
    const [row] = await db().select().from(issues).where(eq(issues.id, body.id));
    expect(row!.description).toBe('Доставка потеряла мою посылку, верните деньги');
    const links = await db().select().from(issueLinks).where(eq(issueLinks.issueId, body.id));
    expect(links.map((l) => [l.kind, l.targetId])).toEqual([['item', itemId]]);
    const titled = await post(`/v1/monitoring/mentions/${mention!.id}/issue`, admin.headers, {
      title: 'Вернуть деньги',
    });
    expect((titled.json() as { title: string }).title).toBe('Вернуть деньги');
    const logged = await db()
      .select({ kind: auditLog.kind })
      .from(auditLog)
      .where(and(eq(auditLog.spaceId, spaceId), eq(auditLog.kind, 'issue.created')));
    expect(logged).toHaveLength(2);
  });

  it('narrows a query’s mentions by account, network, sentiment and read state', async () => {
    const { admin, spaceId, object, queryId } = await setup();
    const second = await buildObject(t, spaceId);
    const a = await arrive(object, 'доставка раз');
    const b = await arrive(second, 'доставка два');
    await db().update(items).set({ sentiment: 'negative' }).where(eq(items.id, b));
    const all = await mentions(admin.headers, queryId);
    expect(all).toHaveLength(2);
    const read = await post(`/v1/monitoring/queries/${queryId}/read`, admin.headers, {
      ids: [all.find((m) => m.item_id === a)!.id],
    });
    expect(read.statusCode).toBe(200);
    const ids = (list: Mention[]) => list.map((m) => m.item_id);
    expect(ids(await mentions(admin.headers, queryId, `?object_id=${second.id}`))).toEqual([b]);
    expect(ids(await mentions(admin.headers, queryId, '?sentiment=negative'))).toEqual([b]);
    expect(ids(await mentions(admin.headers, queryId, '?read=read'))).toEqual([a]);
    expect(ids(await mentions(admin.headers, queryId, '?read=unread'))).toEqual([b]);
    expect(await mentions(admin.headers, queryId, `?provider=${object.provider}`)).toHaveLength(2);
    const bad = await t.app.inject({
      url: `/v1/monitoring/queries/${queryId}/mentions?sentiment=angry`,
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('monitoring-page saved filters', { timeout: 120_000 }, () => {
  type Filter = { id: number; name: string; query: Record<string, unknown>; route: string | null };
  const filtersOf = async (headers: Headers) =>
    ((await t.app.inject({ url: '/v1/config', headers })).json() as { filters: Filter[] }).filters;

  it('saves the monitoring filter, lists it in the config, renames and deletes it; only its owner may', async () => {
    const { admin, spaceId, object, queryId } = await setup();
    const query = {
      space_id: spaceId,
      query_id: queryId,
      object_id: object.id,
      sentiment: 'negative',
      read: 'unread',
    };
    const saved = await post('/v1/me/filters', admin.headers, {
      name: 'Злые непрочитанные',
      route: 'monitoring-page',
      query,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const [filter] = (await filtersOf(admin.headers)).filter((f) => f.route === 'monitoring-page');
    expect(filter).toEqual({
      id: expect.any(Number),
      name: 'Злые непрочитанные',
      route: 'monitoring-page',
      query,
    });

    // Only the monitoring screen's fields, in their shapes.
    for (const bad of [{ sentiment: 'angry' }, { read: 'maybe' }, { status: ['new'] }]) {
      const refused = await post('/v1/me/filters', admin.headers, {
        name: 'x',
        route: 'monitoring-page',
        query: bad,
      });
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }

    const rename = (headers: Headers, name: string) =>
      t.app.inject({ method: 'PUT', url: `/v1/me/filters/${filter!.id}`, headers, payload: { name } });
    const other = await buildAdmin(t, ON);
    expect((await rename(other.headers, 'Чужое')).statusCode).toBe(404);
    const empty = await rename({ ...admin.headers, 'accept-language': 'en' }, '  ');
    expect(empty.statusCode).toBe(400);
    const renamed = await rename(admin.headers, 'Негатив');
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((renamed.json() as { items: Filter[] }).items).toEqual([{ ...filter, name: 'Негатив' }]);

    const foreignDelete = await t.app.inject({
      method: 'DELETE',
      url: `/v1/me/filters/${filter!.id}`,
      headers: other.headers,
    });
    expect(foreignDelete.statusCode).toBe(404);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v1/me/filters/${filter!.id}`,
      headers: admin.headers,
    });
    expect((removed.json() as { items: Filter[] }).items).toEqual([]);
  });
});
