import { randomInt } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser } from '../../../test/auth-helpers';
import { createTestApp, STRONG_PASSWORD, type TestApp, uniqueEmail, WEB_CLIENT } from '../../../test/harness';
import { backoffSeconds, clientAddressKey } from './throttle';

// Addresses are random per run: with REDIS_URL the counters are shared by every test run for a window.
const randomAddress = (net: string) => `${net}.${randomInt(1, 255)}.${randomInt(1, 255)}`;

function login(
  t: TestApp,
  username: string,
  password: string,
  opts: { remoteAddress?: string; forwardedFor?: string } = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/oauth2/token?locale=en',
    remoteAddress: opts.remoteAddress,
    headers: opts.forwardedFor ? { 'x-forwarded-for': opts.forwardedFor } : {},
    payload: { grant_type: 'password', ...WEB_CLIENT, username, password },
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('client address behind proxies (TRUST_PROXY)', () => {
  it('ignores X-Forwarded-For from a peer that is not a trusted proxy: 35 logins get a 429', async () => {
    const t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '30', AUTH_RATE_LIMIT_PER_USER: '100' });
    try {
      const { email } = await buildUser(t);
      const attacker = randomAddress('203.0');
      const statuses: number[] = [];
      for (let i = 0; i < 35; i++) {
        const res = await login(t, email, STRONG_PASSWORD, {
          remoteAddress: attacker,
          forwardedFor: `198.51.${i}.${randomInt(1, 255)}`,
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(30)).toEqual([429, 429, 429, 429, 429]);
    } finally {
      await t.close();
    }
  });

  it('takes the client address from a configured trusted proxy, and from loopback by default', async () => {
    const proxy = randomAddress('10.77');
    const t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '2', TRUST_PROXY: `${proxy}, 192.0.2.0/24` });
    const byDefault = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '2' });
    try {
      const { email } = await buildUser(t);
      // Three clients behind the proxy, two attempts each: nobody reaches the per-address limit.
      for (const client of [randomAddress('198.18'), randomAddress('198.18'), randomAddress('198.18')]) {
        for (let i = 0; i < 2; i++)
          expect(
            (await login(t, email, STRONG_PASSWORD, { remoteAddress: proxy, forwardedFor: client }))
              .statusCode,
          ).toBe(200);
      }
      // A CIDR entry works the same; the third attempt of one client is limited.
      const client = randomAddress('198.19');
      const viaCidr = () =>
        login(t, email, STRONG_PASSWORD, { remoteAddress: '192.0.2.9', forwardedFor: client });
      expect((await viaCidr()).statusCode).toBe(200);
      expect((await viaCidr()).statusCode).toBe(200);
      expect((await viaCidr()).statusCode).toBe(429);

      // Default TRUST_PROXY=loopback: a reverse proxy on the same host is believed.
      const local = { remoteAddress: '127.0.0.1' };
      for (const fwd of [randomAddress('198.20'), randomAddress('198.20'), randomAddress('198.20')])
        expect(
          (await login(byDefault, email, STRONG_PASSWORD, { ...local, forwardedFor: fwd })).statusCode,
        ).toBe(200);
    } finally {
      await t.close();
      await byDefault.close();
    }
  });

  it('refuses a TRUST_PROXY that is not a list of addresses', async () => {
    await expect(createTestApp({ TRUST_PROXY: 'everyone' })).rejects.toThrow(/TRUST_PROXY/);
    await expect(createTestApp({ TRUST_PROXY: '10.0.0.0/33' })).rejects.toThrow(/TRUST_PROXY/);
  });
});

describe('no lock-out of a colleague', () => {
  it('limits the attacker’s address on an account while the owner still logs in from theirs', async () => {
    const t = await createTestApp({ AUTH_RATE_LIMIT_PER_USER: '3', AUTH_FAILURES_PER_IP: '5' });
    try {
      const { email } = await buildUser(t);
      const attacker = { remoteAddress: randomAddress('203.1') };
      for (let i = 0; i < 3; i++)
        expect((await login(t, email, 'Wrong-pass1', attacker)).statusCode).toBe(400);
      const limited = await login(t, email, STRONG_PASSWORD, attacker);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ error_type: 'rate_limited' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Many more failures from many other addresses on the same account change nothing for the owner.
      for (let i = 0; i < 20; i++)
        await login(t, email, 'Wrong-pass1', { remoteAddress: randomAddress('203.2') });
      const owner = await login(t, email, STRONG_PASSWORD, { remoteAddress: randomAddress('198.51') });
      expect(owner.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('an address in backoff does not hold up the owner from a fresh address', async () => {
    const t = await createTestApp({ AUTH_FAILURES_PER_IP: '2' });
    try {
      const { email } = await buildUser(t);
      const attacker = { remoteAddress: randomAddress('203.3') };
      for (let i = 0; i < 3; i++) await login(t, email, 'Wrong-pass1', attacker);
      expect((await login(t, email, STRONG_PASSWORD, attacker)).statusCode).toBe(429);
      expect(
        (await login(t, email, STRONG_PASSWORD, { remoteAddress: randomAddress('198.52') })).statusCode,
      ).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('enumeration of emails', () => {
  it('backs off exponentially after the free failures, for login and recovery alike', async () => {
    // The in-memory limiter, so the test can move the clock instead of waiting.
    const t = await createTestApp({ REDIS_URL: '', AUTH_FAILURES_PER_IP: '3', AUTH_BACKOFF_MAX_S: '4' });
    try {
      vi.useFakeTimers({ toFake: ['Date'] });
      // Today, not a far date: other files' background loops share this worker's Date while it is faked (a
      // timer one of them computed in 2030 spun at 1 ms for the rest of the run once the clock came back).
      vi.setSystemTime(new Date());
      const prober = { remoteAddress: randomAddress('203.4') };
      const probe = () => login(t, uniqueEmail('probe'), 'whatever1', prober);
      // Three free failures and the fourth (which starts the backoff) answer SPEC's 404.
      for (let i = 0; i < 4; i++) {
        const res = await probe();
        expect(res.statusCode).toBe(404);
        expect(res.json().error).toBe('User not found');
      }
      const waiting = await probe();
      expect(waiting.statusCode).toBe(429);
      expect(waiting.headers['retry-after']).toBe('1');
      // Recovery is the same probe through another door: the same backoff applies.
      const recovery = await t.app.inject({
        method: 'POST',
        url: '/v1/recovery',
        remoteAddress: prober.remoteAddress,
        payload: { email: uniqueEmail('probe') },
      });
      expect(recovery.statusCode).toBe(429);

      // Each further failure doubles the wait, up to AUTH_BACKOFF_MAX_S.
      const waits: string[] = [];
      for (let i = 0; i < 4; i++) {
        vi.setSystemTime(Date.now() + 5_000);
        expect((await probe()).statusCode).toBe(404);
        waits.push(String((await probe()).headers['retry-after']));
      }
      expect(waits).toEqual(['2', '4', '4', '4']);

      // 4 + 4 probes in 20 s: enumeration is slow; another address is not affected.
      const other = await login(t, uniqueEmail('probe'), 'whatever1', {
        remoteAddress: randomAddress('198.53'),
      });
      expect(other.statusCode).toBe(404);
    } finally {
      vi.useRealTimers();
      await t.close();
    }
  });

  it('computes the backoff and the address key', () => {
    expect([1, 2, 3, 4, 10, 40].map((n) => backoffSeconds(n, 600))).toEqual([1, 2, 4, 8, 512, 600]);
    expect(clientAddressKey('203.0.113.5')).toBe('203.0.113.5');
    expect(clientAddressKey('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(clientAddressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2:bbbb:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
  });
});
