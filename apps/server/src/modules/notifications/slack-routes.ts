import {
  slackAuthBody,
  slackChannelBody,
  slackChannelsWireSchema,
  slackInstallWireSchema,
  slackStartWireSchema,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { AppError } from '../../lib/errors';
import type { AppDeps } from '../deps';
import { authorize, isMember } from '../spaces/actor';
import {
  chooseSlackChannel,
  openSlackState,
  presentSlack,
  removeSlack,
  SlackError,
  saveSlackInstall,
  sealSlackState,
  slackApi,
  slackConfigured,
  slackInstall,
  slackTeamGone,
  slackToken,
  verifySlackSignature,
} from './slack';

const TAG = ['notifications'];
const INT_MAX = 2 ** 31 - 1;
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive().max(INT_MAX) });
const MANAGE = 'settings.manage' as const;

/**
 * Slack for a space's notifications (issue 18; docs/product/notifications.md): install through Slack's
 * OAuth v2 (`/slack/auth/start` → Slack → /callback/slack → `POST /v1/slack/auth`), the channel, removal,
 * and Slack's signed events (the app uninstalled, tokens revoked). Administrators (settings.manage) only,
 * except reading whether the space has Slack, which every member's subscriptions need.
 */
export async function registerSlackRoutes(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  const { db } = deps.database;
  await signedInScope(root, authenticate, async (app) => {
    const configured = slackConfigured(deps.config);
    const api = slackApi(deps.config);
    const failure = (error: unknown, key: 'notify.slackFailed' | 'notify.slackExchangeFailed') =>
      new AppError(502, key, {
        params: { error: error instanceof SlackError ? error.code : 'network_error' },
      });

    const view = async (spaceId: number) =>
      presentSlack(spaceId, configured, await slackInstall(db, spaceId));

    app.get(
      '/slack',
      {
        schema: {
          tags: TAG,
          summary: 'Whether a space posts its notifications to Slack, and to which channel',
          querystring: spaceQuery,
          response: { 200: slackInstallWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        if (!isMember(actor, req.query.space_id)) throw new AppError(404, 'error.notFound');
        return view(req.query.space_id);
      },
    );

    app.get(
      '/slack/auth/start',
      {
        schema: {
          tags: TAG,
          summary: 'Slack’s authorization address for installing the app into a workspace for a space',
          querystring: spaceQuery.extend({ redirect_uri: z.string().url().max(2000) }),
          response: { 200: slackStartWireSchema },
        },
      },
      async (req) => {
        authorize(req.actor, MANAGE, req.query.space_id);
        if (!configured) throw new AppError(404, 'notify.slackNotConfigured');
        if (req.query.redirect_uri.split('?')[0] !== `${deps.config.appUrl}/callback/slack`)
          throw new AppError(400, 'error.invalidRedirectUri', { errorType: 'invalid_redirect_uri' });
        const state = sealSlackState(deps.sealer, {
          userId: req.auth!.user.id,
          spaceId: req.query.space_id,
          redirectUri: req.query.redirect_uri,
        });
        return { url: api.authorizeUrl({ redirectUri: req.query.redirect_uri, state }) };
      },
    );

    app.post(
      '/slack/auth',
      {
        schema: {
          tags: TAG,
          summary: 'Finish installing Slack: the code Slack sent to /callback/slack',
          body: slackAuthBody,
          response: { 200: slackInstallWireSchema },
        },
      },
      async (req) => {
        if (!configured) throw new AppError(404, 'notify.slackNotConfigured');
        if (req.body.error) throw new AppError(400, 'error.accessDenied', { errorType: 'access_denied' });
        if (!req.body.code) throw new AppError(400, 'error.missingCode', { errorType: 'missing_code' });
        const state = openSlackState(deps.sealer, req.body.state);
        if (!state || state.userId !== req.auth!.user.id || state.redirectUri !== req.body.redirect_uri)
          throw new AppError(400, 'error.invalidState', { errorType: 'invalid_state' });
        authorize(req.actor, MANAGE, state.spaceId);
        let access: Awaited<ReturnType<typeof api.oauthAccess>>;
        try {
          access = await api.oauthAccess(req.body.code, req.body.redirect_uri);
        } catch (error) {
          throw failure(error, 'notify.slackExchangeFailed');
        }
        await saveSlackInstall(db, deps.sealer, {
          spaceId: state.spaceId,
          userId: req.auth!.user.id,
          locale: req.auth!.user.locale ?? 'ru',
          access,
        });
        return view(state.spaceId);
      },
    );

    app.get(
      '/slack/channels',
      {
        schema: {
          tags: TAG,
          summary: 'The Slack channels the space’s notifications can go to',
          querystring: spaceQuery,
          response: { 200: slackChannelsWireSchema },
        },
      },
      async (req) => {
        authorize(req.actor, MANAGE, req.query.space_id);
        const row = await slackInstall(db, req.query.space_id);
        if (!row) throw new AppError(404, 'notify.slackNotInstalled');
        try {
          return { items: await api.channels(slackToken(deps.sealer, row)) };
        } catch (error) {
          throw failure(error, 'notify.slackFailed');
        }
      },
    );

    app.put(
      '/slack/channel',
      {
        schema: {
          tags: TAG,
          summary: 'Choose the Slack channel of the space’s notifications',
          body: slackChannelBody,
          response: { 200: slackInstallWireSchema },
        },
      },
      async (req) => {
        authorize(req.actor, MANAGE, req.body.space_id);
        const row = await slackInstall(db, req.body.space_id);
        if (!row) throw new AppError(404, 'notify.slackNotInstalled');
        let channels: Awaited<ReturnType<typeof api.channels>>;
        try {
          channels = await api.channels(slackToken(deps.sealer, row));
        } catch (error) {
          throw failure(error, 'notify.slackFailed');
        }
        const channel = channels.find((c) => c.id === req.body.channel_id);
        if (!channel)
          throw new AppError(400, 'field.invalid', {
            errorType: 'validation',
            fields: { channel_id: 'field.invalid' },
          });
        await chooseSlackChannel(db, req.body.space_id, channel);
        return view(req.body.space_id);
      },
    );

    app.delete(
      '/slack',
      {
        schema: {
          tags: TAG,
          summary: 'Remove Slack from a space (the token is revoked at Slack)',
          querystring: spaceQuery,
          response: { 200: slackInstallWireSchema },
        },
      },
      async (req) => {
        authorize(req.actor, MANAGE, req.query.space_id);
        await removeSlack(db, deps.sealer, api, req.query.space_id);
        return view(req.query.space_id);
      },
    );
  });

  // Public (signed by the sender, no session): outside the signed-in scope.
  // Slack's Events API: signed with the signing secret over the exact bytes sent, so the body is kept raw.
  const signingSecret = deps.config.SLACK_SIGNING_SECRET;
  await root.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    scope.post('/slack/events', { schema: { hide: true } }, async (req, reply) => {
      if (!signingSecret) return reply.status(404).send({ error: 'Not found' });
      const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
      const header = (name: string) => {
        const v = req.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      if (
        !verifySlackSignature(
          signingSecret,
          { timestamp: header('x-slack-request-timestamp'), signature: header('x-slack-signature') },
          raw,
        )
      )
        return reply.status(401).send({ error: 'invalid signature' });
      let payload: {
        type?: string;
        challenge?: string;
        team_id?: string;
        event?: { type?: string; tokens?: { bot?: string[] } };
      };
      try {
        payload = JSON.parse(raw) as typeof payload;
      } catch {
        return reply.status(400).send({ error: 'invalid JSON' });
      }
      if (payload.type === 'url_verification') return { challenge: payload.challenge ?? '' };
      const kind = payload.event?.type;
      if (payload.type === 'event_callback' && payload.team_id && kind === 'app_uninstalled')
        await slackTeamGone(db, payload.team_id, kind);
      if (payload.type === 'event_callback' && payload.team_id && kind === 'tokens_revoked')
        await slackTeamGone(db, payload.team_id, kind, payload.event?.tokens?.bot ?? []);
      return { ok: true };
    });
  });
}
