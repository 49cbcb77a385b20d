import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { commentEvent, messageEvent } from '../../../test/inbox-helpers';
import { openSocket } from '../../../test/socket';
import { auditLog } from '../../db/schema';
import { buildAdmin, buildMember, buildObject, buildUserGroup } from '../authors/test-helpers';
import { ingest } from '../inbox/ingest/ingest';

// Monitoring (issue 21) on the real database: keyword queries match public content in the ingestion
// pipeline, only in their own space and inside the reader's group limits; the counter and the socket follow.

let t: TestApp;
let wsBase: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 240_000);
afterAll(() => t?.close());

type Headers = Record<string, string>;
const ON = { monitoring_count: 3 };
const tokenOf = (headers: Headers) => headers.authorization!.replace(/^Bearer /, '');
const db = () => t.deps.database.db;
let n = 0;

async function arrive(object: Awaited<ReturnType<typeof buildObject>>, text: string) {
  n += 1;
  const result = await ingest({ db: db(), bus: t.deps.bus }, object, [
    commentEvent({ text, author: { externalId: `mon-${n}`, name: 'Покупатель' } }),
  ]);
  return result.itemIds[0]!;
}

async function createQuery(headers: Headers, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/v1/monitoring/queries', headers, payload });
}
async function mentions(headers: Headers, queryId: number) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/monitoring/queries/${queryId}/mentions`,
    headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: Array<{ item_id: number; text: string; read: boolean; id: number }> };
}
async function counter(headers: Headers) {
  const res = await t.app.inject({ method: 'GET', url: '/v1/counts?monitoring=1', headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { monitoring_count: number }).monitoring_count;
}

describe('monitoring', { timeout: 120_000 }, () => {
  it('catches a matching comment, not a non-matching one nor a message; another space never matches; counter and socket follow', async () => {
    const admin = await buildAdmin(t, ON);
    const spaceId = admin.space.id;
    const object = await buildObject(t, spaceId);
    const other = await buildAdmin(t, ON);
    const otherObject = await buildObject(t, other.space.id);

    const created = await createQuery(admin.headers, {
      space_id: spaceId,
      name: 'Доставка',
      query: 'доставка AND NOT спасибо',
    });
    expect(created.statusCode, created.body).toBe(200);
    const queryId = (created.json() as { id: number }).id;

    const socket = await openSocket(`${wsBase}/v1/ws?access_token=${tokenOf(admin.headers)}`);
    try {
      await arrive(object, 'Где моя доставка? Жду неделю');
      const pushed = await socket.waitFor((m) => m.type === 'monitoring');
      expect(pushed).toMatchObject({ space_id: spaceId, query_ids: [queryId] });
      expect(JSON.stringify(pushed)).not.toContain('Жду');
    } finally {
      socket.close();
    }
    await arrive(object, 'Доставка пришла, спасибо!');
    await arrive(object, 'Курьер опоздал');
    await ingest({ db: db(), bus: t.deps.bus }, object, [
      messageEvent({ chatExternalId: `peer-mon-${spaceId}`, text: 'личная доставка' }),
    ]);
    // The same words in another space: that space has no query, and this space's query never sees it.
    await arrive(otherObject, 'доставка сломалась');

    const listed = await mentions(admin.headers, queryId);
    expect(listed.items.map((m) => m.text)).toEqual(['Где моя доставка? Жду неделю']);
    expect(await counter(admin.headers)).toBe(1);
    expect(await counter(other.headers)).toBe(0);

    // The other space cannot read or change this query.
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/v1/monitoring/queries/${queryId}/mentions`,
      headers: other.headers,
    });
    expect(foreign.statusCode).toBe(404);
    const config = await t.app.inject({ method: 'GET', url: '/v1/config', headers: admin.headers });
    expect((config.json() as { monitoring_count: number }).monitoring_count).toBe(1);

    const read = await t.app.inject({
      method: 'POST',
      url: `/v1/monitoring/queries/${queryId}/read`,
      headers: admin.headers,
      payload: { ids: [listed.items[0]!.id] },
    });
    expect(read.json()).toEqual({ updated: 1 });
    expect(await counter(admin.headers)).toBe(0);
    expect((await mentions(admin.headers, queryId)).items[0]!.read).toBe(true);

    // Deleting the query takes its mentions along; the action log keeps who added and deleted it.
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v1/monitoring/queries/${queryId}`,
      headers: admin.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const logged = await db()
      .select({ kind: auditLog.kind })
      .from(auditLog)
      .where(and(eq(auditLog.spaceId, spaceId)));
    expect(logged.map((r) => r.kind)).toEqual(
      expect.arrayContaining(['monitoring_query.created', 'monitoring_query.deleted']),
    );
  });

  it('validates the query in the reader’s language, keeps the space’s query limit and the group limits', async () => {
    const admin = await buildAdmin(t, { monitoring_count: 1 });
    const spaceId = admin.space.id;
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/monitoring/queries',
      headers: { ...admin.headers, 'accept-language': 'ru' },
      payload: { space_id: spaceId, name: 'x', query: '(доставка OR курьер' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Не совпадают скобки');

    const objectA = await buildObject(t, spaceId);
    const objectB = await buildObject(t, spaceId);
    const ok = await createQuery(admin.headers, { space_id: spaceId, name: 'x', query: '"служба доставки"' });
    expect(ok.statusCode, ok.body).toBe(200);
    const queryId = (ok.json() as { id: number }).id;
    const second = await createQuery(admin.headers, { space_id: spaceId, name: 'y', query: 'курьер' });
    expect(second.statusCode).toBe(400);

    await arrive(objectA, 'Служба доставки не отвечает');
    await arrive(objectB, 'служба доставки опять');
    const group = await buildUserGroup(t, spaceId, [objectA.id]);
    const limited = await buildMember(t, spaceId, 'operator', { groupId: group.id });
    expect((await mentions(admin.headers, queryId)).items).toHaveLength(2);
    expect((await mentions(limited.headers, queryId)).items.map((m) => m.text)).toEqual([
      'Служба доставки не отвечает',
    ]);
    expect(await counter(limited.headers)).toBe(1);
    expect(await counter(admin.headers)).toBe(2);

    // A space without monitoring: no access.
    const off = await buildAdmin(t, {});
    const refused = await createQuery(off.headers, { space_id: off.space.id, name: 'x', query: 'a' });
    expect(refused.statusCode).toBe(403);
  });
});
