import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { workinghoursItems } from '../../db/schema';
import type { BusEvent } from '../../realtime/bus';
import { buildOperator, buildScheduleAdmin, DAY_S, HOUR_S, recordBus, seconds } from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const inject = (opts: InjectOptions) => t.app.inject(opts);

/** A refused write: 400 with `error_type` and the field it points at. */
function expectRefused(res: Awaited<ReturnType<typeof inject>>, errorType: string, field: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ error_type: errorType, fields: { [field]: expect.any(String) } });
}

describe('schedules of users', () => {
  it('an administrator creates, reads, moves and deletes a slot; each write tells the affected user', async () => {
    const admin = await buildScheduleAdmin(t);
    const operator = await buildOperator(t, admin.space.id);
    const bus = recordBus(t);
    try {
      const start = seconds(Date.now()) + 2 * DAY_S;
      const created = await inject({
        method: 'POST',
        url: '/v1/workinghours',
        headers: admin.headers,
        payload: {
          space_id: admin.space.id,
          user_id: operator.user.id,
          started_at: start,
          ended_at: start + 8 * HOUR_S,
          status: admin.online.id,
        },
      });
      expect(created.statusCode).toBe(200);
      const slot = created.json();
      expect(slot).toMatchObject({
        space_id: admin.space.id,
        user_id: operator.user.id,
        started_at: start,
        ended_at: start + 8 * HOUR_S,
        status: admin.online.id,
        applied_at: null,
      });
      await bus.waitFor(
        (e) =>
          e.type === 'workinghours.changed' &&
          e.spaceId === admin.space.id &&
          e.userIds?.length === 1 &&
          e.userIds[0] === operator.user.id,
      );

      const listed = await inject({
        url: `/v1/workinghours?space_id=${admin.space.id}&from=${start - DAY_S}&to=${start + DAY_S}`,
        headers: admin.headers,
      });
      expect(listed.json().items.map((i: { id: number }) => i.id)).toEqual([slot.id]);

      const moved = await inject({
        method: 'PUT',
        url: `/v1/workinghours/${slot.id}`,
        headers: admin.headers,
        payload: { started_at: start + HOUR_S, status: admin.pause.id },
      });
      expect(moved.json()).toMatchObject({
        started_at: start + HOUR_S,
        ended_at: start + 8 * HOUR_S,
        status: admin.pause.id,
      });

      const removed = await inject({
        method: 'DELETE',
        url: `/v1/workinghours/${slot.id}`,
        headers: admin.headers,
      });
      expect(removed.statusCode).toBe(200);
      const left = await t.deps.database.db
        .select()
        .from(workinghoursItems)
        .where(eq(workinghoursItems.id, slot.id));
      expect(left).toEqual([]);
      const isMine = (e: BusEvent) =>
        e.type === 'workinghours.changed' && e.userIds?.[0] === operator.user.id;
      await bus.waitForAll(isMine, 3);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(bus.events.filter(isMine)).toHaveLength(3);
    } finally {
      bus.stop();
    }
  });

  it('refuses overlap, end <= start, more than 24 h, non-members and statuses of other spaces', async () => {
    const admin = await buildScheduleAdmin(t);
    const stranger = await buildScheduleAdmin(t);
    const start = seconds(Date.now()) + 5 * DAY_S;
    const post = (payload: Record<string, unknown>) =>
      inject({
        method: 'POST',
        url: '/v1/workinghours',
        headers: admin.headers,
        payload: {
          space_id: admin.space.id,
          user_id: admin.user.id,
          started_at: start,
          ended_at: start + 4 * HOUR_S,
          status: admin.online.id,
          ...payload,
        },
      });
    const first = (await post({})).json();

    const overlap = await post({ started_at: start + 2 * HOUR_S, ended_at: start + 6 * HOUR_S });
    expect(overlap.statusCode).toBe(400);
    expect(overlap.json()).toMatchObject({
      error_type: 'overlap',
      fields: { started_at: expect.any(String), ended_at: expect.any(String) },
      conflict: { id: first.id, started_at: start, ended_at: start + 4 * HOUR_S },
    });
    // Touching is not overlapping.
    expect((await post({ started_at: start + 4 * HOUR_S, ended_at: start + 5 * HOUR_S })).statusCode).toBe(
      200,
    );

    const backwards = await post({ started_at: start - HOUR_S, ended_at: start - 2 * HOUR_S });
    expectRefused(backwards, 'end_before_start', 'ended_at');
    expect((await post({ started_at: start - HOUR_S, ended_at: start - HOUR_S })).statusCode).toBe(400);

    const long = await post({ started_at: start - 2 * DAY_S, ended_at: start - DAY_S + 1 });
    expect(long.json()).toMatchObject({
      error_type: 'slot_too_long',
      fields: { ended_at: expect.any(String) },
    });

    const notMember = await post({
      user_id: stranger.user.id,
      started_at: start + DAY_S,
      ended_at: start + DAY_S + 1,
    });
    expectRefused(notMember, 'not_member', 'user_id');

    const foreignStatus = await post({
      status: stranger.online.id,
      started_at: start + DAY_S,
      ended_at: start + DAY_S + 1,
    });
    expectRefused(foreignStatus, 'unknown_status', 'status');

    // Moving the first slot onto the second one is an overlap too; moving it within itself is not.
    const put = (payload: Record<string, unknown>) =>
      inject({ method: 'PUT', url: `/v1/workinghours/${first.id}`, headers: admin.headers, payload });
    expect((await put({ ended_at: start + 5 * HOUR_S })).json().error_type).toBe('overlap');
    expect((await put({ started_at: start + HOUR_S })).statusCode).toBe(200);
    expect((await put({ ended_at: start })).json().error_type).toBe('end_before_start');
  });

  it('keeps other spaces and other users out', async () => {
    const admin = await buildScheduleAdmin(t);
    const stranger = await buildScheduleAdmin(t);
    const operator = await buildOperator(t, admin.space.id);
    const start = seconds(Date.now()) + 7 * DAY_S;
    const slot = (
      await inject({
        method: 'POST',
        url: '/v1/workinghours',
        headers: admin.headers,
        payload: {
          space_id: admin.space.id,
          user_id: admin.user.id,
          started_at: start,
          ended_at: start + HOUR_S,
          status: admin.online.id,
        },
      })
    ).json();

    // A stranger: a space they are not in is 403; a slot there is "not found".
    const foreignPost = await inject({
      method: 'POST',
      url: '/v1/workinghours',
      headers: stranger.headers,
      payload: {
        space_id: admin.space.id,
        user_id: stranger.user.id,
        started_at: start,
        ended_at: start + 1,
        status: null,
      },
    });
    expect(foreignPost.statusCode).toBe(403);
    const foreignList = await inject({
      url: `/v1/workinghours?space_id=${admin.space.id}`,
      headers: stranger.headers,
    });
    expect(foreignList.statusCode).toBe(403);
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await inject({
        method,
        url: `/v1/workinghours/${slot.id}`,
        headers: stranger.headers,
        ...(method === 'PUT' ? { payload: { ended_at: start + 2 * HOUR_S } } : {}),
      });
      expect(res.statusCode).toBe(404);
    }

    // An operator of the space: reads their own schedule, not others', and edits nothing.
    const own = await inject({
      url: `/v1/workinghours?space_id=${admin.space.id}`,
      headers: operator.headers,
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().items).toEqual([]);
    const others = await inject({
      url: `/v1/workinghours?space_id=${admin.space.id}&user_id=${admin.user.id}`,
      headers: operator.headers,
    });
    expect(others.statusCode).toBe(403);
    const edit = await inject({
      method: 'PUT',
      url: `/v1/workinghours/${slot.id}`,
      headers: operator.headers,
      payload: { ended_at: start + 2 * HOUR_S },
    });
    expect(edit.statusCode).toBe(403);
    const createOwn = await inject({
      method: 'POST',
      url: '/v1/workinghours',
      headers: operator.headers,
      payload: {
        space_id: admin.space.id,
        user_id: operator.user.id,
        started_at: start,
        ended_at: start + 1,
        status: null,
      },
    });
    expect(createOwn.statusCode).toBe(403);
    expect(
      (await inject({ method: 'DELETE', url: `/v1/workinghours/${slot.id}`, headers: operator.headers }))
        .statusCode,
    ).toBe(403);
  });

  it('refuses a read range longer than 62 days', async () => {
    const admin = await buildScheduleAdmin(t);
    const from = seconds(Date.now());
    const res = await inject({
      url: `/v1/workinghours?space_id=${admin.space.id}&from=${from}&to=${from + 63 * DAY_S}`,
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.to).toBeTruthy();
  });

  it('moving an applied slot into the future makes it due again', async () => {
    const admin = await buildScheduleAdmin(t);
    const db = t.deps.database.db;
    const now = Date.now();
    const [slot] = await db
      .insert(workinghoursItems)
      .values({
        spaceId: admin.space.id,
        userId: admin.user.id,
        startedAt: new Date(now - HOUR_S * 1000),
        endedAt: new Date(now + HOUR_S * 1000),
        statusId: admin.pause.id,
        appliedAt: new Date(now - HOUR_S * 1000),
      })
      .returning();
    // Editing a running slot keeps it applied (no second switch in the middle of it)...
    const running = await inject({
      method: 'PUT',
      url: `/v1/workinghours/${slot!.id}`,
      headers: admin.headers,
      payload: { ended_at: seconds(now) + 2 * HOUR_S },
    });
    expect(running.json().applied_at).toBe(seconds(now - HOUR_S * 1000));
    // ...moving it to a start that hasn't come yet resets it.
    const moved = await inject({
      method: 'PUT',
      url: `/v1/workinghours/${slot!.id}`,
      headers: admin.headers,
      payload: { started_at: seconds(now) + HOUR_S, ended_at: seconds(now) + 3 * HOUR_S },
    });
    expect(moved.json().applied_at).toBeNull();
  });
});
