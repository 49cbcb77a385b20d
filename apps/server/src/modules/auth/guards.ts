import type { Config } from '../../config';
import { AppError } from '../../http/errors';
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

/** Verifies a reCAPTCHA token when RECAPTCHA_SECRET is set; otherwise the token is ignored (issue #2). */
export async function verifyRecaptcha(config: Config, token: string | undefined, ip: string): Promise<void> {
  if (!config.RECAPTCHA_SECRET) return;
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
