import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, loginTokens, passwordLogin, reloadUser } from '../../../test/auth-helpers';
import { createTestApp, STRONG_PASSWORD, type TestApp } from '../../../test/harness';
import { currentTotp } from './otp';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function enableTwoFactor() {
  const built = await buildUser(t);
  const tokens = await loginTokens(t, built.email);
  const start = await t.app.inject({
    method: 'POST',
    url: '/v1/me/otp',
    headers: bearer(tokens.access_token),
  });
  expect(start.statusCode).toBe(200);
  const setup = start.json() as { secret: string; otpauth_url: string; qr: string; recovery_codes: string[] };
  const confirm = await t.app.inject({
    method: 'POST',
    url: '/v1/me/otp/confirm',
    headers: bearer(tokens.access_token),
    payload: { code: currentTotp(setup.secret) },
  });
  expect(confirm.statusCode).toBe(200);
  // Switching 2FA on rotates the session that did it: the answer carries its new tokens.
  return { ...built, tokens: confirm.json().token as typeof tokens, setup };
}

describe('TOTP two-factor', () => {
  it('setup returns a secret, an otpauth QR code and 7-character recovery codes; the secret is stored sealed', async () => {
    const { setup, user } = await enableTwoFactor();
    expect(setup.otpauth_url).toMatch(/^otpauth:\/\/totp\/Otklik:.+secret=/);
    expect(setup.qr).toMatch(/^data:image\/png;base64,/);
    expect(setup.recovery_codes).toHaveLength(10);
    for (const code of setup.recovery_codes) expect(code).toMatch(/^[a-z0-9]{7}$/);
    const row = await reloadUser(t, user.id);
    expect(row.otpEnabled).toBe(true);
    expect(row.otpSecret).not.toContain(setup.secret);
    expect(JSON.stringify(row.otpRecoveryCodes)).not.toContain(setup.recovery_codes[0]);
  });

  it('login asks for the code (code_required), rejects a wrong one, accepts a trimmed valid one', async () => {
    const { email, setup } = await enableTwoFactor();
    const noCode = await passwordLogin(t, email, STRONG_PASSWORD);
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().error_type).toBe('code_required');
    const wrong = await passwordLogin(t, email, STRONG_PASSWORD, { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error_type).toBe('wrong_code');
    const ok = await passwordLogin(t, email, STRONG_PASSWORD, { code: ` ${currentTotp(setup.secret, 1)} ` });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses a code longer than 7 characters', async () => {
    const { email } = await enableTwoFactor();
    const res = await passwordLogin(t, email, STRONG_PASSWORD, { code: '12345678' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.code).toBeTruthy();
  });

  it('a recovery code works once', async () => {
    const { email, setup } = await enableTwoFactor();
    const code = setup.recovery_codes[3]!;
    expect((await passwordLogin(t, email, STRONG_PASSWORD, { code })).statusCode).toBe(200);
    expect((await passwordLogin(t, email, STRONG_PASSWORD, { code })).statusCode).toBe(400);
  });

  it('a wrong password is reported before the code is asked for', async () => {
    const { email } = await enableTwoFactor();
    const res = await passwordLogin(t, email, 'Wrong-pass1');
    expect(res.json().error).toBe('Введен неверный пароль');
  });

  it('confirm rejects a wrong code and leaves two-factor off', async () => {
    const { email, user } = await buildUser(t);
    const tokens = await loginTokens(t, email);
    await t.app.inject({ method: 'POST', url: '/v1/me/otp', headers: bearer(tokens.access_token) });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/me/otp/confirm',
      headers: bearer(tokens.access_token),
      payload: { code: '123456' },
    });
    expect(res.statusCode).toBe(400);
    expect((await reloadUser(t, user.id)).otpEnabled).toBe(false);
    expect((await passwordLogin(t, email, STRONG_PASSWORD)).statusCode).toBe(200);
  });

  it('disable needs the password; then login no longer asks for a code', async () => {
    const { email, tokens } = await enableTwoFactor();
    const wrong = await t.app.inject({
      method: 'DELETE',
      url: '/v1/me/otp',
      headers: bearer(tokens.access_token),
      payload: { password: 'Wrong-pass1' },
    });
    expect(wrong.statusCode).toBe(400);
    const ok = await t.app.inject({
      method: 'DELETE',
      url: '/v1/me/otp',
      headers: bearer(tokens.access_token),
      payload: { password: STRONG_PASSWORD },
    });
    expect(ok.statusCode).toBe(200);
    expect((await passwordLogin(t, email, STRONG_PASSWORD)).statusCode).toBe(200);
    const me = await t.app.inject({ url: '/v1/me', headers: bearer(tokens.access_token) });
    expect(me.json().otp_enabled).toBe(false);
  });
});
