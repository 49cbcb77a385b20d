import type { Redis } from 'ioredis';
import { AppError } from './errors';

/** Seconds a client is told to wait while Redis is away; ioredis reconnects within about 2 s. */
export const REDIS_RETRY_AFTER_S = 5;

export function redisUnavailable(): AppError {
  return new AppError(503, 'error.temporarilyUnavailable', {
    errorType: 'unavailable',
    params: { seconds: REDIS_RETRY_AFTER_S },
    headers: { 'retry-after': String(REDIS_RETRY_AFTER_S) },
  });
}

export const redisReady = (redis: Redis) => redis.status === 'ready';

/**
 * Lost and not back yet. A client still making its first connection ('wait', 'connecting') is not
 * "down": its commands queue until it is ready, as ioredis does by default.
 */
const redisDown = (redis: Redis) =>
  redis.status === 'reconnecting' || redis.status === 'close' || redis.status === 'end';

/**
 * Runs a Redis call for a request that cannot do without it (rate limits, reply locks). While the
 * connection is down it fails at once with 503 + Retry-After instead of queueing behind reconnects or
 * ending as a 500; ioredis reconnects by itself, so the next request after recovery simply works.
 */
export async function withRedis<T>(redis: Redis, call: () => Promise<T>): Promise<T> {
  if (redisDown(redis)) throw redisUnavailable();
  try {
    return await call();
  } catch (error) {
    // A reply error is Redis refusing the command (a bug here), not Redis being away. (By name: ioredis
    // is loaded only when REDIS_URL is set, runtime.ts.)
    if (error instanceof Error && error.name === 'ReplyError') throw error;
    throw redisUnavailable();
  }
}

/** Whether Redis answers a PING within `timeoutMs` (readiness probe). */
export async function pingRedis(redis: Redis, timeoutMs = 1_000): Promise<boolean> {
  if (!redisReady(redis)) return false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([redis.ping().then((reply) => reply === 'PONG'), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
