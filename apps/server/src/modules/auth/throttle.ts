import { isIPv6 } from 'node:net';
import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import { enforceRateLimit } from './guards';

/**
 * Limits on guessing passwords and probing which emails have accounts (login and recovery), built so
 * that nobody can lock someone else out:
 * - every attempt counts against the client address (AUTH_RATE_LIMIT_PER_IP per window);
 * - attempts on one account count against (address, account) — never the account alone, so failing on
 *   purpose for a colleague's email from one address does not stop them logging in from theirs;
 * - failures (wrong password, unknown email, wrong code) count against the address: past
 *   AUTH_FAILURES_PER_IP it waits 1 s, 2 s, 4 s, … (at most AUTH_BACKOFF_MAX_S) before each next try,
 *   which keeps enumerating emails through the 404 slow.
 * The address is the socket's, or the one a trusted proxy reports (TRUST_PROXY); IPv6 clients count by
 * their /64, since one host usually owns a whole /64.
 */
export interface ThrottleDeps {
  limiter: RateLimiter;
  config: Config;
}

export type AttemptKind = 'login' | 'recovery';

const waitKey = (address: string) => `auth:wait:${address}`;

export async function beforeAuthAttempt(deps: ThrottleDeps, kind: AttemptKind, ip: string, account: string) {
  const { limiter, config } = deps;
  const address = clientAddressKey(ip);
  const wait = await limiter.blockedFor(waitKey(address));
  if (wait > 0) throw rateLimited(wait);
  const window = config.AUTH_RATE_LIMIT_WINDOW_S;
  await enforceRateLimit(limiter, `${kind}:ip:${address}`, config.AUTH_RATE_LIMIT_PER_IP, window);
  await enforceRateLimit(
    limiter,
    `${kind}:ip-user:${address}:${account}`,
    config.AUTH_RATE_LIMIT_PER_USER,
    window,
  );
}

/** A failed attempt from `ip`: past the free failures the address backs off exponentially. */
export async function recordAuthFailure(deps: ThrottleDeps, ip: string): Promise<void> {
  const { limiter, config } = deps;
  const address = clientAddressKey(ip);
  const { count } = await limiter.hit(`auth:fail:${address}`, config.AUTH_FAILURE_WINDOW_S);
  const over = count - config.AUTH_FAILURES_PER_IP;
  if (over > 0) await limiter.block(waitKey(address), backoffSeconds(over, config.AUTH_BACKOFF_MAX_S));
}

/** 1 s after the first failure over the allowance, doubling up to `max`. */
export function backoffSeconds(over: number, max: number): number {
  return Math.min(2 ** Math.min(over - 1, 30), max);
}

function rateLimited(seconds: number) {
  return new AppError(429, 'error.rateLimited', {
    errorType: 'rate_limited',
    params: { seconds },
    headers: { 'retry-after': String(seconds) },
  });
}

/** IPv4 as is (also when IPv4-mapped), IPv6 by its /64 network. */
export function clientAddressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  // A trailing dotted IPv4 part stands for two groups.
  const hex = ip.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a, b, c, d) =>
    [((+a << 8) | +b).toString(16), ((+c << 8) | +d).toString(16)].join(':'),
  );
  const [head = '', tail = ''] = hex.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = hex.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
