import { z } from 'zod';
import { hmacSha256 } from '../../../lib/crypto';
import { endpoint, expectBody, requestJson } from './http';
import { pairOf, type SocialProvider } from './types';

// Facebook Login, manual flow. https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow
const GRAPH_VERSION = 'v19.0';

const tokenSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().optional(),
});
const meSchema = z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  email: z.string().optional(),
});
const errorSchema = z.object({
  error: z.object({ message: z.string(), type: z.string().optional(), code: z.number().optional() }),
});

const describeError = (body: unknown) => {
  const parsed = errorSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const { type, code, message } = parsed.data.error;
  return `${type ?? 'error'} ${code ?? ''}: ${message}`;
};

export const facebook: SocialProvider = {
  id: 'facebook',
  title: 'Facebook',
  locales: ['ru', 'en'],
  credentials: (config) => pairOf(config.FACEBOOK_CLIENT_ID, config.FACEBOOK_CLIENT_SECRET),

  authorizeUrl: (config, client, { redirectUri, state }) =>
    endpoint(config.FACEBOOK_OAUTH_URL, `/${GRAPH_VERSION}/dialog/oauth`, {
      client_id: client.id,
      redirect_uri: redirectUri,
      state,
      scope: 'email',
    }),

  async fetchProfile(config, client, { code, redirectUri }) {
    const token = expectBody(
      await requestJson(
        endpoint(config.FACEBOOK_GRAPH_URL, `/${GRAPH_VERSION}/oauth/access_token`, {
          client_id: client.id,
          redirect_uri: redirectUri,
          client_secret: client.secret,
          code,
        }),
      ),
      tokenSchema,
      describeError,
    );
    const me = expectBody(
      await requestJson(
        endpoint(config.FACEBOOK_GRAPH_URL, `/${GRAPH_VERSION}/me`, {
          fields: 'id,name,email',
          access_token: token.access_token,
          // Proves the call comes from the app's server; apps may be set to require it.
          appsecret_proof: hmacSha256(client.secret, token.access_token),
        }),
      ),
      meSchema,
      describeError,
    );
    return {
      id: me.id,
      name: me.name ?? '',
      email: me.email || undefined,
      // Facebook returns `email` only for a confirmed primary address.
      emailVerified: Boolean(me.email),
    };
  },
};
