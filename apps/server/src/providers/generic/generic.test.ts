import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildWorker, buildWorkspace, settle } from '../../../test/inbox-actions';
import { items, objects, posts } from '../../db/schema';
import { sha256 } from '../../lib/crypto';

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

describe('vc.ru: editing a reply inside the 1200 s window (docs/product/limits.md)', () => {
  let vcToken: string;
  let vcId: number;
  const vcAuth = () => ({ authorization: `Bearer ${vcToken}` });
  const feed = async () =>
    (await t.app.inject({ method: 'GET', url: '/v1/ingest/replies', headers: vcAuth() })).json()
      .items as Array<Record<string, unknown>>;
  const ack = (id: number, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `/v1/ingest/replies/${id}`, headers: vcAuth(), payload });
  const edit = (id: number, text: string) =>
    t.app.inject({ method: 'PUT', url: `/v1/items/${id}`, headers, payload: { text } });
  const replyRow = async (id: number) =>
    (await t.deps.database.db.select().from(items).where(eq(items.id, id)))[0]!;

  beforeAll(async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/objects',
      headers,
      payload: { provider: 'vc' },
    });
    expect(res.statusCode, res.body).toBe(200);
    vcId = res.json().id;
    vcToken = res.json().ingest_token;
  });

  /** An operator's reply to a new vc comment, handed to the collector's feed. */
  async function replyInFeed(text = 'Спасибо за комментарий!') {
    const externalId = `vc-${Math.random().toString(36).slice(2, 10)}`;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/v1/ingest/items',
      headers: vcAuth(),
      payload: {
        items: [
          {
            external_id: externalId,
            kind: 'comment',
            text: 'Вопрос',
            author: { id: 'a-1', name: 'Аня' },
            created_at: 1_763_000_000,
          },
        ],
      },
    });
    expect(sent.json()).toMatchObject({ created: 1 });
    const [comment] = await t.deps.database.db
      .select()
      .from(items)
      .where(and(eq(items.objectId, vcId), eq(items.externalId, externalId)));
    const replied = await t.app.inject({
      method: 'POST',
      url: `/v1/items/${comment!.id}/reply`,
      headers,
      payload: { text },
    });
    expect(replied.statusCode, replied.body).toBe(200);
    await settle(t, buildWorker(t, { spaceIds: [spaceId] }), spaceId);
    return replied.json().reply.id as number;
  }

  /**
   * The reply was written `seconds` ago. Whole seconds: the window is counted in seconds, so the age is
   * set early in a second and the request lands in that same second.
   */
  async function age(id: number, seconds: number) {
    const into = Date.now() % 1000;
    if (into > 600) await new Promise((resolve) => setTimeout(resolve, 1010 - into));
    await t.deps.database.db
      .update(items)
      .set({ createdAt: new Date(Date.now() - seconds * 1000) })
      .where(eq(items.id, id));
  }

  it('a posted reply edited at 1199 s comes back to the feed with the new text; at 1201 s it is refused', async () => {
    const id = await replyInFeed('Было');
    expect((await ack(id, { external_id: 'vc-answer-1' })).json()).toMatchObject({ delivery: 'delivered' });
    expect((await feed()).map((r) => r.id)).not.toContain(id);

    await age(id, 1199);
    const inside = await edit(id, 'Стало');
    expect(inside.statusCode, inside.body).toBe(200);
    expect(inside.json().item).toMatchObject({ text: 'Стало', delivery: 'sent' });
    const listed = (await feed()).find((r) => r.id === id);
    expect(listed).toMatchObject({ external_id: 'vc-answer-1', text: 'Стало', edited: true });
    expect(listed?.edited_at).toEqual(expect.any(Number));
    expect((await ack(id, { external_id: 'vc-answer-1' })).json()).toMatchObject({ delivery: 'delivered' });
    expect(await replyRow(id)).toMatchObject({
      text: 'Стало',
      delivery: 'delivered',
      externalId: 'vc-answer-1',
    });

    await age(id, 1201);
    const late = await edit(id, 'Поздно');
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({
      error: 'Время на изменение ответа истекло',
      error_type: 'edit_window_passed',
    });
    expect((await replyRow(id)).text).toBe('Стало');
    expect((await feed()).map((r) => r.id)).not.toContain(id);
  });

  it('a reply still waiting in the feed is edited there, inside the window only', async () => {
    const id = await replyInFeed('Черновик');
    await age(id, 1199);
    expect((await edit(id, 'Исправлено')).statusCode).toBe(200);
    expect((await feed()).find((r) => r.id === id)).toMatchObject({ external_id: null, text: 'Исправлено' });
    await age(id, 1201);
    expect((await edit(id, 'Поздно')).json().error_type).toBe('edit_window_passed');
  });

  it('an edit the site refuses is undone: the posted text shows again with the error', async () => {
    const id = await replyInFeed('Исходный текст');
    await ack(id, { external_id: 'vc-answer-2' });
    expect((await edit(id, 'Первая правка')).statusCode).toBe(200);
    expect((await edit(id, 'Вторая правка')).statusCode).toBe(200);
    const refused = await ack(id, { error: 'Комментарий нельзя изменить' });
    expect(refused.json()).toMatchObject({ delivery: 'delivered', external_id: 'vc-answer-2' });
    expect(await replyRow(id)).toMatchObject({
      text: 'Исходный текст',
      delivery: 'delivered',
      deliveryError: 'Комментарий нельзя изменить',
    });
  });

  it('documents the feed with the edited marker in the OpenAPI', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const op = JSON.stringify(spec.paths['/v1/ingest/replies'].get);
    expect(op).toContain('edited_at');
    expect(op).toContain('external_id');
  });
});

describe('a reply the collector refused', () => {
  it('is retried: it goes back to the feed and can then be posted', async () => {
    await send({ items: [review('r-40')] });
    const [item] = await t.deps.database.db
      .select()
      .from(items)
      .where(and(eq(items.objectId, objectId), eq(items.externalId, 'r-40')));
    const replied = await t.app.inject({
      method: 'POST',
      url: `/v1/items/${item!.id}/reply`,
      headers,
      payload: { text: 'Ответ банка' },
    });
    const id = replied.json().reply.id as number;
    await settle(t, buildWorker(t, { spaceIds: [spaceId] }), spaceId);
    const auth = { authorization: `Bearer ${token}` };
    const refused = await t.app.inject({
      method: 'POST',
      url: `/v1/ingest/replies/${id}`,
      headers: auth,
      payload: { error: 'Капча' },
    });
    expect(refused.json()).toMatchObject({ delivery: 'failed' });
    const pending = async () =>
      (
        (await t.app.inject({ method: 'GET', url: '/v1/ingest/replies', headers: auth })).json()
          .items as Array<{
          id: number;
        }>
      ).map((r) => r.id);
    expect(await pending()).not.toContain(id);

    const retried = await t.app.inject({ method: 'POST', url: `/v1/items/${id}/retry`, headers });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().item).toMatchObject({ delivery: 'sent', delivery_error: null });
    expect(await pending()).toContain(id);
    const posted = await t.app.inject({
      method: 'POST',
      url: `/v1/ingest/replies/${id}`,
      headers: auth,
      payload: { external_id: 'answer-40' },
    });
    expect(posted.json()).toMatchObject({ delivery: 'delivered', external_id: 'answer-40' });
    const again = await t.app.inject({ method: 'POST', url: `/v1/items/${id}/retry`, headers });
    expect(again.statusCode).toBe(400);
  });
});
