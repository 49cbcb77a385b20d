import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { absences, workinghoursItems } from '../../db/schema';
import { buildOperator, buildScheduleAdmin, DAY_S, HOUR_S, seconds } from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const inject = (opts: InjectOptions) => t.app.inject(opts);

describe('GET /v1/me/workinghours', () => {
  it('returns my slots from a day ago to 14 days ahead, ordered, with updatedAt', async () => {
    const admin = await buildScheduleAdmin(t);
    const me = await buildOperator(t, admin.space.id);
    const now = seconds(Date.now());
    const create = (start: number, end: number, userId = me.user.id) =>
      inject({
        method: 'POST',
        url: '/v1/workinghours',
        headers: admin.headers,
        payload: {
          space_id: admin.space.id,
          user_id: userId,
          started_at: start,
          ended_at: end,
          status: admin.online.id,
        },
      });
    const later = (await create(now + 3 * DAY_S, now + 3 * DAY_S + 8 * HOUR_S)).json();
    const sooner = (await create(now + HOUR_S, now + 2 * HOUR_S)).json();
    await create(now - 2 * DAY_S, now - 2 * DAY_S + HOUR_S); // ended more than a day ago
    await create(now + 15 * DAY_S, now + 15 * DAY_S + HOUR_S); // beyond 14 days
    await create(now + HOUR_S, now + 2 * HOUR_S, admin.user.id); // someone else's

    const res = await inject({ url: `/v1/me/workinghours?space_id=${admin.space.id}`, headers: me.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items).toEqual([
      {
        id: sooner.id,
        space_id: admin.space.id,
        started_at: now + HOUR_S,
        ended_at: now + 2 * HOUR_S,
        status: admin.online.id,
      },
      {
        id: later.id,
        space_id: admin.space.id,
        started_at: now + 3 * DAY_S,
        ended_at: now + 3 * DAY_S + 8 * HOUR_S,
        status: admin.online.id,
      },
    ]);
    expect(body.updatedAt).toBeGreaterThanOrEqual(now);
    expect(body.updatedAt).toBeLessThanOrEqual(seconds(Date.now()));

    // Without space_id: every space of mine; a space I don't belong to: 403.
    const all = (await inject({ url: '/v1/me/workinghours', headers: me.headers })).json();
    expect(all.items.map((i: { id: number }) => i.id)).toEqual([sooner.id, later.id]);
    const foreign = await inject({
      url: `/v1/me/workinghours?space_id=${me.space.id + 100_000}`,
      headers: me.headers,
    });
    expect(foreign.statusCode).toBe(403);
    expect((await inject({ url: '/v1/me/workinghours' })).statusCode).toBe(401);
  });

  it('leaves out slots that start during my absence (the server will not switch them either)', async () => {
    const admin = await buildScheduleAdmin(t);
    const now = Date.now();
    const db = t.deps.database.db;
    await db.insert(workinghoursItems).values({
      spaceId: admin.space.id,
      userId: admin.user.id,
      startedAt: new Date(now + 2 * DAY_S * 1000),
      endedAt: new Date(now + 2 * DAY_S * 1000 + HOUR_S * 1000),
      statusId: admin.online.id,
    });
    await db.insert(absences).values({
      spaceId: admin.space.id,
      userId: admin.user.id,
      startedAt: new Date(now + DAY_S * 1000),
      endedAt: new Date(now + 3 * DAY_S * 1000),
    });
    const body = (await inject({ url: '/v1/me/workinghours', headers: admin.headers })).json();
    expect(body.items).toEqual([]);
  });
});

describe('OpenAPI', () => {
  it('documents the working-hours endpoints', async () => {
    const spec = (await inject({ url: '/v1/openapi.json' })).json();
    for (const path of [
      '/v1/me/workinghours',
      '/v1/workinghours',
      '/v1/workinghours/{id}',
      '/v1/workinghours/templates/{id}/apply',
      '/v1/workinghours/absences',
      '/v1/workinghours/holidays/{id}',
    ]) {
      expect(spec.paths[path], path).toBeTruthy();
    }
  });
});
