import {
  confirmEmailWireSchema,
  emailWireSchema,
  isLocale,
  messageAndTokenWireSchema,
  meWireSchema,
  noticeWireSchema,
  okWireSchema,
  otpSetupWireSchema,
  signupWireSchema,
  translate,
  WEB_CLIENT_ID,
} from '@otklik/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Authenticate, requireAuth, signedInScope } from '../../http/auth';
import { requestLocale } from '../../http/locale';
import { safeEqual } from '../../lib/crypto';
import { AppError, badRequest } from '../../lib/errors';
import type { AppDeps } from '../deps';
import { authenticateClient, exchangeCode, touchApp } from '../oauthapps/service';
import { presentUser } from '../users/presenter';
import { acceptBasicClientAuth, basicClientCredentials } from './client-auth';
import { registerDeletionRoutes } from './deletion-routes';
import { recaptchaSiteKey, signupRateLimit, verifyRecaptcha } from './guards';
import * as schemas from './schemas';
import * as auth from './service';
import { availableProviderIds } from './social/providers';
import { registerSocialRoutes } from './social/routes';
import {
  authenticateAccessToken,
  refreshTokens,
  revokeByToken,
  revokeSession,
  type SessionMeta,
} from './tokens';
import { confirmTwoFactor, disableTwoFactor, startTwoFactor } from './two-factor';

const TAG = ['auth'];
const bearer = [{ bearer: [] }];

/** A revocation by an OAuth client (client credentials, no bearer) rather than by the signed-in app. */
function isClientRevocation(req: FastifyRequest): boolean {
  if (req.headers.authorization?.startsWith('Bearer ')) return false;
  const body = req.body as { client_id?: unknown } | undefined;
  return basicClientCredentials(req) !== undefined || typeof body?.client_id === 'string';
}

export async function registerAuthModule(root: FastifyInstance, deps: AppDeps) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const authDeps: auth.AuthDeps = {
    db: deps.database.db,
    config: deps.config,
    mailer: deps.mailer,
    limiter: deps.limiter,
    sealer: deps.sealer,
    bus: deps.bus,
  };
  const { db } = authDeps;
  // Sessions only: an API token or an app's token never reaches the account's own settings.
  const authenticate: Authenticate = (token) => authenticateAccessToken(db, token);
  // Logout authenticates only when it is not an OAuth client's revocation (below).
  const authenticated = requireAuth(authenticate);
  // Calls that create accounts or mail an address: limited per address and for the instance.
  const signupLimit = signupRateLimit(deps.config, deps.limiter);

  const sessionMeta = (req: FastifyRequest, clientId: string): SessionMeta & { ip: string } => ({
    clientId,
    ip: req.ip,
    userAgent: req.headers['user-agent'],
  });

  /** The signed-in session making a change (for rotating its tokens). */
  const currentSession = (req: FastifyRequest) => ({
    user: req.auth!.user,
    sessionId: req.auth!.sessionId,
    meta: { ip: req.ip, userAgent: req.headers['user-agent'] },
  });

  /** The built-in web client (README: its id and secret are public by design). */
  const checkClient = (body: { client_id: string; client_secret: string }) => {
    if (body.client_id !== WEB_CLIENT_ID || !safeEqual(body.client_secret, deps.config.WEB_CLIENT_SECRET)) {
      throw badRequest('error.invalidClient', { errorType: 'invalid_client' });
    }
  };
  const isWebClient = (clientId: string | undefined) => clientId === WEB_CLIENT_ID;

  /** A third-party app (modules/oauthapps): errors in RFC 6749 §5.2's shape. */
  const appClient = (req: FastifyRequest, body: { client_id: string; client_secret: string }) =>
    authenticateClient(db, body.client_id, body.client_secret, basicClientCredentials(req) !== undefined);

  /** RFC 6749 §5.2 bodies for the errors a third-party app gets from the shared token code. */
  const asRfc6749 = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof AppError && error.extra.errorType && !error.extra.rfc6749)
        throw new AppError(error.status, error.key, { ...error.extra, rfc6749: true });
      throw error;
    }
  };

  app.get(
    '/auth/config',
    {
      schema: {
        tags: TAG,
        summary:
          'What the sign-in screens offer here: configured social providers (for the locale) and reCAPTCHA',
        querystring: schemas.authConfigQuerySchema,
        response: { 200: schemas.authConfigResponseSchema },
      },
    },
    async (req) => {
      const locale = isLocale(req.query.locale) ? req.query.locale : requestLocale(req);
      const siteKey = recaptchaSiteKey(deps.config);
      return {
        social_providers: availableProviderIds(deps.config, locale),
        recaptcha: siteKey ? { site_key: siteKey, script_url: deps.config.RECAPTCHA_SCRIPT_URL } : null,
      };
    },
  );

  app.post(
    '/oauth2/token',
    {
      preValidation: acceptBasicClientAuth,
      schema: {
        tags: TAG,
        summary: 'Password grant (with optional TOTP code) or refresh grant with rotation',
        body: schemas.tokenRequestSchema,
        response: { 200: schemas.tokenResponseSchema },
      },
    },
    async (req, reply) => {
      const body = req.body;
      // RFC 6749 §5.1: token responses are never cached.
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      if (body.grant_type === 'authorization_code') {
        const client = await appClient(req, body);
        const meta = sessionMeta(req, client.clientId);
        return exchangeCode(db, client, body, { ip: meta.ip, userAgent: meta.userAgent }, deps.bus);
      }
      if (body.grant_type === 'refresh_token' && !isWebClient(body.client_id)) {
        const client = await appClient(req, body);
        const tokens = await asRfc6749(() =>
          refreshTokens(db, body.refresh_token, sessionMeta(req, client.clientId), deps.bus),
        );
        await touchApp(db, client.id);
        return tokens;
      }
      checkClient(body);
      if (body.grant_type === 'refresh_token') {
        return refreshTokens(db, body.refresh_token, sessionMeta(req, body.client_id), deps.bus);
      }
      await verifyRecaptcha(deps.config, body.recaptcha_token, req.ip);
      return auth.loginWithPassword(authDeps, body, sessionMeta(req, body.client_id));
    },
  );

  app.post(
    '/oauth2/revoke',
    {
      preValidation: acceptBasicClientAuth,
      // The signed-in web app revokes its own session by bearer; an OAuth client (RFC 7009)
      // authenticates itself (Basic or body) and names the token to revoke.
      preHandler: async (req, reply) => {
        if (!isClientRevocation(req)) await authenticated(req, reply);
      },
      schema: {
        tags: TAG,
        summary: 'Revoke the session (logout): by bearer, or RFC 7009 with client authentication and `token`',
        security: bearer,
        response: { 200: okWireSchema },
      },
    },
    async (req, reply) => {
      if (isClientRevocation(req)) {
        // Parsed here: the bearer logout of the web app sends no body at all.
        const parsed = schemas.revokeBodySchema.safeParse(req.body ?? {});
        if (!parsed.success) throw badRequest('error.validation', { errorType: 'invalid_request' });
        const body = parsed.data;
        const credentials = { client_id: body.client_id ?? '', client_secret: body.client_secret ?? '' };
        if (isWebClient(body.client_id)) checkClient(credentials);
        else await appClient(req, credentials);
        if (!body.token)
          throw badRequest('field.required', {
            errorType: 'invalid_request',
            fields: { token: 'field.required' },
          });
        await revokeByToken(db, body.token, body.client_id ?? '', deps.bus);
      } else {
        await revokeSession(db, req.auth!.sessionId, deps.bus);
      }
      return reply.status(200).send({ message: 'ok' });
    },
  );

  app.post(
    '/signup',
    {
      preHandler: signupLimit,
      schema: {
        tags: TAG,
        summary: 'Sign up: user + trial space + confirmation mail',
        body: schemas.signupBodySchema,
        response: { 201: signupWireSchema },
      },
    },
    async (req, reply) => {
      await verifyRecaptcha(deps.config, req.body.recaptcha_token, req.ip);
      const locale = requestLocale(req);
      const { email } = await auth.signup(authDeps, req.body, locale);
      return reply.status(201).send({ message: translate(locale, 'ok.confirmSent'), email });
    },
  );

  app.get(
    '/signup/:hash',
    {
      schema: {
        tags: TAG,
        summary: 'The invited email of an invitation (409 when used or unknown)',
        params: schemas.hashParamsSchema,
        response: { 200: emailWireSchema },
      },
    },
    async (req) => ({ email: await auth.getInvitationEmail(db, req.params.hash) }),
  );

  app.post(
    '/signup/:hash',
    {
      preHandler: signupLimit,
      schema: {
        tags: TAG,
        summary: 'Sign up by invitation: joins the inviting space with the invited role',
        params: schemas.hashParamsSchema,
        body: schemas.invitationSignupBodySchema,
        response: { 200: messageAndTokenWireSchema },
      },
    },
    async (req) => {
      await verifyRecaptcha(deps.config, req.body.recaptcha_token, req.ip);
      const locale = requestLocale(req);
      const token = await auth.signupWithInvitation(
        authDeps,
        req.params.hash,
        req.body,
        locale,
        sessionMeta(req, WEB_CLIENT_ID),
      );
      return { message: translate(locale, 'ok.emailConfirmed'), token };
    },
  );

  app.post(
    '/confirm_email',
    {
      preValidation: acceptBasicClientAuth,
      schema: {
        tags: TAG,
        summary: 'Confirm email by link hash; returns a token (auto-login)',
        body: schemas.confirmEmailBodySchema,
        response: { 200: confirmEmailWireSchema },
      },
    },
    async (req) => {
      checkClient(req.body);
      const token = await auth.confirmEmail(authDeps, req.body.hash, sessionMeta(req, req.body.client_id));
      // No token for a user with 2FA on (the link is one factor): the app signs in at /login.
      return { message: translate(requestLocale(req), 'ok.emailConfirmed'), ...(token ? { token } : {}) };
    },
  );

  app.post(
    '/recovery',
    {
      preHandler: signupLimit,
      schema: {
        tags: TAG,
        summary: 'Mail a password reset link',
        body: schemas.recoveryBodySchema,
        response: { 200: noticeWireSchema },
      },
    },
    async (req) => {
      await verifyRecaptcha(deps.config, req.body.recaptcha_token, req.ip);
      await auth.requestRecovery(authDeps, req.body.email, req.ip);
      return { message: translate(requestLocale(req), 'ok.recoverySent') };
    },
  );

  app.post(
    '/reset_password/check',
    {
      schema: {
        tags: TAG,
        summary: 'Check a reset hash',
        body: schemas.resetCheckBodySchema,
        response: { 200: emailWireSchema },
      },
    },
    async (req) => auth.checkResetHash(db, req.body.hash),
  );

  app.post(
    '/reset_password',
    {
      preValidation: acceptBasicClientAuth,
      schema: {
        tags: TAG,
        summary:
          'Set a new password by reset hash; returns a token. With 2FA on, 400 code_required until `code` (TOTP or recovery code) is sent',
        body: schemas.resetPasswordBodySchema,
        response: { 200: schemas.tokenResponseSchema },
      },
    },
    async (req) => {
      checkClient(req.body);
      return auth.resetPassword(authDeps, req.body.hash, req.body, sessionMeta(req, req.body.client_id));
    },
  );

  app.post(
    '/signup/resend',
    {
      preHandler: signupLimit,
      schema: {
        tags: TAG,
        summary:
          'Mail the confirmation link again to an address awaiting confirmation (same answer for any address)',
        body: schemas.recoveryBodySchema,
        response: { 200: noticeWireSchema },
      },
    },
    async (req) => {
      await verifyRecaptcha(deps.config, req.body.recaptcha_token, req.ip);
      await auth.resendSignupConfirmation(authDeps, req.body.email);
      return { message: translate(requestLocale(req), 'ok.confirmSent') };
    },
  );

  await signedInScope(root, authenticate, (app) => {
    app.get('/me', { schema: { tags: ['me'], response: { 200: meWireSchema } } }, async (req) => {
      const user = req.auth!.user;
      return presentUser(user, await auth.membershipRoles(db, user.id));
    });

    app.put(
      '/me',
      {
        schema: { tags: ['me'], body: schemas.updateMeBodySchema, response: { 200: meWireSchema } },
      },
      async (req) => {
        const user = await auth.updateProfile(db, req.auth!.user, req.body);
        return presentUser(user, await auth.membershipRoles(db, user.id));
      },
    );

    app.put(
      '/me/email',
      {
        preHandler: signupLimit,
        schema: { tags: ['me'], body: schemas.changeEmailBodySchema, response: { 200: noticeWireSchema } },
      },
      async (req) => {
        await auth.changeEmail(authDeps, req.auth!.user, req.body.email);
        return { message: translate(requestLocale(req), 'ok.confirmSent') };
      },
    );

    app.post(
      '/send_confirm_email',
      {
        preHandler: signupLimit,
        schema: { tags: ['me'], body: schemas.sendConfirmBodySchema, response: { 200: noticeWireSchema } },
      },
      async (req) => {
        await auth.resendConfirmation(authDeps, req.auth!.user, req.body.email);
        return { message: translate(requestLocale(req), 'ok.confirmSent') };
      },
    );

    app.put(
      '/me/password',
      {
        schema: {
          tags: ['me'],
          body: schemas.changePasswordBodySchema,
          response: { 200: messageAndTokenWireSchema },
        },
      },
      async (req) => {
        // Other sessions end; this one continues under the new token pair returned here.
        const token = await auth.changePassword(
          authDeps,
          currentSession(req),
          req.body.password,
          req.body.new_password,
        );
        return { message: translate(requestLocale(req), 'ok.passwordChanged'), token };
      },
    );

    app.post(
      '/me/otp',
      { schema: { tags: ['me'], summary: 'Start enabling TOTP', response: { 200: otpSetupWireSchema } } },
      async (req) => startTwoFactor(authDeps, req.auth!.user),
    );

    app.post(
      '/me/otp/confirm',
      {
        schema: {
          tags: ['me'],
          body: schemas.otpConfirmBodySchema,
          response: { 200: messageAndTokenWireSchema },
        },
      },
      async (req) => {
        // Sessions opened before 2FA end; this one continues under the new token pair returned here.
        const token = await confirmTwoFactor(authDeps, currentSession(req), req.body.code);
        return { message: 'ok', token };
      },
    );

    app.delete(
      '/me/otp',
      {
        schema: { tags: ['me'], body: schemas.otpDisableBodySchema, response: { 200: okWireSchema } },
      },
      async (req) => {
        await disableTwoFactor(authDeps, req.auth!.user, req.body.password);
        return { message: 'ok' as const };
      },
    );
  });
  await registerSocialRoutes(root, deps, authDeps, authenticate);
  await registerDeletionRoutes(root, authDeps, authenticate);
}
