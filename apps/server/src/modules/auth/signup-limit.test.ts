import { inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, buildUser, loginTokens } from '../../../test/auth-helpers';
import { createTestApp, STRONG_PASSWORD, type TestApp, uniqueEmail } from '../../../test/harness';
import { mailOutbox, users } from '../../db/schema';

// Issue 11 item 10: signup and the other calls that create accounts or mail an address are limited per
// client address and for the whole instance. Each test has its own app with its own limits, on the
// in-memory limiter (REDIS_URL off), so counters of other test files never mix in.

const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function limitedApp(perIp: number, global: number) {
  const app = await createTestApp({
    REDIS_URL: '',
    SIGNUP_RATE_LIMIT_PER_IP: String(perIp),
    SIGNUP_RATE_LIMIT_GLOBAL: String(global),
  });
  apps.push(app);
  return app;
}

const signup = (t: TestApp, email: string, ip: string, locale = 'ru') =>
  t.app.inject({
    method: 'POST',
    url: '/v1/signup',
    remoteAddress: ip,
    headers: { 'accept-language': locale },
    payload: { name: 'Мария', email, password: STRONG_PASSWORD, company: 'Ромашка' },
  });

async function created(t: TestApp, emails: string[]) {
  const db = t.deps.database.db;
  const rows = await db.select({ email: users.email }).from(users).where(inArray(users.email, emails));
  const mails = await db.select({ to: mailOutbox.to }).from(mailOutbox).where(inArray(mailOutbox.to, emails));
  return { users: rows.map((r) => r.email).sort(), mails: mails.map((m) => m.to).sort() };
}

describe('signup limit', () => {
  it('per address: the calls over the limit answer 429 with the translated text, create nobody and mail nobody', async () => {
    const t = await limitedApp(3, 1000);
    const emails = Array.from({ length: 6 }, () => uniqueEmail('flood'));
    const answers = [];
    for (const email of emails) answers.push(await signup(t, email, '203.0.113.7'));
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201, 429, 429, 429]);

    const refused = answers[3]!;
    expect(refused.json()).toMatchObject({ error_type: 'rate_limited' });
    expect(refused.json().error).toMatch(/^Слишком много попыток\. Повторите через \d+ с$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const english = await signup(t, uniqueEmail('flood'), '203.0.113.7', 'en');
    expect(english.json().error).toMatch(/^Too many attempts\. Try again in \d+ s$/);

    const allowed = emails.slice(0, 3).sort();
    expect(await created(t, emails)).toEqual({ users: allowed, mails: allowed });

    // Another address is not held back by the first one's flood.
    expect((await signup(t, uniqueEmail('neighbour'), '203.0.113.8')).statusCode).toBe(201);
  });

  it('for the instance: many addresses together stop at the global limit', async () => {
    const t = await limitedApp(1000, 4);
    const emails = Array.from({ length: 6 }, () => uniqueEmail('spread'));
    const codes = [];
    for (const [i, email] of emails.entries())
      codes.push((await signup(t, email, `198.51.100.${i + 1}`)).statusCode);
    expect(codes).toEqual([201, 201, 201, 201, 429, 429]);
    const allowed = emails.slice(0, 4).sort();
    expect(await created(t, emails)).toEqual({ users: allowed, mails: allowed });
  });

  it('recovery, invitation and provider signup, and confirmation mails count too', async () => {
    const t = await limitedApp(1, 1000);
    const owner = await buildUser(t);
    const { access_token } = await loginTokens(t, owner.email);
    const calls: Array<[string, (ip: string) => Promise<LightMyRequestResponse>]> = [
      [
        'POST /v1/recovery',
        (ip) =>
          t.app.inject({
            method: 'POST',
            url: '/v1/recovery',
            remoteAddress: ip,
            payload: { email: owner.email },
          }),
      ],
      [
        'POST /v1/signup/:hash',
        (ip) =>
          t.app.inject({
            method: 'POST',
            url: '/v1/signup/no-such-invitation',
            remoteAddress: ip,
            payload: { name: 'Пётр', password: STRONG_PASSWORD },
          }),
      ],
      [
        'POST /v1/signup/provider',
        (ip) =>
          t.app.inject({
            method: 'POST',
            url: '/v1/signup/provider',
            remoteAddress: ip,
            payload: { provider: 'google', access_token: 'pending-token-that-does-not-exist' },
          }),
      ],
      [
        'POST /v1/send_confirm_email',
        (ip) =>
          t.app.inject({
            method: 'POST',
            url: '/v1/send_confirm_email',
            remoteAddress: ip,
            headers: bearer(access_token),
            payload: { email: uniqueEmail('other') },
          }),
      ],
    ];
    for (const [i, [name, call]] of calls.entries()) {
      const ip = `192.0.2.${i + 10}`;
      const first = await call(ip);
      expect(first.statusCode, `${name}: ${first.body}`).not.toBe(429);
      const second = await call(ip);
      expect(second.statusCode, `${name}: ${second.body}`).toBe(429);
      expect(second.json().error_type).toBe('rate_limited');
    }
    const mails = await t.deps.database.db
      .select({ kind: mailOutbox.kind })
      .from(mailOutbox)
      .where(inArray(mailOutbox.to, [owner.email]));
    expect(mails.map((m) => m.kind)).toEqual(['reset_password']);
  });
});
