import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, loginTokens } from '../../test/auth-helpers';
import { createTestApp, type TestApp, WEB_CLIENT } from '../../test/harness';
import { openSocket } from '../../test/socket';
import { authSessions } from '../db/schema';
import { createOneTimeToken } from '../modules/auth/one-time';
import { CLOSE_SESSION_ENDED } from './sessions';

// Issue 11 item 5: a socket lives as long as the login whose token opened it. Ending the session
// (logout, password reset, reuse detection, anything that revokes it) closes the socket at once, and the
// hub's timer round closes it even when no event said so.

let t: TestApp;
let wsBase: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws?access_token=`;
});
afterAll(() => t.close());

async function connect(token: string) {
  const socket = await openSocket(wsBase + token);
  await socket.waitFor((m) => m.type === 'hello');
  return socket;
}

/** The socket is open and answered: a ping sent now gets its pong. */
async function stillServed(socket: Awaited<ReturnType<typeof connect>>) {
  const pongs = socket.messages.filter((m) => m.type === 'pong').length;
  socket.send({ type: 'ping' });
  await socket.waitFor(() => socket.messages.filter((m) => m.type === 'pong').length > pongs);
}

const refresh = (refreshToken: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/oauth2/token',
    payload: { grant_type: 'refresh_token', ...WEB_CLIENT, refresh_token: refreshToken },
  });

describe('sockets end with their session', () => {
  it('logout closes the socket of that login at once (4401), and only that one', async () => {
    const me = await buildUser(t);
    const laptop = await loginTokens(t, me.email);
    const phone = await loginTokens(t, me.email);
    const laptopSocket = await connect(laptop.access_token);
    const phoneSocket = await connect(phone.access_token);
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/oauth2/revoke',
        headers: bearer(laptop.access_token),
      });
      expect(res.statusCode).toBe(200);
      expect(await laptopSocket.waitForClose()).toEqual({
        code: CLOSE_SESSION_ENDED,
        reason: 'session_ended',
      });
      await stillServed(phoneSocket);
    } finally {
      await laptopSocket.close();
      await phoneSocket.close();
    }
  });

  it('a socket outlives token refreshes and closes when the refreshed login is revoked', async () => {
    const me = await buildUser(t);
    const first = await loginTokens(t, me.email);
    const socket = await connect(first.access_token);
    try {
      const refreshed = await refresh(first.refresh_token);
      expect(refreshed.statusCode).toBe(200);
      // The timer round finds the login alive: the socket stays.
      await t.app.hub.recheck(0);
      await stillServed(socket);

      const revoke = await t.app.inject({
        method: 'POST',
        url: '/v1/oauth2/revoke',
        headers: bearer(refreshed.json().access_token),
      });
      expect(revoke.statusCode).toBe(200);
      expect((await socket.waitForClose()).code).toBe(CLOSE_SESSION_ENDED);
    } finally {
      await socket.close();
    }
  });

  it('a reused refresh token ends the family, and its socket', async () => {
    const me = await buildUser(t);
    const first = await loginTokens(t, me.email);
    const socket = await connect(first.access_token);
    try {
      expect((await refresh(first.refresh_token)).statusCode).toBe(200);
      expect((await refresh(first.refresh_token)).statusCode).toBe(400);
      expect((await socket.waitForClose()).code).toBe(CLOSE_SESSION_ENDED);
    } finally {
      await socket.close();
    }
  });

  it('a password reset closes every socket of the user', async () => {
    const me = await buildUser(t);
    const sockets = [
      await connect((await loginTokens(t, me.email)).access_token),
      await connect((await loginTokens(t, me.email)).access_token),
    ];
    const other = await buildUser(t);
    const bystander = await connect((await loginTokens(t, other.email)).access_token);
    try {
      const hash = await createOneTimeToken(t.deps.database.db, 'reset_password', {
        userId: me.user.id,
        email: me.email,
        ttlSeconds: 600,
      });
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/reset_password',
        payload: { ...WEB_CLIENT, hash, password: 'Another-pass2', password_confirm: 'Another-pass2' },
      });
      expect(res.statusCode, res.body).toBe(200);
      for (const socket of sockets) expect((await socket.waitForClose()).code).toBe(CLOSE_SESSION_ENDED);
      await stillServed(bystander);
    } finally {
      for (const socket of [...sockets, bystander]) await socket.close();
    }
  });

  it('the timer round closes a socket whose session ended without an event', async () => {
    const me = await buildUser(t);
    const tokens = await loginTokens(t, me.email);
    const socket = await connect(tokens.access_token);
    try {
      // Revoked behind the server's back (another tool, a lost event): nothing was published.
      await t.deps.database.db
        .update(authSessions)
        .set({ revokedAt: new Date() })
        .where(eq(authSessions.userId, me.user.id));
      await stillServed(socket);
      await t.app.hub.recheck();
      expect((await socket.waitForClose()).code).toBe(CLOSE_SESSION_ENDED);
    } finally {
      await socket.close();
    }
  });

  it('a sessions.ended event for a live session closes nothing (the database decides)', async () => {
    const me = await buildUser(t);
    const tokens = await loginTokens(t, me.email);
    const socket = await connect(tokens.access_token);
    try {
      await t.deps.bus.publish({ type: 'sessions.ended', userIds: [me.user.id], payload: { all: true } });
      await t.app.hub.recheck();
      await stillServed(socket);
      expect(socket.messages.some((m) => m.type === 'sessions.ended')).toBe(false);
    } finally {
      await socket.close();
    }
  });
});
