import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { buildOperator, buildScheduleAdmin, DAY_S, recordBus, seconds } from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const inject = (opts: InjectOptions) => t.app.inject(opts);

describe('absences', () => {
  it('administrators manage them; a member reads their own; strangers see nothing', async () => {
    const admin = await buildScheduleAdmin(t);
    const operator = await buildOperator(t, admin.space.id);
    const stranger = await buildScheduleAdmin(t);
    const bus = recordBus(t);
    try {
      const start = seconds(Date.now()) + DAY_S;
      const created = await inject({
        method: 'POST',
        url: '/v1/workinghours/absences',
        headers: admin.headers,
        payload: {
          space_id: admin.space.id,
          user_id: operator.user.id,
          started_at: start,
          ended_at: start + 3 * DAY_S,
          reason: 'Отпуск',
        },
      });
      expect(created.statusCode).toBe(200);
      const absence = created.json();
      expect(absence).toEqual({
        id: expect.any(Number),
        space_id: admin.space.id,
        user_id: operator.user.id,
        started_at: start,
        ended_at: start + 3 * DAY_S,
        reason: 'Отпуск',
      });
      await bus.waitFor((e) => e.type === 'workinghours.changed' && e.userIds?.[0] === operator.user.id);

      const own = await inject({
        url: `/v1/workinghours/absences?space_id=${admin.space.id}`,
        headers: operator.headers,
      });
      expect(own.json().items).toEqual([absence]);
      const all = await inject({
        url: `/v1/workinghours/absences?space_id=${admin.space.id}`,
        headers: admin.headers,
      });
      expect(all.json().items).toEqual([absence]);
      const others = await inject({
        url: `/v1/workinghours/absences?space_id=${admin.space.id}&user_id=${admin.user.id}`,
        headers: operator.headers,
      });
      expect(others.statusCode).toBe(403);

      const selfService = await inject({
        method: 'POST',
        url: '/v1/workinghours/absences',
        headers: operator.headers,
        payload: {
          space_id: admin.space.id,
          user_id: operator.user.id,
          started_at: start,
          ended_at: start + 1,
        },
      });
      expect(selfService.statusCode).toBe(403);
      const backwards = await inject({
        method: 'PUT',
        url: `/v1/workinghours/absences/${absence.id}`,
        headers: admin.headers,
        payload: { ended_at: start },
      });
      expect(backwards.json()).toMatchObject({
        error_type: 'end_before_start',
        fields: { ended_at: expect.any(String) },
      });
      const strangerEdit = await inject({
        method: 'PUT',
        url: `/v1/workinghours/absences/${absence.id}`,
        headers: stranger.headers,
        payload: { reason: 'x' },
      });
      expect(strangerEdit.statusCode).toBe(404);

      const edited = await inject({
        method: 'PUT',
        url: `/v1/workinghours/absences/${absence.id}`,
        headers: admin.headers,
        payload: { reason: null, ended_at: start + DAY_S },
      });
      expect(edited.json()).toMatchObject({ reason: null, ended_at: start + DAY_S });
      const removed = await inject({
        method: 'DELETE',
        url: `/v1/workinghours/absences/${absence.id}`,
        headers: admin.headers,
      });
      expect(removed.statusCode).toBe(200);
      expect(
        (
          await inject({
            url: `/v1/workinghours/absences?space_id=${admin.space.id}`,
            headers: admin.headers,
          })
        ).json().items,
      ).toEqual([]);
    } finally {
      bus.stop();
    }
  });
});

describe('holidays', () => {
  it("are the space's calendar: members read, administrators edit, one per day", async () => {
    const admin = await buildScheduleAdmin(t);
    const operator = await buildOperator(t, admin.space.id);
    const stranger = await buildScheduleAdmin(t);
    const bus = recordBus(t);
    try {
      const post = (headers: Record<string, string>, payload: Record<string, unknown>) =>
        inject({
          method: 'POST',
          url: '/v1/workinghours/holidays',
          headers,
          payload: { space_id: admin.space.id, ...payload },
        });
      const created = await post(admin.headers, { day: '2030-01-07', name: 'Рождество' });
      expect(created.json()).toEqual({
        id: expect.any(Number),
        space_id: admin.space.id,
        day: '2030-01-07',
        name: 'Рождество',
      });
      await bus.waitFor(
        (e) =>
          e.type === 'workinghours.changed' && e.spaceId === admin.space.id && e.payload.kind === 'holidays',
      );
      expect((await post(admin.headers, { day: '2030-01-07', name: 'Again' })).json().error_type).toBe(
        'duplicate',
      );
      expect((await post(admin.headers, { day: '2030-02-30', name: 'Nope' })).statusCode).toBe(400);
      expect((await post(operator.headers, { day: '2030-01-08', name: 'Mine' })).statusCode).toBe(403);
      expect((await post(stranger.headers, { day: '2030-01-08', name: 'Theirs' })).statusCode).toBe(403);

      const listed = await inject({
        url: `/v1/workinghours/holidays?space_id=${admin.space.id}&from=2030-01-01&to=2030-01-31`,
        headers: operator.headers,
      });
      expect(listed.json().items).toEqual([created.json()]);
      expect(
        (
          await inject({
            url: `/v1/workinghours/holidays?space_id=${admin.space.id}`,
            headers: stranger.headers,
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (await inject({ url: '/v1/workinghours/holidays', headers: stranger.headers })).json().items,
      ).toEqual([]);

      const id = created.json().id;
      const renamed = await inject({
        method: 'PUT',
        url: `/v1/workinghours/holidays/${id}`,
        headers: admin.headers,
        payload: { name: 'Christmas' },
      });
      expect(renamed.json()).toMatchObject({ day: '2030-01-07', name: 'Christmas' });
      expect(
        (
          await inject({
            method: 'PUT',
            url: `/v1/workinghours/holidays/${id}`,
            headers: operator.headers,
            payload: { name: 'x' },
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (
          await inject({
            method: 'DELETE',
            url: `/v1/workinghours/holidays/${id}`,
            headers: stranger.headers,
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await inject({ method: 'DELETE', url: `/v1/workinghours/holidays/${id}`, headers: admin.headers }))
          .statusCode,
      ).toBe(200);
    } finally {
      bus.stop();
    }
  });
});
