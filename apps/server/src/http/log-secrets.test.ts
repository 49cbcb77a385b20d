import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, loginTokens, passwordLogin } from '../../test/auth-helpers';
import { createTestApp, STRONG_PASSWORD, type TestApp, uniqueEmail, WEB_CLIENT } from '../../test/harness';
import { lastMailedHash } from '../../test/mail-links';
import { redactUrl } from '../lib/logger';
import { currentTotp } from '../modules/auth/otp';
import { inviteToSpace } from '../modules/spaces/invitations';

// Issue 11 item 12: flows that create every kind of secret run with SMTP unset (so mails are printed to
// the log too), then every captured log line is searched for every secret value. None may appear.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'trace' });
});
afterAll(() => t.close());

const secrets = new Map<string, string>();
function keep(label: string, value: unknown): string {
  expect(typeof value === 'string' && value.length >= 6, `${label}: ${String(value)}`).toBe(true);
  secrets.set(label, value as string);
  return value as string;
}

async function ok(res: { statusCode: number; body: string }, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  return JSON.parse(res.body || '{}');
}

describe('secrets never reach the log', () => {
  it('passwords, tokens, link hashes, TOTP secrets, recovery codes and ingest tokens', async () => {
    const inject = t.app.inject.bind(t.app);
    keep('factory password', STRONG_PASSWORD);

    // Signup and the confirmation link (mail, API call and the web page's address).
    const email = uniqueEmail('logs');
    const password = keep('signup password', 'Log-secret-pw1!');
    await ok(
      await inject({
        method: 'POST',
        url: '/v1/signup',
        payload: { name: 'L', email, password, company: 'Co' },
      }),
      201,
    );
    const confirmHash = keep('confirm hash', await lastMailedHash(t, email, '/confirm_email/'));
    await inject({ url: `/confirm_email/${confirmHash}` });
    const confirmed = await ok(
      await inject({
        method: 'POST',
        url: '/v1/confirm_email',
        payload: { hash: confirmHash, ...WEB_CLIENT },
      }),
    );
    keep('confirm access token', confirmed.token.access_token);
    keep('confirm refresh token', confirmed.token.refresh_token);

    // Login, refresh, a wrong password, a token in the address (refused, but logged as a URL).
    const login = await loginTokens(t, email, password);
    keep('login access token', login.access_token);
    keep('login refresh token', login.refresh_token);
    await passwordLogin(t, email, keep('wrong password', 'Wrong-secret-pw9'));
    await inject({ url: `/v1/me?access_token=${login.access_token}` });
    const refreshed = await ok(
      await inject({
        method: 'POST',
        url: '/v1/oauth2/token',
        payload: { grant_type: 'refresh_token', ...WEB_CLIENT, refresh_token: login.refresh_token },
      }),
    );
    keep('refreshed access token', refreshed.access_token);
    keep('refreshed refresh token', refreshed.refresh_token);
    const headers = bearer(refreshed.access_token);

    // A connector's token: an ingest account of a review site, used in a header and in the address.
    const account = await ok(
      await inject({ method: 'POST', url: '/v1/objects', headers, payload: { provider: 'bankiru' } }),
    );
    const ingestToken = keep('ingest token', account.ingest_token);
    await inject({
      method: 'POST',
      url: '/v1/ingest/items',
      headers: { 'x-ingest-token': ingestToken },
      payload: { items: [] },
    });
    await inject({ method: 'POST', url: `/v1/ingest/items?token=${ingestToken}`, payload: { items: [] } });

    // An invitation: its mail, its lookup and its signup.
    const admin = await buildUser(t);
    const invited = uniqueEmail('invited');
    await inviteToSpace(
      { db: t.deps.database.db, mailer: t.deps.mailer, config: t.deps.config },
      {
        spaceId: admin.space.id,
        email: invited,
        roles: { items: true },
        invitedBy: { id: admin.user.id, name: 'A' },
        locale: 'ru',
      },
    );
    const inviteHash = keep('invitation hash', await lastMailedHash(t, invited, '/signup/'));
    await ok(await inject({ url: `/v1/signup/${inviteHash}` }));
    await inject({ url: `/signup/${inviteHash}` });
    await ok(
      await inject({
        method: 'POST',
        url: `/v1/signup/${inviteHash}`,
        payload: { name: 'I', password: keep('invitation password', 'Invite-secret-pw2!') },
      }),
    );

    // Two-factor: the secret, its otpauth address, the recovery codes; login with a code.
    const start = await ok(await inject({ method: 'POST', url: '/v1/me/otp', headers }));
    const totpSecret = keep('TOTP secret', start.secret);
    for (const [i, code] of (start.recovery_codes as string[]).entries()) keep(`recovery code ${i}`, code);
    const confirmCode = currentTotp(totpSecret);
    const enabled = await ok(
      await inject({ method: 'POST', url: '/v1/me/otp/confirm', headers, payload: { code: confirmCode } }),
    );
    keep('2FA rotated access token', enabled.token.access_token);
    keep('2FA rotated refresh token', enabled.token.refresh_token);
    const withCode = await ok(await passwordLogin(t, email, password, { code: start.recovery_codes[0] }));
    keep('2FA login access token', withCode.access_token);

    // Password change, then recovery and reset by link (with the second factor).
    const newPassword = keep('changed password', 'Changed-secret-pw3!');
    const changed = await ok(
      await inject({
        method: 'PUT',
        url: '/v1/me/password',
        headers: bearer(enabled.token.access_token),
        payload: { password, new_password: newPassword },
      }),
    );
    keep('password change access token', changed.token.access_token);
    await ok(await inject({ method: 'POST', url: '/v1/recovery', payload: { email } }));
    const resetHash = keep('reset hash', await lastMailedHash(t, email, '/reset_password/'));
    await inject({ url: `/reset_password/${resetHash}` });
    await ok(await inject({ method: 'POST', url: '/v1/reset_password/check', payload: { hash: resetHash } }));
    const resetPassword = keep('reset password', 'Reset-secret-pw4!');
    const reset = await ok(
      await inject({
        method: 'POST',
        url: '/v1/reset_password',
        payload: {
          hash: resetHash,
          password: resetPassword,
          password_confirm: resetPassword,
          code: start.recovery_codes[1],
          ...WEB_CLIENT,
        },
      }),
    );
    keep('reset access token', reset.access_token);
    keep('reset refresh token', reset.refresh_token);

    const log = t.logs.join('');
    // The flows were logged (requests and the printed mails), just without their secrets.
    expect(log).toContain('/v1/signup/[redacted]');
    expect(log).toContain('/confirm_email/[redacted]');
    expect(log).toContain('/reset_password/[redacted]');
    expect(log).toContain('Mail not sent');
    const leaked = [...secrets].filter(([, value]) => log.includes(value)).map(([label]) => label);
    expect(leaked).toEqual([]);
  });

  it('redactUrl keeps routes that are not hashes', () => {
    expect(redactUrl('/v1/signup/provider')).toBe('/v1/signup/provider');
    expect(redactUrl('/v1/reset_password/check')).toBe('/v1/reset_password/check');
    expect(redactUrl('see http://x.test/signup/AbC-123_z now')).toBe(
      'see http://x.test/signup/[redacted] now',
    );
    expect(redactUrl('https://api.telegram.org/bot123456:AA-bb_cc/getUpdates')).toBe(
      'https://api.telegram.org/bot[redacted]/getUpdates',
    );
  });
});
