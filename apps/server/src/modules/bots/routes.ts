import {
  botFailuresWireSchema,
  botStatsWireSchema,
  botsListWireSchema,
  botWireSchema,
  chatBotSessionWireSchema,
  createBotBody,
  statsQuery,
  updateBotBody,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { registerManagedKind } from '../../http/managed-routes';
import { taskClock } from '../../lib/clock';
import { forbidden, notFound } from '../../lib/errors';
import type { AppDeps } from '../deps';
import { RECENT_FAILURE_DAYS } from '../inbox/failures/failures';
import { getScopedChat, scopeFor } from '../inbox/read/scope';
import { authorize, isMember, type ServerActor, spaceIdsWhere } from '../spaces/actor';
import { listSpaceIds } from '../tags/policy';
import * as service from './service';

const TAG = ['settings'];
const MANAGE = 'bots.manage' as const;
const idParams = z.object({ id: z.coerce.number().int().positive() });
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive().optional() });

function assertBot(actor: ServerActor, row: service.BotRow | undefined): service.BotRow {
  if (!row || !isMember(actor, row.spaceId)) throw notFound();
  authorize(actor, MANAGE, row.spaceId);
  return row;
}

/** Settings → chat-bots, stats/bots and a chat's bot conversation (issue 17). */
export async function registerBotsModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;

    app.get(
      '/bots',
      {
        schema: {
          tags: TAG,
          summary: 'Chat-bots',
          querystring: spaceQuery,
          response: { 200: botsListWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const asked = listSpaceIds(actor, req.query.space_id);
        if (req.query.space_id !== undefined) authorize(actor, MANAGE, req.query.space_id);
        const allowed = new Set(spaceIdsWhere(actor, MANAGE));
        const rows = await service.listBots(
          db,
          asked.filter((id) => allowed.has(id)),
        );
        return { items: rows.map(service.presentBot) };
      },
    );

    app.get(
      '/errors/bots',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Recent failed chat-bot steps (settings/errors), newest first',
          description:
            'Steps of the last 7 days that failed (a webhook that failed every try, an AI step whose provider failed), for those who see errors (`errors.view`), in the chats of the accounts they see.',
          response: { 200: botFailuresWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const scope = await scopeFor(db, actor, 'errors.view');
        if (scope.spaces.size === 0) throw forbidden();
        const since = new Date(taskClock.now().getTime() - RECENT_FAILURE_DAYS * 86_400_000);
        return { items: await service.botFailures(db, scope, since) };
      },
    );

    registerManagedKind(app, {
      path: '/bots',
      tags: TAG,
      read: { summary: 'One chat-bot' },
      authorizeCreate: (actor, spaceId) => authorize(actor, MANAGE, spaceId),
      manageable: async (actor, id) => assertBot(actor, await service.getBot(db, id)),
      record: botWireSchema,
      present: service.presentBot,
      create: {
        summary: 'Create a chat-bot on a messenger account',
        body: createBotBody.safeExtend({ space_id: z.number().int().positive() }),
        run: ({ space_id, object_id, ...input }, actor) =>
          service.createBot(db, space_id, object_id, input, actor),
      },
      update: {
        summary: 'Change a chat-bot',
        body: updateBotBody,
        run: (row, body, actor) => service.updateBot(db, row, body, actor),
      },
      remove: {
        summary: 'Delete a chat-bot',
        run: (row, actor) => service.deleteBot(db, row, actor),
      },
    });

    app.get(
      '/chats/:id/bot',
      {
        schema: {
          tags: ['chats'],
          summary: "The chat's latest chat-bot conversation and the fields it collected (null: none)",
          params: idParams,
          response: { 200: chatBotSessionWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const chat = await getScopedChat(db, actor, req.params.id, 'messages.view');
        return { session: await service.chatBotSession(db, chat.id) };
      },
    );

    app.get(
      '/stats/bots',
      {
        schema: {
          tags: ['stats'],
          summary: 'Per chat-bot: conversations started, completed, handed off, dropped; per step a funnel',
          querystring: statsQuery,
          response: { 200: botStatsWireSchema },
        },
      },
      async (req) => service.botStats(db, req.actor, req.query, taskClock.now()),
    );
  });
}
