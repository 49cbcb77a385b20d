import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildComment, buildWorkspace } from '../../../test/inbox-actions';
import { companies, items, objects, outbox } from '../../db/schema';
import { registerConnector, removeConnector } from '../../providers/registry';
import { sandboxConnector } from '../../providers/sandbox/connector';
import { buildAdmin, buildMember, captureEvents, setTariff } from '../users/testing';

// Settings → accounts: connecting (catalogue, connect kind, tariff limit), settings validated against
// what the provider offers, visibility, disconnecting.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const connect = (headers: Record<string, string>, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/v1/objects', headers, payload });

describe('connecting an account', () => {
  it('refuses providers that cannot be connected here yet, hidden ones and unknown ids', async () => {
    const { headers } = await buildWorkspace(t);
    // Every catalogued network has a connector now: take one away to stand for a network this server lacks.
    const restore = removeConnector('ok');
    try {
      const ok = await connect(headers, { provider: 'ok' });
      expect(ok.statusCode).toBe(400);
      expect(ok.json()).toMatchObject({
        error: 'Подключение этой сети пока недоступно',
        error_type: 'not_available',
      });
    } finally {
      restore();
    }
    expect((await connect(headers, { provider: 'appfollow' })).json().fields).toEqual({
      provider: 'Некорректное значение',
    });
    expect((await connect(headers, { provider: 'myspace' })).statusCode).toBe(400);
  });

  it('connects the account when its first import fails, with the failure as its error everywhere', async () => {
    const undo = registerConnector({
      ...sandboxConnector,
      importRecent: async () => {
        throw new Error('The network answered 502 to the import');
      },
    });
    const events = captureEvents(t.deps.bus);
    try {
      const { headers } = await buildWorkspace(t);
      const res = await connect(headers, { provider: 'sandbox' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ imported: 0, error: 'The network answered 502 to the import' });
      const created = await events.waitFor(
        (e) =>
          e.type === 'objects.created' &&
          (e.payload as { objects: { id: number }[] }).objects[0]?.id === res.json().id,
      );
      expect((created.payload as { objects: { error: string | null }[] }).objects[0]?.error).toBe(
        'The network answered 502 to the import',
      );
      const [row] = await t.deps.database.db.select().from(objects).where(eq(objects.id, res.json().id));
      expect(row?.error).toBe('The network answered 502 to the import');
    } finally {
      events.stop();
      undo();
    }
  });

  it("stops at the tariff's account limit", async () => {
    const admin = await buildWorkspace(t);
    await setTariff(t, admin.space.id, 1); // Start: 5 accounts
    for (let i = 0; i < 5; i++)
      expect((await connect(admin.headers, { provider: 'sandbox' })).statusCode).toBe(200);
    const over = await connect(admin.headers, { provider: 'sandbox' });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({
      error: 'Достигнут лимит аккаунтов в текущем тарифе',
      error_type: 'account_limit',
    });
  });

  it('only administrators connect, rename or disconnect', async () => {
    const admin = await buildWorkspace(t);
    const operator = await buildMember(t, admin.space.id, 'operator');
    expect((await connect(operator.headers, { provider: 'sandbox' })).statusCode).toBe(403);
    const id = (await connect(admin.headers, { provider: 'sandbox' })).json().id;
    const rename = await t.app.inject({
      method: 'PUT',
      url: `/v1/objects/${id}`,
      headers: operator.headers,
      payload: { name: 'x' },
    });
    expect(rename.statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/objects/${id}`, headers: operator.headers }))
        .statusCode,
    ).toBe(403);
    // The by-hand setup (secrets included) is for administrators; a sandbox needs none.
    const setup = (headers: Record<string, string>) =>
      t.app.inject({ url: `/v1/objects/${id}/setup`, headers });
    expect((await setup(operator.headers)).statusCode).toBe(403);
    expect((await setup(admin.headers)).json()).toEqual({ instructions: {} });
    const stranger = await buildWorkspace(t);
    expect((await setup(stranger.headers)).statusCode).toBe(404);
  });
});

describe('reading an account', () => {
  it('members see it without secrets; strangers get 404', async () => {
    const admin = await buildWorkspace(t);
    const readOnly = await buildMember(t, admin.space.id, 'read-only');
    const id = (await connect(admin.headers, { provider: 'sandbox', name: 'Магазин' })).json().id;
    const res = await t.app.inject({ method: 'GET', url: `/v1/objects/${id}`, headers: readOnly.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id,
      name: 'Магазин',
      provider: 'sandbox',
      error: null,
      connect: 'none',
    });
    expect(Object.keys(res.json())).not.toEqual(expect.arrayContaining(['credentials']));
    expect(res.body).not.toMatch(/credentials|ingest_token|token_digest/);
    const stranger = await buildWorkspace(t);
    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/objects/${id}`, headers: stranger.headers })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/objects/${id}/sandbox_url`, headers: readOnly.headers }))
        .statusCode,
    ).toBe(403);
  });
});

describe('account settings', () => {
  it('changes the settings the provider offers and validates them', async () => {
    const admin = await buildWorkspace(t);
    const id = (await connect(admin.headers, { provider: 'sandbox' })).json().id;
    const put = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: `/v1/objects/${id}`, headers: admin.headers, payload });

    const ok = await put({ name: 'Кофейня', settings: { exclude: { words: ['спам'] }, reactions: false } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      name: 'Кофейня',
      settings: { exclude: { words: ['спам'], authors: [] }, reactions: false, chats: true },
    });
    // Other settings stay as they were.
    const kept = await put({ settings: { exclude_messages: { authors: ['bot'] } } });
    expect(kept.json().settings).toMatchObject({
      exclude: { words: ['спам'] },
      exclude_messages: { authors: ['bot'] },
    });

    const notOffered = await put({ settings: { chats: false } });
    expect(notOffered.statusCode).toBe(400);
    expect(notOffered.json().fields).toEqual({ 'settings.chats': 'Некорректное значение' });
    expect((await put({ settings: { exclude: { words: [42] } } })).statusCode).toBe(400);
    expect((await put({ settings: { colour: 'red' } })).statusCode).toBe(400);
    expect((await put({ name: '  ' })).statusCode).toBe(400);
  });

  it('accepts companies of the same space only', async () => {
    const admin = await buildWorkspace(t);
    const other = await buildWorkspace(t);
    const id = (await connect(admin.headers, { provider: 'sandbox' })).json().id;
    const db = t.deps.database.db;
    const [mine] = await db.insert(companies).values({ spaceId: admin.space.id, name: 'Бренд' }).returning();
    const [theirs] = await db
      .insert(companies)
      .values({ spaceId: other.space.id, name: 'Чужой' })
      .returning();
    const put = (company_id: number) =>
      t.app.inject({
        method: 'PUT',
        url: `/v1/objects/${id}`,
        headers: admin.headers,
        payload: { company_id },
      });
    expect((await put(theirs!.id)).statusCode).toBe(400);
    expect((await put(mine!.id)).json()).toMatchObject({ company_id: mine!.id });
  });
});

describe('disconnecting', () => {
  it('removes the account, its content and calls still queued for it', async () => {
    const admin = await buildWorkspace(t);
    const id = (await connect(admin.headers, { provider: 'sandbox' })).json().id as number;
    const [object] = await t.deps.database.db.select().from(objects).where(eq(objects.id, id));
    const item = await buildComment(t, object!);
    await t.app.inject({
      method: 'POST',
      url: `/v1/items/${item.id}/reply`,
      headers: admin.headers,
      payload: { text: 'Ок' },
    });
    expect(await t.deps.database.db.select().from(outbox).where(eq(outbox.objectId, id))).toHaveLength(1);

    const res = await t.app.inject({ method: 'DELETE', url: `/v1/objects/${id}`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(await t.deps.database.db.select().from(objects).where(eq(objects.id, id))).toEqual([]);
    expect(await t.deps.database.db.select().from(items).where(eq(items.objectId, id))).toEqual([]);
    expect(await t.deps.database.db.select().from(outbox).where(eq(outbox.objectId, id))).toEqual([]);
  });
});

describe('GET /v1/providers/connectable', () => {
  it('lists the networks with a connector and how they connect', async () => {
    const admin = await buildAdmin(t);
    const res = await t.app.inject({ url: '/v1/providers/connectable', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const byId = new Map(res.json().items.map((p: { id: string }) => [p.id, p]));
    expect(byId.get('sandbox')).toMatchObject({ connect: 'none', fields: false, oauth: false });
    expect(byId.get('bankiru')).toMatchObject({ connect: 'ingest_token' });
    // Pulse has no public API: it is a generic-ingestion source (issue #4), not an unconnectable popup.
    expect(byId.get('tpulse')).toMatchObject({ connect: 'ingest_token' });
    expect(byId.get('ok')).toMatchObject({ connect: 'oauth', fields: true });
    // VK connects through its OAuth popup only when this instance has a VK app (client id + secret).
    expect(byId.get('vk')).toMatchObject({
      oauth: Boolean(t.deps.config.VK_CLIENT_ID && t.deps.config.VK_CLIENT_SECRET),
    });
  });

  it('offers the VK popup when a VK app is configured, and not without one', async () => {
    const withApp = await createTestApp({ VK_CLIENT_ID: '51234567', VK_CLIENT_SECRET: 'vk-app-secret' });
    try {
      const admin = await buildAdmin(withApp);
      const res = await withApp.app.inject({ url: '/v1/providers/connectable', headers: admin.headers });
      const vk = res.json().items.find((p: { id: string }) => p.id === 'vk');
      expect(vk).toMatchObject({ oauth: true });
    } finally {
      await withApp.close();
    }
    const without = await createTestApp({ VK_CLIENT_ID: '', VK_CLIENT_SECRET: '' });
    try {
      const admin = await buildAdmin(without);
      const res = await without.app.inject({ url: '/v1/providers/connectable', headers: admin.headers });
      const vk = res.json().items.find((p: { id: string }) => p.id === 'vk');
      expect(vk).toMatchObject({ oauth: false });
    } finally {
      await without.close();
    }
  });
});
