import {
  itemWireSchema,
  type MonitoringQueryDto,
  mentionIssueWireSchema,
  mentionToInboxWireSchema,
  monitoringMentionFilterSchema,
  monitoringMentionIssueBody,
  monitoringMentionsReadWireSchema,
  monitoringMentionsWireSchema,
  monitoringMentionTagsBody,
  monitoringQueriesWireSchema,
  monitoringQueryInputSchema,
  monitoringQueryWireSchema,
  okTrueWireSchema,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { rowId as id } from '../../http/validation';
import type { AppDeps } from '../deps';
import { spaceIdsWhere } from '../spaces/actor';
import { registerCounter } from '../spaces/counts';
import { unreadCount as youscanUnread } from '../youscan/service';
import * as actions from './actions';
import * as service from './service';

const TAG = ['monitoring'];
const idParams = z.object({ id });
const spaceQuery = z.object({ space_id: id.optional() });
const pageQuery = monitoringMentionFilterSchema.extend({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
const readBody = z.object({ ids: z.array(id).max(500).optional() });

const presentQuery = (r: {
  id: number;
  spaceId: number;
  name: string;
  query: string;
  createdAt: Date;
}): MonitoringQueryDto => ({
  id: r.id,
  space_id: r.spaceId,
  name: r.name,
  query: r.query,
  unread: 0,
  total: 0,
  created_at: Math.floor(r.createdAt.getTime() / 1000),
});

/** Monitoring (issue 21): keyword queries per space and the mentions they caught. */
export async function registerMonitoringModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const actionDeps = { db, bus: deps.bus, config: deps.config, sealer: deps.sealer, locks: deps.locks };
    // Unread mentions of our own queries and of connected YouScan topics.
    registerCounter('monitoring_count', async (d, actor) => {
      const [own, youscan] = await Promise.all([service.unreadCount(d, actor), youscanUnread(d, actor)]);
      return own + youscan;
    });

    app.get(
      '/monitoring/queries',
      {
        schema: {
          tags: TAG,
          summary: 'Keyword queries with their unread and total mentions',
          querystring: spaceQuery,
          response: { 200: monitoringQueriesWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const allowed = spaceIdsWhere(actor, service.VIEW);
        const spaceIds =
          req.query.space_id === undefined ? allowed : allowed.filter((s) => s === req.query.space_id);
        return { items: await service.listQueries(db, actor, spaceIds), spaces: allowed };
      },
    );

    app.post(
      '/monitoring/queries',
      {
        schema: {
          tags: TAG,
          summary: 'Add a keyword query',
          body: monitoringQueryInputSchema,
          response: { 200: monitoringQueryWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        return presentQuery(await service.createQuery(db, actor, req.body));
      },
    );

    app.put(
      '/monitoring/queries/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Change a keyword query (mentions caught before stay)',
          params: idParams,
          body: monitoringQueryInputSchema,
          response: { 200: monitoringQueryWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        return presentQuery(await service.updateQuery(db, actor, req.params.id, req.body));
      },
    );

    app.delete(
      '/monitoring/queries/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Delete a keyword query and its mentions',
          params: idParams,
          response: { 200: okTrueWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        await service.deleteQuery(db, deps.bus, actor, req.params.id);
        return { ok: true as const };
      },
    );

    app.get(
      '/monitoring/queries/:id/mentions',
      {
        schema: {
          tags: TAG,
          summary: 'Mentions a query caught, newest first, paged',
          params: idParams,
          querystring: pageQuery,
          response: { 200: monitoringMentionsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const { page, ...filter } = req.query;
        return service.listMentions(db, actor, req.params.id, page, filter);
      },
    );

    app.post(
      '/monitoring/queries/:id/read',
      {
        schema: {
          tags: TAG,
          summary: 'Mark mentions read: the listed ids, or all of the query',
          params: idParams,
          body: readBody,
          response: { 200: monitoringMentionsReadWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        return { updated: await service.markRead(db, deps.bus, actor, req.params.id, req.body.ids) };
      },
    );

    app.post(
      '/monitoring/mentions/:id/inbox',
      {
        schema: {
          tags: TAG,
          summary: 'Send a mention to the inbox (a closed or snoozed comment is reopened as new)',
          params: idParams,
          response: { 200: mentionToInboxWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        return actions.sendToInbox(actionDeps, actor, req.params.id);
      },
    );

    app.put(
      '/monitoring/mentions/:id/tags',
      {
        schema: {
          tags: TAG,
          summary: "Set the tags of a mention's comment",
          params: idParams,
          body: monitoringMentionTagsBody,
          response: { 200: z.object({ item: itemWireSchema }) },
        },
      },
      async (req) => {
        const { actor } = req;
        return { item: await actions.tagMention(actionDeps, actor, req.params.id, req.body.tag_ids) };
      },
    );

    app.post(
      '/monitoring/mentions/:id/issue',
      {
        schema: {
          tags: TAG,
          summary: 'Turn a mention into a task linked to its comment',
          params: idParams,
          body: monitoringMentionIssueBody,
          response: { 200: mentionIssueWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = await actions.mentionToIssue(actionDeps, actor, req.params.id, req.body.title);
        return { id: row.id, space_id: row.spaceId, title: row.title };
      },
    );
  });
}
