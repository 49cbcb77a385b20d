import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import {
  createRule as createRuleVia,
  postRule,
  RULE_BASE,
  rulesDeps,
  rulesScene,
} from '../../../test/rules-worker';
import {
  activity,
  auditLog,
  authors,
  issueLinks,
  items,
  itemTags,
  ruleMatches,
  ruleQueue,
  spaces,
  tags,
} from '../../db/schema';
import { RulesNoReplyJob } from '../../jobs/rules-no-reply';
import { buildMember } from '../authors/test-helpers';
import { ingest } from '../inbox/ingest/ingest';
import { runRules } from './engine';

// Auto-rules (issue 17) on the real database: validation, the ingestion hand-off and the worker, closing
// "by autorules", the item history and action log, the no-reply trigger on a moved clock, the loop
// guard and the dry run.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 240_000);
afterAll(() => t?.close());

type Headers = Record<string, string>;
const db = () => t.deps.database.db;
const deps = (spaceIds: number[]) => rulesDeps(t, spaceIds);

const createRule = (headers: Headers, payload: Record<string, unknown>) => createRuleVia(t, headers, payload);

async function scene() {
  const base = await rulesScene(t);
  const [tag] = await db().insert(tags).values({ spaceId: base.spaceId, name: 'Грубость' }).returning();
  return { ...base, tag: tag! };
}

describe('auto-rules — validation', { timeout: 120_000 }, () => {
  it('refuses an unsafe regex, a missing name and a no-reply rule without minutes, in the caller’s language', async () => {
    const { admin, spaceId } = await scene();
    const res = await postRule(t, admin.headers, {
      space_id: spaceId,
      name: ' ',
      trigger: 'no_reply',
      conditions: { all: [{ type: 'regex', pattern: '(a+)+$' }] },
      actions: [{ type: 'close' }],
    });
    expect(res.statusCode).toBe(400);
    const fields = res.json().fields as Record<string, string>;
    expect(fields.name).toBe('Введите название правила');
    expect(fields.minutes).toBe('Укажите число минут');
    expect(Object.values(fields)).toContain(
      'Это регулярное выражение небезопасно: уберите вложенные повторы и ссылки назад',
    );
  });

  it('is for administrators: an operator gets 403', async () => {
    const { spaceId } = await scene();
    const operator = await buildMember(t, spaceId, 'operator');
    const res = await t.app.inject({
      method: 'GET',
      url: `/v1/rules?space_id=${spaceId}`,
      headers: operator.headers,
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('auto-rules — arrival', { timeout: 120_000 }, () => {
  it('tags and closes an insult "by autorules"; history and the action log name the rule', async () => {
    const { admin, spaceId, tag, worker, arrive, item } = await scene();
    const rule = await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Оскорбления',
      conditions: {
        any: [
          { type: 'text_contains', values: ['дурак'] },
          { type: 'regex', pattern: 'иди\\s*от' },
        ],
      },
      actions: [{ type: 'tag', tag_ids: [tag.id] }, { type: 'close' }],
    });
    const bad = await arrive('Вы все дураки');
    const fine = await arrive('Спасибо за доставку');
    // Queued in the ingestion transaction, run by the worker.
    expect((await db().select().from(ruleQueue).where(eq(ruleQueue.spaceId, spaceId))).length).toBe(2);
    expect(await worker.drain()).toBe(2);
    expect(await db().select().from(ruleQueue).where(eq(ruleQueue.spaceId, spaceId))).toEqual([]);
    expect(await item(bad)).toMatchObject({ status: 'closed', closeReason: 'autorule' });
    expect(await item(fine)).toMatchObject({ status: 'new', closeReason: null });
    const tagged = await db().select().from(itemTags).where(eq(itemTags.itemId, bad));
    expect(tagged.map((r) => r.tagId)).toEqual([tag.id]);

    const history = await db().select().from(activity).where(eq(activity.itemId, bad));
    const byRule = history.filter((h) => h.causeKind === 'rule');
    expect(byRule.map((h) => h.type).sort()).toEqual(['item.rule', 'item.status', 'item.tagged']);
    expect(byRule.every((h) => h.causeId === rule.id)).toBe(true);
    expect(byRule.find((h) => h.type === 'item.rule')!.data).toMatchObject({
      rule: 'Оскорбления',
      status: 'ok',
    });
    const logged = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.spaceId, spaceId), eq(auditLog.kind, 'rule.applied')));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ actorKind: 'rule', actorName: 'Оскорбления', targetId: String(bad) });

    const listed = await t.app.inject({ method: 'GET', url: `/v1/rules/${rule.id}`, headers: admin.headers });
    expect(listed.json()).toMatchObject({ match_count: 1 });
    const matches = await t.app.inject({
      method: 'GET',
      url: `/v1/rules/${rule.id}/matches`,
      headers: admin.headers,
    });
    expect(matches.json().items.map((m: { item_id: number }) => m.item_id)).toEqual([bad]);
  });

  it('runs in order and stop_processing ends the pass; a paused rule does nothing', async () => {
    const { admin, spaceId, tag, worker, arrive, item } = await scene();
    await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Первое',
      position: 0,
      stop_processing: true,
      conditions: { all: [{ type: 'kind', kinds: ['comment'] }] },
      actions: [{ type: 'tag', tag_ids: [tag.id] }],
    });
    await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Второе',
      position: 1,
      conditions: { all: [] },
      actions: [{ type: 'close' }],
    });
    await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Пауза',
      position: 0,
      paused: true,
      conditions: { all: [] },
      actions: [{ type: 'set_status', status: 'waiting' }],
    });
    const id = await arrive('Привет');
    await worker.drain();
    expect(await item(id)).toMatchObject({ status: 'new' });
    expect(await db().select().from(ruleMatches).where(eq(ruleMatches.itemId, id))).toHaveLength(1);
  });

  it('a failing action is recorded as failed, on the item and in the stats, never silent', async () => {
    const { admin, spaceId, worker, arrive } = await scene();
    const rule = await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Назначить',
      conditions: { all: [] },
      actions: [{ type: 'assign', user_id: 999_999 }],
    });
    const id = await arrive('Вопрос');
    await worker.drain();
    const [match] = await db().select().from(ruleMatches).where(eq(ruleMatches.itemId, id));
    // A user who is not in the space: skipped with the reason, visible in the run's record.
    expect(match).toMatchObject({ ruleId: rule.id, status: 'skipped' });
    expect(match!.results[0]).toMatchObject({
      type: 'assign',
      outcome: 'skipped',
      reason: 'macros.skip.user',
    });
    const stats = await t.app.inject({
      method: 'GET',
      url: `/v1/stats/rules?space_id=${spaceId}&preset=7d`,
      headers: admin.headers,
    });
    expect(stats.statusCode, stats.body).toBe(200);
    expect(stats.json().rules[0]).toMatchObject({ rule_id: rule.id, matches: 1, actions: 0 });
  });
});

describe('auto-rules — the author edits or deletes', { timeout: 120_000 }, () => {
  it('an edit that turns rude is caught by an edit rule (each edit once); a deletion runs the deletion rules', async () => {
    const { admin, spaceId, object, tag, worker, arrive, item } = await scene();
    await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Правка с грубостью',
      trigger: 'item_edited',
      conditions: { all: [{ type: 'text_contains', values: ['дурак'] }] },
      actions: [{ type: 'tag', tag_ids: [tag.id] }],
    });
    const rule = await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Удалено автором',
      trigger: 'item_deleted',
      conditions: { all: [] },
      actions: [{ type: 'assign', user_id: admin.user.id }],
    });
    const id = await arrive('Привет');
    const externalId = (await item(id)).externalId!;
    const change = (over: Record<string, unknown>) =>
      ingest({ db: db(), bus: t.deps.bus }, object, [
        { type: 'change', target: 'item', externalId, at: new Date(), ...over },
      ]);
    // Arrival rules: none here, so nothing was queued.
    expect(await worker.drain()).toBe(0);
    await change({ change: 'edited', text: 'Ну ты и дурак' });
    expect(await worker.drain()).toBe(1);
    expect((await db().select().from(itemTags).where(eq(itemTags.itemId, id))).map((r) => r.tagId)).toEqual([
      tag.id,
    ]);
    await change({ change: 'edited', text: 'Ты дурак, исправил' });
    await worker.drain();
    expect(await db().select().from(ruleMatches).where(eq(ruleMatches.itemId, id))).toHaveLength(2);
    await change({ change: 'deleted' });
    await worker.drain();
    expect(await item(id)).toMatchObject({ isDeleted: true, assignedUserId: admin.user.id });
    const [deletion] = await db()
      .select()
      .from(ruleMatches)
      .where(and(eq(ruleMatches.ruleId, rule.id), eq(ruleMatches.itemId, id)));
    expect(deletion).toMatchObject({ event: 'deleted', status: 'ok' });
  });
});

describe('auto-rules — block the author', { timeout: 120_000 }, () => {
  it('blocks the author for a week, recorded as the rule; the author’s next comment finds them blocked', async () => {
    const { admin, spaceId, worker, arrive, item } = await scene();
    const rule = await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Блокировать спамеров',
      conditions: { all: [{ type: 'has_link' }] },
      actions: [{ type: 'block_author', duration: 'week' }],
    });
    const author = { externalId: `spammer-${Math.random()}`, name: 'Спамер' };
    const first = await arrive('Заходите на https://spam.example', { author });
    await worker.drain();
    const { authorId } = await item(first);
    const [blocked] = await db().select().from(authors).where(eq(authors.id, authorId!));
    expect(blocked!.blockedUntil!.getTime() - Date.now()).toBeGreaterThan(6 * 86_400_000);
    const [record] = await db()
      .select()
      .from(activity)
      .where(and(eq(activity.type, 'author.blocked'), eq(activity.spaceId, spaceId)));
    expect(record).toMatchObject({ causeKind: 'rule', causeId: rule.id });
    const second = await arrive('Снова https://spam.example', { author });
    await worker.drain();
    const [again] = await db()
      .select()
      .from(ruleMatches)
      .where(and(eq(ruleMatches.ruleId, rule.id), eq(ruleMatches.itemId, second)));
    expect(again!.results[0]).toMatchObject({
      type: 'block_author',
      outcome: 'skipped',
      reason: 'macros.skip.blocked',
    });
  });
});

describe('auto-rules — tasks', { timeout: 120_000 }, () => {
  it("creates a task about the item as the rule's author, and skips it with the reason when tasks are off", async () => {
    const { admin, spaceId, worker, arrive } = await scene();
    await db()
      .update(spaces)
      .set({ settings: { issues: true } })
      .where(eq(spaces.id, spaceId));
    const rule = await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Жалоба — задача',
      conditions: { all: [{ type: 'text_contains', values: ['жалоба'] }] },
      actions: [{ type: 'create_task', title: 'Разобрать жалобу' }],
    });
    const id = await arrive('Это жалоба на курьера');
    await worker.drain();
    const links = await db()
      .select()
      .from(issueLinks)
      .where(and(eq(issueLinks.kind, 'item'), eq(issueLinks.targetId, id)));
    expect(links).toHaveLength(1);
    await db().update(spaces).set({ settings: {} }).where(eq(spaces.id, spaceId));
    const second = await arrive('Ещё одна жалоба');
    await worker.drain();
    const [match] = await db()
      .select()
      .from(ruleMatches)
      .where(and(eq(ruleMatches.ruleId, rule.id), eq(ruleMatches.itemId, second)));
    expect(match).toMatchObject({ status: 'skipped' });
    expect(match!.results[0]).toMatchObject({
      type: 'create_task',
      outcome: 'skipped',
      reason: 'rules.skip.task',
    });
  });
});

describe('auto-rules — no reply for N minutes', { timeout: 120_000 }, () => {
  it('assigns once the clock passes N minutes, once, and not an answered item', async () => {
    const { admin, spaceId, arrive, item } = await scene();
    const operator = await buildMember(t, spaceId, 'operator');
    await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Без ответа 10 минут',
      trigger: 'no_reply',
      minutes: 10,
      conditions: { all: [] },
      actions: [{ type: 'assign', user_id: operator.user.id }],
    });
    const id = await arrive('Ответьте, пожалуйста');
    const job = new RulesNoReplyJob(deps([spaceId]));
    const now = Date.now();
    expect(await job.tick(new Date(now + 5 * 60_000))).toBe(0);
    expect((await item(id)).assignedUserId).toBeNull();
    expect(await job.tick(new Date(now + 11 * 60_000))).toBe(1);
    expect((await item(id)).assignedUserId).toBe(operator.user.id);
    // Once per item.
    expect(await job.tick(new Date(now + 30 * 60_000))).toBe(0);
  });
});

describe('auto-rules — loop guard', { timeout: 120_000 }, () => {
  it('what a rule does never starts rules: one run per rule and item, our reply is not queued', async () => {
    const { admin, spaceId, worker, arrive, template } = await scene();
    const thanks = await template('Спасибо', 'Спасибо за отзыв!');
    const rule = await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Ответ всем',
      conditions: { all: [] },
      actions: [{ type: 'reply_template', template_id: thanks.id }],
    });
    const id = await arrive('Хороший магазин');
    await worker.drain();
    // The reply (our own item) and its status change queued nothing.
    expect(await worker.drain()).toBe(0);
    const runs = await db().select().from(ruleMatches).where(eq(ruleMatches.ruleId, rule.id));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ itemId: id, status: 'ok' });
    // Running the pass again (a redelivered queue row) does nothing: the pair is taken.
    expect(await runRules(deps([spaceId]), id, 'item_created')).toEqual([]);
    const own = await db()
      .select()
      .from(items)
      .where(and(eq(items.spaceId, spaceId), eq(items.isOwn, true)));
    expect(own).toHaveLength(1);
    expect(await db().select().from(ruleMatches).where(eq(ruleMatches.itemId, own[0]!.id))).toEqual([]);
  });
});

describe('auto-rules — dry run', { timeout: 120_000 }, () => {
  it('lists the items of the last 1,000 it would match and what it would do, changing nothing', async () => {
    const { admin, spaceId, tag, arrive, item } = await scene();
    const spam = await arrive('Заработок без вложений http://spam.example');
    await arrive('Где мой заказ?');
    const spam2 = await arrive('Пишите на win@prize.example');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/rules/dry-run',
      headers: admin.headers,
      payload: {
        ...RULE_BASE,
        space_id: spaceId,
        name: 'Спам',
        conditions: { any: [{ type: 'has_link' }, { type: 'has_contact' }] },
        actions: [{ type: 'tag', tag_ids: [tag.id] }, { type: 'hide' }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ looked_at: 3, matched: 2 });
    expect(body.items.map((i: { item_id: number }) => i.item_id).sort()).toEqual([spam, spam2].sort());
    expect(body.items[0].actions.map((a: { type: string; outcome: string }) => [a.type, a.outcome])).toEqual([
      ['tag', 'apply'],
      ['hide', 'queue'],
    ]);
    expect(await item(spam)).toMatchObject({ status: 'new', isHidden: false });
    // A new author (their first item) on a publication about a promotion.
    const newcomer = await t.app.inject({
      method: 'POST',
      url: '/v1/rules/dry-run',
      headers: admin.headers,
      payload: {
        ...RULE_BASE,
        space_id: spaceId,
        name: 'Новички',
        conditions: {
          all: [
            { type: 'author_items', min: 1, max: 1 },
            { type: 'post_contains', values: ['our post'] },
          ],
        },
        actions: [{ type: 'tag', tag_ids: [tag.id] }],
      },
    });
    expect(newcomer.json()).toMatchObject({ looked_at: 3, matched: 3 });
  });
});
