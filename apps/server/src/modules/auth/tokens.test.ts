import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, loginTokens, passwordLogin } from '../../../test/auth-helpers';
import { createTestApp, STRONG_PASSWORD, type TestApp, uniqueEmail, WEB_CLIENT } from '../../../test/harness';
import { authSessions, tags, users } from '../../db/schema';
import { sha256 } from '../../lib/crypto';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const refresh = (refresh_token: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/oauth2/token',
    payload: { grant_type: 'refresh_token', ...WEB_CLIENT, refresh_token },
  });

describe('POST /v1/oauth2/token — password grant', () => {
  it('returns an opaque token pair with expiry in unix seconds, stored only as digests', async () => {
    const { email, user } = await buildUser(t);
    const before = Math.floor(Date.now() / 1000);
    const res = await passwordLogin(t, `  ${email.toUpperCase()} `, STRONG_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(body.access_token).toMatch(/^[\w-]{40,}$/);
    expect(body.refresh_token).not.toBe(body.access_token);
    expect(body.expires_at).toBeGreaterThanOrEqual(before + 3600);
    const rows = await t.deps.database.db.select().from(authSessions).where(eq(authSessions.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.accessDigest).toBe(sha256(body.access_token));
    expect(JSON.stringify(rows)).not.toContain(body.access_token);
  });

  it('answers 404 with the error text for an unknown user', async () => {
    const res = await passwordLogin(t, uniqueEmail('nobody'), STRONG_PASSWORD);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Пользователь не найден' });
  });

  it("answers 400 'Введен неверный пароль' for a wrong password, in English with locale=en", async () => {
    const { email } = await buildUser(t);
    const ru = await passwordLogin(t, email, 'Wrong-pass1');
    expect(ru.statusCode).toBe(400);
    expect(ru.json().error).toBe('Введен неверный пароль');
    const en = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/token?locale=en',
      payload: { grant_type: 'password', ...WEB_CLIENT, username: email, password: 'Wrong-pass1' },
    });
    expect(en.json().error).toBe('Wrong password');
    const accept = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/token',
      headers: { 'accept-language': 'en-GB,en;q=0.9' },
      payload: { grant_type: 'password', ...WEB_CLIENT, username: email, password: 'Wrong-pass1' },
    });
    expect(accept.json().error).toBe('Wrong password');
  });

  it('validates the body with docs/product/validation.md messages in fields', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/token',
      payload: { grant_type: 'password', ...WEB_CLIENT, username: 'not-an-email', password: '' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ username: 'Укажите корректный email', password: 'Введите пароль' });
  });

  it('rejects an unknown client', async () => {
    const { email } = await buildUser(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/token',
      payload: {
        grant_type: 'password',
        client_id: 'otklik-web',
        client_secret: 'nope',
        username: email,
        password: STRONG_PASSWORD,
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error_type).toBe('invalid_client');
  });

  it('accepts a form-encoded body as OAuth clients send it', async () => {
    const { email } = await buildUser(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'password',
        ...WEB_CLIENT,
        username: email,
        password: STRONG_PASSWORD,
      }).toString(),
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('rate limits on login', () => {
  it('limits attempts per username with 429 and Retry-After', async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_USER: '3' });
    try {
      const { email } = await buildUser(limited);
      for (let i = 0; i < 3; i++)
        expect((await passwordLogin(limited, email, 'Wrong-pass1')).statusCode).toBe(400);
      const blocked = await passwordLogin(limited, email, STRONG_PASSWORD);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().error).toMatch(/Слишком много попыток/);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // Another user from the same address is not affected by this user's limit.
      const other = await buildUser(limited);
      expect((await passwordLogin(limited, other.email, STRONG_PASSWORD)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('limits attempts per IP address', async () => {
    const limited = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '2' });
    try {
      const ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const attempt = () =>
        limited.app.inject({
          method: 'POST',
          url: '/v1/oauth2/token',
          remoteAddress: ip,
          payload: { grant_type: 'password', ...WEB_CLIENT, username: uniqueEmail(), password: 'whatever1' },
        });
      expect((await attempt()).statusCode).toBe(404);
      expect((await attempt()).statusCode).toBe(404);
      expect((await attempt()).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('refresh grant with rotation', () => {
  it('returns a new pair and spends the old refresh token and access token', async () => {
    const { email } = await buildUser(t);
    const first = await loginTokens(t, email);
    const res = await refresh(first.refresh_token);
    expect(res.statusCode).toBe(200);
    const second = res.json();
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await t.app.inject({ url: '/v1/me', headers: bearer(second.access_token) })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ url: '/v1/me', headers: bearer(first.access_token) })).statusCode).toBe(401);
  });

  it('revokes the whole chain when a spent refresh token is presented again (reuse detection)', async () => {
    const { email } = await buildUser(t);
    const first = await loginTokens(t, email);
    const second = (await refresh(first.refresh_token)).json();
    const reuse = await refresh(first.refresh_token);
    expect(reuse.statusCode).toBe(400);
    // The web app treats a 400 whose text mentions 'token' as an invalid session (docs/product/errors.md).
    expect(reuse.json().error).toMatch(/token/);
    expect((await t.app.inject({ url: '/v1/me', headers: bearer(second.access_token) })).statusCode).toBe(
      401,
    );
    expect((await refresh(second.refresh_token)).statusCode).toBe(400);
  });

  it('does not touch other sessions of the same user', async () => {
    const { email } = await buildUser(t);
    const a = await loginTokens(t, email);
    const b = await loginTokens(t, email);
    await refresh(a.refresh_token);
    await refresh(a.refresh_token);
    expect((await t.app.inject({ url: '/v1/me', headers: bearer(b.access_token) })).statusCode).toBe(200);
  });

  it('rejects an unknown refresh token', async () => {
    expect((await refresh('not-a-token')).statusCode).toBe(400);
  });
});

describe('access tokens', () => {
  it("answers 401 'Access token has expired' for an expired token", async () => {
    const { email, user } = await buildUser(t);
    const tokens = await loginTokens(t, email);
    await t.deps.database.db
      .update(authSessions)
      .set({ accessExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(authSessions.userId, user.id));
    const res = await t.app.inject({ url: '/v1/me', headers: bearer(tokens.access_token) });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('Access token has expired');
    // The refresh token still works and yields a usable access token.
    const renewed = (await refresh(tokens.refresh_token)).json();
    expect((await t.app.inject({ url: '/v1/me', headers: bearer(renewed.access_token) })).statusCode).toBe(
      200,
    );
  });

  it('answers 401 without a token or with a garbage one', async () => {
    expect((await t.app.inject({ url: '/v1/me' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/v1/me', headers: bearer('garbage') })).statusCode).toBe(401);
  });

  it('POST /v1/oauth2/revoke ends the session and its refresh chain', async () => {
    const { email } = await buildUser(t);
    const tokens = await loginTokens(t, email);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/oauth2/revoke',
      headers: bearer(tokens.access_token),
    });
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/me', headers: bearer(tokens.access_token) })).statusCode).toBe(
      401,
    );
    expect((await refresh(tokens.refresh_token)).statusCode).toBe(400);
  });
});

describe('GET /v1/me', () => {
  it('presents the user without any secret', async () => {
    const { email, user } = await buildUser(t, { name: 'Анна' });
    const tokens = await loginTokens(t, email);
    const res = await t.app.inject({ url: '/v1/me', headers: bearer(tokens.access_token) });
    const me = res.json();
    expect(me).toMatchObject({
      id: user.id,
      name: 'Анна',
      email,
      email_status: 1,
      locale: 'ru',
      is_partner: false,
    });
    expect(me.roles.settings).toBe(true);
    expect(Object.keys(me)).not.toContain('password_hash');
    expect(res.body).not.toMatch(/argon2|passwordHash|otp_secret|otpSecret/);
    const [row] = await t.deps.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('updates name and locale, and errors come in the new locale', async () => {
    const { email } = await buildUser(t);
    const tokens = await loginTokens(t, email);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/v1/me',
      headers: bearer(tokens.access_token),
      payload: { name: 'New Name', locale: 'en' },
    });
    expect(res.json()).toMatchObject({ name: 'New Name', locale: 'en' });
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/v1/me/password',
      headers: bearer(tokens.access_token),
      payload: { password: 'Wrong-pass1', new_password: 'Another-pass2' },
    });
    expect(bad.json().error).toBe('Wrong password');
  });

  it('merges my settings (docs/product/entities.md User.settings) and rejects bad values', async () => {
    const { email } = await buildUser(t);
    const tokens = await loginTokens(t, email);
    const put = (settings: Record<string, unknown>) =>
      t.app.inject({
        method: 'PUT',
        url: '/v1/me',
        headers: bearer(tokens.access_token),
        payload: { settings },
      });
    expect((await put({ reversed: true, wh_status_notification: 60 })).json().settings).toEqual({
      reversed: true,
      wh_status_notification: 60,
    });
    expect((await put({ hide_other: true })).json().settings).toEqual({
      reversed: true,
      wh_status_notification: 60,
      hide_other: true,
    });
    expect((await put({ wh_status_notification: -5 })).statusCode).toBe(400);
    const nothing = await t.app.inject({
      method: 'PUT',
      url: '/v1/me',
      headers: bearer(tokens.access_token),
      payload: {},
    });
    // An update that sets nothing is refused like every other (http/validation.ts), in the user's language.
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().error).toBe('Нет изменений: укажите хотя бы одно поле');
  });

  it("refuses settings naming another space's rows (issue 22, found by the tenant isolation matrix)", async () => {
    const mine = await buildUser(t);
    const other = await buildUser(t);
    const tokens = await loginTokens(t, mine.email);
    const put = (settings: Record<string, unknown>) =>
      t.app.inject({
        method: 'PUT',
        url: '/v1/me',
        headers: bearer(tokens.access_token),
        payload: { settings },
      });
    const [own] = await t.deps.database.db
      .insert(tags)
      .values({ spaceId: mine.space.id, name: 'Mine' })
      .returning();
    const [foreign] = await t.deps.database.db
      .insert(tags)
      .values({ spaceId: other.space.id, name: 'Theirs' })
      .returning();
    expect((await put({ tag_id: own!.id })).json().settings).toMatchObject({ tag_id: own!.id });
    for (const settings of [{ tag_id: foreign!.id }, { issues_assigned_to: other.user.id }]) {
      const res = await put(settings);
      expect(res.statusCode, JSON.stringify(settings)).toBe(404);
      expect(res.json().error).toBe('Не найдено');
    }
    expect((await put({ issues_assigned_to: mine.user.id })).statusCode).toBe(200);
    // A tag deleted since it was chosen does not stop the screen saving every setting again.
    await t.deps.database.db.delete(tags).where(eq(tags.id, own!.id));
    expect((await put({ tag_id: own!.id, reversed: true })).statusCode).toBe(200);
    const [row] = await t.deps.database.db.select().from(users).where(eq(users.id, mine.user.id));
    expect(row!.settings).toMatchObject({
      tag_id: own!.id,
      issues_assigned_to: mine.user.id,
      reversed: true,
    });
  });
});
