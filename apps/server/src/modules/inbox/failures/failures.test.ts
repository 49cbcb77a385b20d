import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import {
  buildComment,
  buildObject,
  buildWorker,
  buildWorkspace,
  fakeConnector,
} from '../../../../test/inbox-actions';
import { authors, items, memberships, objects, outbox, userGroups } from '../../../db/schema';
import { registerConnector } from '../../../providers/registry';
import { ConnectorError } from '../../../providers/types';
import { OUTBOX_FAILED } from '../../outbox/queue';
import { buildAdmin, buildMember, captureEvents } from '../../users/testing';

// Failed outgoing actions are never lost (docs/product/screens-and-routes.md settings/errors, the errors dropdown): a refused
// moderation, a send out of retries and a refused network ban are listed and counted for those who see
// errors — in their spaces and user group only — without marking the whole account broken.

let t: TestApp;
let admin: Awaited<ReturnType<typeof buildWorkspace>>;
let spaceId: number;
let undo: (() => void) | undefined;
let clock = Date.now();
const now = () => new Date(clock);

beforeAll(async () => {
  t = await createTestApp();
  admin = await buildWorkspace(t);
  spaceId = admin.space.id;
});
afterEach(() => undo?.());
afterAll(() => t.close());

const db = () => t.deps.database.db;

/** A VK account whose network answers every call with `fail()` (a fresh account, so failures don't mix). */
async function vkAccount(fail: () => Error | undefined) {
  const fake = fakeConnector('vk', { fail });
  undo = registerConnector(fake.connector);
  const object = await buildObject(t, spaceId, { provider: 'vk' });
  return { object, calls: fake.calls };
}

async function drain() {
  clock = Date.now() + 1_000;
  await buildWorker(t, { now, spaceIds: [spaceId] }).drain();
}

async function get<T = Record<string, unknown>>(headers: Record<string, string>, url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: res.json() as T, raw: res.body };
}

async function post(url: string, payload?: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

interface Failed {
  id: number;
  action: string;
  error: string;
  attempts: number;
  account: { id: number };
  target: { kind: string; id: number } | null;
  retry: { kind: string; id: number } | null;
  author: { id: number; name: string } | null;
  excerpt: string | null;
  failed_at: number;
}
const listed = async (headers = admin.headers, query = '') =>
  (await get<{ items: Failed[]; next_before: number | null }>(headers, `/v1/errors/actions${query}`)).body;
const countsOf = async (headers = admin.headers) =>
  (await get<{ items: Array<{ object_id: number; count: number }> }>(headers, '/v1/errors/actions/counts'))
    .body.items;

/** A customer comment whose delete the network refused. */
async function refusedDelete(object: typeof objects.$inferSelect) {
  const item = await buildComment(t, object, { text: 'Спам-комментарий' });
  await post(`/v1/items/${item.id}/delete`);
  await drain();
  return item;
}

describe('a refused moderation', () => {
  it('is listed, counted on its account and named on the item — the account itself is not marked broken', async () => {
    const { object } = await vkAccount(() => new ConnectorError('permanent', 'Access to comment denied'));
    const events = captureEvents(t.deps.bus);
    const item = await refusedDelete(object);

    const page = await listed();
    const failure = page.items.find((f) => f.account.id === object.id);
    expect(failure).toMatchObject({
      action: 'delete',
      error: 'Access to comment denied',
      attempts: 1,
      target: { kind: 'item', id: item.id },
      retry: null,
      excerpt: 'Спам-комментарий',
    });
    expect(failure!.failed_at).toBeGreaterThan(0);
    expect(await countsOf()).toContainEqual(expect.objectContaining({ object_id: object.id, count: 1 }));
    const accountErrors = await get<{ items: Array<{ id: number }> }>(admin.headers, '/v1/errors');
    expect(accountErrors.body.items.map((o) => o.id)).not.toContain(object.id);
    const event = await events.waitFor((e) => e.type === OUTBOX_FAILED && e.payload.object_id === object.id);
    expect(event.payload).toMatchObject({ action: 'delete', item_id: item.id });
    events.stop();

    const named = await get(admin.headers, `/v1/items/${item.id}/failure`);
    expect(named.body).toEqual({
      failure: expect.objectContaining({ action: 'delete', error: 'Access to comment denied', attempts: 1 }),
    });

    // The next action on the item clears its error: the failure no longer stands anywhere.
    await post(`/v1/items/${item.id}/like`);
    expect((await listed()).items.map((f) => f.id)).not.toContain(failure!.id);
    expect((await countsOf()).map((c) => c.object_id)).not.toContain(object.id);
    expect((await get(admin.headers, `/v1/items/${item.id}/failure`)).body).toEqual({ failure: null });
  });

  it('a send out of retries is listed with its retry, and a retry takes it off', async () => {
    let broken = true;
    const { object } = await vkAccount(() =>
      broken ? new ConnectorError('temporary', 'Internal server error') : undefined,
    );
    const item = await buildComment(t, object);
    const reply = await post(`/v1/items/${item.id}/reply`, { text: 'Ответ клиенту' });
    const replyId = reply.reply.id as number;
    await db().update(outbox).set({ attempts: 7 }).where(eq(outbox.itemId, replyId));
    await drain();
    const failure = (await listed()).items.find((f) => f.account.id === object.id);
    expect(failure).toMatchObject({
      action: 'reply',
      attempts: 8,
      error: 'Internal server error',
      target: { kind: 'item', id: item.id },
      retry: { kind: 'item', id: replyId },
      excerpt: 'Ответ клиенту',
    });
    broken = false;
    await post(`/v1/items/${replyId}/retry`);
    expect((await listed()).items.map((f) => f.id)).not.toContain(failure!.id);
  });

  it('pages newest first', async () => {
    const { object } = await vkAccount(() => new ConnectorError('permanent', 'Denied'));
    const first = await refusedDelete(object);
    const second = await refusedDelete(object);
    const one = await listed(admin.headers, '?limit=1');
    expect(one.items).toHaveLength(1);
    expect(one.items[0]!.target).toEqual({ kind: 'item', id: second.id });
    expect(one.next_before).toBe(one.items[0]!.id);
    const next = await listed(admin.headers, `?limit=1&before=${one.next_before}`);
    expect(next.items[0]!.target).toEqual({ kind: 'item', id: first.id });
    expect((await get(admin.headers, '/v1/errors/actions?limit=1000')).status).toBe(400);
  });
});

describe('dismissing a failure', () => {
  it('takes it off the list and the counts, once, only for those who see it', async () => {
    const { object } = await vkAccount(() => new ConnectorError('permanent', 'Denied, to dismiss'));
    await refusedDelete(object);
    const mine = (await listed()).items.find((f) => f.account.id === object.id)!;
    const stranger = await buildAdmin(t);
    const dismiss = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: `/v1/errors/actions/${mine.id}/dismiss`, headers });
    expect((await dismiss(stranger.headers)).statusCode).toBe(404);
    const operator = await buildMember(t, spaceId, 'operator');
    expect((await dismiss(operator.headers)).statusCode).toBe(403);

    const events = captureEvents(t.deps.bus);
    try {
      expect((await dismiss(admin.headers)).json()).toEqual({ ok: true });
      await events.waitFor(
        (e) => e.type === 'objects.failure_dismissed' && (e.payload as { id: number }).id === mine.id,
      );
    } finally {
      events.stop();
    }
    expect((await listed()).items.map((f) => f.id)).not.toContain(mine.id);
    expect((await countsOf()).map((c) => c.object_id)).not.toContain(object.id);
    expect((await dismiss(admin.headers)).statusCode).toBe(404);
    const [row] = await db().select().from(outbox).where(eq(outbox.id, mine.id));
    expect(row).toMatchObject({ state: 'failed', dismissedBy: admin.user.id });
  });
});

describe('who sees failures', () => {
  it('only those who see errors, in their own spaces and user group', async () => {
    const { object } = await vkAccount(() => new ConnectorError('permanent', 'Denied for scoping'));
    await refusedDelete(object);
    const mine = (await listed()).items.filter((f) => f.account.id === object.id);
    expect(mine).toHaveLength(1);

    const stranger = await buildAdmin(t);
    const theirs = await listed(stranger.headers);
    expect(theirs.items.map((f) => f.account.id)).not.toContain(object.id);
    expect((await countsOf(stranger.headers)).map((c) => c.object_id)).not.toContain(object.id);

    const operator = await buildMember(t, spaceId, 'operator');
    expect((await get(operator.headers, '/v1/errors/actions')).status).toBe(403);
    expect((await get(operator.headers, '/v1/errors/actions/counts')).status).toBe(403);

    const other = await buildObject(t, spaceId, { provider: 'vk' });
    const [group] = await db()
      .insert(userGroups)
      .values({ spaceId, name: 'Other desk', objectIds: [other.id] })
      .returning();
    const limited = await buildMember(t, spaceId, 'administrator');
    await db()
      .update(memberships)
      .set({ groupId: group!.id })
      .where(and(eq(memberships.userId, limited.user.id), eq(memberships.spaceId, spaceId)));
    expect((await listed(limited.headers)).items.map((f) => f.account.id)).not.toContain(object.id);
    expect((await countsOf(limited.headers)).map((c) => c.object_id)).not.toContain(object.id);
    // Account errors (the dropdown's other half) follow the same user-group limit.
    await db()
      .update(objects)
      .set({ error: 'Token revoked', errorAt: new Date() })
      .where(eq(objects.id, object.id));
    const accountErrors = (h: Record<string, string>) =>
      get<{ items: Array<{ id: number }> }>(h, '/v1/errors').then((r) => r.body.items.map((a) => a.id));
    expect(await accountErrors(limited.headers)).not.toContain(object.id);
    expect(await accountErrors(admin.headers)).toContain(object.id);
  });
});

describe('a refused network ban', () => {
  it('shows on the author page and in settings/errors until the author is banned or unbanned again', async () => {
    let refuse = true;
    const { object } = await vkAccount(() =>
      refuse ? new ConnectorError('permanent', 'Cannot ban a community admin') : undefined,
    );
    const item = await buildComment(t, object);
    const authorId = item.authorId!;
    const [author] = await db().select().from(authors).where(eq(authors.id, authorId));

    const blocked = await post(`/v1/authors/${authorId}/block`, { duration: 'week' });
    expect(blocked.network).toBe('queued');
    expect((await get(admin.headers, `/v1/authors/${authorId}/network_ban`)).body).toEqual({
      network_ban: expect.objectContaining({ action: 'block', state: 'pending' }),
    });
    const events = captureEvents(t.deps.bus);
    await drain();

    expect((await get(admin.headers, `/v1/authors/${authorId}/network_ban`)).body).toEqual({
      network_ban: expect.objectContaining({
        action: 'block',
        state: 'failed',
        error: 'Cannot ban a community admin',
        object_id: object.id,
      }),
    });
    const failure = (await listed()).items.find((f) => f.account.id === object.id);
    expect(failure).toMatchObject({
      action: 'block',
      error: 'Cannot ban a community admin',
      author: { id: authorId, name: author!.name },
      target: { kind: 'author', id: authorId },
    });
    const event = await events.waitFor((e) => e.type === OUTBOX_FAILED && e.payload.object_id === object.id);
    expect(event.payload).toMatchObject({ action: 'block', author_id: authorId });
    events.stop();
    // Our own block stands.
    expect(
      (await db().select().from(authors).where(eq(authors.id, authorId)))[0]!.blockedUntil,
    ).not.toBeNull();

    refuse = false;
    await post(`/v1/authors/${authorId}/unblock`);
    expect((await listed()).items.map((f) => f.id)).not.toContain(failure!.id);
    await drain();
    expect((await get(admin.headers, `/v1/authors/${authorId}/network_ban`)).body).toEqual({
      network_ban: expect.objectContaining({ action: 'unblock', state: 'done', error: null }),
    });
  });

  it('an author nobody asked the network about has no network ban; a stranger gets 404', async () => {
    const object = await buildObject(t, spaceId, { provider: 'vk' });
    const item = await buildComment(t, object);
    expect((await get(admin.headers, `/v1/authors/${item.authorId}/network_ban`)).body).toEqual({
      network_ban: null,
    });
    const stranger = await buildAdmin(t);
    expect((await get(stranger.headers, `/v1/authors/${item.authorId}/network_ban`)).status).toBe(404);
    expect((await get(stranger.headers, `/v1/items/${item.id}/failure`)).status).toBe(404);
    const [row] = await db().select().from(items).where(eq(items.id, item.id));
    expect(row!.deliveryError).toBeNull();
  });
});
