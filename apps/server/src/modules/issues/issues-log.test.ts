import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildComment, buildObject, multipartFile } from '../../../test/inbox-actions';
import { auditLog, companies, issues, replyTemplates, tags } from '../../db/schema';
import { buildAdmin, buildMember } from '../authors/test-helpers';

// Issue 16, the operator's day in the action log and the task list's limits, on the real database:
// task created / assigned / status / closed, a reply through a template, a macro run — each entry
// written in its change's transaction (a refused change writes none); statuses settings/issues turned
// off are refused; the list pages past 100 by cursor; comment files are kept and served per space.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 240_000);
afterAll(() => t?.close());

type Headers = Record<string, string>;
const ON = { issues: true, templates: true, macros: true, audit: true };
const db = () => t.deps.database.db;

async function createTask(headers: Headers, payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/issues', headers, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; status: string };
}
const put = (headers: Headers, id: number, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: `/v1/issues/${id}`, headers, payload });

async function entries(spaceId: number) {
  return db().select().from(auditLog).where(eq(auditLog.spaceId, spaceId)).orderBy(asc(auditLog.id));
}
const kinds = async (spaceId: number, prefix: string) =>
  (await entries(spaceId)).filter((e) => e.kind.startsWith(prefix)).map((e) => e.kind);

describe('the action log — tasks', { timeout: 120_000 }, () => {
  it('records creation, assignment (before → after), status and closing, by whom; refused changes write nothing', async () => {
    const admin = await buildAdmin(t, ON);
    const s = admin.space.id;
    const colleague = await buildMember(t, s, 'operator', { name: 'Коллега Петрова' });
    const task = await createTask(admin.headers, {
      space_id: s,
      title: 'Перезвонить',
      assigned_user_id: null,
    });

    const created = (await entries(s)).find((e) => e.kind === 'issue.created')!;
    expect(created).toMatchObject({
      actorId: admin.user.id,
      actorKind: 'user',
      targetType: 'issue',
      targetId: String(task.id),
      targetLabel: 'Перезвонить',
    });
    expect(created.after).toMatchObject({ title: 'Перезвонить', status: 'new', assignee: null });

    const assigned = await put(admin.headers, task.id, { assigned_user_id: colleague.user.id });
    expect(assigned.statusCode, assigned.body).toBe(200);
    const moved = await put(colleague.headers, task.id, { status: 'inprogress' });
    expect(moved.statusCode, moved.body).toBe(200);
    const closed = await put(colleague.headers, task.id, { status: 'closed' });
    expect(closed.statusCode, closed.body).toBe(200);

    const log = (await entries(s)).filter((e) => e.kind.startsWith('issue.'));
    expect(log.map((e) => [e.kind, e.actorId, e.before, e.after])).toEqual([
      ['issue.created', admin.user.id, null, expect.anything()],
      ['issue.assigned', admin.user.id, { assignee: null }, { assignee: 'Коллега Петрова' }],
      ['issue.status', colleague.user.id, { status: 'new' }, { status: 'inprogress' }],
      ['issue.closed', colleague.user.id, { status: 'inprogress' }, { status: 'closed' }],
    ]);

    // A change to nothing new writes nothing; refused changes write nothing.
    expect((await put(admin.headers, task.id, { status: 'closed' })).statusCode).toBe(200);
    const stranger = await buildAdmin(t, ON);
    expect((await put(admin.headers, task.id, { assigned_user_id: stranger.user.id })).statusCode).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/v1/issues',
          headers: admin.headers,
          payload: { space_id: s, title: ' ' },
        })
      ).statusCode,
    ).toBe(400);
    const viewer = await buildMember(t, s, 'analyst');
    expect((await put(viewer.headers, task.id, { status: 'new' })).statusCode).toBe(403);
    expect(await kinds(s, 'issue.')).toEqual([
      'issue.created',
      'issue.assigned',
      'issue.status',
      'issue.closed',
    ]);

    // Deleting is logged too, with what the task was.
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/v1/issues/${task.id}`,
      headers: admin.headers,
    });
    expect(del.statusCode).toBe(200);
    const last = (await entries(s)).at(-1)!;
    expect(last).toMatchObject({ kind: 'issue.deleted', before: { title: 'Перезвонить', status: 'closed' } });

    // The log's API shows them to the administrator (settings/logs).
    const api = await t.app.inject({ url: `/v1/audit?space_id=${s}&kind=issue`, headers: admin.headers });
    expect(api.statusCode, api.body).toBe(200);
    expect(api.json().items.map((e: { kind: string }) => e.kind)).toEqual([
      'issue.deleted',
      'issue.closed',
      'issue.status',
      'issue.assigned',
      'issue.created',
    ]);
  });
});

describe('task statuses of settings/issues are enforced', { timeout: 120_000 }, () => {
  it('a status the space turned off is refused on create and change, in the caller’s language', async () => {
    const admin = await buildAdmin(t, ON);
    const s = admin.space.id;
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/v1/issues/settings',
      headers: admin.headers,
      payload: { space_id: s, statuses: ['new', 'inprogress', 'closed'], assigned_to: null },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await kinds(s, 'issue.settings')).toEqual(['issue.settings']);

    const refusedCreate = await t.app.inject({
      method: 'POST',
      url: '/v1/issues',
      headers: admin.headers,
      payload: { space_id: s, title: 'Ждёт', status: 'waiting' },
    });
    expect(refusedCreate.statusCode).toBe(400);
    expect(refusedCreate.json()).toMatchObject({
      error: 'Этот статус задач выключен в настройках пространства',
      fields: { status: 'Этот статус задач выключен в настройках пространства' },
    });

    const task = await createTask(admin.headers, { space_id: s, title: 'Можно' });
    const refused = await t.app.inject({
      method: 'PUT',
      url: `/v1/issues/${task.id}?locale=en`,
      headers: admin.headers,
      payload: { status: 'delayed' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('This task status is turned off in the space settings');
    const [row] = await db().select().from(issues).where(eq(issues.id, task.id));
    expect(row!.status).toBe('new');
    expect(await kinds(s, 'issue.status')).toEqual([]);
    expect((await put(admin.headers, task.id, { status: 'inprogress' })).statusCode).toBe(200);

    // A task already in a status that was turned off later may keep it while other fields change.
    await db().update(issues).set({ status: 'waiting' }).where(eq(issues.id, task.id));
    expect(
      (await put(admin.headers, task.id, { status: 'waiting', title: 'Переименована' })).statusCode,
    ).toBe(200);
  });
});

describe('the task list pages by cursor', { timeout: 240_000 }, () => {
  it('walks more than 100 tasks, in every sort, with no duplicates or gaps', async () => {
    const admin = await buildAdmin(t, ON);
    const s = admin.space.id;
    // Rows straight into the table (the API is tested above); shared moments test the id tie-break.
    const base = Date.UTC(2026, 0, 1);
    const rows = Array.from({ length: 237 }, (_, i) => ({
      spaceId: s,
      title: `Задача ${i}`,
      createdAt: new Date(base + Math.floor(i / 3) * 1000),
      updatedAt: new Date(base + (i % 7) * 1000),
      dueAt: i % 4 === 0 ? null : new Date(base + (i % 11) * 60_000),
      createdBy: admin.user.id,
    }));
    const inserted = await db().insert(issues).values(rows).returning({ id: issues.id });
    const all = inserted.map((r) => r.id).sort((a, b) => a - b);

    for (const sort of ['created_at', 'updated_at', 'deadline']) {
      const seen: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `space_id=${s}&assigned_to=all&sort=${sort}&limit=100${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await t.app.inject({ url: `/v1/issues?${query}`, headers: admin.headers });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json() as {
          items: Array<{ id: number }>;
          total: number;
          next_cursor: string | null;
        };
        expect(body.total).toBe(237);
        seen.push(...body.items.map((i) => i.id));
        cursor = body.next_cursor;
        pages++;
      } while (cursor && pages < 10);
      expect(pages, sort).toBe(3);
      expect(new Set(seen).size, sort).toBe(seen.length);
      expect(
        [...seen].sort((a, b) => a - b),
        sort,
      ).toEqual(all);
    }

    // The order is the sort's: created_at newest first, ties by id descending.
    const first = (
      await t.app.inject({ url: `/v1/issues?space_id=${s}&assigned_to=all&limit=5`, headers: admin.headers })
    ).json();
    expect(first.items.map((i: { id: number }) => i.id)).toEqual([...all].reverse().slice(0, 5));

    const bad = await t.app.inject({
      url: `/v1/issues?space_id=${s}&cursor=nonsense`,
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('the action log — templates and macros', { timeout: 180_000 }, () => {
  async function scene() {
    const admin = await buildAdmin(t, ON);
    const s = admin.space.id;
    const [template] = await db()
      .insert(replyTemplates)
      .values({ spaceId: s, title: 'Спасибо', text: 'Спасибо, {author_name}!' })
      .returning();
    const [tag] = await db().insert(tags).values({ spaceId: s, name: 'Доставка' }).returning();
    const sandbox = await buildObject(t, s);
    return { admin, s, template: template!, tag: tag!, sandbox };
  }

  it('a reply made from a template is logged with the template and the item; a refused one writes nothing', async () => {
    const { admin, s, template, sandbox } = await scene();
    const item = await buildComment(t, sandbox);
    const reply = await t.app.inject({
      method: 'POST',
      url: `/v1/items/${item.id}/reply`,
      headers: admin.headers,
      payload: { text: 'Спасибо, Customer!', template_id: template.id },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    const used = (await entries(s)).filter((e) => e.kind === 'template.used');
    expect(used).toHaveLength(1);
    expect(used[0]).toMatchObject({
      actorId: admin.user.id,
      targetType: 'template',
      targetId: String(template.id),
      targetLabel: 'Спасибо',
      after: { template: 'Спасибо', item: item.id },
    });
    const [counted] = await db().select().from(replyTemplates).where(eq(replyTemplates.id, template.id));
    expect(counted!.usageCount).toBe(1);

    // Refused (empty text; a template of another space): no entry, no use counted.
    const other = await scene();
    const second = await buildComment(t, sandbox);
    for (const payload of [
      { text: '  ', template_id: template.id },
      { text: 'x', template_id: other.template.id },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/items/${second.id}/reply`,
        headers: admin.headers,
        payload,
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
    }
    expect(await kinds(s, 'template.used')).toHaveLength(1);
    const [still] = await db().select().from(replyTemplates).where(eq(replyTemplates.id, template.id));
    expect(still!.usageCount).toBe(1);
  });

  it('a macro run is logged with its name and per-item outcomes; a failed item leaves none of its entries', async () => {
    const { admin, s, template, tag, sandbox } = await scene();
    const [company] = await db()
      .insert(companies)
      .values({ spaceId: s, name: 'Филиал', settings: { tags_mode: 'company' } })
      .returning();
    const strict = await buildObject(t, s, { companyId: company!.id });
    const [a, b, bad] = [
      await buildComment(t, sandbox),
      await buildComment(t, sandbox),
      await buildComment(t, strict),
    ];
    const macro = await t.app.inject({
      method: 'POST',
      url: '/v1/macros',
      headers: admin.headers,
      payload: {
        space_id: s,
        name: 'Спасибо и задача',
        personal: false,
        shortcut: null,
        sort_order: 0,
        actions: [
          { type: 'reply_template', template_id: template.id },
          { type: 'create_task', title: 'Проверить доставку' },
          { type: 'tag', tag_ids: [tag.id] },
        ],
      },
    });
    expect(macro.statusCode, macro.body).toBe(200);
    const id = macro.json().id as number;
    const run = await t.app.inject({
      method: 'POST',
      url: `/v1/macros/${id}/run`,
      headers: admin.headers,
      payload: { item_ids: [a.id, b.id, bad.id] },
    });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().summary).toEqual({ ok: 2, skipped: 0, failed: 1 });

    const log = await entries(s);
    const runs = log.filter((e) => e.kind === 'macro.run');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      actorId: admin.user.id,
      targetType: 'macro',
      targetId: String(id),
      targetLabel: 'Спасибо и задача',
      after: { items: 3, ok: 2, skipped: 0, failed: 1 },
    });
    // The good items' replies and tasks are logged; the failed item's were rolled back with it.
    const used = log.filter((e) => e.kind === 'template.used').map((e) => (e.after as { item: number }).item);
    expect(used.sort()).toEqual([a.id, b.id].sort());
    expect(log.filter((e) => e.kind === 'issue.created')).toHaveLength(2);

    // A run refused as a whole (another space's macro) writes nothing.
    const stranger = await buildAdmin(t, ON);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/v1/macros/${id}/run`,
      headers: stranger.headers,
      payload: { item_ids: [a.id] },
    });
    expect(refused.statusCode).toBe(404);
    expect(await kinds(s, 'macro.run')).toHaveLength(1);
    expect(await kinds(stranger.space.id, 'macro.run')).toHaveLength(0);
  });
});

describe('task comment files', { timeout: 120_000 }, () => {
  const upload = (headers: Headers, taskId: number, name: string, mime: string, content: Buffer) => {
    const body = multipartFile(name, mime, content);
    return t.app.inject({
      method: 'POST',
      url: `/v1/issues/${taskId}/attachments`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  };

  it('a comment carries uploaded files; members download them, another space gets 404', async () => {
    const admin = await buildAdmin(t, ON);
    const s = admin.space.id;
    const colleague = await buildMember(t, s, 'operator');
    const task = await createTask(admin.headers, { space_id: s, title: 'С файлом' });
    const pdf = Buffer.from('%PDF-1.4 накладная');
    const up = await upload(admin.headers, task.id, 'Накладная.pdf', 'application/pdf', pdf);
    expect(up.statusCode, up.body).toBe(200);
    const stored = up.json() as { file: string; name: string; mime: string; size: number };
    expect(stored).toMatchObject({ name: 'Накладная.pdf', mime: 'application/pdf', size: pdf.length });

    const comment = await t.app.inject({
      method: 'POST',
      url: `/v1/issues/${task.id}/comments`,
      headers: admin.headers,
      payload: { text: 'Накладная во вложении', attachments: [{ file: stored.file, name: stored.name }] },
    });
    expect(comment.statusCode, comment.body).toBe(200);
    const url = `/v1/issues/${task.id}/attachments/${stored.file}`;
    expect(comment.json().attachments).toEqual([
      { url, name: 'Накладная.pdf', mime: 'application/pdf', size: pdf.length },
    ]);
    const page = (await t.app.inject({ url: `/v1/issues/${task.id}`, headers: colleague.headers })).json();
    expect(page.comments[0].attachments[0].url).toBe(url);

    const got = await t.app.inject({ url, headers: colleague.headers });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toContain('application/pdf');
    expect(got.headers['content-disposition']).toContain('attachment');
    expect(got.rawPayload.equals(pdf)).toBe(true);

    // Another space: the task is not found, nor is the file; the public reply-upload address does not serve it.
    const stranger = await buildAdmin(t, ON);
    expect((await t.app.inject({ url, headers: stranger.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/v1/uploads/${stored.file}` })).statusCode).toBe(404);
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    // Another task of the same space does not serve this task's file.
    const other = await createTask(admin.headers, { space_id: s, title: 'Другая' });
    expect(
      (
        await t.app.inject({
          url: `/v1/issues/${other.id}/attachments/${stored.file}`,
          headers: admin.headers,
        })
      ).statusCode,
    ).toBe(404);
    // A stranger's task cannot name this space's file in a comment.
    const theirs = await createTask(stranger.headers, { space_id: stranger.space.id, title: 'Чужая' });
    const stolen = await t.app.inject({
      method: 'POST',
      url: `/v1/issues/${theirs.id}/comments`,
      headers: stranger.headers,
      payload: { text: 'x', attachments: [{ file: stored.file }] },
    });
    expect(stolen.statusCode).toBe(400);
    // Nor upload to a task they do not see.
    expect(
      (await upload(stranger.headers, task.id, 'a.txt', 'text/plain', Buffer.from('x'))).statusCode,
    ).toBe(404);
  });

  it('refuses types that are not allowed and files over the limit, with the shared messages', async () => {
    const admin = await buildAdmin(t, ON);
    const task = await createTask(admin.headers, { space_id: admin.space.id, title: 'Лимиты' });
    const html = await upload(admin.headers, task.id, 'x.html', 'text/html', Buffer.from('<script>'));
    expect(html.statusCode).toBe(400);
    expect(html.json().error).toBe('Можно приложить изображение, документ, таблицу, текст или архив');
    const big = await upload(
      admin.headers,
      task.id,
      'big.zip',
      'application/zip',
      Buffer.alloc(10 * 1024 * 1024 + 1, 1),
    );
    expect(big.statusCode).toBe(400);
    expect(big.json().error).toBe('Файл слишком большой: не более 10 МБ');
    const [left] = await db()
      .select()
      .from(issues)
      .where(and(eq(issues.id, task.id)));
    expect(left).toBeTruthy();
  });
});
