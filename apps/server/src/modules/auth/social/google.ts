import { z } from 'zod';
import { describeOAuthError, endpoint, expectBody, requestJson } from './http';
import { pairOf, type SocialProvider } from './types';

// Google OAuth 2.0 for web server apps + OpenID Connect userinfo.
// https://developers.google.com/identity/protocols/oauth2/web-server

const tokenSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().optional(),
  id_token: z.string().optional(),
  token_type: z.string().optional(),
});
const userinfoSchema = z.object({
  sub: z.string().min(1),
  email: z.string().optional(),
  // Some Google endpoints send the flag as a string.
  email_verified: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
  name: z.string().optional(),
});

export const google: SocialProvider = {
  id: 'google',
  title: 'Google',
  locales: ['ru', 'en'],
  credentials: (config) => pairOf(config.GOOGLE_CLIENT_ID, config.GOOGLE_CLIENT_SECRET),

  authorizeUrl: (config, client, { redirectUri, state }) =>
    endpoint(config.GOOGLE_OAUTH_URL, '/o/oauth2/v2/auth', {
      client_id: client.id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state,
    }),

  async fetchProfile(config, client, { code, redirectUri }) {
    const token = expectBody(
      await requestJson(endpoint(config.GOOGLE_TOKEN_URL, '/token'), {
        method: 'POST',
        form: {
          code,
          client_id: client.id,
          client_secret: client.secret,
          redirect_uri: redirectUri,
          grant_type: 'authorization_code',
        },
      }),
      tokenSchema,
      describeOAuthError,
    );
    const info = expectBody(
      await requestJson(endpoint(config.GOOGLE_USERINFO_URL, '/v1/userinfo'), {
        headers: { authorization: `Bearer ${token.access_token}` },
      }),
      userinfoSchema,
      describeOAuthError,
    );
    return {
      id: info.sub,
      name: info.name ?? '',
      email: info.email || undefined,
      // Google accounts may carry an address their owner never proved.
      emailVerified: info.email_verified === true || info.email_verified === 'true',
    };
  },
};
