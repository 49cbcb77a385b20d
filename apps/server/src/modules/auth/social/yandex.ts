import { z } from 'zod';
import { describeOAuthError, endpoint, expectBody, requestJson } from './http';
import { pairOf, type SocialProvider } from './types';

// Yandex OAuth + Yandex ID (login.yandex.ru). https://yandex.ru/dev/id/doc/ru/codes/code-url

const tokenSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().optional(),
  refresh_token: z.string().optional(),
  token_type: z.string().optional(),
});
const infoSchema = z.object({
  id: z.string().min(1),
  login: z.string().optional(),
  // Absent or null without the login:email permission.
  default_email: z.string().nullish(),
  real_name: z.string().optional(),
  display_name: z.string().optional(),
});

export const yandex: SocialProvider = {
  id: 'yandex',
  title: 'Yandex',
  locales: ['ru'],
  credentials: (config) => pairOf(config.YANDEX_CLIENT_ID, config.YANDEX_CLIENT_SECRET),

  authorizeUrl: (config, client, { redirectUri, state }) =>
    endpoint(config.YANDEX_OAUTH_URL, '/authorize', {
      response_type: 'code',
      client_id: client.id,
      redirect_uri: redirectUri,
      state,
    }),

  async fetchProfile(config, client, { code }) {
    // Yandex binds the code to the redirect URI registered for the app; the token call doesn't repeat it.
    const token = expectBody(
      await requestJson(endpoint(config.YANDEX_OAUTH_URL, '/token'), {
        method: 'POST',
        form: { grant_type: 'authorization_code', code, client_id: client.id, client_secret: client.secret },
      }),
      tokenSchema,
      describeOAuthError,
    );
    const info = expectBody(
      await requestJson(endpoint(config.YANDEX_LOGIN_URL, '/info', { format: 'json' }), {
        headers: { authorization: `OAuth ${token.access_token}` },
      }),
      infoSchema,
      describeOAuthError,
    );
    return {
      id: info.id,
      name: info.real_name || info.display_name || info.login || '',
      email: info.default_email || undefined,
      // Yandex's default address is a confirmed one.
      emailVerified: Boolean(info.default_email),
    };
  },
};
