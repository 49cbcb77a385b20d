import {
  createHdeBody,
  createHdeTicketBody,
  hdeIntegrationWireSchema,
  hdeListWireSchema,
  hdeTicketAnswerWireSchema,
  hdeTicketsWireSchema,
  okTrueWireSchema,
  updateHdeBody,
} from '@otklik/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { AppError, notFound } from '../../lib/errors';
import type { AppDeps } from '../deps';
import { getScopedChat, getScopedItem } from '../inbox/read/scope';
import { authorize, isMember, type ServerActor, spaceIdsWhere } from '../spaces/actor';
import { presentHde, presentHdeTicket } from './presenter';
import * as service from './service';

const TAG = ['hde'];
const MANAGE = 'settings.manage' as const;
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const recordParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive().optional() });

const KINDS = [
  { kind: 'item', path: 'items', ability: 'items.view' },
  { kind: 'chat', path: 'chats', ability: 'messages.view' },
] as const;

function assertManageable(actor: ServerActor, row: service.HdeRow | undefined): service.HdeRow {
  if (!row || !isMember(actor, row.spaceId)) throw notFound();
  authorize(actor, MANAGE, row.spaceId);
  return row;
}

/**
 * HelpDeskEddy (issue 21): a space's administrators connect it (settings/hde/{id}); whoever may see an
 * item or a chat turns it into a ticket; a job (jobs/hde-sync.ts) keeps the ticket statuses synced.
 */
export async function registerHdeModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const policy = { allowPrivate: deps.config.HDE_ALLOW_PRIVATE === 'true', network: deps.mediaNetwork };

    app.get(
      '/hde',
      {
        schema: {
          tags: TAG,
          summary: 'HelpDeskEddy connections of the spaces one administers',
          querystring: spaceQuery,
          response: { 200: hdeListWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        if (req.query.space_id !== undefined) authorize(actor, MANAGE, req.query.space_id);
        const spaceIds =
          req.query.space_id !== undefined ? [req.query.space_id] : spaceIdsWhere(actor, MANAGE);
        const rows = await service.listIntegrations(db, spaceIds);
        return { items: rows.map(presentHde), space_ids: spaceIdsWhere(actor, MANAGE) };
      },
    );

    app.post(
      '/hde',
      {
        schema: {
          tags: TAG,
          summary: 'Connect HelpDeskEddy to a space (the key is stored sealed)',
          body: createHdeBody,
          response: { 200: hdeIntegrationWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, MANAGE, req.body.space_id);
        await service.assertDomain(req.body.domain, policy);
        const row = await service.createIntegration(db, deps.sealer, req.body, actor.userId);
        return { integration: presentHde(row) };
      },
    );

    app.get(
      '/hde/:id',
      {
        schema: {
          tags: TAG,
          summary: 'One HelpDeskEddy connection',
          params: idParams,
          response: { 200: hdeIntegrationWireSchema },
        },
      },
      async (req) => {
        const row = assertManageable(req.actor, await service.getIntegration(db, req.params.id));
        return { integration: presentHde(row) };
      },
    );

    app.put(
      '/hde/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Change a HelpDeskEddy connection (a blank key keeps the stored one)',
          params: idParams,
          body: updateHdeBody,
          response: { 200: hdeIntegrationWireSchema },
        },
      },
      async (req) => {
        const row = assertManageable(req.actor, await service.getIntegration(db, req.params.id));
        if (req.body.domain !== undefined) await service.assertDomain(req.body.domain, policy);
        return { integration: presentHde(await service.updateIntegration(db, deps.sealer, row, req.body)) };
      },
    );

    app.delete(
      '/hde/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Disconnect HelpDeskEddy',
          params: idParams,
          response: { 200: okTrueWireSchema },
        },
      },
      async (req) => {
        const row = assertManageable(req.actor, await service.getIntegration(db, req.params.id));
        await service.deleteIntegration(db, row);
        return { ok: true as const };
      },
    );

    app.post(
      '/hde/:id/test',
      {
        schema: {
          tags: TAG,
          summary: 'Check the address, email and key against HelpDeskEddy',
          params: idParams,
          response: { 200: hdeIntegrationWireSchema },
        },
      },
      async (req) => {
        const row = assertManageable(req.actor, await service.getIntegration(db, req.params.id));
        return { integration: presentHde(await service.testConnection(db, deps.sealer, row)) };
      },
    );

    for (const { kind, path, ability } of KINDS) {
      const target = async (req: FastifyRequest, id: number): Promise<service.HdeTarget> => {
        const { actor } = req;
        return kind === 'item'
          ? { kind, row: await getScopedItem(db, actor, id, ability) }
          : { kind, row: await getScopedChat(db, actor, id, ability) };
      };

      app.get(
        `/${path}/:id/hde-tickets`,
        {
          schema: {
            tags: TAG,
            summary: `HelpDeskEddy tickets made from one ${kind}`,
            params: recordParams,
            response: { 200: hdeTicketsWireSchema },
          },
        },
        async (req) => {
          const t = await target(req, req.params.id);
          const integration = await service.integrationOfSpace(db, t.row.spaceId);
          return {
            tickets: (await service.ticketsOf(db, t)).map(presentHdeTicket),
            integration_id: integration?.id ?? null,
          };
        },
      );

      app.post(
        `/${path}/:id/hde-tickets`,
        {
          schema: {
            tags: TAG,
            summary: `Create a HelpDeskEddy ticket from a ${kind} (its text and the author's contact)`,
            params: recordParams,
            body: createHdeTicketBody,
            response: { 200: hdeTicketAnswerWireSchema },
          },
        },
        async (req) => {
          const t = await target(req, req.params.id);
          const integration = await service.integrationOfSpace(db, t.row.spaceId);
          if (!integration) throw new AppError(409, 'hde.notConfigured');
          const row = await service.openTicket({ db, sealer: deps.sealer, bus: deps.bus }, integration, t, {
            title: req.body.title,
            userId: req.auth!.user.id,
            by: req.actor,
          });
          return { ticket: presentHdeTicket(row) };
        },
      );
    }
  });
}
