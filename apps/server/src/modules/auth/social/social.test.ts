import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EmulatedUser,
  type SocialEmulator,
  startSocialEmulator,
} from '../../../../emulators/social/emulator';
import { bearer, buildUser, loginTokens } from '../../../../test/auth-helpers';
import { createTestApp, type TestApp, uniqueEmail, WEB_CLIENT } from '../../../../test/harness';
import { mailOutbox, memberships, spaces, users } from '../../../db/schema';
import { currentTotp, generateOtpSecret } from '../otp';
import { SOCIAL_PROVIDER_IDS, type SocialProviderId } from './types';

let emulator: SocialEmulator;
let t: TestApp;
let appUrl: string;

beforeAll(async () => {
  emulator = await startSocialEmulator();
  t = await createTestApp(emulator.env);
  appUrl = t.deps.config.appUrl;
});
afterAll(async () => {
  await t?.close();
  await emulator?.close();
});

const AUTHORIZE_PATH: Record<SocialProviderId, string> = {
  vk: '/vk-oauth/authorize',
  facebook: '/facebook-www/v19.0/dialog/oauth',
  google: '/google-accounts/o/oauth2/v2/auth',
  yandex: '/yandex-oauth/authorize',
};

/** A network account; VK ids are numbers, the others' are strings. */
function networkUser(provider: SocialProviderId, opts: Partial<EmulatedUser> = {}): EmulatedUser {
  const id = provider === 'vk' ? String(randomInt(1, 2 ** 31)) : `${provider}-${randomInt(1, 2 ** 47)}`;
  return { id, name: 'Ivan Petrov', email: uniqueEmail(provider), ...opts };
}

const redirectFor = (provider: SocialProviderId) => `${appUrl}/login/${provider}`;

/** GET start → the provider's authorization page (real HTTP to the emulator) → its redirect back to us. */
async function authorize(provider: SocialProviderId, mode: 'login' | 'link' = 'login') {
  const redirectUri = redirectFor(provider);
  const start = await t.app.inject({
    method: 'GET',
    url: `/v1/auth/social/${provider}/start?redirect_uri=${encodeURIComponent(redirectUri)}&mode=${mode}`,
  });
  expect(start.statusCode, start.body).toBe(302);
  const location = new URL(String(start.headers.location));
  const page = await fetch(location, { redirect: 'manual' });
  expect(page.status).toBe(302);
  const back = new URL(page.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
  return {
    location,
    back,
    redirectUri,
    code: back.searchParams.get('code') ?? undefined,
    state: back.searchParams.get('state') ?? undefined,
  };
}

function signupWithProvider(payload: Record<string, unknown>, locale = 'ru') {
  return t.app.inject({ method: 'POST', url: `/v1/signup/provider?locale=${locale}`, payload });
}

async function signInWith(provider: SocialProviderId) {
  const { code, state, redirectUri } = await authorize(provider);
  return signupWithProvider({
    ...WEB_CLIENT,
    provider,
    code,
    state,
    redirect_uri: redirectUri,
    locale: 'ru',
  });
}

async function me(accessToken: string) {
  const res = await t.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(accessToken) });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    id: number;
    name: string;
    email: string;
    email_status: number;
    has_password: boolean;
  };
}

describe.each(SOCIAL_PROVIDER_IDS)('sign-in with %s', (provider) => {
  it('redirects to the real authorization endpoint, signs up with a trial space, then signs in again', async () => {
    const account = networkUser(provider);
    emulator.setUser(provider, account);
    const { location, code, state, redirectUri } = await authorize(provider);

    expect(`${location.origin}${location.pathname}`).toBe(`${emulator.url}${AUTHORIZE_PATH[provider]}`);
    expect(location.searchParams.get('client_id')).toBe(emulator.clients[provider].id);
    expect(location.searchParams.get('redirect_uri')).toBe(redirectUri);
    expect(location.searchParams.get('state')).toBe(state);
    if (provider !== 'facebook') expect(location.searchParams.get('response_type')).toBe('code');
    if (provider === 'google') expect(location.search).toContain('scope=openid%20email%20profile');
    if (provider === 'vk') expect(location.searchParams.get('v')).toBe('5.199');
    expect(code).toBeTruthy();

    const res = await signupWithProvider({
      ...WEB_CLIENT,
      provider,
      code,
      state,
      redirect_uri: redirectUri,
      locale: 'en',
    });
    expect(res.statusCode, res.body).toBe(200);
    const tokens = res.json() as { access_token: string; refresh_token: string; token_type: string };
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.refresh_token).toBeTruthy();

    const profile = await me(tokens.access_token);
    expect(profile).toMatchObject({
      name: 'Ivan Petrov',
      email: account.email,
      email_status: 1,
      has_password: false,
    });
    const [space] = await t.deps.database.db
      .select({ name: spaces.name })
      .from(memberships)
      .innerJoin(spaces, eq(spaces.id, memberships.spaceId))
      .where(eq(memberships.userId, profile.id));
    expect(space?.name).toBe('Ivan Petrov');

    const again = await signInWith(provider);
    expect(again.statusCode, again.body).toBe(200);
    expect((await me(again.json().access_token)).id).toBe(profile.id);
  });
});

describe('no email from the provider', () => {
  it('answers no_email with a pending token; the completion creates an unconfirmed user and mails a link', async () => {
    const account = networkUser('vk', { email: undefined, name: 'Без Почты' });
    emulator.setUser('vk', account);
    const res = await signInWith('vk');
    expect(res.statusCode).toBe(400);
    const body = res.json() as { error: string; error_type: string; access_token: string };
    expect(body).toMatchObject({ error: 'Провайдер не передал email, укажите его', error_type: 'no_email' });
    expect(body.access_token).toBeTruthy();

    // An address that belongs to someone is never linked on the user's word alone.
    const { email: takenEmail } = await buildUser(t);
    const taken = await signupWithProvider({
      provider: 'vk',
      access_token: body.access_token,
      email: takenEmail,
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error_type).toBe('email_taken');

    const wrongProvider = await signupWithProvider({
      provider: 'google',
      access_token: body.access_token,
      email: uniqueEmail(),
    });
    expect(wrongProvider.json().error_type).toBe('invalid_token');

    const email = uniqueEmail('typed');
    const done = await signupWithProvider({
      provider: 'vk',
      access_token: body.access_token,
      email: ` ${email.toUpperCase()} `,
    });
    expect(done.statusCode, done.body).toBe(200);
    const profile = await me(done.json().access_token);
    expect(profile).toMatchObject({ email, email_status: 0, name: 'Без Почты' });
    const mails = await t.deps.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, email), eq(mailOutbox.kind, 'confirm_email')));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`${appUrl}/confirm_email/`);

    const replay = await signupWithProvider({
      provider: 'vk',
      access_token: body.access_token,
      email: uniqueEmail(),
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error_type).toBe('invalid_token');

    const again = await signInWith('vk');
    expect(again.statusCode, again.body).toBe(200);
    expect((await me(again.json().access_token)).id).toBe(profile.id);
  });

  it('asks for the address again when it is missing from the completion', async () => {
    emulator.setUser('yandex', networkUser('yandex', { email: undefined }));
    const pending = (await signInWith('yandex')).json().access_token as string;
    const res = await signupWithProvider({ provider: 'yandex', access_token: pending });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ email: 'Укажите email' });
  });
});

describe('existing users', () => {
  it('a verified provider address signs into the confirmed account with that address and links it', async () => {
    const { user, email } = await buildUser(t);
    emulator.setUser('google', networkUser('google', { email: email.toUpperCase() }));
    const res = await signInWith('google');
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(res.json().access_token)).id).toBe(user.id);
    const linked = await t.app.inject({
      method: 'GET',
      url: '/v1/me/social',
      headers: bearer(res.json().access_token),
    });
    expect(linked.json()).toEqual({ providers: ['google'] });
  });

  it('an unverified Google address never opens an existing account', async () => {
    const { email } = await buildUser(t);
    emulator.setUser('google', networkUser('google', { email, emailVerified: false }));
    const res = await signInWith('google');
    expect(res.statusCode).toBe(400);
    expect(res.json().error_type).toBe('email_taken');
  });

  it('an account whose owner never confirmed the address is not taken over by a social sign-in', async () => {
    const email = uniqueEmail('unconfirmed');
    await t.deps.database.db.insert(users).values({ name: 'Squatter', email, emailStatus: 0 });
    emulator.setUser('yandex', networkUser('yandex', { email }));
    const res = await signInWith('yandex');
    expect(res.statusCode).toBe(400);
    expect(res.json().error_type).toBe('email_taken');
  });

  it('an unverified Google address creates an unconfirmed user and mails a confirmation link', async () => {
    const email = uniqueEmail('unverified');
    emulator.setUser('google', networkUser('google', { email, emailVerified: false }));
    const res = await signInWith('google');
    expect(res.statusCode, res.body).toBe(200);
    expect((await me(res.json().access_token)).email_status).toBe(0);
    const mails = await t.deps.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(mails.map((m) => m.kind)).toEqual(['confirm_email']);
  });

  it('a user with TOTP on must give the code after the provider', async () => {
    const { user, email } = await buildUser(t);
    const secret = generateOtpSecret();
    await t.deps.database.db
      .update(users)
      .set({ otpSecret: t.deps.sealer.seal(secret), otpEnabled: true })
      .where(eq(users.id, user.id));
    emulator.setUser('facebook', networkUser('facebook', { email }));

    const res = await signInWith('facebook');
    expect(res.statusCode).toBe(400);
    expect(res.json().error_type).toBe('code_required');
    const pending = res.json().access_token as string;

    const wrong = await signupWithProvider({ provider: 'facebook', access_token: pending, code: '000000' });
    expect(wrong.json().error_type).toBe('wrong_code');
    const ok = await signupWithProvider({
      provider: 'facebook',
      access_token: pending,
      code: currentTotp(secret),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await me(ok.json().access_token)).id).toBe(user.id);
  });
});

describe('refusals', () => {
  it('a declined grant comes back without a code and is reported as access denied', async () => {
    emulator.denyNext('google');
    const { back, state, redirectUri } = await authorize('google');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
    const res = await signupWithProvider({
      ...WEB_CLIENT,
      provider: 'google',
      error: 'access_denied',
      state,
      redirect_uri: redirectUri,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'Вы не предоставили доступ к своему аккаунту',
      error_type: 'access_denied',
    });

    const en = await signupWithProvider({ ...WEB_CLIENT, provider: 'google', error: 'access_denied' }, 'en');
    expect(en.json().error).toBe('You have not granted access to your account');
  });

  it('a missing code is refused before anything else', async () => {
    const res = await signupWithProvider({ ...WEB_CLIENT, provider: 'vk', redirect_uri: redirectFor('vk') });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Отсутствует параметр code', error_type: 'missing_code' });
  });

  it.each(SOCIAL_PROVIDER_IDS)(
    'a bad or spent %s code is a provider error, logged without secrets',
    async (provider) => {
      emulator.setUser(provider, networkUser(provider));
      const { code, state, redirectUri } = await authorize(provider);
      const payload = { ...WEB_CLIENT, provider, state, redirect_uri: redirectUri };

      const bad = await signupWithProvider({ ...payload, code: 'not-a-real-code' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error_type).toBe('provider_error');
      expect(bad.json().error).toMatch(/^Не удалось войти через /);

      // The emulator, like the networks, spends a code on its first presentation.
      const first = await signupWithProvider({ ...payload, code });
      expect(first.statusCode, first.body).toBe(200);
      const replay = await signupWithProvider({ ...payload, code });
      expect(replay.json().error_type).toBe('provider_error');

      const logs = t.logs.join('');
      expect(logs).toContain('Social sign-in failed');
      expect(logs).not.toContain(emulator.clients[provider].secret);
      expect(logs).not.toContain(String(code));
    },
  );

  it('a tampered, foreign or wrong-mode state is refused', async () => {
    emulator.setUser('yandex', networkUser('yandex'));
    const { code, state, redirectUri } = await authorize('yandex');
    const payload = { ...WEB_CLIENT, provider: 'yandex', code, redirect_uri: redirectUri };
    const flipped = `${state!.slice(0, -2)}${state!.endsWith('AA') ? 'BB' : 'AA'}`;
    const tampered = await signupWithProvider({ ...payload, state: flipped });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().error_type).toBe('invalid_state');

    const other = await authorize('google');
    expect((await signupWithProvider({ ...payload, state: other.state })).json().error_type).toBe(
      'invalid_state',
    );
    const link = await authorize('yandex', 'link');
    expect((await signupWithProvider({ ...payload, state: link.state })).json().error_type).toBe(
      'invalid_state',
    );

    // None of that spent the code.
    expect((await signupWithProvider({ ...payload, state })).statusCode).toBe(200);
  });

  it('redirect_uri must be on this server', async () => {
    for (const foreign of [
      'https://evil.example/login/vk',
      `http://127.0.0.1:3000@evil.example/login/vk`,
      'javascript:alert(1)',
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/auth/social/vk/start?redirect_uri=${encodeURIComponent(foreign)}`,
      });
      // A browser navigation: back to our own login screen with the reason (never a JSON page).
      expect(res.statusCode, foreign).toBe(302);
      expect(res.headers.location).toBe(`${appUrl}/login?social_error=invalid_redirect_uri`);
    }
    const exchange = await signupWithProvider({
      ...WEB_CLIENT,
      provider: 'vk',
      code: 'x',
      redirect_uri: 'https://evil.example/cb',
    });
    expect(exchange.json().error_type).toBe('invalid_redirect_uri');
  });

  it('unknown or unconfigured providers and wrong clients are refused', async () => {
    const unknown = await t.app.inject({
      method: 'GET',
      url: `/v1/auth/social/twitter/start?redirect_uri=${encodeURIComponent(appUrl)}`,
    });
    expect(unknown.statusCode).toBe(302);
    expect(unknown.headers.location).toBe(`${appUrl}/login?social_error=provider_unavailable`);
    const client = await signupWithProvider({
      client_id: WEB_CLIENT.client_id,
      client_secret: 'wrong',
      provider: 'vk',
      code: 'x',
    });
    expect(client.json().error_type).toBe('invalid_client');

    const bare = await createTestApp({ ...emulator.env, FACEBOOK_CLIENT_SECRET: '' });
    try {
      const res = await bare.app.inject({ method: 'GET', url: '/v1/auth/social/providers?locale=ru' });
      expect(res.json()).toEqual({ providers: ['vk', 'google', 'yandex'] });
      const config = await bare.app.inject({ method: 'GET', url: '/v1/auth/config?locale=en' });
      expect(config.json()).toEqual({ social_providers: ['google'], recaptcha: null });
      const start = await bare.app.inject({
        method: 'GET',
        url: `/v1/auth/social/facebook/start?redirect_uri=${encodeURIComponent(appUrl)}`,
      });
      expect(start.headers.location).toBe(`${appUrl}/login?social_error=provider_unavailable`);
      const linking = await bare.app.inject({
        method: 'GET',
        url: `/v1/auth/social/facebook/start?mode=link&redirect_uri=${encodeURIComponent(appUrl)}`,
      });
      expect(linking.headers.location).toBe(`${appUrl}/settings/profile?social_error=provider_unavailable`);
    } finally {
      await bare.close();
    }
  });
});

describe('provider list', () => {
  it('offers VK and Yandex only in Russian', async () => {
    const ru = await t.app.inject({ method: 'GET', url: '/v1/auth/social/providers?locale=ru' });
    expect(ru.json()).toEqual({ providers: ['vk', 'facebook', 'google', 'yandex'] });
    const en = await t.app.inject({ method: 'GET', url: '/v1/auth/social/providers?locale=en' });
    expect(en.json()).toEqual({ providers: ['facebook', 'google'] });
    const byHeader = await t.app.inject({
      method: 'GET',
      url: '/v1/auth/social/providers',
      headers: { 'accept-language': 'en-US,en;q=0.9' },
    });
    expect(byHeader.json()).toEqual({ providers: ['facebook', 'google'] });
  });
});

describe('/v1/me/social', () => {
  async function link(accessToken: string, provider: SocialProviderId, account: EmulatedUser) {
    emulator.setUser(provider, account);
    const { code, state, redirectUri } = await authorize(provider, 'link');
    return t.app.inject({
      method: 'POST',
      url: '/v1/me/social',
      headers: bearer(accessToken),
      payload: { provider, code, state, redirect_uri: redirectUri },
    });
  }

  it('links, lists and unlinks; an account linked to someone else is 409', async () => {
    const owner = await buildUser(t);
    const ownerTokens = await loginTokens(t, owner.email);
    const account = networkUser('vk', { email: undefined });

    const linked = await link(ownerTokens.access_token, 'vk', account);
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toEqual({ providers: ['vk'] });
    expect((await link(ownerTokens.access_token, 'google', networkUser('google'))).json()).toEqual({
      providers: ['google', 'vk'],
    });
    // Linking the same account again changes nothing.
    expect((await link(ownerTokens.access_token, 'vk', account)).json()).toEqual({
      providers: ['google', 'vk'],
    });

    // The linked network account now signs into the owner.
    emulator.setUser('vk', account);
    const signIn = await signInWith('vk');
    expect((await me(signIn.json().access_token)).id).toBe(owner.user.id);

    const other = await buildUser(t);
    const otherTokens = await loginTokens(t, other.email);
    const taken = await link(otherTokens.access_token, 'vk', account);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      error: 'Этот аккаунт уже привязан к другому пользователю',
      error_type: 'social_taken',
    });

    const unlinked = await t.app.inject({
      method: 'DELETE',
      url: '/v1/me/social/vk',
      headers: bearer(ownerTokens.access_token),
    });
    expect(unlinked.json()).toEqual({ providers: ['google'] });
    const listed = await t.app.inject({
      method: 'GET',
      url: '/v1/me/social',
      headers: bearer(ownerTokens.access_token),
    });
    expect(listed.json()).toEqual({ providers: ['google'] });
    expect((await link(otherTokens.access_token, 'vk', account)).statusCode).toBe(200);
  });

  it('refuses to unlink the last way to sign in of a user without a password', async () => {
    const { email, user } = await buildUser(t);
    const tokens = await loginTokens(t, email);
    expect((await link(tokens.access_token, 'google', networkUser('google'))).statusCode).toBe(200);
    await t.deps.database.db.update(users).set({ passwordHash: null }).where(eq(users.id, user.id));
    const unlink = (provider: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/v1/me/social/${provider}`,
        headers: bearer(tokens.access_token),
      });
    const refused = await unlink('google');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error_type: 'last_sign_in_method' });
    // With a second network linked, one of them may go.
    expect((await link(tokens.access_token, 'facebook', networkUser('facebook'))).statusCode).toBe(200);
    expect((await unlink('google')).json()).toEqual({ providers: ['facebook'] });
    expect((await unlink('facebook')).statusCode).toBe(409);
  });

  it('needs a signed-in user and a link-mode state', async () => {
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/v1/me/social',
      payload: { provider: 'vk', code: 'x', state: 'y', redirect_uri: redirectFor('vk') },
    });
    expect(anonymous.statusCode).toBe(401);

    const { email } = await buildUser(t);
    const tokens = await loginTokens(t, email);
    emulator.setUser('google', networkUser('google'));
    const { code, state, redirectUri } = await authorize('google', 'login');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/me/social',
      headers: bearer(tokens.access_token),
      payload: { provider: 'google', code, state, redirect_uri: redirectUri },
    });
    expect(res.json().error_type).toBe('invalid_state');

    const noState = await t.app.inject({
      method: 'POST',
      url: '/v1/me/social',
      headers: bearer(tokens.access_token),
      payload: { provider: 'google', code, redirect_uri: redirectUri },
    });
    expect(noState.statusCode).toBe(400);
    expect(noState.json().fields).toHaveProperty('state');
  });
});
