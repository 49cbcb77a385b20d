import { translate, WEB_CLIENT_ID } from '@otklik/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../http/app';
import { requireAuth } from '../../http/auth';
import { badRequest } from '../../http/errors';
import { requestLocale } from '../../http/locale';
import { safeEqual } from '../../lib/crypto';
import { presentUser } from '../users/presenter';
import { verifyRecaptcha } from './guards';
import * as schemas from './schemas';
import * as auth from './service';
import { registerSocialRoutes } from './social/routes';
import { authenticateAccessToken, refreshTokens, revokeSession, type SessionMeta } from './tokens';
import { confirmTwoFactor, disableTwoFactor, startTwoFactor } from './two-factor';

const TAG = ['auth'];
const bearer = [{ bearer: [] }];

export async function registerAuthModule(root: FastifyInstance, deps: AppDeps) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const authDeps: auth.AuthDeps = {
    db: deps.database.db,
    config: deps.config,
    mailer: deps.mailer,
    limiter: deps.limiter,
    sealer: deps.sealer,
  };
  const { db } = authDeps;
  const authenticated = requireAuth((token) => authenticateAccessToken(db, token));

  const sessionMeta = (req: FastifyRequest, clientId: string): SessionMeta & { ip: string } => ({
    clientId,
    ip: req.ip,
    userAgent: req.headers['user-agent'],
  });

  /** The built-in web client is the one OAuth client (README: its id and secret are public by design). */
  const checkClient = (body: { client_id: string; client_secret: string }) => {
    if (body.client_id !== WEB_CLIENT_ID || !safeEqual(body.client_secret, deps.config.WEB_CLIENT_SECRET)) {
      throw badRequest('error.invalidClient', { errorType: 'invalid_client' });
    }
  };

  app.post(
    '/oauth2/token',
    {
      schema: {
        tags: TAG,
        summary: 'Password grant (with optional TOTP code) or refresh grant with rotation',
        body: schemas.tokenRequestSchema,
        response: { 200: schemas.tokenResponseSchema },
      },
    },
    async (req) => {
      const body = req.body;
      checkClient(body);
      if (body.grant_type === 'refresh_token') {
        return refreshTokens(db, body.refresh_token, sessionMeta(req, body.client_id));
      }
      await verifyRecaptcha(deps.config, body.recaptcha_token, req.ip);
      return auth.loginWithPassword(authDeps, body, sessionMeta(req, body.client_id));
    },
  );

  app.post(
    '/oauth2/revoke',
    {
      preHandler: authenticated,
      schema: { tags: TAG, summary: 'Revoke the session (logout)', security: bearer },
    },
    async (req, reply) => {
      await revokeSession(db, req.auth!.sessionId);
      return reply.status(200).send({ message: 'ok' });
    },
  );

  app.post(
    '/signup',
    {
      schema: {
        tags: TAG,
        summary: 'Sign up: user + trial space + confirmation mail',
        body: schemas.signupBodySchema,
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
        response: { 200: z.object({ email: z.string() }) },
      },
    },
    async (req) => ({ email: await auth.getInvitationEmail(db, req.params.hash) }),
  );

  app.post(
    '/signup/:hash',
    {
      schema: {
        tags: TAG,
        summary: 'Sign up by invitation: joins the inviting space with the invited role',
        params: schemas.hashParamsSchema,
        body: schemas.invitationSignupBodySchema,
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
      schema: {
        tags: TAG,
        summary: 'Confirm email by link hash; returns a token (auto-login)',
        body: schemas.confirmEmailBodySchema,
      },
    },
    async (req) => {
      checkClient(req.body);
      const token = await auth.confirmEmail(authDeps, req.body.hash, sessionMeta(req, req.body.client_id));
      return { message: translate(requestLocale(req), 'ok.emailConfirmed'), token };
    },
  );

  app.post(
    '/recovery',
    { schema: { tags: TAG, summary: 'Mail a password reset link', body: schemas.recoveryBodySchema } },
    async (req) => {
      await auth.requestRecovery(authDeps, req.body.email, req.ip);
      return { message: translate(requestLocale(req), 'ok.recoverySent') };
    },
  );

  app.post(
    '/reset_password/check',
    { schema: { tags: TAG, summary: 'Check a reset hash', body: schemas.resetCheckBodySchema } },
    async (req) => auth.checkResetHash(db, req.body.hash),
  );

  app.post(
    '/reset_password',
    {
      schema: {
        tags: TAG,
        summary: 'Set a new password by reset hash; returns a token',
        body: schemas.resetPasswordBodySchema,
        response: { 200: schemas.tokenResponseSchema },
      },
    },
    async (req) => {
      checkClient(req.body);
      return auth.resetPassword(
        authDeps,
        req.body.hash,
        req.body.password,
        sessionMeta(req, req.body.client_id),
      );
    },
  );

  app.get('/me', { preHandler: authenticated, schema: { tags: ['me'], security: bearer } }, async (req) => {
    const user = req.auth!.user;
    return presentUser(user, await auth.membershipRoles(db, user.id));
  });

  app.put(
    '/me',
    {
      preHandler: authenticated,
      schema: { tags: ['me'], security: bearer, body: schemas.updateMeBodySchema },
    },
    async (req) => {
      const user = await auth.updateProfile(db, req.auth!.user, req.body);
      return presentUser(user, await auth.membershipRoles(db, user.id));
    },
  );

  app.put(
    '/me/email',
    {
      preHandler: authenticated,
      schema: { tags: ['me'], security: bearer, body: schemas.changeEmailBodySchema },
    },
    async (req) => {
      await auth.changeEmail(authDeps, req.auth!.user, req.body.email);
      return { message: translate(requestLocale(req), 'ok.confirmSent') };
    },
  );

  app.post(
    '/send_confirm_email',
    {
      preHandler: authenticated,
      schema: { tags: ['me'], security: bearer, body: schemas.sendConfirmBodySchema },
    },
    async (req) => {
      await auth.resendConfirmation(authDeps, req.auth!.user, req.body.email);
      return { message: translate(requestLocale(req), 'ok.confirmSent') };
    },
  );

  app.put(
    '/me/password',
    {
      preHandler: authenticated,
      schema: { tags: ['me'], security: bearer, body: schemas.changePasswordBodySchema },
    },
    async (req) => {
      await auth.changePassword(authDeps, req.auth!.user, req.body.password, req.body.new_password);
      return { message: translate(requestLocale(req), 'ok.passwordChanged') };
    },
  );

  app.post(
    '/me/otp',
    { preHandler: authenticated, schema: { tags: ['me'], security: bearer, summary: 'Start enabling TOTP' } },
    async (req) => startTwoFactor(authDeps, req.auth!.user),
  );

  app.post(
    '/me/otp/confirm',
    {
      preHandler: authenticated,
      schema: { tags: ['me'], security: bearer, body: schemas.otpConfirmBodySchema },
    },
    async (req) => {
      await confirmTwoFactor(authDeps, req.auth!.user, req.body.code);
      return { message: 'ok' };
    },
  );

  app.delete(
    '/me/otp',
    {
      preHandler: authenticated,
      schema: { tags: ['me'], security: bearer, body: schemas.otpDisableBodySchema },
    },
    async (req) => {
      await disableTwoFactor(authDeps, req.auth!.user, req.body.password);
      return { message: 'ok' };
    },
  );
  await registerSocialRoutes(app, deps, authDeps, authenticated);
}
