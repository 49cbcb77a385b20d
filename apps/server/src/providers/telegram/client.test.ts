import { describe, expect, it } from 'vitest';
import { telegramError } from './client';

// How Telegram's refusals map to what the outbox does (PROVIDERS §1 "Response envelope").

describe('error envelopes', () => {
  it('Telegram: 429 waits retry_after, 401 flags the account, a user blocking the bot fails only that send', () => {
    const flood = telegramError(429, {
      ok: false,
      error_code: 429,
      description: 'Too Many Requests: retry after 35',
      parameters: { retry_after: 35 },
    });
    expect(flood).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 35 });
    expect(telegramError(401, { ok: false, error_code: 401, description: 'Unauthorized' }).kind).toBe('auth');
    expect(
      telegramError(403, {
        ok: false,
        error_code: 403,
        description: 'Forbidden: bot was blocked by the user',
      }),
    ).toMatchObject({ kind: 'permanent', message: 'Forbidden: bot was blocked by the user' });
    expect(
      telegramError(400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' }).kind,
    ).toBe('permanent');
    expect(telegramError(502, undefined).kind).toBe('temporary');
  });
});
