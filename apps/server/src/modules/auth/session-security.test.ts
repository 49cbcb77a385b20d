import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, loginTokens, passwordLogin, reloadUser } from '../../../test/auth-helpers';
import { createTestApp, STRONG_PASSWORD, type TestApp, WEB_CLIENT } from '../../../test/harness';
import { lastMailedHash } from '../../../test/mail-links';
import { openSocket } from '../../../test/socket';
import { currentTotp } from './otp';

// Issue 11 items 4, 7, 8, 10 and 11: second factor on every way in, one-time codes single-use, security
// changes end the other sessions and older links, reset password rules, the token only in a header.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

type Tokens = Awaited<ReturnType<typeof loginTokens>>;

const me = (token: string) => t.app.inject({ url: '/v1/me', headers: bearer(token) });
const refresh = (refresh_token: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/oauth2/token',
    payload: { grant_type: 'refresh_token', ...WEB_CLIENT, refresh_token },
  });
const requestReset = async (email: string) => {
  const res = await t.app.inject({ method: 'POST', url: '/v1/recovery', payload: { email } });
  expect(res.statusCode).toBe(200);
  return lastMailedHash(t, email, '/reset_password/', 'reset_password');
};
const reset = (hash: string, password: string, extra: Record<string, unknown> = {}, query = '') =>
  t.app.inject({
    method: 'POST',
    url: `/v1/reset_password${query}`,
    payload: { hash, password, password_confirm: password, ...WEB_CLIENT, ...extra },
  });
const checkReset = (hash: string) =>
  t.app.inject({ method: 'POST', url: '/v1/reset_password/check', payload: { hash } });

/** A user with 2FA on; `tokens` is the session that switched it on (rotated by the confirmation). */
async function twoFactorUser() {
  const built = await buildUser(t);
  const before = await loginTokens(t, built.email);
  const start = await t.app.inject({
    method: 'POST',
    url: '/v1/me/otp',
    headers: bearer(before.access_token),
  });
  const setup = start.json() as { secret: string; recovery_codes: string[] };
  const confirm = await t.app.inject({
    method: 'POST',
    url: '/v1/me/otp/confirm',
    headers: bearer(before.access_token),
    payload: { code: currentTotp(setup.secret) },
  });
  expect(confirm.statusCode).toBe(200);
  return { ...built, before, tokens: confirm.json().token as Tokens, setup };
}

describe('item 4: a mailed link never gives a 2FA user a session without the second factor', () => {
  it('reset asks for the code (code_required) and changes nothing until it is right', async () => {
    const { email, setup, user } = await twoFactorUser();
    const hash = await requestReset(email);

    const noCode = await reset(hash, 'Brand-new1!');
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json()).toMatchObject({ error_type: 'code_required' });
    expect(noCode.json().access_token).toBeUndefined();
    const wrong = await reset(hash, 'Brand-new1!', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error_type).toBe('wrong_code');
    // Nothing changed: the old password (with a code) still signs in, the link still works.
    expect((await reloadUser(t, user.id)).passwordChangedAt).toBeNull();
    expect((await checkReset(hash)).statusCode).toBe(200);

    const ok = await reset(hash, 'Brand-new1!', { code: currentTotp(setup.secret, 1) });
    expect(ok.statusCode).toBe(200);
    expect((await me(ok.json().access_token)).statusCode).toBe(200);
    const login = await passwordLogin(t, email, 'Brand-new1!', { code: setup.recovery_codes[0] });
    expect(login.statusCode).toBe(200);
  });

  it('a recovery code answers code_required on reset too', async () => {
    const { email, setup } = await twoFactorUser();
    const hash = await requestReset(email);
    const ok = await reset(hash, 'Brand-new1!', { code: setup.recovery_codes[5] });
    expect(ok.statusCode).toBe(200);
    // …and is spent by it.
    const again = await passwordLogin(t, email, 'Brand-new1!', { code: setup.recovery_codes[5] });
    expect(again.json().error_type).toBe('wrong_code');
  });

  it('the email confirmation link confirms the address but returns no token for a 2FA user', async () => {
    const { email, tokens, user } = await twoFactorUser();
    const newEmail = `new-${email}`;
    const change = await t.app.inject({
      method: 'PUT',
      url: '/v1/me/email',
      headers: bearer(tokens.access_token),
      payload: { email: newEmail },
    });
    expect(change.statusCode).toBe(200);
    const hash = await lastMailedHash(t, newEmail, '/confirm_email/');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/confirm_email',
      payload: { hash, ...WEB_CLIENT },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Email подтвержден');
    expect(res.json().token).toBeUndefined();
    expect((await reloadUser(t, user.id)).email).toBe(newEmail);
  });

  it('a user without 2FA still gets a token from reset and confirmation', async () => {
    const { email } = await buildUser(t);
    const res = await reset(await requestReset(email), 'Brand-new1!');
    expect(res.statusCode).toBe(200);
    expect((await me(res.json().access_token)).statusCode).toBe(200);
  });
});

describe('item 7: one-time codes are accepted once', () => {
  it('the same TOTP code does not sign in twice, nor the code that switched 2FA on', async () => {
    const { email, setup } = await twoFactorUser();
    // The confirmation used the current step's code.
    const confirmCode = await passwordLogin(t, email, STRONG_PASSWORD, { code: currentTotp(setup.secret) });
    expect(confirmCode.json().error_type).toBe('wrong_code');
    const code = currentTotp(setup.secret, 1);
    expect((await passwordLogin(t, email, STRONG_PASSWORD, { code })).statusCode).toBe(200);
    const replay = await passwordLogin(t, email, STRONG_PASSWORD, { code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error_type).toBe('wrong_code');
  });

  it('two concurrent logins with one TOTP code: exactly one gets in', async () => {
    const { email, setup } = await twoFactorUser();
    const code = currentTotp(setup.secret, 1);
    const results = await Promise.all(
      [0, 1, 2].map(() => passwordLogin(t, email, STRONG_PASSWORD, { code })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
  });

  it('two concurrent logins with one recovery code: exactly one gets in; the other codes stay', async () => {
    const { email, setup, user } = await twoFactorUser();
    const code = setup.recovery_codes[2]!;
    const results = await Promise.all(
      [0, 1, 2].map(() => passwordLogin(t, email, STRONG_PASSWORD, { code })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
    expect((await reloadUser(t, user.id)).otpRecoveryCodes).toHaveLength(setup.recovery_codes.length - 1);
  });
});

describe('item 8: a reset, a password change or 2FA switched on ends other sessions and older links', () => {
  it('an older reset link stops working once a newer one is used', async () => {
    const { email } = await buildUser(t);
    const older = await requestReset(email);
    const newer = await requestReset(email);
    expect((await reset(newer, 'Brand-new1!')).statusCode).toBe(200);
    expect((await checkReset(older)).json().error_type).toBe('unknown_hash');
    const late = await reset(older, 'Other-new2!');
    expect(late.statusCode).toBe(400);
    expect(late.json().error_type).toBe('unknown_hash');
    expect((await passwordLogin(t, email, 'Brand-new1!')).statusCode).toBe(200);
  });

  it('a password change ends the other sessions and reset links; this one continues under new tokens', async () => {
    const { email } = await buildUser(t);
    const here = await loginTokens(t, email);
    const elsewhere = await loginTokens(t, email);
    const link = await requestReset(email);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/me/password',
      headers: bearer(here.access_token),
      payload: { password: STRONG_PASSWORD, new_password: 'Brand-new1!' },
    });
    expect(res.statusCode).toBe(200);
    const rotated = res.json().token as Tokens;
    expect(rotated.access_token).not.toBe(here.access_token);

    expect((await me(elsewhere.access_token)).statusCode).toBe(401);
    expect((await refresh(elsewhere.refresh_token)).statusCode).toBe(400);
    expect((await me(here.access_token)).statusCode).toBe(401);
    expect((await me(rotated.access_token)).statusCode).toBe(200);
    const next = await refresh(rotated.refresh_token);
    expect(next.statusCode).toBe(200);
    expect((await me(next.json().access_token)).statusCode).toBe(200);
    expect((await checkReset(link)).json().error_type).toBe('unknown_hash');
  });

  it('switching 2FA on ends the sessions opened with the password alone and the reset links', async () => {
    const { email } = await buildUser(t);
    const elsewhere = await loginTokens(t, email);
    const link = await requestReset(email);
    const here = await loginTokens(t, email);
    const start = await t.app.inject({
      method: 'POST',
      url: '/v1/me/otp',
      headers: bearer(here.access_token),
    });
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/v1/me/otp/confirm',
      headers: bearer(here.access_token),
      payload: { code: currentTotp(start.json().secret) },
    });
    expect(confirm.statusCode).toBe(200);
    expect((await me(elsewhere.access_token)).statusCode).toBe(401);
    expect((await refresh(elsewhere.refresh_token)).statusCode).toBe(400);
    expect((await me(here.access_token)).statusCode).toBe(401);
    expect((await me(confirm.json().token.access_token)).statusCode).toBe(200);
    expect((await checkReset(link)).json().error_type).toBe('unknown_hash');
  });
});

describe('item 10: reset applies the signup password rules', () => {
  it("refuses 'aaaaaaaa' with SPEC's message in Russian and English, and keeps the link", async () => {
    const { email } = await buildUser(t);
    const hash = await requestReset(email);
    const ru = await reset(hash, 'aaaaaaaa');
    expect(ru.statusCode).toBe(400);
    expect(ru.json().fields.password).toBe('Должен содержать хотя бы одну цифру и один спецсимвол');
    const en = await reset(hash, 'aaaaaaa1', {}, '?locale=en');
    expect(en.json().fields.password).toBe('Must contain at least one digit and one special character');
    expect((await checkReset(hash)).statusCode).toBe(200);
    expect((await reset(hash, 'Brand-new1!')).statusCode).toBe(200);
  });
});

describe('item 11: the access token is read from the address only on the websocket upgrade', () => {
  it('REST calls refuse ?access_token=; the header works; the socket still opens with it', async () => {
    const { email } = await buildUser(t);
    const tokens = await loginTokens(t, email);
    const viaQuery = await t.app.inject({ url: `/v1/me?access_token=${tokens.access_token}` });
    expect(viaQuery.statusCode).toBe(401);
    const media = await t.app.inject({
      url: `/v1/items/1/attachments/0?access_token=${tokens.access_token}`,
    });
    expect(media.statusCode).toBe(401);
    expect((await me(tokens.access_token)).statusCode).toBe(200);

    const port = (t.app.server.address() as AddressInfo).port;
    const socket = await openSocket(`ws://127.0.0.1:${port}/v1/ws?access_token=${tokens.access_token}`);
    socket.ws.close();
  });
});
