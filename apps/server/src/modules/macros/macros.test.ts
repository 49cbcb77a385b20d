import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildComment, buildObject } from '../../../test/inbox-actions';
import {
  auditLog,
  companies,
  issueLinks,
  issues,
  items,
  itemTags,
  macros,
  outbox,
  replyTemplates,
  tags,
} from '../../db/schema';
import { buildAdmin, buildMember } from '../authors/test-helpers';

// Macros (issue 16): validation, scoping, preview and run through the inbox services on the real
// database — per-item results, network and role limits, rollback of a failed item, usage counts.

let t: TestApp;
// A fresh database with every migration: slow on a loaded machine, so the hooks get more time.
beforeAll(async () => {
  t = await createTestApp();
}, 240_000);
afterAll(() => t?.close());

type Headers = Record<string, string>;
const ON = { macros: true, templates: true, issues: true };
const db = () => t.deps.database.db;

const base = { name: 'Спасибо и закрыть', personal: false, shortcut: null, sort_order: 0 };

async function create(headers: Headers, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/v1/macros', headers, payload });
}
async function createOk(headers: Headers, payload: Record<string, unknown>) {
  const res = await create(headers, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; user_id: number | null; usage_count: number };
}
async function post(headers: Headers, url: string, item_ids: number[], locale = 'ru') {
  return t.app.inject({ method: 'POST', url: `${url}?locale=${locale}`, headers, payload: { item_ids } });
}

async function scene() {
  const admin = await buildAdmin(t, ON);
  const spaceId = admin.space.id;
  const [tag] = await db().insert(tags).values({ spaceId, name: 'Доставка' }).returning();
  const [template] = await db()
    .insert(replyTemplates)
    .values({ spaceId, title: 'Спасибо', text: 'Спасибо, {author_name}!' })
    .returning();
  const sandbox = await buildObject(t, spaceId);
  const telegram = await buildObject(t, spaceId, { provider: 'telegram' });
  return { admin, spaceId, tag: tag!, template: template!, sandbox, telegram };
}

describe('macros — validation and scoping', { timeout: 120_000 }, () => {
  it("refuses another space's template, tag or person (issue 22, found by the tenant isolation matrix)", async () => {
    const mine = await scene();
    const other = await scene();
    const body = (actions: unknown[]) => ({ ...base, space_id: mine.spaceId, actions });
    for (const actions of [
      [{ type: 'reply_template', template_id: other.template.id }],
      [{ type: 'tag', tag_ids: [mine.tag.id, other.tag.id] }],
      [{ type: 'assign', user_id: other.admin.user.id }],
    ]) {
      const res = await create(mine.admin.headers, body(actions));
      expect(res.statusCode, JSON.stringify(actions)).toBe(404);
      expect(res.json().error).toBe('Не найдено');
    }
    const own = await createOk(
      mine.admin.headers,
      body([
        { type: 'tag', tag_ids: [mine.tag.id] },
        { type: 'assign', user_id: mine.admin.user.id },
      ]),
    );
    const moved = await t.app.inject({
      method: 'PUT',
      url: `/v1/macros/${own.id}`,
      headers: mine.admin.headers,
      payload: { actions: [{ type: 'untag', tag_ids: [other.tag.id] }] },
    });
    expect(moved.statusCode).toBe(404);
    const [row] = await db().select().from(macros).where(eq(macros.id, own.id));
    expect(row!.actions).toEqual([
      { type: 'tag', tag_ids: [mine.tag.id] },
      { type: 'assign', user_id: mine.admin.user.id },
    ]);
    // A tag deleted since the macro was saved does not stop the editor saving it again.
    await db().delete(tags).where(eq(tags.id, mine.tag.id));
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/v1/macros/${own.id}`,
      headers: mine.admin.headers,
      payload: { name: 'Снова', actions: row!.actions },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });

  it('refuses an empty name, no actions, a second reply and a bad key, in the caller’s language', async () => {
    const { admin, spaceId } = await scene();
    const empty = await create(admin.headers, { ...base, space_id: spaceId, name: ' ', actions: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual({
      name: 'Введите название макроса',
      actions: 'Добавьте хотя бы одно действие',
    });
    const twice = await create(admin.headers, {
      ...base,
      space_id: spaceId,
      actions: [
        { type: 'reply_template', template_id: 1 },
        { type: 'reply_template', template_id: 2 },
      ],
      shortcut: 12,
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().fields).toMatchObject({
      actions: 'Ответ может быть только один',
      shortcut: 'Клавиша — цифра от 1 до 9',
    });
    const en = await t.app.inject({
      method: 'POST',
      url: '/v1/macros?locale=en',
      headers: admin.headers,
      payload: { ...base, space_id: spaceId, actions: [{ type: 'tag', tag_ids: [] }, { type: 'explode' }] },
    });
    expect(en.statusCode).toBe(400);
    expect(Object.values(en.json().fields)).toEqual(
      expect.arrayContaining(['Choose tags', 'Unknown action']),
    );
  });

  it('space macros need macros.manage; personal ones are their owner’s; other spaces get 404', async () => {
    const { admin, spaceId, tag } = await scene();
    const actions = [{ type: 'tag', tag_ids: [tag.id] }];
    const macro = await createOk(admin.headers, { ...base, space_id: spaceId, actions, shortcut: 1 });
    const taken = await create(admin.headers, { ...base, space_id: spaceId, actions, shortcut: 1 });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().fields).toEqual({ shortcut: 'Эта клавиша уже у другого макроса' });

    const operator = await buildMember(t, spaceId, 'operator');
    expect((await create(operator.headers, { ...base, space_id: spaceId, actions })).statusCode).toBe(403);
    const mine = await createOk(operator.headers, { ...base, space_id: spaceId, actions, personal: true });
    expect(mine.user_id).toBe(operator.user.id);
    const list = (await t.app.inject({ url: '/v1/macros', headers: operator.headers })).json();
    expect(list.items.map((m: { id: number }) => m.id).sort()).toEqual([macro.id, mine.id].sort());
    expect(list.can_manage).toEqual([]);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v1/macros/${macro.id}`,
      headers: operator.headers,
      payload: { name: 'x' },
    });
    expect(put.statusCode).toBe(403);
    expect((await t.app.inject({ url: `/v1/macros/${mine.id}`, headers: admin.headers })).statusCode).toBe(
      404,
    );

    const stranger = await buildAdmin(t, ON);
    for (const [method, url] of [
      ['GET', `/v1/macros/${macro.id}`],
      ['DELETE', `/v1/macros/${macro.id}`],
    ] as const) {
      expect((await t.app.inject({ method, url, headers: stranger.headers })).statusCode).toBe(404);
    }
    expect((await post(stranger.headers, `/v1/macros/${macro.id}/run`, [1])).statusCode).toBe(404);

    const off = await buildAdmin(t, { macros: false });
    expect((await create(off.headers, { ...base, space_id: off.space.id, actions })).statusCode).toBe(403);

    const del = await t.app.inject({
      method: 'DELETE',
      url: `/v1/macros/${macro.id}`,
      headers: admin.headers,
    });
    expect(del.statusCode).toBe(200);
    expect((await db().select().from(macros).where(eq(macros.id, macro.id))).length).toBe(0);
    // The action log has the macro's life, by whom (settings/logs).
    const logged = await db()
      .select({ kind: auditLog.kind, actorId: auditLog.actorId })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'macro'), eq(auditLog.targetId, String(macro.id))));
    expect(logged.map((row) => row.kind)).toEqual(expect.arrayContaining(['macro.created', 'macro.deleted']));
  });
});

describe('macros — preview and run', { timeout: 120_000 }, () => {
  it('three items on mixed networks: hide is skipped where the network cannot; tags, reply and close apply', async () => {
    const s = await scene();
    const a = await buildComment(t, s.sandbox);
    const b = await buildComment(t, s.telegram);
    const c = await buildComment(t, s.sandbox);
    const macro = await createOk(s.admin.headers, {
      ...base,
      space_id: s.spaceId,
      actions: [
        { type: 'tag', tag_ids: [s.tag.id] },
        { type: 'reply_template', template_id: s.template.id },
        { type: 'hide' },
        { type: 'close' },
        { type: 'create_task', title: 'Проверить' },
      ],
    });

    const preview = await post(s.admin.headers, `/v1/macros/${macro.id}/preview`, [a.id, b.id, c.id]);
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json();
    const outcomes = (id: number) =>
      p.items
        .find((x: { item_id: number }) => x.item_id === id)
        .actions.map((x: { outcome: string }) => x.outcome);
    expect(outcomes(a.id)).toEqual(['apply', 'queue', 'queue', 'skip', 'apply']);
    expect(outcomes(b.id)).toEqual(['apply', 'queue', 'skip', 'skip', 'apply']);
    const hideOnTelegram = p.items.find((x: { item_id: number }) => x.item_id === b.id).actions[2];
    expect(hideOnTelegram.message).toBe('Соцсеть не позволяет это действие');
    // Closing is skipped because the reply closes the comment already (docs/product/states.md).
    expect(p.items[0].actions[1].detail).toBe('Спасибо, Customer!');
    expect(p.items[0].actions[4].detail).toBe('Проверить');
    // The preview changed nothing.
    expect((await db().select().from(itemTags).where(eq(itemTags.itemId, a.id))).length).toBe(0);

    const run = await post(s.admin.headers, `/v1/macros/${macro.id}/run`, [a.id, b.id, c.id]);
    expect(run.statusCode, run.body).toBe(200);
    const r = run.json();
    expect(r.summary).toEqual({ ok: 3, skipped: 0, failed: 0 });
    const rb = r.items.find((x: { item_id: number }) => x.item_id === b.id);
    expect(rb.actions.map((x: { outcome: string }) => x.outcome)).toEqual([
      'applied',
      'queued',
      'skipped',
      'skipped',
      'applied',
    ]);
    for (const item of [a, b, c]) {
      // One task about each comment, made by the tasks service (modules/issues).
      const linked = await db()
        .select({ title: issues.title })
        .from(issueLinks)
        .innerJoin(issues, eq(issues.id, issueLinks.issueId))
        .where(and(eq(issueLinks.kind, 'item'), eq(issueLinks.targetId, item.id)));
      expect(linked).toEqual([{ title: 'Проверить' }]);
      const [row] = await db().select().from(items).where(eq(items.id, item.id));
      expect(row!.status).toBe('closed');
      expect(row!.isHidden).toBe(item.objectId === s.sandbox.id);
      expect(
        (await db().select().from(itemTags).where(eq(itemTags.itemId, item.id))).map((x) => x.tagId),
      ).toEqual([s.tag.id]);
    }
    const queued = await db().select().from(outbox).where(eq(outbox.spaceId, s.spaceId));
    expect(queued.filter((o) => o.action === 'reply')).toHaveLength(3);
    expect(queued.filter((o) => o.action === 'hide')).toHaveLength(2);
    // Usage: the macro once per run, the template once per reply.
    const [m] = await db().select().from(macros).where(eq(macros.id, macro.id));
    expect(m!.usageCount).toBe(1);
    const [tpl] = await db().select().from(replyTemplates).where(eq(replyTemplates.id, s.template.id));
    expect(tpl!.usageCount).toBe(3);
    // A second run says what is already done (in English when asked); the reply goes again.
    const again = (await post(s.admin.headers, `/v1/macros/${macro.id}/preview`, [a.id], 'en')).json();
    expect(again.items[0].actions.map((x: { outcome: string }) => x.outcome)).toEqual([
      'skip',
      'queue',
      'skip',
      'skip',
      'apply',
    ]);
    expect(again.items[0].actions[0].message).toBe('Nothing to change');
  });

  it("a moderator's run cannot reply: the reply is skipped for the role, moderation applies", async () => {
    const s = await scene();
    const item = await buildComment(t, s.sandbox);
    const macro = await createOk(s.admin.headers, {
      ...base,
      space_id: s.spaceId,
      actions: [{ type: 'reply_template', template_id: s.template.id }, { type: 'delete' }],
    });
    const moderator = await buildMember(t, s.spaceId, 'moderator');
    const run = await post(moderator.headers, `/v1/macros/${macro.id}/run`, [item.id]);
    expect(run.statusCode, run.body).toBe(200);
    const [result] = run.json().items;
    expect(result.status).toBe('ok');
    expect(result.actions[0]).toMatchObject({
      outcome: 'skipped',
      message: 'Ваша роль не позволяет это действие',
    });
    expect(result.actions[1].outcome).toBe('queued');
    const replies = await db()
      .select()
      .from(outbox)
      .where(and(eq(outbox.spaceId, s.spaceId), eq(outbox.action, 'reply')));
    expect(replies).toHaveLength(0);
    const [row] = await db().select().from(items).where(eq(items.id, item.id));
    expect(row!.isDeleted).toBe(true);
    // A moderator may not create space macros, nor one with a reply for someone else.
    expect(
      (await create(moderator.headers, { ...base, space_id: s.spaceId, actions: [{ type: 'close' }] }))
        .statusCode,
    ).toBe(403);
  });

  it('a failed action rolls the whole item back and is reported; the other items keep their changes', async () => {
    const s = await scene();
    // A company that takes only its own tags: tagging its item fails inside the run (issue 13 #16).
    const [company] = await db()
      .insert(companies)
      .values({ spaceId: s.spaceId, name: 'Филиал', settings: { tags_mode: 'company' } })
      .returning();
    const strict = await buildObject(t, s.spaceId, { companyId: company!.id });
    const good = await buildComment(t, s.sandbox);
    const bad = await buildComment(t, strict);
    const macro = await createOk(s.admin.headers, {
      ...base,
      space_id: s.spaceId,
      actions: [
        { type: 'reply_template', template_id: s.template.id },
        { type: 'tag', tag_ids: [s.tag.id] },
      ],
    });
    const run = await post(s.admin.headers, `/v1/macros/${macro.id}/run`, [good.id, bad.id]);
    expect(run.statusCode, run.body).toBe(200);
    const r = run.json();
    expect(r.summary).toEqual({ ok: 1, skipped: 0, failed: 1 });
    const failed = r.items.find((x: { item_id: number }) => x.item_id === bad.id);
    expect(failed.message).toBe('Ошибка; у этого обращения ничего не изменено');
    expect(failed.actions.map((x: { outcome: string }) => x.outcome)).toEqual(['not_run', 'failed']);
    expect(failed.actions[1].message).toBe('Этот тег не относится к компании аккаунта');
    // The failed item's reply was rolled back with it: no reply row, no outbox row, still open.
    const [badRow] = await db().select().from(items).where(eq(items.id, bad.id));
    expect(badRow!.status).toBe('new');
    expect(badRow!.firstReplyAt).toBeNull();
    const replies = await db()
      .select()
      .from(outbox)
      .where(and(eq(outbox.spaceId, s.spaceId), eq(outbox.action, 'reply')));
    expect(replies).toHaveLength(1);
    const [goodRow] = await db().select().from(items).where(eq(items.id, good.id));
    expect(goodRow!.status).toBe('closed');
  });

  it('items of another space are reported as not found and left alone; too many items are refused', async () => {
    const s = await scene();
    const other = await scene();
    const foreign = await buildComment(t, other.sandbox);
    const macro = await createOk(s.admin.headers, {
      ...base,
      space_id: s.spaceId,
      actions: [{ type: 'close' }],
    });
    const run = await post(s.admin.headers, `/v1/macros/${macro.id}/run`, [foreign.id]);
    expect(run.statusCode).toBe(200);
    expect(run.json().items[0]).toMatchObject({ status: 'failed', message: 'Не найдено' });
    const [row] = await db().select().from(items).where(eq(items.id, foreign.id));
    expect(row!.status).toBe('new');
    const [m] = await db().select().from(macros).where(eq(macros.id, macro.id));
    expect(m!.usageCount).toBe(0);
    const tooMany = await post(
      s.admin.headers,
      `/v1/macros/${macro.id}/run`,
      Array.from({ length: 101 }, (_, i) => i + 1),
    );
    expect(tooMany.statusCode).toBe(400);
  });
});
