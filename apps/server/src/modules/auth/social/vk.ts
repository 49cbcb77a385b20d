import { z } from 'zod';
import { endpoint, expectBody, requestJson } from './http';
import { pairOf, type SocialProvider } from './types';

// Classic VK OAuth (oauth.vk.com) and the VK API. https://dev.vk.com/ru/api/access-token/authcode-flow-user
const API_VERSION = '5.199';

const tokenSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().optional(),
  user_id: z.union([z.number(), z.string()]),
  // Present only when the user has a confirmed address and granted the `email` scope.
  email: z.string().optional(),
});
const oauthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });

const usersSchema = z.object({
  response: z
    .array(z.object({ id: z.number(), first_name: z.string().optional(), last_name: z.string().optional() }))
    .min(1),
});
// The API reports errors with HTTP 200 and an `error` object.
const apiErrorSchema = z.object({ error: z.object({ error_code: z.number(), error_msg: z.string() }) });

const describeOauthError = (body: unknown) => {
  const parsed = oauthErrorSchema.safeParse(body);
  return parsed.success
    ? [parsed.data.error, parsed.data.error_description].filter(Boolean).join(': ')
    : undefined;
};
const describeApiError = (body: unknown) => {
  const parsed = apiErrorSchema.safeParse(body);
  return parsed.success ? `${parsed.data.error.error_code}: ${parsed.data.error.error_msg}` : undefined;
};

export const vk: SocialProvider = {
  id: 'vk',
  title: 'VK',
  locales: ['ru'],
  credentials: (config) => pairOf(config.VK_CLIENT_ID, config.VK_CLIENT_SECRET),

  authorizeUrl: (config, client, { redirectUri, state }) =>
    endpoint(config.VK_OAUTH_URL, '/authorize', {
      client_id: client.id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'email',
      state,
      v: API_VERSION,
    }),

  async fetchProfile(config, client, { code, redirectUri }) {
    const token = expectBody(
      await requestJson(
        endpoint(config.VK_OAUTH_URL, '/access_token', {
          client_id: client.id,
          client_secret: client.secret,
          redirect_uri: redirectUri,
          code,
        }),
      ),
      tokenSchema,
      describeOauthError,
    );
    const userId = String(token.user_id);
    const users = expectBody(
      await requestJson(
        endpoint(config.VK_API_URL, '/method/users.get', {
          user_ids: userId,
          fields: 'photo_100',
          access_token: token.access_token,
          v: API_VERSION,
        }),
      ),
      usersSchema,
      describeApiError,
    );
    const user = users.response[0]!;
    return {
      id: String(user.id),
      name: [user.first_name, user.last_name].filter(Boolean).join(' '),
      email: token.email || undefined,
      // VK hands out only confirmed addresses.
      emailVerified: Boolean(token.email),
    };
  },
};
