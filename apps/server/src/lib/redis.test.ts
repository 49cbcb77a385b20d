import { type Redis, ReplyError } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { withRedis } from './redis';

// withRedis tells Redis refusing a command (ioredis's ReplyError: a bug of ours, kept as it is) from
// Redis being away (503 + Retry-After). It tells them apart by the error's name, so a server without
// REDIS_URL never loads ioredis.
const ready = { status: 'ready' } as Redis;

describe('withRedis', () => {
  it('passes a reply error through unchanged', async () => {
    const refused = new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value');
    await expect(withRedis(ready, () => Promise.reject(refused))).rejects.toBe(refused);
  });

  it('answers 503 with Retry-After for a lost connection, before and during the call', async () => {
    const lost = withRedis(ready, () => Promise.reject(new Error('Connection is closed.')));
    await expect(lost).rejects.toBeInstanceOf(AppError);
    await expect(lost).rejects.toMatchObject({ status: 503, extra: { headers: { 'retry-after': '5' } } });
    const down = { status: 'reconnecting' } as Redis;
    let called = false;
    await expect(
      withRedis(down, async () => {
        called = true;
      }),
    ).rejects.toMatchObject({ status: 503, extra: { headers: { 'retry-after': '5' } } });
    expect(called).toBe(false);
  });
});
