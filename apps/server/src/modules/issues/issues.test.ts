import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { openSocket } from '../../../test/socket';
import { departments, users } from '../../db/schema';
import { IssuesDueJob } from '../../jobs/issues-due';
import { taskClock } from '../../lib/clock';
import {
  buildAdmin,
  buildMember,
  buildObject,
  buildUserGroup,
  writeAsCustomer,
} from '../authors/test-helpers';

let t: TestApp;
let wsBase: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());
afterEach(() => taskClock.setOffset(0));

type Headers = Record<string, string>;
const ON = { issues: true };
const HOUR = 3_600_000;

async function createOk(headers: Headers, payload: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/v1/issues', headers, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; links: Array<{ kind: string; id: number; label: string | null }> };
}
const list = async (headers: Headers, query = '') =>
  (await t.app.inject({ url: `/v1/issues${query}`, headers })).json() as {
    items: Array<{ id: number; is_expired: boolean }>;
    total: number;
  };
const ids = (body: { items: Array<{ id: number }> }) => body.items.map((i) => i.id).sort((a, b) => a - b);
const counts = async (headers: Headers) => (await t.app.inject({ url: '/v1/counts', headers })).json();
const tokenOf = (headers: Headers) => headers.authorization!.replace(/^Bearer /, '');

async function itemOf(spaceId: number) {
  const object = await buildObject(t, spaceId);
  const ext = `c-${Math.random().toString(36).slice(2, 8)}`;
  const result = await writeAsCustomer(t, object, { externalId: ext, name: 'Анна' }, { comments: 1 });
  return { object, itemId: result.itemIds[0]! };
}

describe('tasks — create, change, history, links', () => {
  it('a task made from an item links it; the item lists it; changes are kept as before → after', async () => {
    const admin = await buildAdmin(t, ON);
    const colleague = await buildMember(t, admin.space.id, 'operator', { name: 'Коллега' });
    const { itemId, object } = await itemOf(admin.space.id);
    const task = await createOk(admin.headers, {
      space_id: admin.space.id,
      title: 'Перезвонить клиенту',
      description: 'Про доставку',
      links: [{ kind: 'item', id: itemId }],
    });
    expect(task.links).toMatchObject([{ kind: 'item', id: itemId }]);
    expect(task.links[0]!.label).toBeTruthy();

    const linked = (
      await t.app.inject({ url: `/v1/issues/linked?kind=item&id=${itemId}`, headers: colleague.headers })
    ).json();
    expect(linked.items.map((i: { id: number }) => i.id)).toEqual([task.id]);

    const due = new Date(Date.now() + 2 * HOUR).toISOString();
    const changed = await t.app.inject({
      method: 'PUT',
      url: `/v1/issues/${task.id}`,
      headers: colleague.headers,
      payload: { status: 'inprogress', assigned_user_id: colleague.user.id, due_at: due, priority: 'high' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ status: 'inprogress', provider: object.provider, source: 'item' });

    const page = (await t.app.inject({ url: `/v1/issues/${task.id}`, headers: admin.headers })).json();
    const history = page.history.map((h: { field: string; before: string | null; after: string | null }) => [
      h.field,
      h.before,
      h.after,
    ]);
    expect(history).toEqual([
      ['created', null, 'Перезвонить клиенту'],
      ['status', 'new', 'inprogress'],
      ['priority', 'normal', 'high'],
      ['assigned_user_id', null, String(colleague.user.id)],
      ['due_at', null, due],
    ]);
    expect(page.history[1].user_id).toBe(colleague.user.id);
    expect(page).toMatchObject({ can_edit: true, can_delete: true });

    // Closing stamps closed_at; the colleague (operator) may not delete, the admin may.
    const closed = await t.app.inject({
      method: 'PUT',
      url: `/v1/issues/${task.id}`,
      headers: colleague.headers,
      payload: { status: 'closed' },
    });
    expect(closed.json().closed_at).toBeTruthy();
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/issues/${task.id}`, headers: colleague.headers }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/issues/${task.id}`, headers: admin.headers }))
        .statusCode,
    ).toBe(200);
    expect((await t.app.inject({ url: `/v1/issues/${task.id}`, headers: admin.headers })).statusCode).toBe(
      404,
    );
  });

  it('refuses an empty title, an assignee from another space and a department of another space', async () => {
    const admin = await buildAdmin(t, ON);
    const other = await buildAdmin(t, ON);
    const [dept] = await t.deps.database.db
      .insert(departments)
      .values({ spaceId: other.space.id, name: 'Чужой' })
      .returning();
    const post = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/v1/issues', headers: admin.headers, payload });
    const empty = await post({ space_id: admin.space.id, title: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('Введите название задачи');
    expect(
      (await post({ space_id: admin.space.id, title: 'x', assigned_user_id: other.user.id })).statusCode,
    ).toBe(400);
    expect((await post({ space_id: admin.space.id, title: 'x', department_id: dept!.id })).statusCode).toBe(
      400,
    );
    // Another space's item cannot be linked (it is not in the caller's inbox scope).
    const foreign = await itemOf(other.space.id);
    expect(
      (await post({ space_id: admin.space.id, title: 'x', links: [{ kind: 'item', id: foreign.itemId }] }))
        .statusCode,
    ).toBe(404);
  });
});

describe('settings/issues', () => {
  it('saves statuses and the default assignee (issues.manage only); new tasks go to that assignee', async () => {
    const admin = await buildAdmin(t, ON);
    const colleague = await buildMember(t, admin.space.id, 'operator');
    const put = (headers: Headers, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: '/v1/issues/settings', headers, payload });
    const body = { space_id: admin.space.id, statuses: ['new', 'closed'], assigned_to: colleague.user.id };
    expect((await put(colleague.headers, body)).statusCode).toBe(403);
    const saved = await put(admin.headers, body);
    expect(saved.statusCode, saved.body).toBe(200);
    const config = (await t.app.inject({ url: '/v1/config', headers: admin.headers })).json();
    const space = config.spaces.find((s: { id: number }) => s.id === admin.space.id);
    expect(space.settings).toMatchObject({
      issues: true,
      issues_statuses: ['new', 'closed'],
      issues_assigned_to: colleague.user.id,
    });
    const task = await createOk(admin.headers, { space_id: admin.space.id, title: 'По умолчанию' });
    expect(task).toMatchObject({ assigned_user_id: colleague.user.id });
    const nobody = await createOk(admin.headers, {
      space_id: admin.space.id,
      title: 'Никому',
      assigned_user_id: null,
    });
    expect(nobody).toMatchObject({ assigned_user_id: null });
    expect((await put(admin.headers, { ...body, statuses: [] })).statusCode).toBe(400);
  });
});

describe('tasks — scoping', () => {
  it('another space sees nothing (404); the flag off is 403; a group-limited member sees their accounts and own tasks', async () => {
    const admin = await buildAdmin(t, ON);
    const a = await itemOf(admin.space.id);
    const b = await itemOf(admin.space.id);
    const group = await buildUserGroup(t, admin.space.id, [a.object.id]);
    const limited = await buildMember(t, admin.space.id, 'operator', { groupId: group.id });
    const onA = await createOk(admin.headers, {
      space_id: admin.space.id,
      title: 'A',
      links: [{ kind: 'item', id: a.itemId }],
    });
    const onB = await createOk(admin.headers, {
      space_id: admin.space.id,
      title: 'B',
      links: [{ kind: 'item', id: b.itemId }],
    });
    const standalone = await createOk(admin.headers, { space_id: admin.space.id, title: 'Без связи' });
    const assigned = await createOk(admin.headers, {
      space_id: admin.space.id,
      title: 'Назначена',
      assigned_user_id: limited.user.id,
      links: [{ kind: 'item', id: b.itemId }],
    });
    expect(ids(await list(admin.headers))).toEqual([onA.id, onB.id, standalone.id, assigned.id]);
    expect(ids(await list(limited.headers))).toEqual([onA.id, assigned.id]);
    expect((await t.app.inject({ url: `/v1/issues/${onB.id}`, headers: limited.headers })).statusCode).toBe(
      404,
    );

    const stranger = await buildAdmin(t, ON);
    expect((await list(stranger.headers)).items).toEqual([]);
    for (const [method, url] of [
      ['GET', `/v1/issues/${onA.id}`],
      ['PUT', `/v1/issues/${onA.id}`],
      ['DELETE', `/v1/issues/${onA.id}`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: stranger.headers,
        payload: method === 'PUT' ? { title: 'x' } : undefined,
      });
      expect(res.statusCode).toBe(404);
    }
    const off = await buildAdmin(t, { issues: false });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/v1/issues',
          headers: off.headers,
          payload: { space_id: off.space.id, title: 'x' },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.app.inject({ url: `/v1/issues?space_id=${off.space.id}`, headers: off.headers })).statusCode,
    ).toBe(403);
    // A task page asked for where tasks are off anywhere for the caller: the feature is not theirs.
    expect((await t.app.inject({ url: `/v1/issues/${onA.id}`, headers: off.headers })).statusCode).toBe(403);
  });
});

describe('tasks — the list filters and the user defaults', () => {
  it('filters by status, assignee, department, source, provider, expired, mine; the settings are defaults', async () => {
    const admin = await buildAdmin(t, ON);
    const colleague = await buildMember(t, admin.space.id, 'operator');
    const [dept] = await t.deps.database.db
      .insert(departments)
      .values({ spaceId: admin.space.id, name: 'Поддержка' })
      .returning();
    const { itemId, object } = await itemOf(admin.space.id);
    const past = new Date(Date.now() - HOUR).toISOString();
    const t1 = await createOk(admin.headers, {
      space_id: admin.space.id,
      title: 'Один',
      assigned_user_id: colleague.user.id,
      due_at: past,
    });
    const t2 = await createOk(admin.headers, {
      space_id: admin.space.id,
      title: 'Два',
      department_id: dept!.id,
      status: 'closed',
      links: [{ kind: 'item', id: itemId }],
    });
    const t3 = await createOk(colleague.headers, {
      space_id: admin.space.id,
      title: 'Три',
      status: 'waiting',
    });
    const h = admin.headers;
    expect(ids(await list(h, '?status=open'))).toEqual([t1.id, t3.id]);
    expect(ids(await list(h, '?status=closed'))).toEqual([t2.id]);
    expect(ids(await list(h, '?status=waiting'))).toEqual([t3.id]);
    expect(ids(await list(h, `?assigned_to=${colleague.user.id}`))).toEqual([t1.id]);
    expect(ids(await list(h, '?assigned_to=none'))).toEqual([t2.id, t3.id]);
    expect(ids(await list(h, `?department_id=${dept!.id}`))).toEqual([t2.id]);
    expect(ids(await list(h, '?source=item'))).toEqual([t2.id]);
    expect(ids(await list(h, '?source=none'))).toEqual([t1.id, t3.id]);
    expect(ids(await list(h, `?provider=${object.provider}`))).toEqual([t2.id]);
    expect(ids(await list(h, '?expired=1'))).toEqual([t1.id]);
    expect(ids(await list(colleague.headers, '?mine=1'))).toEqual([t1.id, t3.id]);
    expect(ids(await list(h, '?q=%D0%94%D0%B2%D0%B0'))).toEqual([t2.id]);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect((await list(h, `?created_at_from=${future}`)).items).toEqual([]);
    // The deadline sort puts the task with a due date first.
    expect((await list(h, '?sort=deadline')).items[0]!.id).toBe(t1.id);

    // docs/product/entities.md user settings issues_assigned_to / issues_department_id are the list's defaults.
    await t.deps.database.db
      .update(users)
      .set({ settings: { issues_assigned_to: 'me', issues_sort: 'deadline' } })
      .where(eq(users.id, colleague.user.id));
    const mine = (await t.app.inject({ url: '/v1/issues', headers: colleague.headers })).json();
    expect(mine.items.map((i: { id: number }) => i.id)).toEqual([t1.id]);
    expect(mine.applied).toMatchObject({ assigned_to: 'me', sort: 'deadline' });
    expect(ids(await list(colleague.headers, '?assigned_to=all'))).toEqual([t1.id, t2.id, t3.id]);
  });
});

describe('tasks — counters, expiry and notify', () => {
  it('counts open and expired tasks of the assignee; the due job notifies only the assignee, once', async () => {
    const admin = await buildAdmin(t, ON);
    const colleague = await buildMember(t, admin.space.id, 'operator', { name: 'Ольга' });
    const bystander = await buildMember(t, admin.space.id, 'operator');
    const colleagueSocket = await openSocket(`${wsBase}/v1/ws?access_token=${tokenOf(colleague.headers)}`);
    const bystanderSocket = await openSocket(`${wsBase}/v1/ws?access_token=${tokenOf(bystander.headers)}`);
    const job = new IssuesDueJob({
      db: t.deps.database.db,
      bus: t.deps.bus,
      log: t.app.log as never,
      spaceIds: [admin.space.id],
    });
    try {
      const task = await createOk(admin.headers, {
        space_id: admin.space.id,
        title: 'Ответить на отзыв',
        assigned_user_id: colleague.user.id,
        due_at: new Date(Date.now() + HOUR).toISOString(),
      });
      const assigned = await colleagueSocket.waitFor((m) => m.type === 'notify');
      expect(assigned).toMatchObject({
        notification: {
          type: 'issue',
          id: task.id,
          title: 'Ответить на отзыв',
          text: 'Вам назначена задача',
        },
      });
      await bystanderSocket.waitFor((m) => m.type === 'issues.changed');
      expect(await counts(colleague.headers)).toMatchObject({ issues_count: 1, issues_expired_count: 0 });
      expect(await counts(bystander.headers)).toMatchObject({ issues_count: 0, issues_expired_count: 0 });
      const config = (await t.app.inject({ url: '/v1/config', headers: colleague.headers })).json();
      expect(config).toMatchObject({ issues_count: 1, issues_expired_count: 0 });

      // Nothing is due yet.
      expect(await job.tick()).toBe(0);
      // Two hours later (the task clock moved, no waiting): expired, counted, notified once.
      taskClock.setOffset(2 * HOUR);
      expect(await counts(colleague.headers)).toMatchObject({ issues_count: 1, issues_expired_count: 1 });
      expect(ids(await list(colleague.headers, '?expired=1'))).toEqual([task.id]);
      const before = colleagueSocket.messages.filter((m) => m.type === 'notify').length;
      expect(await job.tick()).toBe(1);
      const due = await colleagueSocket.waitFor(
        (m) => m.type === 'notify' && (m.notification as { text: string }).text === 'Срок задачи истёк',
      );
      expect(due).toMatchObject({ notification: { type: 'issue', id: task.id } });
      expect(await job.tick()).toBe(0);
      expect(colleagueSocket.messages.filter((m) => m.type === 'notify').length).toBe(before + 1);
      const page = (await t.app.inject({ url: `/v1/issues/${task.id}`, headers: admin.headers })).json();
      expect(page.history.at(-1)).toMatchObject({ field: 'expired', user_id: null });

      // A mention in a comment notifies the mentioned colleague (the bystander), not the author.
      const comment = await t.app.inject({
        method: 'POST',
        url: `/v1/issues/${task.id}/comments`,
        headers: colleague.headers,
        payload: {
          text: 'Нужна помощь',
          mentions: [bystander.user.id, colleague.user.id, admin.user.id + 999_999],
        },
      });
      expect(comment.statusCode, comment.body).toBe(200);
      expect(comment.json().mentions).toEqual([bystander.user.id, colleague.user.id]);
      const mention = await bystanderSocket.waitFor((m) => m.type === 'notify');
      expect(mention).toMatchObject({
        notification: { type: 'issue', id: task.id, text: 'Ольга упомянул(а) вас в комментарии к задаче' },
      });

      // Closing it takes it off both counters.
      await t.app.inject({
        method: 'PUT',
        url: `/v1/issues/${task.id}`,
        headers: colleague.headers,
        payload: { status: 'closed' },
      });
      expect(await counts(colleague.headers)).toMatchObject({ issues_count: 0, issues_expired_count: 0 });
      // Only the assignee and the mentioned user ever got a notify.
      expect(bystanderSocket.messages.filter((m) => m.type === 'notify')).toHaveLength(1);
    } finally {
      await colleagueSocket.close();
      await bystanderSocket.close();
    }
  });
});

describe('stats/issues', () => {
  it('counts created, closed and expired per day, by assignee and department, and hours to close', async () => {
    const admin = await buildAdmin(t, ON);
    const a = await createOk(admin.headers, {
      space_id: admin.space.id,
      title: 'a',
      assigned_user_id: admin.user.id,
    });
    await createOk(admin.headers, {
      space_id: admin.space.id,
      title: 'b',
      due_at: new Date(Date.now() - 60_000).toISOString(),
    });
    await t.app.inject({
      method: 'PUT',
      url: `/v1/issues/${a.id}`,
      headers: admin.headers,
      payload: { status: 'closed' },
    });
    const res = await t.app.inject({
      url: `/v1/stats/issues?space_id=${admin.space.id}&preset=7d`,
      headers: admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.days).toHaveLength(7);
    const sum = (k: 'created' | 'closed' | 'expired') =>
      body.days.reduce((n: number, d: Record<string, number>) => n + d[k]!, 0);
    expect([sum('created'), sum('closed'), sum('expired')]).toEqual([2, 1, 1]);
    expect(body.by_assignee).toEqual(
      expect.arrayContaining([
        { user_id: admin.user.id, open: 0, closed: 1, expired: 0 },
        { user_id: null, open: 1, closed: 0, expired: 1 },
      ]),
    );
    expect(body.by_department).toEqual([{ department_id: null, open: 1, closed: 1, expired: 1 }]);
    expect(body.close_hours.count).toBe(1);
    const stranger = await buildAdmin(t, ON);
    expect(
      (await t.app.inject({ url: `/v1/stats/issues?space_id=${admin.space.id}`, headers: stranger.headers }))
        .statusCode,
    ).toBe(403);
  });
});
