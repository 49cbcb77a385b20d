import type { AddressInfo } from 'node:net';
import { API_ALWAYS_ALLOWED, API_ROUTE_AREAS, presetFor } from '@otklik/shared';
import { eq, sql } from 'drizzle-orm';
import type { HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, loginTokens } from '../../test/auth-helpers';
import { createTestApp, type TestApp } from '../../test/harness';
import { openSocket, refusedUpgrade } from '../../test/socket';
import { spaces, users } from '../db/schema';
import { readKit } from '../modules/inbox/read/read-kit';
import { addMember } from '../modules/spaces/service';
import { CLOSE_OTP_REQUIRED, CLOSE_PAID_OVER } from '../realtime/sessions';

// Issue 11 item 6: the docs/product/states.md access gate holds on the server, not only in the web router — every
// authenticated call and the socket go through the shared rules (packages/shared/src/access/api-gate.ts).

let t: TestApp;
let wsBase: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1/ws?access_token=`;
});
afterAll(() => t.close());

const { db, buildMember } = readKit(() => t);

const call = (headers: Record<string, string>, url: string, method: HTTPMethods = 'GET', locale = 'ru') =>
  t.app.inject({ method, url, headers: { ...headers, 'accept-language': locale } });

const CONTENT = [
  '/v1/items',
  '/v1/chats',
  '/v1/objects',
  '/v1/counts',
  '/v1/users',
  '/v1/tags',
  '/v1/me/status',
];

/** Answered by the endpoint itself: 200, or its own answer (an operator may not list users), never the gate. */
async function expectNotGated(headers: Record<string, string>) {
  for (const url of CONTENT) {
    const res = await call(headers, url);
    expect(res.statusCode, url).not.toBe(402);
    expect(res.json().error_type, url).toBeUndefined();
  }
  expect((await call(headers, '/v1/items')).statusCode).toBe(200);
}

async function requireTwoFactor(spaceId: number) {
  await db()
    .update(spaces)
    .set({ settings: sql`${spaces.settings} || '{"otp_required": true}'::jsonb` })
    .where(eq(spaces.id, spaceId));
}

async function expire(spaceId: number, isTrial: boolean) {
  await db()
    .update(spaces)
    .set({ expiresAt: new Date(Date.now() - 1000), isTrial })
    .where(eq(spaces.id, spaceId));
}

describe('otp_required on the server', () => {
  it('a member without two-factor gets 403 otp_required on content, and the profile, config and logout', async () => {
    const owner = await buildUser(t);
    const member = await buildMember(owner.space.id, 'operator');
    await requireTwoFactor(owner.space.id);

    for (const url of CONTENT) {
      const res = await call(member.headers, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toEqual({
        error:
          'В вашем пространстве обязательна двухфакторная аутентификация. Включите её в профиле, чтобы продолжить работу',
        error_type: 'otp_required',
      });
    }
    expect((await call(member.headers, '/v1/items', 'GET', 'en')).json().error).toBe(
      'Two-factor authentication is required in your space. Turn it on in your profile to continue',
    );
    expect(await refusedUpgrade(wsBase + member.token)).toBe(403);

    const config = await call(member.headers, '/v1/config');
    expect(config.statusCode).toBe(200);
    expect(config.json().otp_required).toBe(true);
    expect((await call(member.headers, '/v1/me')).statusCode).toBe(200);
    const start = await call(member.headers, '/v1/me/otp', 'POST');
    expect(start.statusCode, start.body).toBe(200);

    // Two-factor on: everything opens again.
    await db().update(users).set({ otpEnabled: true }).where(eq(users.id, member.user.id));
    await expectNotGated(member.headers);
    const socket = await openSocket(wsBase + member.token);
    await socket.waitFor((m) => m.type === 'hello');
    await socket.close();

    expect((await call(member.headers, '/v1/oauth2/revoke', 'POST')).statusCode).toBe(200);
  });

  it('an open socket closes (4403) once its space requires two-factor', async () => {
    const owner = await buildUser(t);
    const { access_token } = await loginTokens(t, owner.email);
    const socket = await openSocket(wsBase + access_token);
    try {
      await socket.waitFor((m) => m.type === 'hello');
      await requireTwoFactor(owner.space.id);
      await t.app.hub.recheck(0);
      expect(await socket.waitForClose()).toEqual({ code: CLOSE_OTP_REQUIRED, reason: 'otp_required' });
    } finally {
      await socket.close();
    }
  });
});

describe('expired spaces on the server (docs/product/states.md paid period over)', () => {
  it('a member of an expired trial gets 402 paid_over with SPEC’s text; profile and config stay', async () => {
    const owner = await buildUser(t);
    const member = await buildMember(owner.space.id, 'operator');
    await expire(owner.space.id, true);
    for (const url of CONTENT) {
      const res = await call(member.headers, url);
      expect(res.statusCode, url).toBe(402);
      expect(res.json(), url).toEqual({
        error: 'Тестовый период закончился',
        error_type: 'paid_over',
        trial: true,
      });
    }
    expect((await call(member.headers, '/v1/items', 'GET', 'en')).json().error).toBe(
      'The trial period is over',
    );
    expect(await refusedUpgrade(wsBase + member.token)).toBe(402);
    expect((await call(member.headers, '/v1/config')).statusCode).toBe(200);
    expect((await call(member.headers, '/v1/me')).statusCode).toBe(200);
  });

  it('an administrator of an expired paid space gets 402 on content with the paid text', async () => {
    const owner = await buildUser(t);
    const { access_token } = await loginTokens(t, owner.email);
    await expire(owner.space.id, false);
    const res = await call(bearer(access_token), '/v1/users');
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({
      error: 'Оплаченный период закончился',
      error_type: 'paid_over',
      trial: false,
    });
    expect((await call(bearer(access_token), '/v1/items', 'GET', 'en')).json().error).toBe(
      'The paid period is over',
    );
    expect((await call(bearer(access_token), '/v1/config')).statusCode).toBe(200);
    expect((await call(bearer(access_token), '/v1/me')).statusCode).toBe(200);
  });

  it('one space expired and another active: nothing is gated (docs/product/states.md: all spaces expired)', async () => {
    const first = await buildUser(t);
    const second = await buildUser(t);
    const member = await buildMember(first.space.id, 'operator');
    await addMember(db(), second.space.id, member.user.id, presetFor('operator'));
    await expire(first.space.id, false);
    await expectNotGated(member.headers);
  });

  it('an open socket closes (4402) once every space of its user is expired', async () => {
    const owner = await buildUser(t);
    const { access_token } = await loginTokens(t, owner.email);
    const socket = await openSocket(wsBase + access_token);
    try {
      await socket.waitFor((m) => m.type === 'hello');
      await expire(owner.space.id, true);
      await t.app.hub.recheck(0);
      expect(await socket.waitForClose()).toEqual({ code: CLOSE_PAID_OVER, reason: 'paid_over' });
    } finally {
      await socket.close();
    }
  });
});

describe('the gate’s route table', () => {
  it('names only operations the server has (a renamed route would silently fall under the gate)', () => {
    const listed = [...API_ALWAYS_ALLOWED, ...Object.keys(API_ROUTE_AREAS)].filter(
      (key) => !key.startsWith('* '),
    );
    expect(listed.length).toBeGreaterThan(10);
    for (const key of listed) {
      const [method, url] = key.split(' ') as [HTTPMethods, string];
      expect(t.app.hasRoute({ method, url }), key).toBe(true);
    }
  });
});
