import type { Redis } from 'ioredis';
import { withRedis } from './redis';

/**
 * Fixed-window counters shared by every node: in memory for one process, in Redis when scaled out
 * (REDIS_URL), so a limit holds across nodes behind a load balancer.
 */
export interface RateLimiter {
  /** Counts one hit for `key`; returns how many hits the window has and when it resets. */
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetInSeconds: number }>;
  reset(key: string): Promise<void>;
  /** Blocks `key` for `seconds` (an address in login backoff); a longer running block is kept. */
  block(key: string, seconds: number): Promise<void>;
  /** Seconds left on `key`'s block; 0 when it is not blocked. */
  blockedFor(key: string): Promise<number>;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly blocks = new Map<string, number>();

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
    this.blocks.delete(key);
  }

  async block(key: string, seconds: number) {
    const until = Date.now() + seconds * 1000;
    if ((this.blocks.get(key) ?? 0) < until) this.blocks.set(key, until);
    if (this.blocks.size > 100_000) this.sweep(Date.now());
  }

  async blockedFor(key: string) {
    const left = (this.blocks.get(key) ?? 0) - Date.now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    for (const [key, until] of this.blocks) if (until <= now) this.blocks.delete(key);
  }
}

// Sets the block unless a longer one is already running (pttl is -2 for a missing key).
const BLOCK_LONGER = `if redis.call('pttl', KEYS[1]) < tonumber(ARGV[1]) then redis.call('set', KEYS[1], '1', 'PX', ARGV[1]) end return 1`;

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'otklik:rl:',
  ) {}

  // A limit cannot be checked without its counters: while Redis is down these answer 503 (lib/redis.ts).
  hit(key: string, windowSeconds: number) {
    return withRedis(this.redis, async () => {
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
    });
  }

  async reset(key: string) {
    await withRedis(this.redis, () => this.redis.del(this.prefix + key, `${this.prefix}block:${key}`));
  }

  async block(key: string, seconds: number) {
    const k = `${this.prefix}block:${key}`;
    await withRedis(this.redis, () => this.redis.eval(BLOCK_LONGER, 1, k, String(seconds * 1000)));
  }

  async blockedFor(key: string) {
    const ttl = await withRedis(this.redis, () => this.redis.pttl(`${this.prefix}block:${key}`));
    return ttl > 0 ? Math.ceil(ttl / 1000) : 0;
  }
}
