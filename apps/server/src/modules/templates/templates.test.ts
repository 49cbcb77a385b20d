import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { chats } from '../../db/schema';
import { buildAdmin, buildMember, buildObject, writeAsCustomer } from '../authors/test-helpers';
import { guardCell } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const ON = { templates: true };

async function create(headers: Headers, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/v1/templates', headers, payload });
}
const base = {
  title: 'Спасибо',
  text: 'Здравствуйте, {author_name}!',
  folder: '',
  personal: false,
  variants: {},
  variables: [],
};

async function createOk(headers: Headers, payload: Record<string, unknown>) {
  const res = await create(headers, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; user_id: number | null; usage_count: number };
}

describe('templates — scoping and policies', () => {
  it('a space template is seen by an operator; another space gets 404; the flag off gets 403', async () => {
    const admin = await buildAdmin(t, ON);
    const tpl = await createOk(admin.headers, { ...base, space_id: admin.space.id, folder: 'Доставка' });
    const operator = await buildMember(t, admin.space.id, 'operator');
    const list = (await t.app.inject({ url: '/v1/templates', headers: operator.headers })).json();
    expect(list.items.map((x: { id: number }) => x.id)).toEqual([tpl.id]);
    // docs/product/roles.md: the operator's role flag `templates` grants templates.manage too (their settings entry).
    expect(list.can_manage).toEqual([admin.space.id]);
    // A moderator (no `templates` role flag) neither lists, reads nor creates them.
    const moderator = await buildMember(t, admin.space.id, 'moderator');
    expect((await t.app.inject({ url: '/v1/templates', headers: moderator.headers })).json().items).toEqual(
      [],
    );
    expect(
      (await t.app.inject({ url: `/v1/templates/${tpl.id}`, headers: moderator.headers })).statusCode,
    ).toBe(403);
    expect((await create(moderator.headers, { ...base, space_id: admin.space.id })).statusCode).toBe(403);

    const stranger = await buildAdmin(t, ON);
    for (const [method, url] of [
      ['GET', `/v1/templates/${tpl.id}`],
      ['DELETE', `/v1/templates/${tpl.id}`],
      ['POST', `/v1/templates/${tpl.id}/used`],
    ] as const) {
      expect((await t.app.inject({ method, url, headers: stranger.headers })).statusCode).toBe(404);
    }
    const strangerList = (await t.app.inject({ url: '/v1/templates', headers: stranger.headers })).json();
    expect(strangerList.items).toEqual([]);

    const off = await buildAdmin(t, { templates: false });
    const refused = await create(off.headers, { ...base, space_id: off.space.id });
    expect(refused.statusCode).toBe(403);
  });

  it("a personal template is its owner's only: another user, the admin included, gets 404", async () => {
    const admin = await buildAdmin(t, ON);
    const operator = await buildMember(t, admin.space.id, 'operator');
    const mine = await createOk(operator.headers, { ...base, space_id: admin.space.id, personal: true });
    expect(mine.user_id).toBe(operator.user.id);
    const colleague = await buildMember(t, admin.space.id, 'operator');
    expect(
      (await t.app.inject({ url: `/v1/templates/${mine.id}`, headers: colleague.headers })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: `/v1/templates/${mine.id}`, headers: admin.headers })).statusCode).toBe(
      404,
    );
    const adminList = (await t.app.inject({ url: '/v1/templates', headers: admin.headers })).json();
    expect(adminList.items).toEqual([]);
    // The owner edits and deletes it without templates.manage.
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v1/templates/${mine.id}`,
      headers: operator.headers,
      payload: { title: 'Моё' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().title).toBe('Моё');
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/v1/templates/${mine.id}`,
      headers: operator.headers,
    });
    expect(del.statusCode).toBe(200);
    expect(
      (await t.app.inject({ url: `/v1/templates/${mine.id}`, headers: operator.headers })).statusCode,
    ).toBe(404);
  });

  it('validates with the shared schema: text required, custom variables not built-in names', async () => {
    const admin = await buildAdmin(t, ON);
    const res = await create(admin.headers, { ...base, space_id: admin.space.id, text: '  ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ text: 'Введите текст шаблона' });
    const builtin = await create(admin.headers, {
      ...base,
      space_id: admin.space.id,
      variables: [{ name: 'author_name', default: 'x' }],
    });
    expect(builtin.statusCode).toBe(400);
  });
});

describe('templates — rendering and usage', () => {
  it('fills author, account, operator, date and custom defaults; uses the network variant', async () => {
    const admin = await buildAdmin(t, ON);
    const object = await buildObject(t, admin.space.id);
    const written = await writeAsCustomer(
      t,
      object,
      { externalId: 'c-1', name: 'Анна Иванова' },
      { comments: 1 },
    );
    const tpl = await createOk(admin.headers, {
      ...base,
      space_id: admin.space.id,
      text: '{author_name}, {account}: {operator_name} {date} {promo} {unknown}.',
      variables: [{ name: 'promo', default: 'SALE10' }],
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/templates/${tpl.id}/render?locale=en`,
      headers: admin.headers,
      payload: { item_id: written.itemIds[0] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const date = new Intl.DateTimeFormat('en-GB', { dateStyle: 'short' }).format(new Date());
    expect(res.json()).toEqual({
      text: `Анна Иванова, ${object.name}: ${admin.user.name} ${date} SALE10 .`,
      provider: 'sandbox',
    });

    const variant = await createOk(admin.headers, {
      ...base,
      space_id: admin.space.id,
      variants: { sandbox: 'Песочница: {author_name}', vk: '' },
    });
    const rendered = await t.app.inject({
      method: 'POST',
      url: `/v1/templates/${variant.id}/render`,
      headers: admin.headers,
      payload: { item_id: written.itemIds[0] },
    });
    expect(rendered.json().text).toBe('Песочница: Анна Иванова');
    // An item of another space is not found through the template.
    const other = await buildAdmin(t, ON);
    const otherObject = await buildObject(t, other.space.id);
    const foreign = await writeAsCustomer(
      t,
      otherObject,
      { externalId: 'c-2', name: 'Борис' },
      { comments: 1 },
    );
    const refused = await t.app.inject({
      method: 'POST',
      url: `/v1/templates/${tpl.id}/render`,
      headers: admin.headers,
      payload: { item_id: foreign.itemIds[0] },
    });
    expect(refused.statusCode).toBe(404);

    const used = await t.app.inject({
      method: 'POST',
      url: `/v1/templates/${tpl.id}/used`,
      headers: admin.headers,
    });
    expect(used.json()).toEqual({ usage_count: 1 });
    const one = (await t.app.inject({ url: `/v1/templates/${tpl.id}`, headers: admin.headers })).json();
    expect(one.usage_count).toBe(1);
  });
});

describe('templates — rendering for a chat', () => {
  it("fills the chat's author and account", async () => {
    const admin = await buildAdmin(t, ON);
    const object = await buildObject(t, admin.space.id);
    await writeAsCustomer(t, object, { externalId: 'c-3', name: 'Вера' }, { messages: 1 });
    const [chat] = await t.deps.database.db.select().from(chats).where(eq(chats.objectId, object.id));
    const tpl = await createOk(admin.headers, {
      ...base,
      space_id: admin.space.id,
      text: '{author_name} / {account}',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/templates/${tpl.id}/render`,
      headers: admin.headers,
      payload: { chat_id: chat!.id },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().text).toBe(`Вера / ${object.name}`);
  });
});

describe('templates — CSV', () => {
  it('guards formula cells', () => {
    expect(guardCell('=HYPERLINK("x")')).toBe('\'=HYPERLINK("x")');
    expect(guardCell('+1')).toBe("'+1");
    expect(guardCell('-2')).toBe("'-2");
    expect(guardCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(guardCell('Привет')).toBe('Привет');
  });

  it('exports and imports back the same templates; formulas are neutralised in the file', async () => {
    const admin = await buildAdmin(t, ON);
    await createOk(admin.headers, {
      ...base,
      space_id: admin.space.id,
      title: '=cmd|calc',
      folder: 'Папка, "кавычки"',
      text: 'Строка 1\nСтрока 2, {promo}',
      variants: { telegram: '@{author_name}' },
      variables: [{ name: 'promo', default: '-10%' }],
    });
    await createOk(admin.headers, { ...base, space_id: admin.space.id, personal: true, title: 'Моё' });
    const exported = await t.app.inject({ url: '/v1/templates/export.csv', headers: admin.headers });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain('text/csv');
    const csv = exported.body;
    expect(csv.split('\n')[0]).toBe('title,folder,text,personal,variants,variables');
    expect(csv).toContain("'=cmd|calc");
    expect(csv).not.toMatch(/(^|,)=cmd/m);

    const target = await buildAdmin(t, ON);
    const imported = await t.app.inject({
      method: 'POST',
      url: '/v1/templates/import',
      headers: target.headers,
      payload: { space_id: target.space.id, csv },
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const list = (await t.app.inject({ url: '/v1/templates', headers: target.headers })).json();
    const strip = (x: Record<string, unknown>) => ({
      title: x.title,
      folder: x.folder,
      text: x.text,
      variants: x.variants,
      variables: x.variables,
      personal: x.user_id !== null,
    });
    const source = (await t.app.inject({ url: '/v1/templates', headers: admin.headers })).json();
    expect(list.items.map(strip)).toEqual(source.items.map(strip));
    expect(list.items.find((x: { title: string }) => x.title === 'Моё').user_id).toBe(target.user.id);

    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/templates/import',
      headers: target.headers,
      payload: { space_id: target.space.id, csv: 'a,b\n1,2' },
    });
    expect(bad.statusCode).toBe(400);
  });
});
