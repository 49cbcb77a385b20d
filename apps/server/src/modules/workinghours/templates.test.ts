import { and, asc, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { workinghoursItems } from '../../db/schema';
import { buildOperator, buildScheduleAdmin, recordBus } from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const inject = (opts: InjectOptions) => t.app.inject(opts);
const H = 60;

/** 'YYYY-MM-DD' of a UTC calendar day. */
const ymd = (year: number, month: number, dayOfMonth: number) =>
  new Date(Date.UTC(year, month - 1, dayOfMonth)).toISOString().slice(0, 10);

/** Next year's last Sunday of March: the night Europe/Berlin moves clocks forward (always ahead of now). */
function nextSpringForward() {
  const year = new Date().getUTCFullYear() + 1;
  const march31 = new Date(Date.UTC(year, 2, 31)).getUTCDay();
  return { year, sunday: 31 - march31 };
}

async function slotsOf(spaceId: number, userId: number) {
  return t.deps.database.db
    .select()
    .from(workinghoursItems)
    .where(and(eq(workinghoursItems.spaceId, spaceId), eq(workinghoursItems.userId, userId)))
    .orderBy(asc(workinghoursItems.startedAt));
}

async function createTemplate(admin: Awaited<ReturnType<typeof buildScheduleAdmin>>, items: unknown[]) {
  const res = await inject({
    method: 'POST',
    url: '/v1/workinghours/templates',
    headers: admin.headers,
    payload: { space_id: admin.space.id, name: 'Смена', items },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { id: number; items: unknown[] };
}

describe('working-hours templates', () => {
  it('CRUD with validation: weekday 1-7, end after start, no overlapping items, own statuses only', async () => {
    const admin = await buildScheduleAdmin(t);
    const stranger = await buildScheduleAdmin(t);
    const operator = await buildOperator(t, admin.space.id);
    const bus = recordBus(t);
    try {
      const template = await createTemplate(admin, [
        { weekday: 2, start: 9 * H, end: 18 * H, status_id: admin.online.id },
        { weekday: 1, start: 9 * H, end: 18 * H, status_id: admin.online.id },
      ]);
      // Stored in week order, Monday first.
      expect(template.items).toEqual([
        { weekday: 1, start: 9 * H, end: 18 * H, status_id: admin.online.id },
        { weekday: 2, start: 9 * H, end: 18 * H, status_id: admin.online.id },
      ]);
      await bus.waitFor((e) => e.type === 'workinghours.changed' && e.payload.kind === 'templates');

      const bad = (items: unknown[]) =>
        inject({
          method: 'POST',
          url: '/v1/workinghours/templates',
          headers: admin.headers,
          payload: { space_id: admin.space.id, name: 'X', items },
        });
      expect((await bad([{ weekday: 8, start: 0, end: 60, status_id: null }])).statusCode).toBe(400);
      expect((await bad([{ weekday: 1, start: 600, end: 600, status_id: null }])).statusCode).toBe(400);
      const overlap = await bad([
        { weekday: 1, start: 9 * H, end: 18 * H, status_id: null },
        { weekday: 1, start: 17 * H, end: 20 * H, status_id: null },
      ]);
      expect(overlap.json()).toMatchObject({
        error_type: 'overlap',
        fields: { 'items.1': expect.any(String) },
      });
      // A Sunday night shift runs into Monday morning.
      const wrap = await bad([
        { weekday: 7, start: 22 * H, end: 30 * H, status_id: null },
        { weekday: 1, start: 5 * H, end: 10 * H, status_id: null },
      ]);
      expect(wrap.json().error_type).toBe('overlap');
      const foreign = await bad([{ weekday: 1, start: 0, end: 60, status_id: stranger.online.id }]);
      expect(foreign.json().error_type).toBe('unknown_status');

      const renamed = await inject({
        method: 'PUT',
        url: `/v1/workinghours/templates/${template.id}`,
        headers: admin.headers,
        payload: { name: 'Будни' },
      });
      expect(renamed.json()).toMatchObject({ name: 'Будни', items: template.items });
      const listed = await inject({
        url: `/v1/workinghours/templates?space_id=${admin.space.id}`,
        headers: admin.headers,
      });
      expect(listed.json().items.map((i: { id: number }) => i.id)).toEqual([template.id]);

      // Not the operator's business, and not the stranger's at all.
      expect(
        (
          await inject({
            url: `/v1/workinghours/templates?space_id=${admin.space.id}`,
            headers: operator.headers,
          })
        ).statusCode,
      ).toBe(403);
      const strangerPut = await inject({
        method: 'PUT',
        url: `/v1/workinghours/templates/${template.id}`,
        headers: stranger.headers,
        payload: { name: 'Mine' },
      });
      expect(strangerPut.statusCode).toBe(404);
      const strangerList = (
        await inject({ url: '/v1/workinghours/templates', headers: stranger.headers })
      ).json();
      expect(strangerList.items).toEqual([]);

      const removed = await inject({
        method: 'DELETE',
        url: `/v1/workinghours/templates/${template.id}`,
        headers: admin.headers,
      });
      expect(removed.statusCode).toBe(200);
    } finally {
      bus.stop();
    }
  });

  it("applies across Berlin's spring-forward in the space's zone: Monday = 1, 09:00 local each day", async () => {
    const { year, sunday } = nextSpringForward();
    const admin = await buildScheduleAdmin(t, { timezone: 'Europe/Berlin' });
    const operator = await buildOperator(t, admin.space.id);
    const template = await createTemplate(admin, [
      { weekday: 1, start: 9 * H, end: 18 * H, status_id: admin.online.id },
      { weekday: 6, start: 22 * H, end: 30 * H, status_id: admin.pause.id },
      { weekday: 7, start: 10 * H, end: 12 * H, status_id: null },
    ]);
    const bus = recordBus(t);
    try {
      const res = await inject({
        method: 'POST',
        url: `/v1/workinghours/templates/${template.id}/apply`,
        headers: admin.headers,
        payload: {
          user_ids: [operator.user.id],
          from: ymd(year, 3, sunday - 7),
          to: ymd(year, 3, sunday + 1),
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ created: 5 });
      await bus.waitFor((e) => e.type === 'workinghours.changed' && e.userIds?.[0] === operator.user.id);
    } finally {
      bus.stop();
    }
    const utc = (d: number, h: number) => new Date(Date.UTC(year, 2, d, h)).toISOString();
    const slots = await slotsOf(admin.space.id, operator.user.id);
    expect(slots.map((s) => [s.startedAt.toISOString(), s.endedAt.toISOString(), s.statusId])).toEqual([
      [utc(sunday - 7, 9), utc(sunday - 7, 11), null], // Sunday before, CET (+1)
      [utc(sunday - 6, 8), utc(sunday - 6, 17), admin.online.id], // Monday, CET
      [utc(sunday - 1, 21), utc(sunday, 4), admin.pause.id], // Saturday night into the change: 7 h
      [utc(sunday, 8), utc(sunday, 10), null], // the Sunday of the change, CEST (+2)
      [utc(sunday + 1, 7), utc(sunday + 1, 16), admin.online.id], // Monday, CEST
    ]);
  });

  it("skips the space's holidays and the user's absences, and replaces only not-yet-started slots", async () => {
    const { year, sunday } = nextSpringForward();
    const monday = sunday + 1; // may be April 1st: Date.UTC carries the overflow
    const admin = await buildScheduleAdmin(t, { timezone: 'Europe/Moscow' });
    const operator = await buildOperator(t, admin.space.id);
    const days = [0, 1, 2, 3, 4].map((i) => ymd(year, 3, monday + i)); // Monday..Friday
    const template = await createTemplate(
      admin,
      [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: 9 * H, end: 18 * H, status_id: admin.online.id })),
    );
    const holiday = await inject({
      method: 'POST',
      url: '/v1/workinghours/holidays',
      headers: admin.headers,
      payload: { space_id: admin.space.id, day: days[2], name: 'Праздник' },
    });
    expect(holiday.statusCode).toBe(200);
    // Absent on Thursday (Moscow is UTC+3 all year).
    const thursday = Date.UTC(year, 2, monday + 3) / 1000 - 3 * 3600;
    const absence = await inject({
      method: 'POST',
      url: '/v1/workinghours/absences',
      headers: admin.headers,
      payload: {
        space_id: admin.space.id,
        user_id: operator.user.id,
        started_at: thursday,
        ended_at: thursday + 86_400,
        reason: 'Отпуск',
      },
    });
    expect(absence.statusCode).toBe(200);
    // A slot already in the schedule on Tuesday evening and one the week after.
    const db = t.deps.database.db;
    const utc = (d: number, h: number) => new Date(Date.UTC(year, 2, d, h));
    await db.insert(workinghoursItems).values([
      {
        spaceId: admin.space.id,
        userId: operator.user.id,
        startedAt: utc(monday + 1, 16),
        endedAt: utc(monday + 1, 20),
        statusId: admin.pause.id,
      },
      {
        spaceId: admin.space.id,
        userId: operator.user.id,
        startedAt: utc(monday + 8, 6),
        endedAt: utc(monday + 8, 7),
        statusId: null,
      },
    ]);

    const apply = () =>
      inject({
        method: 'POST',
        url: `/v1/workinghours/templates/${template.id}/apply`,
        headers: admin.headers,
        payload: { user_ids: [operator.user.id], from: days[0], to: days[4] },
      });
    expect((await apply()).json()).toEqual({ created: 3 });
    // Applying again replaces rather than duplicates.
    expect((await apply()).json()).toEqual({ created: 3 });
    const slots = await slotsOf(admin.space.id, operator.user.id);
    expect(slots.map((s) => s.startedAt.toISOString())).toEqual([
      utc(monday, 6).toISOString(), // Monday 09:00 MSK
      utc(monday + 1, 6).toISOString(), // Tuesday (the old evening slot was replaced)
      utc(monday + 4, 6).toISOString(), // Friday; Wednesday is a holiday, Thursday an absence
      utc(monday + 8, 6).toISOString(), // outside the range: kept
    ]);
  });

  it('refuses ranges over 62 days, backwards ranges and users outside the space', async () => {
    const admin = await buildScheduleAdmin(t);
    const stranger = await buildScheduleAdmin(t);
    const template = await createTemplate(admin, []);
    const apply = (payload: Record<string, unknown>) =>
      inject({
        method: 'POST',
        url: `/v1/workinghours/templates/${template.id}/apply`,
        headers: admin.headers,
        payload: { user_ids: [admin.user.id], from: '2030-01-01', to: '2030-01-31', ...payload },
      });
    expect((await apply({})).json()).toEqual({ created: 0 });
    expect((await apply({ to: '2030-03-04' })).json()).toMatchObject({ error_type: 'range_too_long' });
    expect((await apply({ to: '2030-03-03' })).statusCode).toBe(200); // 62 days
    expect((await apply({ to: '2029-12-31' })).statusCode).toBe(400);
    expect((await apply({ from: '2030-02-30' })).statusCode).toBe(400);
    const outsider = await apply({ user_ids: [stranger.user.id] });
    expect(outsider.json()).toMatchObject({
      error_type: 'not_member',
      fields: { user_ids: expect.any(String) },
    });
    const foreign = await inject({
      method: 'POST',
      url: `/v1/workinghours/templates/${template.id}/apply`,
      headers: stranger.headers,
      payload: { user_ids: [stranger.user.id], from: '2030-01-01', to: '2030-01-02' },
    });
    expect(foreign.statusCode).toBe(404);
  });
});
