import type { Redis } from 'ioredis';

/**
 * Fixed-window counters shared by every node: in memory for one process, in Redis when scaled out
 * (REDIS_URL), so a limit holds across nodes behind a load balancer.
 */
export interface RateLimiter {
  /** Counts one hit for `key`; returns how many hits the window has and when it resets. */
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetInSeconds: number }>;
  reset(key: string): Promise<void>;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  async hit(key: string, windowSeconds: number) {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.windows.set(key, window);
      if (this.windows.size > 100_000) this.sweep(now);
    }
    window.count += 1;
    return { count: window.count, resetInSeconds: Math.ceil((window.resetAt - now) / 1000) };
  }

  async reset(key: string) {
    this.windows.delete(key);
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'otklik:rl:',
  ) {}

  async hit(key: string, windowSeconds: number) {
    const k = this.prefix + key;
    const [[, count], [, ttl]] = (await this.redis.multi().incr(k).pttl(k).exec()) as [
      [unknown, number],
      [unknown, number],
    ];
    let ttlMs = ttl;
    if (ttl < 0) {
      await this.redis.pexpire(k, windowSeconds * 1000);
      ttlMs = windowSeconds * 1000;
    }
    return { count, resetInSeconds: Math.ceil(ttlMs / 1000) };
  }

  async reset(key: string) {
    await this.redis.del(this.prefix + key);
  }
}
