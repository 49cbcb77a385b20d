import {
  type Ability,
  authorizeRequestSchema,
  createOAuthAppBody,
  listWireSchema,
  type OAuthAppWithSecret,
  oauthAppsWireSchema,
  oauthAppWireSchema,
  oauthAppWithSecretWireSchema,
  oauthAuthorizeCheckWireSchema,
  oauthGrantWireSchema,
  oauthRedirectWireSchema,
  okWireSchema,
  updateOAuthAppBody,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { notFound } from '../../lib/errors';
import { audit } from '../audit/record';
import type { AppDeps } from '../deps';
import { authorize, isMember, type ServerActor, spaceIdsWhere } from '../spaces/actor';
import { presentApp, presentGrant } from './presenter';
import * as service from './service';

const TAG = ['oauth'];
const MANAGE: Ability = 'oauth.manage';
const idParams = z.object({ id: z.coerce.number().int().positive() });
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive().optional() });
const decisionBody = authorizeRequestSchema.extend({ decision: z.enum(['allow', 'deny']) });

/** A registered app the actor may manage; another space's app is a 404 (not yours looks like none). */
function manageable(actor: ServerActor, app: service.OAuthAppRow | undefined): service.OAuthAppRow {
  if (!app || !isMember(actor, app.spaceId)) throw notFound();
  authorize(actor, MANAGE, app.spaceId);
  return app;
}

const withSecret = (app: service.OAuthAppRow, secret: string): OAuthAppWithSecret => ({
  ...presentApp(app),
  client_secret: secret,
});

/**
 * /v1/oauth/*: administrators register third-party apps; the web consent screen checks an
 * authorization request and records the user's answer; users list and revoke what they allowed.
 * The token exchange itself is POST /v1/oauth2/token (modules/auth/routes.ts).
 */
export async function registerOAuthAppsModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;

    app.get(
      '/oauth/apps',
      {
        schema: {
          tags: TAG,
          summary: 'Registered third-party apps',
          querystring: spaceQuery,
          response: { 200: oauthAppsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        if (req.query.space_id !== undefined) authorize(actor, MANAGE, req.query.space_id);
        const spaceIds = spaceIdsWhere(actor, MANAGE).filter(
          (id) => req.query.space_id === undefined || id === req.query.space_id,
        );
        const rows = await service.listApps(db, spaceIds);
        return { items: rows.map((r) => presentApp(r.app, r.activeUsers)), can_manage: spaceIds };
      },
    );

    app.post(
      '/oauth/apps',
      {
        schema: {
          tags: TAG,
          summary: 'Register an app; the answer holds client_secret, shown this once',
          body: createOAuthAppBody,
          response: { 200: oauthAppWithSecretWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, MANAGE, req.body.space_id);
        const { app: row, secret } = await service.createApp(db, {
          spaceId: req.body.space_id,
          name: req.body.name,
          redirectUris: req.body.redirect_uris,
          createdBy: actor.userId,
        });
        await audit(db, actor, {
          spaceId: row.spaceId,
          kind: 'oauth_app.created',
          target: { type: 'oauth_app', id: row.id, label: row.name },
          after: { name: row.name, redirect_uris: row.redirectUris },
        });
        return withSecret(row, secret);
      },
    );

    app.put(
      '/oauth/apps/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Rename an app or change its redirect URIs',
          params: idParams,
          body: updateOAuthAppBody,
          response: { 200: oauthAppWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const before = manageable(actor, await service.getApp(db, req.params.id));
        const after = await service.updateApp(db, req.params.id, req.body);
        await audit(db, actor, {
          spaceId: before.spaceId,
          kind: 'oauth_app.updated',
          target: { type: 'oauth_app', id: before.id, label: after.name },
          before: { name: before.name, redirect_uris: before.redirectUris },
          after: { name: after.name, redirect_uris: after.redirectUris },
        });
        return presentApp(after);
      },
    );

    app.post(
      '/oauth/apps/:id/secret',
      {
        schema: {
          tags: TAG,
          summary: 'A new client secret (shown this once); the old one stops working',
          params: idParams,
          response: { 200: oauthAppWithSecretWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        manageable(actor, await service.getApp(db, req.params.id));
        const { app: row, secret } = await service.regenerateSecret(db, req.params.id);
        await audit(db, actor, {
          spaceId: row.spaceId,
          kind: 'oauth_app.secret',
          target: { type: 'oauth_app', id: row.id, label: row.name },
        });
        return withSecret(row, secret);
      },
    );

    app.delete(
      '/oauth/apps/:id',
      {
        schema: {
          tags: TAG,
          summary: "Delete an app: every user's tokens of it end at once",
          params: idParams,
          response: { 200: okWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = manageable(actor, await service.getApp(db, req.params.id));
        await service.deleteApp(db, req.params.id, deps.bus);
        await audit(db, actor, {
          spaceId: row.spaceId,
          kind: 'oauth_app.deleted',
          target: { type: 'oauth_app', id: row.id, label: row.name },
          before: { name: row.name, redirect_uris: row.redirectUris },
        });
        return { message: 'ok' as const };
      },
    );

    app.get(
      '/oauth/grants',
      {
        schema: {
          tags: TAG,
          summary: 'Apps the signed-in user allowed',
          response: { 200: listWireSchema(oauthGrantWireSchema) },
        },
      },
      async (req) => ({ items: (await service.listGrants(db, req.auth!.user.id)).map(presentGrant) }),
    );

    app.delete(
      '/oauth/grants/:id',
      {
        schema: {
          tags: TAG,
          summary: "Withdraw consent: the app's tokens for the signed-in user end now (id: the app's id)",
          params: idParams,
          response: { 200: okWireSchema },
        },
      },
      async (req) => {
        await service.revokeGrant(db, req.auth!.user.id, req.params.id, deps.bus);
        return { message: 'ok' as const };
      },
    );

    app.get(
      '/oauth/authorize',
      {
        schema: {
          tags: TAG,
          summary:
            'Check an authorization request for the consent screen: the app and space, or where to send the error',
          querystring: authorizeRequestSchema,
          response: { 200: oauthAuthorizeCheckWireSchema },
        },
      },
      async (req) => {
        const check = await service.checkAuthorizeRequest(db, req.auth!.user.id, req.query);
        if (check.kind === 'redirect') return { redirect_to: check.to };
        return {
          app: { name: check.app.name, client_id: check.app.clientId },
          space: { id: check.app.spaceId, name: check.spaceName },
          redirect_uri: check.redirectUri,
        };
      },
    );

    app.post(
      '/oauth/authorize',
      {
        schema: {
          tags: TAG,
          summary: "The user's answer on the consent screen: where to send the browser (code+state or error)",
          body: decisionBody,
          response: { 200: oauthRedirectWireSchema },
        },
      },
      async (req) => {
        const { decision, ...request } = req.body;
        return {
          redirect_to: await service.decide(db, req.auth!.user.id, request, decision === 'allow'),
        };
      },
    );
  });
}
