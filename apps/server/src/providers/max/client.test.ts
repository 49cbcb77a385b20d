import { describe, expect, it } from 'vitest';
import { maxError } from './client';

// How MAX's refusals map to what the outbox does (PROVIDERS §7e errors).

describe('error envelopes', () => {
  it('MAX: verify.token is an auth error, 429 a rate limit, attachment.not.ready is retried', () => {
    expect(maxError(401, { code: 'verify.token', message: 'Invalid access_token' }, null)).toMatchObject({
      kind: 'auth',
      message: 'Invalid access_token',
    });
    expect(maxError(429, { code: 'too.many.requests', message: 'Slow down' }, '2')).toMatchObject({
      kind: 'rate_limited',
      retryAfterSeconds: 2,
    });
    expect(maxError(400, { code: 'attachment.not.ready', message: 'Not ready' }, null).kind).toBe(
      'temporary',
    );
    expect(maxError(404, { code: 'not.found', message: 'Message not found' }, null).kind).toBe('permanent');
  });
});
