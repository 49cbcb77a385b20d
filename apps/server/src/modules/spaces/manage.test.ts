import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../../test/harness';
import { openDatabase } from '../../db/client';
import { spaces } from '../../db/schema';
import { buildAdmin, buildMember, setTariff } from '../users/testing';
import { createSignupSpace } from './manage';

// Space administration (issue 14 items 1–2): rename, another space, feature flags by tariff, tariffs
// as data. The instance operator's CLI: src/admin/cli.test.ts.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const call = (
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  payload?: Record<string, unknown>,
) => t.app.inject({ method, url, headers, payload });

describe('tariffs as data', () => {
  it('lists the public tariffs with prices per period, limits and switchable features', async () => {
    const admin = await buildAdmin(t);
    const res = await call('GET', '/v1/tariffs', admin.headers);
    expect(res.statusCode).toBe(200);
    const items = res.json().items as Array<{ id: number; prices: Record<string, Record<string, number>> }>;
    expect(items.map((i) => i.id)).toEqual([1, 2, 20]); // the trial (10) is not for sale
    const start = res.json().items[0];
    expect(start).toMatchObject({ name: 'Start', max_users: 3, max_accounts: 5, is_public: true });
    expect(Object.keys(start.prices.RUB).sort()).toEqual(['180', '30', '365']);
    expect(start.features).toContain('labels');
    expect(start.features).not.toContain('qa');
  });
});

describe('a space and its administrator', () => {
  it('creates another space whose creator is its administrator; both show in the config', async () => {
    const admin = await buildAdmin(t);
    const res = await call('POST', '/v1/spaces', admin.headers, { name: '  Второй офис ' });
    expect(res.statusCode).toBe(200);
    const created = res.json();
    expect(created).toMatchObject({ name: 'Второй офис', is_trial: true, usage: { users: 1, accounts: 0 } });
    const config = (await call('GET', '/v1/config', admin.headers)).json();
    const mine = config.spaces.map((s: { id: number }) => s.id);
    expect(mine).toEqual(expect.arrayContaining([admin.space.id, created.id]));
    const second = config.spaces.find((s: { id: number }) => s.id === created.id);
    expect(second.roles.settings).toBe(true);
  });

  it('renames the space and changes its time zone; bad input answers in the caller’s language', async () => {
    const admin = await buildAdmin(t);
    const url = `/v1/spaces/${admin.space.id}`;
    const renamed = await call('PUT', url, admin.headers, {
      name: 'Новое имя',
      timezone: 'Asia/Yekaterinburg',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Новое имя', timezone: 'Asia/Yekaterinburg' });

    const badZone = await call('PUT', url, admin.headers, { timezone: 'Mars/Olympus' });
    expect(badZone.statusCode).toBe(400);
    expect(badZone.json().error).toBe('Неизвестный часовой пояс');
    const empty = await call('PUT', `${url}?locale=en`, admin.headers, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('Nothing to change: give at least one field');
    const blank = await call('PUT', url, admin.headers, { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toBe('Укажите название пространства');
    const [row] = await t.deps.database.db.select().from(spaces).where(eq(spaces.id, admin.space.id));
    expect(row!.name).toBe('Новое имя');
  });

  it('is managed by its administrators only: an operator and another space’s admin get 403', async () => {
    const admin = await buildAdmin(t);
    const operator = await buildMember(t, admin.space.id, 'operator');
    const stranger = await buildAdmin(t);
    for (const headers of [operator.headers, stranger.headers]) {
      expect((await call('GET', `/v1/spaces/${admin.space.id}`, headers)).statusCode).toBe(403);
      expect((await call('PUT', `/v1/spaces/${admin.space.id}`, headers, { name: 'x' })).statusCode).toBe(
        403,
      );
      const flags = await call('PUT', `/v1/spaces/${admin.space.id}/features`, headers, {
        flags: { labels: true },
      });
      expect(flags.statusCode).toBe(403);
    }
    const [row] = await t.deps.database.db.select().from(spaces).where(eq(spaces.id, admin.space.id));
    expect(row!.name).not.toBe('x');
    expect(row!.settings).not.toHaveProperty('labels');
  });
});

describe('feature flags decided by the tariff', () => {
  it('switches on what the tariff lists, refuses the rest, and always switches off', async () => {
    const admin = await buildAdmin(t);
    await setTariff(t, admin.space.id, 1); // Start: labels yes, quality check no
    const url = `/v1/spaces/${admin.space.id}/features`;

    const on = await call('PUT', url, admin.headers, { flags: { labels: true, user_workinghours: true } });
    expect(on.statusCode).toBe(200);
    expect(on.json().flags).toMatchObject({ labels: true, user_workinghours: true, qa: false });
    const config = (await call('GET', '/v1/config', admin.headers)).json();
    const space = config.spaces.find((s: { id: number }) => s.id === admin.space.id);
    expect(space.settings).toMatchObject({ labels: true, user_workinghours: true });

    // 400, not 403: the web shows a 403 as the No-access page, and this is a refusal of one switch.
    const refused = await call('PUT', url, admin.headers, { flags: { qa: true } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'Эта функция недоступна в текущем тарифе',
      error_type: 'feature_not_in_tariff',
    });

    const off = await call('PUT', url, admin.headers, { flags: { labels: false } });
    expect(off.json().flags).toMatchObject({ labels: false, user_workinghours: true });
    expect((await call('PUT', url, admin.headers, { flags: {} })).statusCode).toBe(400);
    expect((await call('PUT', url, admin.headers, { flags: { nonsense: true } })).statusCode).toBe(400);
  });

  it('shows usage against the tariff limits', async () => {
    const admin = await buildAdmin(t);
    await buildMember(t, admin.space.id, 'operator');
    const details = (await call('GET', `/v1/spaces/${admin.space.id}`, admin.headers)).json();
    expect(details.usage).toEqual({ users: 2, accounts: 0 });
    expect(details.tariff).toMatchObject({ id: 10, max_users: 5, max_accounts: 10 });
  });
});

describe('the first space of a fresh instance', () => {
  it('is on the tariff that allows every feature, paid and not expiring; later ones are trials', async () => {
    const fresh = await openDatabase({ inMemory: true });
    try {
      const fakeT = { deps: { database: fresh } } as unknown as TestApp;
      const owner = await buildUser(fakeT);
      // buildUser made a trial space directly; an instance whose only spaces came that way has one.
      await fresh.db.delete(spaces);
      const first = await createSignupSpace(fresh.db, { name: 'Моя компания', ownerId: owner.user.id }, 20);
      expect(first).toMatchObject({ tariffId: 20, isTrial: false });
      expect(first.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50 * 365 * 86_400_000);
      const second = await createSignupSpace(fresh.db, { name: 'Клиент', ownerId: owner.user.id }, 20);
      expect(second).toMatchObject({ tariffId: 10, isTrial: true });
      await fresh.db.delete(spaces);
      const off = await createSignupSpace(fresh.db, { name: 'Без правила', ownerId: owner.user.id }, 0);
      expect(off).toMatchObject({ tariffId: 10, isTrial: true });
    } finally {
      await fresh.close();
    }
  });
});
