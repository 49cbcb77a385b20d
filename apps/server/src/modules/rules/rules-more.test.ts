import { WEBHOOK_MAX_ATTEMPTS } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { createRule as createRuleVia, postRule, rulesDeps, rulesScene } from '../../../test/rules-worker';
import { startReceiver, verifyStandardWebhook as verify } from '../../../test/webhook-receiver';
import {
  activity,
  auditLog,
  issueLinks,
  issues,
  items,
  memberships,
  notifications,
  outbox,
  ruleMatches,
  tags,
  userGroups,
  userStatuses,
} from '../../db/schema';
import { RulesNoReplyJob } from '../../jobs/rules-no-reply';
import { WebhookWorker, type WebhookWorkerDeps } from '../../jobs/webhook-worker';
import { buildMember } from '../authors/test-helpers';

// Auto-rules' later triggers, condition and actions (issue 17) on the real database: waiting for the
// customer N hours and a task due (clock moved, not slept), the language condition, round-robin
// assignment by capacity and online status, a private reply where the network allows it (a recorded
// failure where not), notifying users, and a signed webhook received by a loopback server.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOKS_ALLOW_PRIVATE: 'true' });
}, 240_000);
afterAll(() => t?.close());

type Headers = Record<string, string>;
const db = () => t.deps.database.db;
const deps = (spaceIds: number[]) => rulesDeps(t, spaceIds);

const createRule = (headers: Headers, payload: Record<string, unknown>) => createRuleVia(t, headers, payload);

const scene = (provider?: string) => rulesScene(t, provider);

/**
 * A webhook of the space to `url` (200 expected), subscribed to nothing a rule sends: the rule's call
 * goes to it anyway.
 */
async function createWebhook(headers: Headers, spaceId: number, url: string) {
  const made = await t.app.inject({
    method: 'POST',
    url: '/v1/webhooks',
    headers,
    payload: { space_id: spaceId, url, description: 'CRM', events: ['task.changed'], is_enabled: true },
  });
  expect(made.statusCode, made.body).toBe(200);
  return made.json() as { webhook: { id: number }; secret: string };
}

/** The webhook deliveries' worker of the space, loopback endpoints allowed. */
const webhookSender = (spaceId: number, extra: Partial<WebhookWorkerDeps> = {}) =>
  new WebhookWorker({
    db: db(),
    bus: t.deps.bus,
    sealer: t.deps.sealer,
    log: t.deps.log,
    allowPrivate: true,
    spaceIds: [spaceId],
    ...extra,
  });

describe('auto-rules — waiting for the customer N hours', { timeout: 120_000 }, () => {
  it('runs once the item has waited N hours, once per wait, not on items that are not waiting', async () => {
    const { admin, spaceId, arrive, item } = await scene();
    const operator = await buildMember(t, spaceId, 'operator');
    const rule = await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Клиент молчит 2 часа',
      trigger: 'waiting_customer',
      minutes: 120,
      conditions: { all: [] },
      actions: [{ type: 'assign', user_id: operator.user.id }],
    });
    const waiting = await arrive('Уточню и вернусь');
    const other = await arrive('Просто комментарий');
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v1/items/${waiting}/status`,
      headers: admin.headers,
      payload: { status: 'waiting' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const job = new RulesNoReplyJob(deps([spaceId]));
    const now = Date.now();
    expect(await job.tick(new Date(now + 60 * 60_000))).toBe(0);
    expect(await job.tick(new Date(now + 121 * 60_000))).toBe(1);
    expect((await item(waiting)).assignedUserId).toBe(operator.user.id);
    expect((await item(other)).assignedUserId).toBeNull();
    // Once per wait: the rule's own change does not start it again.
    expect(await job.tick(new Date(now + 600 * 60_000))).toBe(0);
    const [run] = await db().select().from(ruleMatches).where(eq(ruleMatches.ruleId, rule.id));
    expect(run!.event).toMatch(/^waiting:\d+$/);
  });

  it('refuses hours that are not whole', async () => {
    const { admin, spaceId } = await scene();
    const res = await postRule(t, admin.headers, {
      space_id: spaceId,
      name: 'x',
      trigger: 'waiting_customer',
      minutes: 90,
      conditions: { all: [] },
      actions: [{ type: 'close' }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.minutes).toBe('Укажите целое число часов (не больше 720)');
  });
});

describe('auto-rules — a task is due', { timeout: 120_000 }, () => {
  it('runs on the task’s items when it comes due, again only when the due moment moves', async () => {
    const { admin, spaceId, object, arrive } = await scene();
    const [tagRow] = await db().insert(tags).values({ spaceId, name: 'Срок' }).returning();
    const rule = await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Задача просрочена',
      trigger: 'task_due',
      conditions: { all: [] },
      actions: [{ type: 'tag', tag_ids: [tagRow!.id] }],
    });
    const id = await arrive('Где мой заказ?');
    const now = Date.now();
    const [task] = await db()
      .insert(issues)
      .values({ spaceId, title: 'Проверить заказ', dueAt: new Date(now + 60 * 60_000), objectId: object.id })
      .returning();
    await db().insert(issueLinks).values({ issueId: task!.id, spaceId, kind: 'item', targetId: id });
    const job = new RulesNoReplyJob(deps([spaceId]));
    expect(await job.tick(new Date(now + 30 * 60_000))).toBe(0);
    expect(await job.tick(new Date(now + 61 * 60_000))).toBe(1);
    expect(await job.tick(new Date(now + 62 * 60_000))).toBe(0);
    // A moved due date counts again; a closed task never.
    await db()
      .update(issues)
      .set({ dueAt: new Date(now + 120 * 60_000) })
      .where(eq(issues.id, task!.id));
    expect(await job.tick(new Date(now + 121 * 60_000))).toBe(1);
    await db()
      .update(issues)
      .set({ dueAt: new Date(now + 180 * 60_000), status: 'closed' })
      .where(eq(issues.id, task!.id));
    expect(await job.tick(new Date(now + 181 * 60_000))).toBe(0);
    const runs = await db().select().from(ruleMatches).where(eq(ruleMatches.ruleId, rule.id));
    expect(runs.map((r) => r.event)).toEqual([
      `task:${task!.id}:${now + 60 * 60_000}`,
      `task:${task!.id}:${now + 120 * 60_000}`,
    ]);
    expect(runs.every((r) => r.itemId === id)).toBe(true);
  });
});

describe('auto-rules — language', { timeout: 120_000 }, () => {
  it('matches the language of the text: ru, en, other', async () => {
    const { admin, spaceId, worker, arrive, item } = await scene();
    await createRule(admin.headers, {
      space_id: spaceId,
      name: 'English to close',
      conditions: { all: [{ type: 'language', languages: ['en'] }] },
      actions: [{ type: 'close' }],
    });
    const en = await arrive('Hello, where is my order? Thanks');
    const ru = await arrive('Здравствуйте, где мой заказ?');
    const de = await arrive('Wo ist meine Bestellung? Vielen Dank für die Hilfe');
    await worker.drain();
    expect((await item(en)).status).toBe('closed');
    expect((await item(ru)).status).toBe('new');
    expect((await item(de)).status).toBe('new');
  });
});

describe('auto-rules — round-robin assignment', { timeout: 120_000 }, () => {
  it('spreads items over online operators of the group by load, skips offline ones, stops at capacity', async () => {
    const { admin, spaceId, worker, arrive, item } = await scene();
    const [group] = await db().insert(userGroups).values({ spaceId, name: 'Дежурные' }).returning();
    const [online] = await db().insert(userStatuses).values({ spaceId, name: 'В сети' }).returning();
    const [away] = await db()
      .insert(userStatuses)
      .values({ spaceId, name: 'Нет на месте', offline: true })
      .returning();
    const a = await buildMember(t, spaceId, 'operator');
    const b = await buildMember(t, spaceId, 'operator');
    const off = await buildMember(t, spaceId, 'operator');
    const outside = await buildMember(t, spaceId, 'operator');
    const set = (userId: number, groupId: number | null, statusId: number) =>
      db()
        .update(memberships)
        .set({ groupId, statusId })
        .where(and(eq(memberships.spaceId, spaceId), eq(memberships.userId, userId)));
    await set(a.user.id, group!.id, online!.id);
    await set(b.user.id, group!.id, online!.id);
    await set(off.user.id, group!.id, away!.id);
    await set(outside.user.id, null, online!.id);
    await createRule(admin.headers, {
      space_id: spaceId,
      name: 'По очереди',
      conditions: { all: [] },
      actions: [{ type: 'assign_round_robin', group_id: group!.id, capacity: 2 }],
    });
    const ids: number[] = [];
    for (const text of ['Первый', 'Второй', 'Третий', 'Четвёртый', 'Пятый']) {
      ids.push(await arrive(text));
      await worker.drain();
    }
    const assigned = await Promise.all(ids.map(async (id) => (await item(id)).assignedUserId));
    // Two each (capacity 2), in turn; the offline member and the one outside the group get none.
    expect(assigned.slice(0, 4).sort()).toEqual([a.user.id, a.user.id, b.user.id, b.user.id].sort());
    expect(assigned[0]).not.toBe(assigned[1]);
    expect(assigned[4]).toBeNull();
    const [last] = await db().select().from(ruleMatches).where(eq(ruleMatches.itemId, ids[4]!));
    expect(last!.status).toBe('skipped');
    expect(last!.results[0]).toMatchObject({
      type: 'assign_round_robin',
      outcome: 'skipped',
      reason: 'rules.skip.group',
    });
    // Closing one frees a place.
    await db().update(items).set({ status: 'closed' }).where(eq(items.id, ids[0]!));
    const sixth = await arrive('Шестой');
    await worker.drain();
    expect((await item(sixth)).assignedUserId).toBe(assigned[0]);
  });
});

describe('auto-rules — private reply', { timeout: 120_000 }, () => {
  it('answers privately through the outbox where the network has Direct', async () => {
    const { admin, spaceId, worker, arrive, item, template } = await scene('sandbox');
    const direct = await template('В личку', 'Напишем вам в личные сообщения');
    const rule = await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Ответ в личку',
      conditions: { all: [] },
      actions: [{ type: 'private_reply', template_id: direct.id }],
    });
    const id = await arrive('Хочу вернуть товар');
    await worker.drain();
    const [run] = await db().select().from(ruleMatches).where(eq(ruleMatches.ruleId, rule.id));
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'ok' });
    expect(run!.results[0]).toMatchObject({ type: 'private_reply', outcome: 'queued' });
    const queued = await db()
      .select()
      .from(outbox)
      .where(and(eq(outbox.itemId, id), eq(outbox.action, 'direct')));
    expect(queued).toHaveLength(1);
    expect((await item(id)).status).toBe('closed');
  });

  it('fails, recorded with the reason, where the network has no private messages', async () => {
    const { admin, spaceId, worker, arrive, template } = await scene('youtube');
    const direct = await template('В личку', 'Напишем вам');
    const rule = await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Ответ в личку на YouTube',
      conditions: { all: [] },
      actions: [{ type: 'private_reply', template_id: direct.id }],
    });
    const id = await arrive('Comment');
    await worker.drain();
    const [run] = await db().select().from(ruleMatches).where(eq(ruleMatches.ruleId, rule.id));
    expect(run).toMatchObject({
      status: 'failed',
      error: 'Соцсеть не позволяет ответить автору в личные сообщения',
    });
    const history = await db()
      .select()
      .from(activity)
      .where(and(eq(activity.itemId, id), eq(activity.type, 'item.rule')));
    expect(history[0]!.data).toMatchObject({ rule: 'Ответ в личку на YouTube', status: 'failed' });
    const log = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.spaceId, spaceId), eq(auditLog.kind, 'rule.applied')));
    expect(log).toHaveLength(1);
    // settings/errors lists it for those who see errors, not for an operator.
    const errors = await t.app.inject({ url: '/v1/errors/rules', headers: admin.headers });
    expect(errors.statusCode, errors.body).toBe(200);
    expect(errors.json().items).toMatchObject([
      {
        rule_id: rule.id,
        rule: 'Ответ в личку на YouTube',
        item_id: id,
        error: expect.stringContaining('личные'),
      },
    ]);
    const operator = await buildMember(t, spaceId, 'operator');
    expect((await t.app.inject({ url: '/v1/errors/rules', headers: operator.headers })).statusCode).toBe(403);
  });
});

describe('auto-rules — notify users', { timeout: 120_000 }, () => {
  it('tells the chosen members in the app, with the rule’s name', async () => {
    const { admin, spaceId, worker, arrive } = await scene();
    const lead = await buildMember(t, spaceId, 'operator');
    await createRule(admin.headers, {
      space_id: spaceId,
      name: 'Жалоба',
      conditions: { all: [{ type: 'text_contains', values: ['жалоба'] }] },
      actions: [{ type: 'notify', user_ids: [lead.user.id] }],
    });
    const id = await arrive('У меня жалоба на курьера');
    await worker.drain();
    const rows = await db().select().from(notifications).where(eq(notifications.userId, lead.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event: 'rule', itemId: id, spaceId });
    expect(rows[0]!.title).toContain('Жалоба');
  });
});

describe('auto-rules — outgoing webhook', { timeout: 120_000 }, () => {
  it('posts the item to the endpoint, signed, through the webhook deliveries', async () => {
    const receiver = await startReceiver();
    try {
      const { admin, spaceId, worker, arrive } = await scene();
      const { webhook, secret } = await createWebhook(admin.headers, spaceId, receiver.url);
      const rule = await createRule(admin.headers, {
        space_id: spaceId,
        name: 'В CRM',
        conditions: { all: [{ type: 'has_contact' }] },
        actions: [{ type: 'webhook', webhook_id: webhook.id }],
      });
      const id = await arrive('Перезвоните мне: +7 999 123-45-67');
      await arrive('Без контактов');
      await worker.drain();
      const [run] = await db().select().from(ruleMatches).where(eq(ruleMatches.ruleId, rule.id));
      expect(run!.results[0]).toMatchObject({
        type: 'webhook',
        outcome: 'queued',
        detail: expect.stringContaining('127.0.0.1'),
      });
      const sender = webhookSender(spaceId);
      expect(await sender.drain()).toBe(1);
      expect(receiver.received).toHaveLength(1);
      const request = receiver.received[0]!;
      expect(verify(secret, request.headers, request.body)).toBe(true);
      expect(verify(secret, request.headers, `${request.body} `)).toBe(false);
      const body = JSON.parse(request.body);
      expect(body).toMatchObject({
        type: 'rule.action',
        data: { rule: { id: rule.id, name: 'В CRM' }, item: { id } },
      });
    } finally {
      await receiver.close();
    }
  });
});

describe('auto-rules — outgoing webhook retries', { timeout: 120_000 }, () => {
  it('retries a 500 on the backoff with the same signed message; a call that fails for good fails the run', async () => {
    const receiver = await startReceiver([500]);
    try {
      const { admin, spaceId, worker, arrive } = await scene();
      const { webhook, secret } = await createWebhook(admin.headers, spaceId, receiver.url);
      const rule = await createRule(admin.headers, {
        space_id: spaceId,
        name: 'В CRM с повтором',
        conditions: { all: [{ type: 'text_contains', values: ['срочно'] }] },
        actions: [{ type: 'webhook', webhook_id: webhook.id }],
      });
      const first = await arrive('Срочно перезвоните');
      await worker.drain();
      let clock = Date.now();
      const sender = webhookSender(spaceId, { now: () => new Date(clock), disableAfter: 1_000 });
      // 1st try: 500; not due again until the first backoff step (5 s) has passed.
      expect(await sender.drain()).toBe(1);
      expect(await sender.drain()).toBe(0);
      clock += 6_000;
      expect(await sender.drain()).toBe(1);
      expect(receiver.received).toHaveLength(2);
      const [a, b] = receiver.received;
      expect(a!.headers['webhook-id']).toBe(b!.headers['webhook-id']);
      expect(verify(secret, b!.headers, b!.body)).toBe(true);
      const [ok] = await db().select().from(ruleMatches).where(eq(ruleMatches.itemId, first));
      expect(ok!.status).toBe('ok');

      // Every try fails: after the last one the rule's run is failed, in settings/errors and the history.
      const second = await arrive('Срочно, снова');
      await worker.drain();
      receiver.received.length = 0;
      receiver.statuses.push(...Array.from({ length: WEBHOOK_MAX_ATTEMPTS }, () => 500));
      // Each drain makes the one due try; the clock then passes the longest backoff step.
      for (let i = 0; i < WEBHOOK_MAX_ATTEMPTS + 2; i++) {
        await sender.drain();
        clock += 11 * 3_600_000;
      }
      expect(receiver.received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
      const [failed] = await db().select().from(ruleMatches).where(eq(ruleMatches.itemId, second));
      expect(failed).toMatchObject({ status: 'failed', error: 'Webhook: HTTP 500: boom' });
      const errors = await t.app.inject({ method: 'GET', url: '/v1/errors/rules', headers: admin.headers });
      expect(errors.json().items).toEqual(
        expect.arrayContaining([expect.objectContaining({ rule_id: rule.id, item_id: second })]),
      );
      const history = await t.app.inject({
        method: 'GET',
        url: `/v1/items/${second}/history`,
        headers: admin.headers,
      });
      expect(history.json().items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            type: 'item.rule',
            data: expect.objectContaining({ status: 'failed', error: 'Webhook: HTTP 500: boom' }),
          }),
        ]),
      );
    } finally {
      await receiver.close();
    }
  });
});
