import {
  auditPageWireSchema,
  auditQuerySchema,
  auditRetentionBody,
  auditRetentionWireSchema,
  auditSettingsWireSchema,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import type { AppDeps } from '../deps';
import { authorize } from '../spaces/actor';
import * as service from './service';

const TAG = ['settings'];
/** Administrators of a space with the `audit` flag on (the ability carries the flag). */
const VIEW = 'audit.view' as const;

/**
 * Settings → action log (issue 16). Read-only by design: there is no route that edits or deletes an
 * entry; only the retention setting changes, and that change is itself logged.
 */
export async function registerAuditModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;

    app.get(
      '/audit',
      {
        schema: {
          tags: TAG,
          summary: 'Action log entries, newest first (keyset: pass next_cursor as cursor)',
          querystring: auditQuerySchema,
          response: { 200: auditPageWireSchema },
        },
      },
      async (req) => {
        authorize(req.actor, VIEW, req.query.space_id);
        return service.findEntries(db, req.query);
      },
    );

    app.get(
      '/audit/export.csv',
      {
        schema: {
          tags: TAG,
          summary: 'Action log as CSV (streamed)',
          querystring: auditQuerySchema,
        },
      },
      async (req, reply) => {
        authorize(req.actor, VIEW, req.query.space_id);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="action-log-${req.query.space_id}.csv"`)
          .send(service.streamCsv(db, { ...req.query, cursor: undefined }));
      },
    );

    app.get(
      '/audit/settings',
      {
        schema: {
          tags: TAG,
          summary: "The log's retention and the users to filter by",
          querystring: z.object({ space_id: z.coerce.number().int().positive() }),
          response: { 200: auditSettingsWireSchema },
        },
      },
      async (req) => {
        const spaceId = req.query.space_id;
        authorize(req.actor, VIEW, spaceId);
        const [days, users] = await Promise.all([
          service.getRetentionDays(db, spaceId),
          service.findSpaceUsers(db, spaceId),
        ]);
        return { space_id: spaceId, retention_days: days, users };
      },
    );

    app.put(
      '/audit/settings',
      {
        schema: {
          tags: TAG,
          summary: 'How many days entries are kept',
          body: auditRetentionBody,
          response: { 200: auditRetentionWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, VIEW, req.body.space_id);
        await service.setRetentionDays(db, req.body.space_id, req.body.days, actor);
        return { space_id: req.body.space_id, retention_days: req.body.days };
      },
    );
  });
}
