import { normalizeFactValue } from '@otklik/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import {
  authorIdOf,
  buildAdmin,
  buildMember,
  buildObject,
  buildUserGroup,
  writeAsCustomer,
} from '../authors/test-helpers';

// Custom fields of authors (docs/product/screens-and-routes.md settings/custom/facts): definitions per space managed by its
// administrators, values set on visible authors by whoever may label them, checked by kind.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Headers = Record<string, string>;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: unknown) =>
  t.app.inject({ method, url, headers, payload: payload as Record<string, unknown> | undefined });

async function spaceWithAuthor() {
  const admin = await buildAdmin(t);
  const object = await buildObject(t, admin.space.id);
  await writeAsCustomer(t, object, { externalId: 'c1', name: 'Ольга' }, { comments: 1 });
  const authorId = await authorIdOf(t, object, 'c1');
  return { admin, object, authorId };
}

describe('custom field definitions', () => {
  it('creates, lists in order, renames, changes options and deletes; names unique per space', async () => {
    const { admin } = await spaceWithAuthor();
    const space_id = admin.space.id;
    const city = await call('POST', '/v1/facts', admin.headers, { space_id, name: 'Город', kind: 'text' });
    expect(city.statusCode).toBe(200);
    const plan = await call('POST', '/v1/facts', admin.headers, {
      space_id,
      name: 'Тариф клиента',
      kind: 'select',
      options: ['Базовый', 'Про', 'Про'],
    });
    expect(plan.json()).toMatchObject({ kind: 'select', options: ['Базовый', 'Про'], position: 1 });

    const dup = await call('POST', '/v1/facts', admin.headers, { space_id, name: 'город', kind: 'number' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().error).toBe('Поле с таким названием уже есть');
    const noOptions = await call('POST', '/v1/facts?locale=en', admin.headers, {
      space_id,
      name: 'X',
      kind: 'select',
    });
    expect(noOptions.statusCode).toBe(400);
    expect(noOptions.json().error).toBe('Add at least one option');

    const list = await call('GET', `/v1/facts?space_id=${space_id}`, admin.headers);
    expect(list.json().items.map((f: { name: string }) => f.name)).toEqual(['Город', 'Тариф клиента']);

    const renamed = await call('PUT', `/v1/facts/${city.json().id}`, admin.headers, {
      name: 'Город клиента',
    });
    expect(renamed.json().name).toBe('Город клиента');
    expect((await call('DELETE', `/v1/facts/${plan.json().id}`, admin.headers)).statusCode).toBe(200);
    const after = await call('GET', `/v1/facts?space_id=${space_id}`, admin.headers);
    expect(after.json().items.map((f: { name: string }) => f.name)).toEqual(['Город клиента']);
  });

  it('belongs to its space: operators and other spaces’ admins cannot change it, nor see it', async () => {
    const { admin } = await spaceWithAuthor();
    const fact = (
      await call('POST', '/v1/facts', admin.headers, {
        space_id: admin.space.id,
        name: 'VIP с',
        kind: 'date',
      })
    ).json();
    const operator = await buildMember(t, admin.space.id, 'operator');
    const stranger = await buildAdmin(t);
    expect((await call('PUT', `/v1/facts/${fact.id}`, operator.headers, { name: 'x' })).statusCode).toBe(403);
    expect((await call('DELETE', `/v1/facts/${fact.id}`, stranger.headers)).statusCode).toBe(403);
    expect(
      (
        await call('POST', '/v1/facts', stranger.headers, {
          space_id: admin.space.id,
          name: 'y',
          kind: 'text',
        })
      ).statusCode,
    ).toBe(403);
    const seen = await call('GET', '/v1/facts', stranger.headers);
    expect(seen.json().items.some((f: { id: number }) => f.id === fact.id)).toBe(false);
    const byOperator = await call('GET', '/v1/facts', operator.headers);
    expect(byOperator.json().items.map((f: { id: number }) => f.id)).toContain(fact.id);
  });
});

describe("an author's values", () => {
  it('sets values in canonical form, refuses a bad one with its message and keeps the rest unchanged', async () => {
    const { admin, authorId } = await spaceWithAuthor();
    const space_id = admin.space.id;
    const mk = async (name: string, kind: string, options?: string[]) =>
      (await call('POST', '/v1/facts', admin.headers, { space_id, name, kind, options })).json().id as number;
    const orders = await mk('Заказов', 'number');
    const phone = await mk('Телефон', 'phone');
    const plan = await mk('План', 'select', ['Базовый', 'Про']);
    const url = `/v1/authors/${authorId}/facts`;

    const set = await call('PUT', url, admin.headers, {
      values: { [orders]: ' 12,5 ', [phone]: '+7 (912) 000-11-22', [plan]: 'Про' },
    });
    expect(set.statusCode).toBe(200);
    const values = Object.fromEntries(
      set.json().items.map((f: { fact_id: number; value: string }) => [f.fact_id, f.value]),
    );
    expect(values).toEqual({ [orders]: '12.5', [phone]: '+79120001122', [plan]: 'Про' });

    const bad = await call('PUT', url, admin.headers, { values: { [orders]: '7', [plan]: 'Золото' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      error: 'Выберите один из вариантов',
      fields: { [plan]: 'Выберите один из вариантов' },
    });
    const unchanged = (await call('GET', url, admin.headers)).json().items;
    expect(unchanged.find((f: { fact_id: number }) => f.fact_id === orders).value).toBe('12.5');

    const cleared = await call('PUT', url, admin.headers, { values: { [orders]: null, [phone]: '' } });
    const now = Object.fromEntries(
      cleared.json().items.map((f: { fact_id: number; value: string | null }) => [f.fact_id, f.value]),
    );
    expect(now).toEqual({ [orders]: null, [phone]: null, [plan]: 'Про' });

    // Changing a list drops values that are no longer among its options.
    await call('PUT', `/v1/facts/${plan}`, admin.headers, { options: ['Базовый', 'Премиум'] });
    const afterOptions = (await call('GET', url, admin.headers)).json().items;
    expect(afterOptions.find((f: { fact_id: number }) => f.fact_id === plan).value).toBeNull();
  });

  it("refuses another space's field and authors the caller cannot see; read-only users cannot edit", async () => {
    const { admin, authorId, object } = await spaceWithAuthor();
    const other = await spaceWithAuthor();
    const foreign = (
      await call('POST', '/v1/facts', other.admin.headers, {
        space_id: other.admin.space.id,
        name: 'Чужое',
        kind: 'text',
      })
    ).json();
    const res = await call('PUT', `/v1/authors/${authorId}/facts`, admin.headers, {
      values: { [foreign.id]: 'x' },
    });
    expect(res.statusCode).toBe(404);
    expect((await call('GET', `/v1/authors/${authorId}/facts`, other.admin.headers)).statusCode).toBe(404);

    const mine = (
      await call('POST', '/v1/facts', admin.headers, {
        space_id: admin.space.id,
        name: 'Заметка',
        kind: 'text',
      })
    ).json();
    const reader = await buildMember(t, admin.space.id, 'read-only');
    expect((await call('GET', `/v1/authors/${authorId}/facts`, reader.headers)).statusCode).toBe(200);
    const refused = await call('PUT', `/v1/authors/${authorId}/facts`, reader.headers, {
      values: { [mine.id]: 'x' },
    });
    expect(refused.statusCode).toBe(403);

    // A member limited to a group of other accounts does not see this author at all.
    const elsewhere = await buildObject(t, admin.space.id);
    const group = await buildUserGroup(t, admin.space.id, [elsewhere.id]);
    const limited = await buildMember(t, admin.space.id, 'operator', { groupId: group.id });
    expect((await call('GET', `/v1/authors/${authorId}/facts`, limited.headers)).statusCode).toBe(404);
    expect(object.spaceId).toBe(admin.space.id);
  });
});

describe('values by kind (shared by the web and the server)', () => {
  it.each([
    ['number', '1 000', '1000'],
    ['date', '2026-02-28', '2026-02-28'],
    ['boolean', 'true', 'true'],
    ['url', 'https://example.com/a', 'https://example.com/a'],
    ['email', 'Ann@Example.COM', 'ann@example.com'],
    ['phone', '8 912 000 11 22', '89120001122'],
  ] as const)('%s %s → %s', (kind, raw, value) => {
    expect(normalizeFactValue(kind, raw)).toEqual({ value });
  });
  it.each([
    ['number', 'много', 'fact.value.number'],
    ['date', '2026-02-30', 'fact.value.date'],
    ['url', 'javascript:alert(1)', 'fact.value.url'],
    ['email', 'not-an-email', 'fact.value.email'],
    ['phone', '12', 'fact.value.phone'],
  ] as const)('%s %s is refused', (kind, raw, error) => {
    expect(normalizeFactValue(kind, raw)).toEqual({ error });
  });
});
