import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, loginTokens, passwordLogin, reloadUser } from '../../../test/auth-helpers';
import { createTestApp, STRONG_PASSWORD, type TestApp, uniqueEmail, WEB_CLIENT } from '../../../test/harness';
import { linkIn, startSmtpServer } from '../../../test/smtp';
import { mailOutbox, memberships, promocodes, spaces, users } from '../../db/schema';
import { inviteToSpace } from '../spaces/invitations';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const signupBody = (email: string, extra: Record<string, unknown> = {}) => ({
  name: 'Мария',
  email,
  password: STRONG_PASSWORD,
  company: 'Ромашка',
  ...extra,
});

const hashOf = (link: string) => link.split('/').pop()!;

describe('POST /v1/signup', () => {
  it('creates the user, a 14-day trial space named after the company with them as admin, and mails a confirmation', async () => {
    const email = uniqueEmail('signup');
    // A promocode must exist to be accepted (issue 14 item 6; refusals in referral.test.ts).
    await t.deps.database.db.insert(promocodes).values({ code: 'SPRING' }).onConflictDoNothing();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/signup',
      payload: signupBody(email, { promocode: 'spring' }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ email });

    const db = t.deps.database.db;
    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ name: 'Мария', emailStatus: 0, locale: 'ru' });
    const [member] = await db.select().from(memberships).where(eq(memberships.userId, user!.id));
    expect(member!.roles.settings).toBe(true);
    const [space] = await db.select().from(spaces).where(eq(spaces.id, member!.spaceId));
    expect(space).toMatchObject({ name: 'Ромашка', isTrial: true, promocode: 'SPRING' });
    const days = (space!.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.99);
    expect(days).toBeLessThanOrEqual(14);

    const mail = await smtp.waitForMail({ to: email });
    expect(mail.subject).toBe('Подтвердите email в Otklik');
    const link = linkIn(mail, '/confirm_email/');
    expect(link.startsWith('http://127.0.0.1:3000/confirm_email/')).toBe(true);

    // Signing in works before confirmation (the app shows the email dialog); confirming auto-logs in.
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/v1/confirm_email',
      payload: { hash: hashOf(link), ...WEB_CLIENT },
    });
    expect(confirm.statusCode).toBe(200);
    const body = confirm.json();
    expect(body.message).toBe('Email подтвержден');
    const me = await t.app.inject({ url: '/v1/me', headers: bearer(body.token.access_token) });
    expect(me.json()).toMatchObject({ email, email_status: 1 });

    const again = await t.app.inject({
      method: 'POST',
      url: '/v1/confirm_email',
      payload: { hash: hashOf(link), ...WEB_CLIENT },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('Несуществующий хэш');
  });

  it('sends the mail in English for an English signup', async () => {
    const email = uniqueEmail('en');
    await t.app.inject({ method: 'POST', url: '/v1/signup?locale=en', payload: signupBody(email) });
    const mail = await smtp.waitForMail({ to: email });
    expect(mail.subject).toBe('Confirm your email for Otklik');
    expect(mail.text).toContain('To confirm your email address');
  });

  it('enforces the password rule on the server with docs/product/validation.md messages', async () => {
    const cases: Array<[string, string]> = [
      ['', 'Задайте пароль'],
      ['Ab1!', 'Пароль должен содержать не менее 8 символов'],
      ['abcdefgh1', 'Должен содержать хотя бы одну цифру и один спецсимвол'],
      ['abcdefgh!', 'Должен содержать хотя бы одну цифру и один спецсимвол'],
    ];
    for (const [password, message] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/signup',
        payload: signupBody(uniqueEmail(), { password }),
      });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().fields.password, password).toBe(message);
    }
  });

  it('reports every missing field with its docs/product/validation.md message', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/signup',
      payload: { name: ' ', email: 'x', password: STRONG_PASSWORD, company: '' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      name: 'Укажите имя',
      email: 'Введите корректный email',
      company: 'Укажите компанию',
    });
  });

  it('refuses a second account with the same email, whatever its case', async () => {
    const email = uniqueEmail('dup');
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/signup', payload: signupBody(email) })).statusCode,
    ).toBe(201);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/signup',
      payload: signupBody(email.toUpperCase()),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.email).toBe('Пользователь с таким email уже зарегистрирован');
  });

  it('checks reCAPTCHA only when RECAPTCHA_SECRET and RECAPTCHA_SITE_KEY are set', async () => {
    const withCaptcha = await createTestApp({
      RECAPTCHA_SECRET: 'x',
      RECAPTCHA_SITE_KEY: 'site',
      RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/verify',
    });
    try {
      const res = await withCaptcha.app.inject({
        method: 'POST',
        url: '/v1/signup',
        payload: signupBody(uniqueEmail()),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error_type).toBe('captcha');
    } finally {
      await withCaptcha.close();
    }
  });
});

describe('email change and resend', () => {
  it('PUT /v1/me/email replaces an unconfirmed address and mails the new one', async () => {
    const email = uniqueEmail('old');
    await t.app.inject({ method: 'POST', url: '/v1/signup', payload: signupBody(email) });
    const tokens = await loginTokens(t, email);
    const next = uniqueEmail('new');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/me/email',
      headers: bearer(tokens.access_token),
      payload: { email: next },
    });
    expect(res.statusCode).toBe(200);
    const mail = await smtp.waitForMail({ to: next });
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/v1/confirm_email',
      payload: { hash: hashOf(linkIn(mail, '/confirm_email/')), ...WEB_CLIENT },
    });
    expect(confirm.statusCode).toBe(200);
    const me = await t.app.inject({ url: '/v1/me', headers: bearer(confirm.json().token.access_token) });
    expect(me.json()).toMatchObject({ email: next, email_status: 1 });
  });

  it("validates the new address with 'Укажите email'", async () => {
    const { email } = await buildUser(t);
    const tokens = await loginTokens(t, email);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/me/email',
      headers: bearer(tokens.access_token),
      payload: { email: 'nope' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.email).toBe('Укажите email');
  });

  it('POST /v1/send_confirm_email resends to an unconfirmed user and refuses a confirmed one', async () => {
    const email = uniqueEmail('resend');
    await t.app.inject({ method: 'POST', url: '/v1/signup', payload: signupBody(email) });
    const tokens = await loginTokens(t, email);
    const before = (await t.deps.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)))
      .length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/send_confirm_email',
      headers: bearer(tokens.access_token),
      payload: { email },
    });
    expect(res.statusCode).toBe(200);
    const after = (await t.deps.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email))).length;
    expect(after).toBe(before + 1);

    const confirmed = await buildUser(t);
    const tk = await loginTokens(t, confirmed.email);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/send_confirm_email',
      headers: bearer(tk.access_token),
      payload: {},
    });
    expect(refused.statusCode).toBe(400);
  });

  it('POST /v1/signup/resend mails the link again before any sign-in; 5 per 10 minutes; same answer for others', async () => {
    const email = uniqueEmail('again');
    await t.app.inject({ method: 'POST', url: '/v1/signup', payload: signupBody(email) });
    const count = async (to: string) =>
      (await t.deps.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to))).length;
    const before = await count(email);
    const again = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/signup/resend?locale=en',
        payload: { email: email.toUpperCase() },
      });
    const first = await again();
    expect(first.statusCode).toBe(200);
    expect(first.json().message).toBe('Confirmation email sent');
    expect(await count(email)).toBe(before + 1);
    for (let i = 0; i < 4; i++) expect((await again()).statusCode).toBe(200);
    expect((await again()).statusCode).toBe(429);
    // A confirmed or unknown address: the same answer, and no mail.
    const confirmed = await buildUser(t);
    const quiet = await t.app.inject({
      method: 'POST',
      url: '/v1/signup/resend',
      payload: { email: confirmed.email },
    });
    expect(quiet.statusCode).toBe(200);
    expect(await count(confirmed.email)).toBe(0);
    const unknown = uniqueEmail('nobody');
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/signup/resend', payload: { email: unknown } }))
        .statusCode,
    ).toBe(200);
  });
});

describe('invitation signup', () => {
  it('GET returns the invited email; POST joins the space with the invited role and the email locked', async () => {
    const admin = await buildUser(t);
    const invited = uniqueEmail('invited');
    const roles = { items: true, messages: true, templates: true };
    await inviteToSpace(
      { db: t.deps.database.db, mailer: t.deps.mailer, config: t.deps.config },
      {
        spaceId: admin.space.id,
        email: invited,
        roles,
        invitedBy: { id: admin.user.id, name: 'Админ' },
        locale: 'ru',
      },
    );
    const mail = await smtp.waitForMail({ to: invited });
    expect(mail.subject).toContain('Test Co');
    const hash = hashOf(linkIn(mail, '/signup/'));

    const lookup = await t.app.inject({ url: `/v1/signup/${hash}` });
    expect(lookup.json()).toEqual({ email: invited });

    // An email in the body is ignored: the invitation's address is the account's.
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/signup/${hash}`,
      payload: { name: 'Оператор', email: uniqueEmail('other'), password: STRONG_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const me = await t.app.inject({ url: '/v1/me', headers: bearer(res.json().token.access_token) });
    expect(me.json()).toMatchObject({ email: invited, email_status: 1, name: 'Оператор' });
    const [member] = await t.deps.database.db
      .select()
      .from(memberships)
      .where(eq(memberships.userId, me.json().id));
    expect(member).toMatchObject({ spaceId: admin.space.id, roles });

    expect((await t.app.inject({ url: `/v1/signup/${hash}` })).statusCode).toBe(409);
    const reuse = await t.app.inject({
      method: 'POST',
      url: `/v1/signup/${hash}`,
      payload: { name: 'X', password: STRONG_PASSWORD },
    });
    expect(reuse.statusCode).toBe(409);
  });

  it('answers 409 for an unknown hash', async () => {
    expect((await t.app.inject({ url: '/v1/signup/unknown-hash' })).statusCode).toBe(409);
  });

  it("stops at the tariff's user limit", async () => {
    const admin = await buildUser(t);
    const db = t.deps.database.db;
    await db.update(spaces).set({ tariffId: 1 }).where(eq(spaces.id, admin.space.id)); // Start: 3 users
    const deps = { db, mailer: t.deps.mailer, config: t.deps.config };
    const invite = (email: string) =>
      inviteToSpace(deps, {
        spaceId: admin.space.id,
        email,
        roles: { items: true },
        invitedBy: { id: admin.user.id, name: 'A' },
        locale: 'ru',
      });
    for (const n of [1, 2]) {
      const email = uniqueEmail(`member${n}`);
      await invite(email);
      const hash = hashOf(linkIn(await smtp.waitForMail({ to: email }), '/signup/'));
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/signup/${hash}`,
        payload: { name: 'M', password: STRONG_PASSWORD },
      });
      expect(res.statusCode).toBe(200);
    }
    await expect(invite(uniqueEmail('over'))).rejects.toMatchObject({ status: 400, key: 'error.userLimit' });
  });
});

describe('recovery and reset', () => {
  it('mails a reset link; the new password works, the old does not, other sessions end, the hash is single-use', async () => {
    const { email, user } = await buildUser(t);
    const oldSession = await loginTokens(t, email);
    const res = await t.app.inject({ method: 'POST', url: '/v1/recovery', payload: { email } });
    expect(res.statusCode).toBe(200);
    const mail = await smtp.waitForMail({ to: email, subject: /Восстановление/ });
    const hash = hashOf(linkIn(mail, '/reset_password/'));

    const check = await t.app.inject({ method: 'POST', url: '/v1/reset_password/check', payload: { hash } });
    expect(check.json()).toEqual({ email });

    const mismatch = await t.app.inject({
      method: 'POST',
      url: '/v1/reset_password',
      payload: { hash, password: 'Brand-new1', password_confirm: 'Brand-new2', ...WEB_CLIENT },
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().fields.password_confirm).toBe('Подтверждение не совпадает с паролем');

    const reset = await t.app.inject({
      method: 'POST',
      url: '/v1/reset_password',
      payload: { hash, password: 'Brand-new1', password_confirm: 'Brand-new1', ...WEB_CLIENT },
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().access_token).toBeTruthy();
    expect((await passwordLogin(t, email, 'Brand-new1')).statusCode).toBe(200);
    expect((await passwordLogin(t, email, STRONG_PASSWORD)).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/v1/me', headers: bearer(oldSession.access_token) })).statusCode).toBe(
      401,
    );
    expect((await reloadUser(t, user.id)).passwordChangedAt).not.toBeNull();

    for (const url of ['/v1/reset_password/check', '/v1/reset_password']) {
      const used = await t.app.inject({
        method: 'POST',
        url,
        payload: { hash, password: 'Brand-new3', password_confirm: 'Brand-new3', ...WEB_CLIENT },
      });
      expect(used.statusCode).toBe(400);
      expect(used.json().error).toBe('Несуществующий хэш');
    }
  });

  it("answers 404 'Пользователь не найден' for an unknown email and validates the address", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/recovery',
      payload: { email: uniqueEmail('ghost') },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('Пользователь не найден');
    const empty = await t.app.inject({ method: 'POST', url: '/v1/recovery', payload: { email: '' } });
    expect(empty.json().fields.email).toBe('Укажите email');
    const invalid = await t.app.inject({ method: 'POST', url: '/v1/recovery', payload: { email: 'bad@' } });
    expect(invalid.json().fields.email).toBe('Введите корректный email');
  });

  it('expires reset links', async () => {
    const { email } = await buildUser(t);
    await t.app.inject({ method: 'POST', url: '/v1/recovery', payload: { email } });
    const hash = hashOf(linkIn(await smtp.waitForMail({ to: email }), '/reset_password/'));
    const { oneTimeTokens } = await import('../../db/schema');
    const { sha256 } = await import('../../lib/crypto');
    await t.deps.database.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.digest, sha256(hash)));
    const res = await t.app.inject({ method: 'POST', url: '/v1/reset_password/check', payload: { hash } });
    expect(res.json().error).toBe('Несуществующий хэш');
  });
});
