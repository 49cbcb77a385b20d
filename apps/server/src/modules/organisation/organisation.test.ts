import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { companies, memberships, objects, userGroups } from '../../db/schema';
import { buildAdmin, buildMember, captureEvents } from '../users/testing';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const post = (headers: Headers, url: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers, payload });
const put = (headers: Headers, url: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url, headers, payload });
const del = (headers: Headers, url: string) => t.app.inject({ method: 'DELETE', url, headers });

describe('companies (docs/product/entities.md Companies)', () => {
  it('creates with default settings, merges partial settings on update, deletes', async () => {
    const admin = await buildAdmin(t);
    const events = captureEvents(t.deps.bus);
    const created = await post(admin.headers, '/v1/companies', {
      space_id: admin.space.id,
      name: '  Ромашка ',
    });
    expect(created.statusCode).toBe(200);
    const company = created.json();
    expect(company).toEqual({
      id: expect.any(Number),
      name: 'Ромашка',
      space_id: admin.space.id,
      settings: { items_assigned_to: null, status_open: false, tags_mode: 'space' },
    });
    await events.waitFor((e) => e.type === 'companies.changed' && e.spaceId === admin.space.id);
    events.stop();

    const updated = await put(admin.headers, `/v1/companies/${company.id}`, {
      settings: { items_assigned_to: admin.user.id, tags_mode: 'company' },
    });
    expect(updated.json()).toMatchObject({
      name: 'Ромашка',
      settings: { items_assigned_to: admin.user.id, status_open: false, tags_mode: 'company' },
    });
    const renamed = await put(admin.headers, `/v1/companies/${company.id}`, {
      name: 'Лютик',
      settings: { status_open: true },
    });
    expect(renamed.json()).toMatchObject({
      name: 'Лютик',
      settings: { items_assigned_to: admin.user.id, status_open: true, tags_mode: 'company' },
    });
    const list = (await t.app.inject({ url: '/v1/companies', headers: admin.headers })).json();
    expect(list.items).toEqual([renamed.json()]);

    expect((await del(admin.headers, `/v1/companies/${company.id}`)).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/companies', headers: admin.headers })).json().items).toEqual([]);
    expect((await del(admin.headers, `/v1/companies/${company.id}`)).statusCode).toBe(404);
  });

  it('validates the name and settings; assignee must be a member of the space', async () => {
    const admin = await buildAdmin(t);
    const stranger = await buildAdmin(t);
    const empty = await post(admin.headers, '/v1/companies', { space_id: admin.space.id, name: ' ' });
    expect(empty.json().fields.name).toBe('Обязательное поле');
    const unknownKey = await post(admin.headers, '/v1/companies', {
      space_id: admin.space.id,
      name: 'Co',
      settings: { colour: 'red' },
    });
    expect(unknownKey.statusCode).toBe(400);
    const badMode = await post(admin.headers, '/v1/companies', {
      space_id: admin.space.id,
      name: 'Co',
      settings: { tags_mode: 'all' },
    });
    expect(badMode.statusCode).toBe(400);
    const foreignAssignee = await post(admin.headers, '/v1/companies', {
      space_id: admin.space.id,
      name: 'Co',
      settings: { items_assigned_to: stranger.user.id },
    });
    expect(foreignAssignee.statusCode).toBe(400);
    expect(foreignAssignee.json().fields).toEqual({ 'settings.items_assigned_to': 'Некорректное значение' });
  });

  it('deleting a company takes it out of user groups; its accounts stay without a company', async () => {
    const admin = await buildAdmin(t);
    const db = t.deps.database.db;
    const company = (
      await post(admin.headers, '/v1/companies', { space_id: admin.space.id, name: 'C' })
    ).json();
    const [account] = await db
      .insert(objects)
      .values({ spaceId: admin.space.id, companyId: company.id, provider: 'vk', name: 'VK' })
      .returning();
    const group = (
      await post(admin.headers, '/v1/usergroups', {
        space_id: admin.space.id,
        name: 'G',
        company_ids: [company.id],
        object_ids: [account!.id],
      })
    ).json();
    await del(admin.headers, `/v1/companies/${company.id}`);
    const [row] = await db.select().from(userGroups).where(eq(userGroups.id, group.id));
    expect(row).toMatchObject({ companyIds: [], objectIds: [account!.id] });
    const [left] = await db.select().from(objects).where(eq(objects.id, account!.id));
    expect(left!.companyId).toBeNull();
  });
});

describe('departments', () => {
  it('CRUD; deleting one takes it out of memberships', async () => {
    const admin = await buildAdmin(t);
    const member = await buildMember(t, admin.space.id, 'operator');
    const db = t.deps.database.db;
    const sales = (
      await post(admin.headers, '/v1/departments', { space_id: admin.space.id, name: 'Продажи' })
    ).json();
    const support = (
      await post(admin.headers, '/v1/departments', { space_id: admin.space.id, name: 'Поддержка' })
    ).json();
    expect(sales).toEqual({ id: expect.any(Number), name: 'Продажи', space_id: admin.space.id });
    const renamed = await put(admin.headers, `/v1/departments/${sales.id}`, { name: 'Отдел продаж' });
    expect(renamed.json().name).toBe('Отдел продаж');

    // Every member reads the list (tasks are routed to departments); only administrators change it.
    const list = (await t.app.inject({ url: '/v1/departments', headers: member.headers })).json();
    expect(list.items.map((d: { name: string }) => d.name)).toEqual(['Отдел продаж', 'Поддержка']);
    expect(
      (await t.app.inject({ url: `/v1/departments/${support.id}`, headers: member.headers })).json(),
    ).toEqual(support);
    expect(
      (await post(member.headers, '/v1/departments', { space_id: admin.space.id, name: 'X' })).statusCode,
    ).toBe(403);
    expect((await put(member.headers, `/v1/departments/${sales.id}`, { name: 'X' })).statusCode).toBe(404);

    await put(admin.headers, `/v1/users/${member.user.id}`, {
      space_id: admin.space.id,
      department_ids: [sales.id, support.id],
    });
    expect((await del(admin.headers, `/v1/departments/${sales.id}`)).statusCode).toBe(200);
    const [row] = await db
      .select()
      .from(memberships)
      .where(and(eq(memberships.spaceId, admin.space.id), eq(memberships.userId, member.user.id)));
    expect(row!.departmentIds).toEqual([support.id]);
    expect((await t.app.inject({ url: '/v1/departments', headers: admin.headers })).json().items).toEqual([
      support,
    ]);
  });
});

describe('user groups (docs/product/roles.md: a group sees only what is assigned to it)', () => {
  it('accepts only companies and accounts of its own space', async () => {
    const admin = await buildAdmin(t);
    const stranger = await buildAdmin(t);
    const db = t.deps.database.db;
    const [foreign] = await db
      .insert(companies)
      .values({ spaceId: stranger.space.id, name: 'F' })
      .returning();
    const [foreignAccount] = await db
      .insert(objects)
      .values({ spaceId: stranger.space.id, provider: 'vk', name: 'F' })
      .returning();
    const byCompany = await post(admin.headers, '/v1/usergroups', {
      space_id: admin.space.id,
      name: 'G',
      company_ids: [foreign!.id],
    });
    expect(byCompany.statusCode).toBe(400);
    expect(byCompany.json().fields).toHaveProperty('company_ids');
    const group = (
      await post(admin.headers, '/v1/usergroups', { space_id: admin.space.id, name: 'G' })
    ).json();
    expect(group).toEqual({
      id: expect.any(Number),
      name: 'G',
      space_id: admin.space.id,
      company_ids: [],
      object_ids: [],
    });
    const byAccount = await put(admin.headers, `/v1/usergroups/${group.id}`, {
      object_ids: [foreignAccount!.id],
    });
    expect(byAccount.statusCode).toBe(400);
    expect(byAccount.json().fields).toHaveProperty('object_ids');
  });

  it('limits what a member sees in /v1/objects and /v1/companies, and follows group changes', async () => {
    const admin = await buildAdmin(t);
    const member = await buildMember(t, admin.space.id, 'operator');
    const db = t.deps.database.db;
    const [c1, c2] = await db
      .insert(companies)
      .values([
        { spaceId: admin.space.id, name: 'One' },
        { spaceId: admin.space.id, name: 'Two' },
      ])
      .returning();
    const [o1, o2, o3] = await db
      .insert(objects)
      .values([
        { spaceId: admin.space.id, companyId: c1!.id, provider: 'vk', name: 'o1' },
        { spaceId: admin.space.id, companyId: c2!.id, provider: 'telegram', name: 'o2' },
        { spaceId: admin.space.id, provider: 'youtube', name: 'o3' },
      ])
      .returning();
    const group = (
      await post(admin.headers, '/v1/usergroups', {
        space_id: admin.space.id,
        name: 'Team One',
        company_ids: [c1!.id],
        object_ids: [o3!.id],
      })
    ).json();
    const seen = async (headers: Headers) => {
      const objectsRes = (await t.app.inject({ url: '/v1/objects', headers })).json();
      const companiesRes = (await t.app.inject({ url: '/v1/companies', headers })).json();
      return {
        objects: objectsRes.items.map((o: { id: number }) => o.id),
        companies: companiesRes.items.map((c: { id: number }) => c.id),
      };
    };
    expect(await seen(member.headers)).toEqual({
      objects: [o1!.id, o2!.id, o3!.id],
      companies: [c1!.id, c2!.id],
    });

    const events = captureEvents(t.deps.bus);
    const assigned = await put(admin.headers, `/v1/users/${member.user.id}`, {
      space_id: admin.space.id,
      group_id: group.id,
    });
    expect(assigned.json().group_id).toBe(group.id);
    expect(await seen(member.headers)).toEqual({ objects: [o1!.id, o3!.id], companies: [c1!.id] });
    expect(await seen(admin.headers)).toEqual({
      objects: [o1!.id, o2!.id, o3!.id],
      companies: [c1!.id, c2!.id],
    });

    await put(admin.headers, `/v1/usergroups/${group.id}`, { company_ids: [c2!.id], object_ids: [] });
    await events.waitFor(
      (e) =>
        e.type === 'memberships.changed' &&
        !!e.userIds?.includes(member.user.id) &&
        e.cause?.id === admin.user.id,
    );
    events.stop();
    expect(await seen(member.headers)).toEqual({ objects: [o2!.id], companies: [c2!.id] });

    // A group with members cannot be deleted: that would widen their access to the whole space.
    const inUse = await del(admin.headers, `/v1/usergroups/${group.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toMatchObject({ error_type: 'group_in_use', members: 1 });
    await put(admin.headers, `/v1/users/${member.user.id}`, { space_id: admin.space.id, group_id: null });
    expect((await del(admin.headers, `/v1/usergroups/${group.id}`)).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/usergroups', headers: admin.headers })).json().items).toEqual([]);
  });
});

describe('scoping', () => {
  it("an administrator cannot touch another space's organisation; a non-admin member cannot change their own", async () => {
    const a = await buildAdmin(t);
    const b = await buildAdmin(t);
    const bOperator = await buildMember(t, b.space.id, 'operator');
    const company = (await post(b.headers, '/v1/companies', { space_id: b.space.id, name: 'B' })).json();
    const department = (await post(b.headers, '/v1/departments', { space_id: b.space.id, name: 'B' })).json();
    const group = (await post(b.headers, '/v1/usergroups', { space_id: b.space.id, name: 'B' })).json();

    for (const [url, body] of [
      ['/v1/companies', { name: 'x' }],
      ['/v1/departments', { name: 'x' }],
      ['/v1/usergroups', { name: 'x' }],
    ] as const) {
      expect((await post(a.headers, url, { ...body, space_id: b.space.id })).statusCode).toBe(403);
      expect((await post(bOperator.headers, url, { ...body, space_id: b.space.id })).statusCode).toBe(403);
    }
    for (const url of [
      `/v1/companies/${company.id}`,
      `/v1/departments/${department.id}`,
      `/v1/usergroups/${group.id}`,
    ]) {
      for (const headers of [a.headers, bOperator.headers]) {
        expect((await put(headers, url, { name: 'hacked' })).statusCode).toBe(404);
        expect((await del(headers, url)).statusCode).toBe(404);
      }
    }
    expect(
      (await t.app.inject({ url: `/v1/departments/${department.id}`, headers: a.headers })).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ url: `/v1/departments?space_id=${b.space.id}`, headers: a.headers })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ url: '/v1/departments', headers: a.headers })).json().items).toEqual([]);
    // Nothing changed.
    expect((await t.app.inject({ url: '/v1/companies', headers: b.headers })).json().items[0].name).toBe('B');
  });
});
