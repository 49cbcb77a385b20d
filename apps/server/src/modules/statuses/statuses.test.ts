import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, loginTokens } from '../../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../../test/harness';
import { openSocket, refusedUpgrade } from '../../../test/socket';
import { statusChanges, userStatuses, workinghoursItems } from '../../db/schema';

let t: TestApp;
let wsBase: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

async function signedIn() {
  const built = await buildUser(t);
  const tokens = await loginTokens(t, built.email);
  const statuses = await t.deps.database.db
    .select()
    .from(userStatuses)
    .where(eq(userStatuses.spaceId, built.space.id));
  return { ...built, token: tokens.access_token, headers: bearer(tokens.access_token), statuses };
}

describe('user status', () => {
  it("PUT /v1/me/status saves, records the change with time, and reaches the user's socket", async () => {
    const me = await signedIn();
    const socket = await openSocket(`${wsBase}/v1/ws?access_token=${me.token}`);
    try {
      const pause = me.statuses.find((s) => s.name === 'Перерыв')!;
      const res = await t.app.inject({
        method: 'PUT',
        url: '/v1/me/status',
        headers: me.headers,
        payload: { status: pause.id, space_id: me.space.id },
      });
      expect(res.json()).toEqual({ status: pause.id, space_id: me.space.id });
      const pushed = await socket.waitFor((m) => m.type === 'status');
      expect(pushed).toMatchObject({
        status: pause.id,
        space_id: me.space.id,
        user_id: me.user.id,
        source: 'manual',
      });
      const current = (await t.app.inject({ url: '/v1/me/status', headers: me.headers })).json();
      expect(current).toMatchObject({ status: pause.id, space_id: me.space.id });
      expect(current.manual_at).toBeGreaterThan(0);
      const records = await t.deps.database.db
        .select()
        .from(statusChanges)
        .where(eq(statusChanges.userId, me.user.id));
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ statusId: pause.id, source: 'manual', performedBy: me.user.id });
    } finally {
      await socket.close();
    }
  });

  it("refuses a status of another user's space", async () => {
    const me = await signedIn();
    const other = await signedIn();
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/me/status',
      headers: me.headers,
      payload: { status: other.statuses[0]!.id },
    });
    expect(res.statusCode).toBe(403);
  });

  it('a socket status message changes the status too', async () => {
    const me = await signedIn();
    const socket = await openSocket(`${wsBase}/v1/ws?access_token=${me.token}`);
    try {
      const offline = me.statuses.find((s) => s.offline)!;
      socket.send({ type: 'status', status: offline.id });
      await socket.waitFor((m) => m.type === 'status' && m.status === offline.id);
      const current = (await t.app.inject({ url: '/v1/me/status', headers: me.headers })).json();
      expect(current.status).toBe(offline.id);
    } finally {
      await socket.close();
    }
  });

  it('GET /v1/me/status?auto_update=1 applies a due working-hours slot', async () => {
    const me = await signedIn();
    const pause = me.statuses.find((s) => s.name === 'Перерыв')!;
    await t.deps.database.db.insert(workinghoursItems).values({
      spaceId: me.space.id,
      userId: me.user.id,
      startedAt: new Date(Date.now() - 5_000),
      endedAt: new Date(Date.now() + 3_600_000),
      statusId: pause.id,
    });
    const current = (await t.app.inject({ url: '/v1/me/status?auto_update=1', headers: me.headers })).json();
    expect(current.status).toBe(pause.id);
    const [record] = await t.deps.database.db
      .select()
      .from(statusChanges)
      .where(and(eq(statusChanges.userId, me.user.id), eq(statusChanges.source, 'schedule')));
    expect(record).toBeTruthy();
  });
});

describe('settings → user statuses', () => {
  it('an administrator creates, edits and deletes statuses of their space only', async () => {
    const admin = await signedIn();
    const other = await signedIn();
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/user_statuses',
      headers: admin.headers,
      payload: { space_id: admin.space.id, name: 'Обед', color: '#ff0000', workinghours: false },
    });
    expect(created.statusCode).toBe(200);
    const id = created.json().id;
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/v1/user_statuses/${id}`,
      headers: admin.headers,
      payload: { hidden: true },
    });
    // Fields the update leaves out keep their values (not the create defaults #40c057 / true).
    expect(edited.json()).toMatchObject({
      name: 'Обед',
      hidden: true,
      color: '#ff0000',
      workinghours: false,
    });
    const list = await t.app.inject({ method: 'GET', url: '/v1/user_statuses', headers: admin.headers });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items).toContainEqual(edited.json());
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/v1/user_statuses',
      headers: admin.headers,
      payload: { space_id: other.space.id, name: 'X' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/v1/user_statuses/${id}`,
          headers: other.headers,
          payload: { name: 'Y' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/user_statuses/${id}`, headers: admin.headers }))
        .statusCode,
    ).toBe(200);
  });
});

describe('websocket', () => {
  it('refuses a bad token with 401 before the upgrade', async () => {
    expect(await refusedUpgrade(`${wsBase}/v1/ws?access_token=nope`)).toBe(401);
    expect(await refusedUpgrade(`${wsBase}/v1/ws`)).toBe(401);
  });

  it("a colleague's status change reaches members of the same space but not other spaces", async () => {
    const a = await signedIn();
    const outsider = await signedIn();
    const socket = await openSocket(`${wsBase}/v1/ws?access_token=${a.token}`);
    const outsiderSocket = await openSocket(`${wsBase}/v1/ws?access_token=${outsider.token}`);
    try {
      const pause = a.statuses.find((s) => s.name === 'Перерыв')!;
      await t.app.inject({
        method: 'PUT',
        url: '/v1/me/status',
        headers: a.headers,
        payload: { status: pause.id },
      });
      await socket.waitFor((m) => m.type === 'user_status' && m.user_id === a.user.id);
      await new Promise((r) => setTimeout(r, 200));
      expect(outsiderSocket.messages.some((m) => m.type === 'user_status' && m.user_id === a.user.id)).toBe(
        false,
      );
    } finally {
      await socket.close();
      await outsiderSocket.close();
    }
  });

  it('answers ping and reports unknown message types', async () => {
    const me = await signedIn();
    const socket = await openSocket(`${wsBase}/v1/ws?access_token=${me.token}`);
    try {
      socket.send({ type: 'ping' });
      await socket.waitFor((m) => m.type === 'pong');
      socket.send({ type: 'nonsense' });
      await socket.waitFor((m) => m.type === 'error');
    } finally {
      await socket.close();
    }
  });
});
