import {
  createYouscanBody,
  monitoringMentionsReadWireSchema,
  okTrueWireSchema,
  updateYouscanBody,
  youscanImportWireSchema,
  youscanListWireSchema,
  youscanMentionsWireSchema,
  youscanWireSchema,
} from '@otklik/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { rowId as id } from '../../http/validation';
import type { AppDeps } from '../deps';
import * as service from './service';

const TAG = ['youscan'];
const idParams = z.object({ id });
const spaceQuery = z.object({ space_id: id.optional() });
const pageQuery = z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1) });
const readBody = z.object({ ids: z.array(id).max(500).optional() });

/**
 * YouScan (issue 21): topics connected per space (youscan/{id}), their imported mentions, "import now".
 * The periodic import is jobs/youscan-import.ts.
 */
export async function registerYouscanModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const base = deps.config.YOUSCAN_API_URL;
    const one = async (req: FastifyRequest<{ Params: { id: number } }>) =>
      service.getTopic(db, req.actor, req.params.id);
    const presentOne = async (row: service.YouscanRow) => (await service.present(db, [row]))[0]!;

    app.get(
      '/youscan',
      {
        schema: {
          tags: TAG,
          summary: 'YouScan topics of the spaces',
          querystring: spaceQuery,
          response: { 200: youscanListWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const allowed = service.youscanSpaces(actor);
        const spaceIds =
          req.query.space_id === undefined ? allowed : allowed.filter((s) => s === req.query.space_id);
        return { items: await service.present(db, await service.listTopics(db, spaceIds)), spaces: allowed };
      },
    );

    app.post(
      '/youscan',
      {
        schema: {
          tags: TAG,
          summary: 'Connect a YouScan topic (the key is stored sealed) and import its last week',
          body: createYouscanBody,
          response: { 200: youscanWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = await service.createTopic(db, deps.sealer, actor, req.body);
        // The first import checks the key and the topic at once; a refusal undoes the connection.
        try {
          await service.importTopic(db, deps.bus, deps.sealer, base, row);
        } catch (error) {
          await service.deleteTopic(db, deps.bus, actor, row);
          throw error;
        }
        return presentOne(await service.getTopic(db, actor, row.id));
      },
    );

    app.get(
      '/youscan/:id',
      {
        schema: {
          tags: TAG,
          summary: 'One YouScan topic',
          params: idParams,
          response: { 200: youscanWireSchema },
        },
      },
      async (req) => presentOne(await one(req)),
    );

    app.put(
      '/youscan/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Change a YouScan topic (a blank key keeps the stored one)',
          params: idParams,
          body: updateYouscanBody,
          response: { 200: youscanWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = await service.getTopic(db, actor, req.params.id);
        return presentOne(await service.updateTopic(db, deps.sealer, actor, row, req.body));
      },
    );

    app.delete(
      '/youscan/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Disconnect a YouScan topic and drop its mentions',
          params: idParams,
          response: { 200: okTrueWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        await service.deleteTopic(db, deps.bus, actor, await service.getTopic(db, actor, req.params.id));
        return { ok: true as const };
      },
    );

    app.post(
      '/youscan/:id/import',
      {
        schema: {
          tags: TAG,
          summary: 'Import the topic’s new mentions now',
          params: idParams,
          response: { 200: youscanImportWireSchema },
        },
      },
      async (req) => {
        const row = await one(req);
        const result = await service.importTopic(db, deps.bus, deps.sealer, base, row);
        return { imported: result.imported, topic: await presentOne(await one(req)) };
      },
    );

    app.get(
      '/youscan/:id/mentions',
      {
        schema: {
          tags: TAG,
          summary: 'Imported mentions of a topic, newest first, paged',
          params: idParams,
          querystring: pageQuery,
          response: { 200: youscanMentionsWireSchema },
        },
      },
      async (req) => service.listMentions(db, await one(req), req.query.page),
    );

    app.post(
      '/youscan/:id/read',
      {
        schema: {
          tags: TAG,
          summary: 'Mark a topic’s mentions read: the listed ids, or all',
          params: idParams,
          body: readBody,
          response: { 200: monitoringMentionsReadWireSchema },
        },
      },
      async (req) => ({ updated: await service.markRead(db, deps.bus, await one(req), req.body.ids) }),
    );
  });
}
