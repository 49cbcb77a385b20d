import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Env } from '../../src/lib/config';
import { hmacSha256, randomToken } from '../../src/lib/crypto';
import type { ProviderClient, SocialProviderId } from '../../src/modules/auth/social/types';
import { listenLoopback, readBody } from '../emulator-kit';

// TEST-ONLY. An OAuth 2.0 server on 127.0.0.1 speaking the four networks' real endpoints, payloads and
// error shapes, so the server's provider clients run unchanged against it (imported only by tests).

export interface EmulatedUser {
  id: string;
  name: string;
  email?: string;
  /** Google's email_verified; the other networks share only confirmed addresses. Default true. */
  emailVerified?: boolean;
}

interface Grant {
  provider: SocialProviderId;
  clientId: string;
  redirectUri: string;
  user: EmulatedUser;
  expiresAt: number;
}

interface Reply {
  status: number;
  json?: unknown;
  text?: string;
  location?: string;
}

interface Request {
  query: URLSearchParams;
  form: URLSearchParams;
  authorization: string;
}

export interface SocialEmulator {
  url: string;
  /** Our app's credentials at each emulated network. */
  clients: Record<SocialProviderId, ProviderClient>;
  /** Config overrides pointing all four providers at the emulator, credentials included. */
  env: Partial<Record<keyof Env, string>>;
  /** The account that the next authorizations at `provider` sign in as. */
  setUser(provider: SocialProviderId, user: EmulatedUser): void;
  /** The next authorization at `provider` is declined by the user (error=access_denied). */
  denyNext(provider: SocialProviderId): void;
  close(): Promise<void>;
}

const json = (status: number, body: unknown): Reply => ({ status, json: body });
const CODE_TTL_MS = 10 * 60_000;

export async function startSocialEmulator(): Promise<SocialEmulator> {
  const clients = {
    vk: { id: '51234567', secret: randomToken(15) },
    facebook: { id: '1234567890123456', secret: randomToken(16) },
    google: { id: `${randomToken(8)}.apps.googleusercontent.com`, secret: `GOCSPX-${randomToken(20)}` },
    yandex: { id: randomToken(16), secret: randomToken(16) },
  } satisfies Record<SocialProviderId, ProviderClient>;
  const users = new Map<SocialProviderId, EmulatedUser>();
  const denials = new Set<SocialProviderId>();
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, Grant>();

  const currentUser = (provider: SocialProviderId): EmulatedUser =>
    users.get(provider) ?? {
      id: String(Math.floor(Math.random() * 1e9)),
      name: 'Emulated User',
      email: `${provider}-${randomToken(6).toLowerCase()}@example.test`,
    };

  /** The consent screen, answered at once: back to redirect_uri with a code, or with the denial. */
  function authorize(
    provider: SocialProviderId,
    q: URLSearchParams,
    opts: { needsResponseType: boolean },
  ): Reply {
    const redirectUri = q.get('redirect_uri');
    // Real networks show an error page (no redirect) for an unknown app or a missing redirect_uri.
    if (q.get('client_id') !== clients[provider].id || !redirectUri) {
      return { status: 400, text: 'invalid client_id or redirect_uri' };
    }
    const back = new URL(redirectUri);
    const state = q.get('state');
    if (state !== null) back.searchParams.set('state', state);
    // Facebook appends `#_=_` to its redirects.
    const fragment = provider === 'facebook' ? '#_=_' : '';
    if (opts.needsResponseType && q.get('response_type') !== 'code') {
      back.searchParams.set('error', 'unsupported_response_type');
      return { status: 302, location: `${back}${fragment}` };
    }
    if (denials.delete(provider)) {
      back.searchParams.set('error', 'access_denied');
      if (provider === 'facebook') {
        back.searchParams.set('error_code', '200');
        back.searchParams.set('error_reason', 'user_denied');
      }
      back.searchParams.set(
        'error_description',
        provider === 'facebook' ? 'Permissions error' : 'User denied access',
      );
      return { status: 302, location: `${back}${fragment}` };
    }
    const code = randomToken(16);
    codes.set(code, {
      provider,
      clientId: clients[provider].id,
      redirectUri,
      user: currentUser(provider),
      expiresAt: Date.now() + CODE_TTL_MS,
    });
    back.searchParams.set('code', code);
    return { status: 302, location: `${back}${fragment}` };
  }

  type Redeemed =
    | { grant: Grant; accessToken: string }
    | { failure: 'invalid_client' | 'invalid_grant' | 'redirect' };

  /** A code is spent by its first presentation, right or wrong (as the networks do). */
  function redeem(
    provider: SocialProviderId,
    p: { clientId: string | null; secret: string | null; code: string | null; redirectUri?: string | null },
  ): Redeemed {
    if (p.clientId !== clients[provider].id || p.secret !== clients[provider].secret)
      return { failure: 'invalid_client' };
    const grant = p.code ? codes.get(p.code) : undefined;
    if (p.code) codes.delete(p.code);
    if (
      !grant ||
      grant.provider !== provider ||
      grant.clientId !== p.clientId ||
      grant.expiresAt < Date.now()
    ) {
      return { failure: 'invalid_grant' };
    }
    if (p.redirectUri !== undefined && p.redirectUri !== grant.redirectUri) return { failure: 'redirect' };
    const accessToken = randomToken(24);
    tokens.set(accessToken, grant);
    return { grant, accessToken };
  }

  /** redeem() with what a token request carries in `params` (`redirect_uri` checked unless `redirect` is false). */
  const redeemFrom = (provider: SocialProviderId, params: URLSearchParams, redirect = true) =>
    redeem(provider, {
      clientId: params.get('client_id'),
      secret: params.get('client_secret'),
      code: params.get('code'),
      ...(redirect ? { redirectUri: params.get('redirect_uri') } : {}),
    });

  /** Graph API's error answer. */
  const facebookError = (message: string, code: number) =>
    json(400, { error: { message, type: 'OAuthException', code, fbtrace_id: randomToken(8) } });

  const tokenOf = (provider: SocialProviderId, token: string | null | undefined) => {
    const grant = token ? tokens.get(token) : undefined;
    return grant?.provider === provider ? grant : undefined;
  };

  const routes: Record<string, (r: Request) => Reply> = {
    // ---- VK: oauth.vk.com + api.vk.com
    'GET /vk-oauth/authorize': (r) => authorize('vk', r.query, { needsResponseType: true }),
    'GET /vk-oauth/access_token': (r) => {
      const result = redeemFrom('vk', r.query);
      if ('failure' in result) {
        const description = {
          invalid_client: 'client_secret is incorrect',
          invalid_grant: 'Code is invalid or expired.',
          redirect: 'redirect_uri is incorrect, check application domain in the settings page',
        }[result.failure];
        const error = result.failure === 'invalid_client' ? 'invalid_client' : 'invalid_grant';
        return json(401, { error, error_description: description });
      }
      const { user } = result.grant;
      return json(200, {
        access_token: result.accessToken,
        expires_in: 86400,
        user_id: Number(user.id),
        ...(user.email ? { email: user.email } : {}),
      });
    },
    'GET /vk-api/method/users.get': (r) => {
      const q = r.query;
      const params = [...q.entries()].map(([key, value]) => ({
        key,
        value: key === 'access_token' ? '' : value,
      }));
      const apiError = (code: number, message: string) =>
        json(200, { error: { error_code: code, error_msg: message, request_params: params } });
      if (!q.get('v')) return apiError(8, 'Invalid request: v (version) is required');
      const grant = tokenOf('vk', q.get('access_token'));
      if (!grant) return apiError(5, 'User authorization failed: invalid access_token (4).');
      const [first, ...rest] = grant.user.name.split(' ');
      const ids = (q.get('user_ids') ?? grant.user.id).split(',');
      if (!ids.includes(grant.user.id)) return json(200, { response: [] });
      return json(200, {
        response: [
          {
            id: Number(grant.user.id),
            first_name: first ?? '',
            last_name: rest.join(' '),
            photo_100: 'https://vk.com/images/camera_100.png',
            can_access_closed: true,
            is_closed: false,
          },
        ],
      });
    },

    // ---- Facebook: www.facebook.com + graph.facebook.com
    'GET /facebook-www/v19.0/dialog/oauth': (r) =>
      authorize('facebook', r.query, { needsResponseType: false }),
    'GET /facebook-graph/v19.0/oauth/access_token': (r) => {
      const result = redeemFrom('facebook', r.query);
      if ('failure' in result) {
        const message = {
          invalid_client: 'Error validating client secret.',
          invalid_grant: 'Invalid verification code format.',
          redirect:
            'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
        }[result.failure];
        return facebookError(message, result.failure === 'invalid_client' ? 1 : 100);
      }
      return json(200, { access_token: result.accessToken, token_type: 'bearer', expires_in: 5183944 });
    },
    'GET /facebook-graph/v19.0/me': (r) => {
      const q = r.query;
      const token = q.get('access_token');
      const grant = tokenOf('facebook', token);
      if (!grant) return facebookError('Invalid OAuth access token - Cannot parse access token', 190);
      const proof = q.get('appsecret_proof');
      if (proof !== null && proof !== hmacSha256(clients.facebook.secret, token ?? '')) {
        return facebookError('Invalid appsecret_proof provided in the API argument', 100);
      }
      const fields = (q.get('fields') ?? 'id,name').split(',');
      const { user } = grant;
      const all: Record<string, string | undefined> = { id: user.id, name: user.name, email: user.email };
      return json(
        200,
        Object.fromEntries(fields.filter((f) => all[f] !== undefined).map((f) => [f, all[f]])),
      );
    },

    // ---- Google: accounts.google.com + oauth2.googleapis.com + openidconnect.googleapis.com
    'GET /google-accounts/o/oauth2/v2/auth': (r) => authorize('google', r.query, { needsResponseType: true }),
    'POST /google-token/token': (r) => {
      const f = r.form;
      if (f.get('grant_type') !== 'authorization_code') {
        return json(400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type: ' });
      }
      const result = redeemFrom('google', f);
      if ('failure' in result) {
        if (result.failure === 'invalid_client')
          return json(401, { error: 'invalid_client', error_description: 'Unauthorized' });
        const error = result.failure === 'redirect' ? 'redirect_uri_mismatch' : 'invalid_grant';
        return json(400, { error, error_description: 'Bad Request' });
      }
      return json(200, {
        access_token: result.accessToken,
        expires_in: 3599,
        scope:
          'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile',
        token_type: 'Bearer',
        id_token: fakeIdToken(clients.google.id, result.grant.user),
      });
    },
    'GET /google-userinfo/v1/userinfo': (r) => {
      const grant = tokenOf('google', r.authorization.replace(/^Bearer /, ''));
      if (!grant) return json(401, { error: 'invalid_request', error_description: 'Invalid Credentials' });
      const { user } = grant;
      const [given, ...family] = user.name.split(' ');
      return json(200, {
        sub: user.id,
        name: user.name,
        given_name: given,
        family_name: family.join(' ') || undefined,
        picture: 'https://lh3.googleusercontent.com/a/default-user',
        ...(user.email ? { email: user.email, email_verified: user.emailVerified ?? true } : {}),
      });
    },

    // ---- Yandex: oauth.yandex.ru + login.yandex.ru
    'GET /yandex-oauth/authorize': (r) => authorize('yandex', r.query, { needsResponseType: true }),
    'POST /yandex-oauth/token': (r) => {
      const f = r.form;
      if (f.get('grant_type') !== 'authorization_code') {
        return json(400, { error: 'unsupported_grant_type', error_description: 'Unsupported grant_type' });
      }
      // Yandex doesn't take redirect_uri here: the code is bound to the app's registered one.
      const result = redeemFrom('yandex', f, false);
      if ('failure' in result) {
        if (result.failure === 'invalid_client')
          return json(400, { error: 'invalid_client', error_description: 'Client not found' });
        return json(400, { error: 'invalid_grant', error_description: 'Code has expired' });
      }
      return json(200, {
        access_token: result.accessToken,
        expires_in: 31536000,
        refresh_token: randomToken(24),
        token_type: 'bearer',
      });
    },
    'GET /yandex-login/info': (r) => {
      const grant = tokenOf('yandex', r.authorization.replace(/^OAuth /, ''));
      // Yandex answers a bad token with a bare 401.
      if (!grant) return { status: 401, text: 'Unauthorized' };
      const { user } = grant;
      const login = (user.email?.split('@')[0] ?? `id${user.id}`).replace(/[^a-z0-9.-]/gi, '');
      const [first, ...last] = user.name.split(' ');
      return json(200, {
        id: user.id,
        login,
        client_id: clients.yandex.id,
        display_name: login,
        real_name: user.name,
        first_name: first,
        last_name: last.join(' '),
        psuid: randomToken(12),
        ...(user.email ? { default_email: user.email, emails: [user.email] } : {}),
      });
    },
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://emulator');
    const route = routes[`${req.method} ${url.pathname}`];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const body = await readBody(req);
    const isForm = (req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
    const reply = route({
      query: url.searchParams,
      form: new URLSearchParams(isForm ? body : ''),
      authorization: req.headers.authorization ?? '',
    });
    if (reply.location) {
      res.writeHead(reply.status, { location: reply.location }).end();
    } else if (reply.json !== undefined) {
      res
        .writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8' })
        .end(JSON.stringify(reply.json));
    } else {
      res.writeHead(reply.status, { 'content-type': 'text/plain; charset=utf-8' }).end(reply.text ?? '');
    }
  }

  const url = await listenLoopback(server);

  return {
    url,
    clients,
    env: {
      VK_CLIENT_ID: clients.vk.id,
      VK_CLIENT_SECRET: clients.vk.secret,
      VK_OAUTH_URL: `${url}/vk-oauth`,
      VK_API_URL: `${url}/vk-api`,
      FACEBOOK_CLIENT_ID: clients.facebook.id,
      FACEBOOK_CLIENT_SECRET: clients.facebook.secret,
      FACEBOOK_OAUTH_URL: `${url}/facebook-www`,
      FACEBOOK_GRAPH_URL: `${url}/facebook-graph`,
      GOOGLE_CLIENT_ID: clients.google.id,
      GOOGLE_CLIENT_SECRET: clients.google.secret,
      GOOGLE_OAUTH_URL: `${url}/google-accounts`,
      GOOGLE_TOKEN_URL: `${url}/google-token`,
      GOOGLE_USERINFO_URL: `${url}/google-userinfo`,
      YANDEX_CLIENT_ID: clients.yandex.id,
      YANDEX_CLIENT_SECRET: clients.yandex.secret,
      YANDEX_OAUTH_URL: `${url}/yandex-oauth`,
      YANDEX_LOGIN_URL: `${url}/yandex-login`,
    },
    setUser: (provider, user) => users.set(provider, user),
    denyNext: (provider) => denials.add(provider),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Shaped like Google's id_token (header.payload.signature) but unsigned: our server doesn't read it. */
function fakeIdToken(audience: string, user: EmulatedUser): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    iss: 'https://accounts.google.com',
    aud: audience,
    sub: user.id,
    email: user.email,
    iat: now,
    exp: now + 3600,
  };
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.emulator`;
}
