import { auditQuerySchema, auditRetentionBody } from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app';
import { type AuthContext, requireAuth } from '../../http/auth';
import { authorize, loadActor } from '../spaces/actor';
import * as service from './service';

const bearer = [{ bearer: [] }];
const TAG = ['settings'];
/** Administrators of a space with the `audit` flag on (the ability carries the flag). */
const VIEW = 'audit.view' as const;

/**
 * Settings → action log (issue 16). Read-only by design: there is no route that edits or deletes an
 * entry; only the retention setting changes, and that change is itself logged.
 */
export async function registerAuditModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: (token: string) => Promise<AuthContext>,
) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const authenticated = requireAuth(authenticate);
  const { db } = deps.database;

  app.get(
    '/audit',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: bearer,
        summary: 'Action log entries, newest first (keyset: pass next_cursor as cursor)',
        querystring: auditQuerySchema,
      },
    },
    async (req) => {
      authorize(await loadActor(db, req.auth!.user), VIEW, req.query.space_id);
      return service.findEntries(db, req.query);
    },
  );

  app.get(
    '/audit/export.csv',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: bearer,
        summary: 'Action log as CSV (streamed)',
        querystring: auditQuerySchema,
      },
    },
    async (req, reply) => {
      authorize(await loadActor(db, req.auth!.user), VIEW, req.query.space_id);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="action-log-${req.query.space_id}.csv"`)
        .send(service.streamCsv(db, { ...req.query, cursor: undefined }));
    },
  );

  app.get(
    '/audit/settings',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: bearer,
        summary: "The log's retention and the users to filter by",
        querystring: z.object({ space_id: z.coerce.number().int().positive() }),
      },
    },
    async (req) => {
      const spaceId = req.query.space_id;
      authorize(await loadActor(db, req.auth!.user), VIEW, spaceId);
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
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: bearer,
        summary: 'How many days entries are kept',
        body: auditRetentionBody,
      },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      authorize(actor, VIEW, req.body.space_id);
      await service.setRetentionDays(db, req.body.space_id, req.body.days, actor);
      return { space_id: req.body.space_id, retention_days: req.body.days };
    },
  );
}
