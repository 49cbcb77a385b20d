import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { items, objects, posts } from '../../db/schema';
import { sha256 } from '../../lib/crypto';
import { buildWorker, buildWorkspace, settle } from '../../modules/inbox/actions/test-helpers';

// The generic ingestion API: a collector posts a site's reviews with the account's token; redelivery
// changes nothing; operators' replies come back to the collector through a feed.

let t: TestApp;
let headers: Record<string, string>;
let objectId: number;
let token: string;
let spaceId: number;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await buildWorkspace(t);
  headers = admin.headers;
  spaceId = admin.space.id;
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/objects',
    headers,
    payload: { provider: 'bankiru' },
  });
  expect(res.statusCode, res.body).toBe(200);
  objectId = res.json().id;
  token = res.json().ingest_token;
});
afterAll(() => t.close());

const review = (externalId: string, extra: Record<string, unknown> = {}) => ({
  external_id: externalId,
  kind: 'review',
  text: 'Быстро открыли вклад',
  rating: 5,
  author: { id: 'u-77', name: 'Иван П.' },
  created_at: '2026-11-20T09:15:00+03:00',
  ...extra,
});

const send = (body: unknown, auth: Record<string, string> = { authorization: `Bearer ${token}` }) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/ingest/items',
    headers: auth,
    payload: body as Record<string, unknown>,
  });

describe('connecting', () => {
  it('shows the token once and keeps only its digest', async () => {
    expect(token).toMatch(/^otk_/);
    const [row] = await t.deps.database.db.select().from(objects).where(eq(objects.id, objectId));
    expect(row).toMatchObject({ provider: 'bankiru', credentials: null, ingestTokenDigest: sha256(token) });
    const shown = await t.app.inject({ method: 'GET', url: `/v1/objects/${objectId}`, headers });
    expect(shown.body).not.toContain(token);
    expect(shown.json()).toMatchObject({ provider: 'bankiru', connect: 'ingest_token' });
  });
});

describe('POST /v1/ingest/items', () => {
  it('stores valid items, lists invalid ones, and is idempotent by external_id', async () => {
    const batch = {
      items: [
        review('r-1'),
        review('r-2', { created_at: 1_763_000_000 }),
        { external_id: 'r-3', kind: 'review', created_at: 'yesterday' },
        review('r-4', { kind: 'comment' }),
      ],
    };
    const first = await send(batch);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ created: 2, duplicates: 0, excluded: 0 });
    expect(first.json().invalid.map((i: { index: number }) => i.index)).toEqual([2, 3]);
    expect(first.json().invalid[1].error).toContain('bankiru does not carry comment');

    const again = await send(batch);
    expect(again.json()).toMatchObject({ created: 0, duplicates: 2 });
    const stored = await t.deps.database.db.select().from(items).where(eq(items.objectId, objectId));
    expect(stored).toHaveLength(2);
    expect(stored.find((i) => i.externalId === 'r-2')?.createdAt.getTime()).toBe(1_763_000_000_000);
  });

  it('accepts the token in X-Ingest-Token and keeps posts and threads', async () => {
    const res = await send(
      {
        items: [
          review('r-10', { post: { external_id: 'bank-page', text: 'Отзывы о банке' } }),
          review('r-11', { parent_external_id: 'r-10' }),
        ],
      },
      { 'x-ingest-token': token },
    );
    expect(res.json()).toMatchObject({ created: 2 });
    const [child] = await t.deps.database.db
      .select()
      .from(items)
      .where(and(eq(items.objectId, objectId), eq(items.externalId, 'r-11')));
    expect(child!.parentId).not.toBeNull();
    const [post] = await t.deps.database.db.select().from(posts).where(eq(posts.objectId, objectId));
    expect(post).toMatchObject({ externalId: 'bank-page', text: 'Отзывы о банке' });
  });

  it('refuses a missing or wrong token with 401', async () => {
    expect((await send({ items: [review('x')] }, {})).statusCode).toBe(401);
    const wrong = await send({ items: [review('x')] }, { authorization: 'Bearer otk_nope' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('Неверный токен API приёма');
  });

  it('takes at most 500 items per request', async () => {
    const res = await send({ items: Array.from({ length: 501 }, (_, i) => review(`bulk-${i}`)) });
    expect(res.statusCode).toBe(400);
  });

  it('is documented in the OpenAPI with an example body', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const op = spec.paths['/v1/ingest/items'].post;
    expect(op.description).toContain('X-Ingest-Token');
    expect(JSON.stringify(op.requestBody)).toContain('review-48213');
  });

  it('a new token replaces the old one', async () => {
    const rotated = await t.app.inject({ method: 'POST', url: `/v1/objects/${objectId}/token`, headers });
    const fresh = rotated.json().ingest_token as string;
    expect(fresh).not.toBe(token);
    expect((await send({ items: [review('r-20')] })).statusCode).toBe(401);
    expect((await send({ items: [review('r-20')] }, { authorization: `Bearer ${fresh}` })).statusCode).toBe(
      200,
    );
    token = fresh;
  });
});

describe('replies feed for the collector', () => {
  it('hands an operator reply to the collector, who reports the site id', async () => {
    await send({ items: [review('r-30')] });
    const [item] = await t.deps.database.db
      .select()
      .from(items)
      .where(and(eq(items.objectId, objectId), eq(items.externalId, 'r-30')));
    const replied = await t.app.inject({
      method: 'POST',
      url: `/v1/items/${item!.id}/reply`,
      headers,
      payload: { text: 'Спасибо за отзыв!' },
    });
    expect(replied.statusCode, replied.body).toBe(200);
    await settle(t, buildWorker(t, { spaceIds: [spaceId] }), spaceId);
    const auth = { authorization: `Bearer ${token}` };
    const feed = await t.app.inject({ method: 'GET', url: '/v1/ingest/replies', headers: auth });
    expect(feed.json().items).toEqual([
      expect.objectContaining({
        id: replied.json().reply.id,
        in_reply_to: 'r-30',
        text: 'Спасибо за отзыв!',
      }),
    ]);
    const ack = await t.app.inject({
      method: 'POST',
      url: `/v1/ingest/replies/${replied.json().reply.id}`,
      headers: auth,
      payload: { external_id: 'answer-9' },
    });
    expect(ack.json()).toMatchObject({ delivery: 'delivered', external_id: 'answer-9' });
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/ingest/replies', headers: auth })).json().items,
    ).toEqual([]);
  });
});
