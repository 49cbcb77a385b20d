import type { Redis } from 'ioredis';
import { withRedis } from '../lib/redis';

/**
 * "Who is answering this item/chat" locks (docs/product/api.md lock/unlock). A lock has a short TTL that its
 * holder's open socket keeps refreshing, so a lock disappears when its holder's socket is gone — even
 * if the node holding the socket dies. Redis `SET NX PX` when scaled out; a map in one process.
 */
export interface LockHolder {
  userId: number;
  name: string;
  connectionId: string;
}

export interface LockStore {
  /** Takes the lock or reports its current holder. The same connection re-acquiring refreshes it. */
  acquire(key: string, holder: LockHolder, ttlMs: number): Promise<{ acquired: boolean; holder: LockHolder }>;
  release(key: string, connectionId: string): Promise<boolean>;
  refresh(key: string, connectionId: string, ttlMs: number): Promise<boolean>;
  /** Takes the lock whoever holds it (a take-over); answers the holder it was taken from, if any. */
  take(key: string, holder: LockHolder, ttlMs: number): Promise<LockHolder | undefined>;
  get(key: string): Promise<LockHolder | undefined>;
}

export class MemoryLockStore implements LockStore {
  private readonly locks = new Map<string, { holder: LockHolder; expiresAt: number }>();

  private live(key: string) {
    const lock = this.locks.get(key);
    if (lock && lock.expiresAt <= Date.now()) {
      this.locks.delete(key);
      return undefined;
    }
    return lock;
  }

  async acquire(key: string, holder: LockHolder, ttlMs: number) {
    const current = this.live(key);
    if (current && current.holder.connectionId !== holder.connectionId)
      return { acquired: false, holder: current.holder };
    this.locks.set(key, { holder, expiresAt: Date.now() + ttlMs });
    return { acquired: true, holder };
  }

  async release(key: string, connectionId: string) {
    const current = this.live(key);
    if (!current || current.holder.connectionId !== connectionId) return false;
    this.locks.delete(key);
    return true;
  }

  async refresh(key: string, connectionId: string, ttlMs: number) {
    const current = this.live(key);
    if (!current || current.holder.connectionId !== connectionId) return false;
    current.expiresAt = Date.now() + ttlMs;
    return true;
  }

  async take(key: string, holder: LockHolder, ttlMs: number) {
    const previous = this.live(key)?.holder;
    this.locks.set(key, { holder, expiresAt: Date.now() + ttlMs });
    return previous;
  }

  async get(key: string) {
    return this.live(key)?.holder;
  }
}

// Compare-and-act scripts: only the holding connection may release or refresh.
const RELEASE = `if redis.call('get', KEYS[1]) and cjson.decode(redis.call('get', KEYS[1])).connectionId == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const TAKE = `local old = redis.call('get', KEYS[1]) redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return old`;
const REFRESH = `if redis.call('get', KEYS[1]) and cjson.decode(redis.call('get', KEYS[1])).connectionId == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

export class RedisLockStore implements LockStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'otklik:lock:',
  ) {}

  // Who holds a lock is only known to Redis: while it is down, lock calls answer 503 (lib/redis.ts).
  acquire(
    key: string,
    holder: LockHolder,
    ttlMs: number,
  ): Promise<{ acquired: boolean; holder: LockHolder }> {
    return withRedis(this.redis, async () => {
      const k = this.prefix + key;
      const ok = await this.redis.set(k, JSON.stringify(holder), 'PX', ttlMs, 'NX');
      if (ok === 'OK') return { acquired: true, holder };
      const current = await this.get(key);
      if (!current) return this.acquire(key, holder, ttlMs);
      if (current.connectionId === holder.connectionId) {
        await this.redis.set(k, JSON.stringify(holder), 'PX', ttlMs);
        return { acquired: true, holder };
      }
      return { acquired: false, holder: current };
    });
  }

  release(key: string, connectionId: string) {
    return withRedis(
      this.redis,
      async () => (await this.redis.eval(RELEASE, 1, this.prefix + key, connectionId)) === 1,
    );
  }

  refresh(key: string, connectionId: string, ttlMs: number) {
    return withRedis(
      this.redis,
      async () => (await this.redis.eval(REFRESH, 1, this.prefix + key, connectionId, String(ttlMs))) === 1,
    );
  }

  async take(key: string, holder: LockHolder, ttlMs: number) {
    return withRedis(this.redis, async () => {
      const old = await this.redis.eval(TAKE, 1, this.prefix + key, JSON.stringify(holder), String(ttlMs));
      return typeof old === 'string' ? (JSON.parse(old) as LockHolder) : undefined;
    });
  }

  get(key: string) {
    return withRedis(this.redis, async () => {
      const raw = await this.redis.get(this.prefix + key);
      return raw ? (JSON.parse(raw) as LockHolder) : undefined;
    });
  }
}
