import {
  createMonitoringFeedBody,
  monitoringFeedFetchWireSchema,
  monitoringFeedsWireSchema,
  monitoringFeedWireSchema,
  okTrueWireSchema,
  updateMonitoringFeedBody,
} from '@otklik/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../../http/auth';
import { rowId as id } from '../../../http/validation';
import type { AppDeps } from '../../deps';
import * as service from './service';

const TAG = ['monitoring'];
const idParams = z.object({ id });
const spaceQuery = z.object({ space_id: id.optional() });

/** RSS/Atom sources of monitoring (issue 21): administrators of a space with monitoring on. */
export async function registerMonitoringFeedsModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const net: service.FeedNetwork = {
      allowPrivate: deps.config.FEEDS_ALLOW_PRIVATE === 'true',
      network: deps.mediaNetwork,
    };
    const run = { db, bus: deps.bus, net, log: deps.log };
    const one = async (req: FastifyRequest<{ Params: { id: number } }>) =>
      service.getFeed(db, req.actor, req.params.id);

    app.get(
      '/monitoring/feeds',
      {
        schema: {
          tags: TAG,
          summary: 'RSS/Atom sources of the spaces',
          querystring: spaceQuery,
          response: { 200: monitoringFeedsWireSchema },
        },
      },
      async (req) => {
        const allowed = service.feedSpaces(req.actor);
        const spaceIds =
          req.query.space_id === undefined ? allowed : allowed.filter((s) => s === req.query.space_id);
        return { items: (await service.listFeeds(db, spaceIds)).map(service.presentFeed), spaces: allowed };
      },
    );

    app.post(
      '/monitoring/feeds',
      {
        schema: {
          tags: TAG,
          summary: 'Add an RSS/Atom source and fetch it at once',
          body: createMonitoringFeedBody,
          response: { 200: monitoringFeedWireSchema },
        },
      },
      async (req) => {
        const row = await service.createFeed(db, req.actor, net, req.body);
        const { feed } = await service.refreshFeed(run, row);
        return service.presentFeed(feed);
      },
    );

    app.put(
      '/monitoring/feeds/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Rename an RSS/Atom source or change its address',
          params: idParams,
          body: updateMonitoringFeedBody,
          response: { 200: monitoringFeedWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = await service.getFeed(db, actor, req.params.id);
        return service.presentFeed(await service.updateFeed(db, actor, net, row, req.body));
      },
    );

    app.delete(
      '/monitoring/feeds/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Remove an RSS/Atom source with its mentions',
          params: idParams,
          response: { 200: okTrueWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        await service.deleteFeed(db, actor, await service.getFeed(db, actor, req.params.id));
        return { ok: true as const };
      },
    );

    app.post(
      '/monitoring/feeds/:id/fetch',
      {
        schema: {
          tags: TAG,
          summary: 'Fetch an RSS/Atom source now',
          params: idParams,
          response: { 200: monitoringFeedFetchWireSchema },
        },
      },
      async (req) => {
        const result = await service.refreshFeed(run, await one(req));
        return {
          created: result.created,
          not_modified: result.notModified,
          feed: service.presentFeed(result.feed),
        };
      },
    );
  });
}
