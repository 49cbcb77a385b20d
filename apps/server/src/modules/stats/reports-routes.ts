import { reportInput } from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app';
import { type AuthContext, requireAuth } from '../../http/auth';
import { requestLocale } from '../../http/locale';
import { taskClock } from '../../lib/clock';
import { loadActor } from '../spaces/actor';
import { createReport, deleteReport, listReports, sendReportNow, updateReport } from './reports';

const bearer = [{ bearer: [] }];
const TAG = ['stats'];
const id = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);

/** Scheduled statistics reports (stats/reports, /reports): list with history, create, edit, delete, send now. */
export function registerReportRoutes(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: (token: string) => Promise<AuthContext>,
) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = deps.database;
  const preHandler = requireAuth(authenticate);
  const reportDeps = { db, mailer: deps.mailer, appUrl: deps.config.appUrl, log: deps.log };
  app.get(
    '/stats/reports',
    {
      preHandler,
      schema: {
        tags: TAG,
        security: bearer,
        summary: "The space's scheduled reports and their sending history",
        querystring: z.object({ space_id: id }),
      },
    },
    async (req) =>
      listReports(db, await loadActor(db, req.auth!.user), requestLocale(req), req.query.space_id),
  );
  app.post(
    '/stats/reports',
    { preHandler, schema: { tags: TAG, security: bearer, summary: 'Schedule a report', body: reportInput } },
    async (req) =>
      createReport(db, await loadActor(db, req.auth!.user), requestLocale(req), req.body, taskClock.now()),
  );
  app.put(
    '/stats/reports/:id',
    {
      preHandler,
      schema: {
        tags: TAG,
        security: bearer,
        summary: 'Change a report',
        params: z.object({ id }),
        body: reportInput,
      },
    },
    async (req) =>
      updateReport(
        db,
        await loadActor(db, req.auth!.user),
        requestLocale(req),
        req.params.id,
        req.body,
        taskClock.now(),
      ),
  );
  app.delete(
    '/stats/reports/:id',
    {
      preHandler,
      schema: { tags: TAG, security: bearer, summary: 'Delete a report', params: z.object({ id }) },
    },
    async (req) => {
      await deleteReport(db, await loadActor(db, req.auth!.user), req.params.id);
      return { ok: true };
    },
  );
  app.post(
    '/stats/reports/:id/send',
    {
      preHandler,
      schema: {
        tags: TAG,
        security: bearer,
        summary: 'Send the report now for its last finished period',
        params: z.object({ id }),
      },
    },
    async (req) =>
      sendReportNow(
        reportDeps,
        await loadActor(db, req.auth!.user),
        requestLocale(req),
        req.params.id,
        taskClock.now(),
      ),
  );
}
