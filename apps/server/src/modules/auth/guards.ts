import type { FastifyRequest } from 'fastify';
import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import type { RateLimiter } from '../../lib/rate-limit';

/** Counts a hit and throws 429 with Retry-After once `max` hits fall in the window. */
export async function enforceRateLimit(
  limiter: RateLimiter,
  key: string,
  max: number,
  windowSeconds: number,
) {
  const { count, resetInSeconds } = await limiter.hit(key, windowSeconds);
  if (count > max) {
    throw new AppError(429, 'error.rateLimited', {
      errorType: 'rate_limited',
      params: { seconds: resetInSeconds },
      headers: { 'retry-after': String(resetInSeconds) },
    });
  }
}

/**
 * preHandler of the calls that create accounts or send mail to an address the caller names (issue 11
 * item 10): SIGNUP_RATE_LIMIT_PER_IP per client address and SIGNUP_RATE_LIMIT_GLOBAL for the instance
 * per SIGNUP_RATE_LIMIT_WINDOW_S. It runs before the service, so a refused call creates nothing and
 * sends no mail. The global limit is checked second: one noisy address cannot use it up alone.
 */
export function signupRateLimit(config: Config, limiter: RateLimiter) {
  return async (req: FastifyRequest) => {
    const window = config.SIGNUP_RATE_LIMIT_WINDOW_S;
    await enforceRateLimit(limiter, `signup:ip:${req.ip}`, config.SIGNUP_RATE_LIMIT_PER_IP, window);
    await enforceRateLimit(limiter, 'signup:global', config.SIGNUP_RATE_LIMIT_GLOBAL, window);
  };
}

/**
 * reCAPTCHA is on with both keys: the secret alone would demand a token the web cannot produce
 * without the site key (issue 13 item 14).
 */
export function recaptchaSiteKey(config: Config): string | undefined {
  return config.RECAPTCHA_SECRET && config.RECAPTCHA_SITE_KEY ? config.RECAPTCHA_SITE_KEY : undefined;
}

/** Verifies a reCAPTCHA token when reCAPTCHA is on (recaptchaSiteKey); otherwise the token is ignored. */
export async function verifyRecaptcha(config: Config, token: string | undefined, ip: string): Promise<void> {
  if (!recaptchaSiteKey(config) || !config.RECAPTCHA_SECRET) return;
  const fail = () => new AppError(400, 'error.captcha', { errorType: 'captcha' });
  if (!token) throw fail();
  const response = await fetch(config.RECAPTCHA_VERIFY_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ secret: config.RECAPTCHA_SECRET, response: token, remoteip: ip }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw fail();
  const result = (await response.json()) as { success?: boolean };
  if (result.success !== true) throw fail();
}
