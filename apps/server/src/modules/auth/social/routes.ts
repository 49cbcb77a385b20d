import { isLocale, WEB_CLIENT_ID } from '@otklik/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Authenticate, signedInScope } from '../../../http/auth';
import { requestLocale } from '../../../http/locale';
import { safeEqual } from '../../../lib/crypto';
import { AppError, badRequest } from '../../../lib/errors';
import type { AppDeps } from '../../deps';
import { acceptBasicClientAuth } from '../client-auth';
import { signupRateLimit } from '../guards';
import { tokenResponseSchema } from '../schemas';
import type { AuthDeps } from '../service';
import type { SessionMeta } from '../tokens';
import { providerUnavailable } from './errors';
import { authorizationUrl, requireProvider, type SocialDeps } from './flow';
import { findLinkedProviders } from './identities';
import { unlinkProvider } from './link';
import { completePendingSignIn } from './pending';
import { availableProviderIds } from './providers';
import * as schemas from './schemas';
import { linkWithCode, signInWithCode } from './service';
import { isSocialProviderId } from './types';

const TAG = ['auth'];
const ME = ['me'];

/** Social sign-in (docs/product/api.md): VK, Facebook, Google, Yandex. Registered inside the /v1 prefix. */
export async function registerSocialRoutes(
  root: FastifyInstance,
  deps: AppDeps,
  authDeps: AuthDeps,
  authenticate: Authenticate,
) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = authDeps;
  // Per request, so provider failures are logged with the request id.
  const socialDeps = (req: FastifyRequest): SocialDeps => ({ ...authDeps, log: req.log });
  const sessionMeta = (req: FastifyRequest): SessionMeta => ({
    // The built-in web client is the only OAuth client (as in ../routes.ts).
    clientId: WEB_CLIENT_ID,
    ip: req.ip,
    userAgent: req.headers['user-agent'],
  });
  const checkClient = (body: { client_id?: string; client_secret?: string }) => {
    const secretOk = safeEqual(body.client_secret ?? '', deps.config.WEB_CLIENT_SECRET);
    if (body.client_id !== WEB_CLIENT_ID || !secretOk)
      throw badRequest('error.invalidClient', { errorType: 'invalid_client' });
  };

  app.get(
    '/auth/social/providers',
    {
      schema: {
        tags: TAG,
        summary: 'Social sign-in providers configured here and offered in the locale',
        querystring: schemas.providersQuerySchema,
        response: { 200: schemas.providersResponseSchema },
      },
    },
    async (req) => {
      const locale = isLocale(req.query.locale) ? req.query.locale : requestLocale(req);
      return { providers: availableProviderIds(deps.config, locale) };
    },
  );

  app.get(
    '/auth/social/:provider/start',
    {
      schema: {
        tags: TAG,
        summary: "302 to the provider's authorization page with a signed state (valid 10 minutes)",
        params: schemas.providerParamsSchema,
        querystring: schemas.startQuerySchema,
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      let url: string;
      try {
        const target = requireProvider(authDeps, req.params.provider);
        url = authorizationUrl(authDeps, target, req.query.redirect_uri, req.query.mode);
      } catch (error) {
        // The browser came here by a link: back to our own screen with the reason, never a JSON page.
        if (!(error instanceof AppError)) throw error;
        const back = req.query.mode === 'link' ? '/settings/profile' : '/login';
        return reply.redirect(
          `${deps.config.appUrl}${back}?social_error=${error.extra.errorType ?? 'provider_error'}`,
          302,
        );
      }
      return reply.redirect(url, 302);
    },
  );

  app.post(
    '/signup/provider',
    {
      preValidation: acceptBasicClientAuth,
      // It creates accounts (and a social profile without an email asks for one by mail).
      preHandler: signupRateLimit(deps.config, deps.limiter),
      schema: {
        tags: TAG,
        summary:
          'Sign in or up with a provider code; 400 no_email or code_required carry access_token, sent back with email or code',
        body: schemas.providerSignupBodySchema,
        response: { 200: tokenResponseSchema },
      },
    },
    async (req) => {
      const body = req.body;
      if (body.access_token) {
        if (!isSocialProviderId(body.provider)) throw providerUnavailable();
        const input = {
          provider: body.provider,
          pendingToken: body.access_token,
          email: body.email,
          code: body.code,
        };
        return completePendingSignIn(socialDeps(req), input, sessionMeta(req));
      }
      checkClient(body);
      const target = requireProvider(authDeps, body.provider);
      const callback = {
        code: body.code,
        error: body.error,
        state: body.state,
        redirectUri: body.redirect_uri,
      };
      return signInWithCode(
        socialDeps(req),
        target,
        callback,
        body.locale ?? requestLocale(req),
        sessionMeta(req),
      );
    },
  );

  await signedInScope(root, authenticate, (app) => {
    app.get(
      '/me/social',
      {
        schema: {
          tags: ME,
          summary: 'Linked providers',
          response: { 200: schemas.linkedProvidersResponseSchema },
        },
      },
      async (req) => ({ providers: await findLinkedProviders(db, req.auth!.user.id) }),
    );

    app.post(
      '/me/social',
      {
        schema: {
          tags: ME,
          summary:
            'Link a provider account (state from start with mode=link); 409 when linked to someone else',
          body: schemas.linkBodySchema,
          response: { 200: schemas.linkedProvidersResponseSchema },
        },
      },
      async (req) => {
        const body = req.body;
        const target = requireProvider(authDeps, body.provider);
        const callback = {
          code: body.code,
          error: body.error,
          state: body.state,
          redirectUri: body.redirect_uri,
        };
        return { providers: await linkWithCode(socialDeps(req), req.auth!.user, target, callback) };
      },
    );

    app.delete(
      '/me/social/:provider',
      {
        schema: {
          tags: ME,
          summary: 'Unlink a provider',
          params: schemas.providerParamsSchema,
          response: { 200: schemas.linkedProvidersResponseSchema },
        },
      },
      async (req) => {
        const { provider } = req.params;
        if (!isSocialProviderId(provider)) throw providerUnavailable();
        return { providers: await unlinkProvider(db, req.auth!.user, provider) };
      },
    );
  });
}
