import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, loginTokens } from '../../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../../test/harness';
import { spaces } from '../../db/schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function signedIn() {
  const built = await buildUser(t);
  const tokens = await loginTokens(t, built.email);
  return { ...built, headers: bearer(tokens.access_token) };
}

describe('GET /v1/config', () => {
  it('returns user, spaces, user_statuses, filters, emoji, counters and otp_required', async () => {
    const { headers, user, space } = await signedIn();
    const res = await t.app.inject({ url: '/v1/config?ts=1', headers });
    expect(res.statusCode).toBe(200);
    const config = res.json();
    expect(Object.keys(config).sort()).toEqual(
      [
        'emoji',
        'filters',
        'issues_count',
        'issues_expired_count',
        'items_count',
        'monitoring_count',
        'otp_required',
        'spaces',
        'user',
        'user_statuses',
      ].sort(),
    );
    expect(config.user).toMatchObject({ id: user.id, email: user.email, status: config.user_statuses[0].id });
    expect(config.spaces).toHaveLength(1);
    expect(config.spaces[0]).toMatchObject({
      id: space.id,
      name: 'Test Co',
      is_trial: true,
      tariff: { id: 10, name: 'Trial' },
      roles: { settings: true },
    });
    expect(config.spaces[0].expires_at).toBe(Math.floor(space.expiresAt.getTime() / 1000));
    expect(config.user_statuses.map((s: { name: string }) => s.name)).toEqual([
      'На связи',
      'Перерыв',
      'Не в сети',
    ]);
    expect(config.user_statuses.find((s: { offline: boolean }) => s.offline)).toBeTruthy();
    expect(config.otp_required).toBe(false);
  });

  it('sets otp_required when a space requires two-factor and the user has none', async () => {
    const { headers, space } = await signedIn();
    await t.deps.database.db
      .update(spaces)
      .set({ settings: { otp_required: true } })
      .where(eq(spaces.id, space.id));
    const config = (await t.app.inject({ url: '/v1/config', headers })).json();
    expect(config.otp_required).toBe(true);
  });

  it("never shows another user's spaces", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const config = (await t.app.inject({ url: '/v1/config', headers: a.headers })).json();
    expect(config.spaces.map((s: { id: number }) => s.id)).not.toContain(b.space.id);
    expect(config.user_statuses.every((s: { space_id: number }) => s.space_id === a.space.id)).toBe(true);
  });
});

describe('saved filters', () => {
  it('POST returns the refreshed list; name is required; DELETE returns the refreshed list', async () => {
    const { headers } = await signedIn();
    const empty = await t.app.inject({
      method: 'POST',
      url: '/v1/me/filters',
      headers,
      payload: { name: '  ', query: {}, route: 'chats' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.name).toBe('Введите название');
    const query = { status: ['new', 'inprogress'], provider: ['vk'], created_at_from: 1_700_000_000 };
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/me/filters',
      headers,
      payload: { name: 'VK new', query, route: 'chats' },
    });
    expect(created.statusCode).toBe(200);
    const stats = await t.app.inject({
      method: 'POST',
      url: '/v1/me/filters',
      headers,
      payload: { name: 'Stats', query: {} },
    });
    const list = stats.json().items;
    expect(list).toEqual([
      { id: expect.any(Number), name: 'VK new', query, route: 'chats' },
      { id: expect.any(Number), name: 'Stats', query: {}, route: null },
    ]);
    const removed = await t.app.inject({ method: 'DELETE', url: `/v1/me/filters/${list[0].id}`, headers });
    expect(removed.json().items.map((f: { name: string }) => f.name)).toEqual(['Stats']);
  });

  it("cannot delete another user's filter", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const created = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/me/filters',
        headers: a.headers,
        payload: { name: 'Mine', query: {} },
      })
    ).json();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v1/me/filters/${created.items[0].id}`,
      headers: b.headers,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('PUT /v1/me/emoji', () => {
  it('keeps the 18 most recent per provider, newest first, without duplicates', async () => {
    const { headers } = await signedIn();
    const first = Array.from({ length: 15 }, (_, i) => String.fromCodePoint(0x1f600 + i));
    await t.app.inject({ method: 'PUT', url: '/v1/me/emoji', headers, payload: { telegram: first } });
    const next = ['👍', '🔥', first[0]!, '🎉', '🙏'];
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/me/emoji',
      headers,
      payload: { telegram: next, vk: ['1'] },
    });
    const emoji = res.json().emoji;
    expect(emoji.telegram).toHaveLength(18);
    expect(emoji.telegram.slice(0, 5).map((e: { char: string }) => e.char)).toEqual(next);
    expect(new Set(emoji.telegram.map((e: { char: string }) => e.char)).size).toBe(18);
    expect(emoji.vk).toEqual([{ char: '1' }]);
    const config = (await t.app.inject({ url: '/v1/config', headers })).json();
    expect(config.emoji.telegram).toEqual(emoji.telegram);
  });

  it('refuses a key that is not a provider and keeps what was stored', async () => {
    const { headers } = await signedIn();
    await t.app.inject({ method: 'PUT', url: '/v1/me/emoji', headers, payload: { whatsapp: ['👍'] } });
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/me/emoji',
      headers,
      payload: { whatsapp: ['🔥'], 'not-a-network': ['👍'] },
    });
    expect(res.statusCode).toBe(400);
    const config = (await t.app.inject({ url: '/v1/config', headers })).json();
    expect(config.emoji).toEqual({ whatsapp: [{ char: '👍' }] });
  });
});

describe('objects, companies, usergroups, tags, counts', () => {
  it('answer with the documented shapes, scoped to the caller', async () => {
    const { headers } = await signedIn();
    const objects = (await t.app.inject({ url: '/v1/objects?tags=true', headers })).json();
    expect(Object.keys(objects).sort()).toEqual([
      'ai_agents',
      'companies',
      'departments',
      'items',
      'labels',
      'tag_groups',
      'tags',
    ]);
    expect((await t.app.inject({ url: '/v1/objects', headers })).json()).toEqual({
      items: [],
      companies: [],
    });
    expect((await t.app.inject({ url: '/v1/companies', headers })).json()).toEqual({ items: [] });
    expect((await t.app.inject({ url: '/v1/usergroups', headers })).json()).toEqual({ items: [] });
    expect((await t.app.inject({ url: '/v1/tags', headers })).json()).toEqual({ items: [], tag_groups: [] });
    const counts = (await t.app.inject({ url: '/v1/counts', headers })).json();
    expect(counts).toEqual({ items_count: 0, chats_count: 0, issues_count: 0, issues_expired_count: 0 });
    expect((await t.app.inject({ url: '/v1/counts?monitoring=1', headers })).json()).toEqual({
      monitoring_count: 0,
    });
  });
});
