import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, privateTestDatabase, type TestApp } from '../../test/harness';
import { taskClock } from '../lib/clock';

// POST /v1/test/clock (e2e only) is registered by the composition root, not by the issues module
// (issue 12). Its jobs tick over a database of this file's own, so no other file's tasks are touched.
describe('POST /v1/test/clock', () => {
  let on: TestApp;
  let off: TestApp;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const own = await privateTestDatabase();
    dropDatabase = own.drop;
    on = await createTestApp({ TEST_CLOCK: '1' }, { database: own.database });
    off = await createTestApp();
  });

  afterAll(async () => {
    taskClock.setOffset(0);
    await on?.close();
    await off?.close();
    await dropDatabase?.();
  });

  it('moves the task clock and runs the due jobs when TEST_CLOCK=1', async () => {
    const res = await on.app.inject({
      method: 'POST',
      url: '/v1/test/clock',
      payload: { offset_ms: 60_000 },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { now: string; expired: unknown; rules: unknown; emails: unknown };
    expect(Date.parse(body.now) - Date.now()).toBeGreaterThan(50_000);
    expect(body).toHaveProperty('expired');
    expect(body).toHaveProperty('rules');
    expect(body).toHaveProperty('emails');
    expect(taskClock.offset()).toBe(60_000);
    taskClock.setOffset(0);
  });

  it('refuses an offset outside its bounds', async () => {
    const res = await on.app.inject({ method: 'POST', url: '/v1/test/clock', payload: { offset_ms: -1 } });
    expect(res.statusCode).toBe(400);
    expect(taskClock.offset()).toBe(0);
  });

  it('does not exist without TEST_CLOCK', async () => {
    const res = await off.app.inject({ method: 'POST', url: '/v1/test/clock', payload: { offset_ms: 0 } });
    expect(res.statusCode).toBe(404);
  });
});
