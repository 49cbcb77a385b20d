import { createReadStream } from 'node:fs';
import { exportInput } from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app';
import { type AuthContext, requireAuth } from '../../http/auth';
import { requestLocale } from '../../http/locale';
import { taskClock } from '../../lib/clock';
import { loadActor } from '../spaces/actor';
import { exportFile, listExports, startExport } from './exports';

const bearer = [{ bearer: [] }];
const TAG = ['stats'];
const id = z.coerce
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);

/** Background exports (stats/export): start one, the caller's list with progress, download a file. */
export function registerExportRoutes(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: (token: string) => Promise<AuthContext>,
) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = deps.database;
  const preHandler = requireAuth(authenticate);
  app.get(
    '/stats/exports',
    {
      preHandler,
      schema: {
        tags: TAG,
        security: bearer,
        summary: "The caller's exports of the space, newest first",
        querystring: z.object({ space_id: id }),
      },
    },
    async (req) =>
      listExports(db, await loadActor(db, req.auth!.user), requestLocale(req), req.query.space_id),
  );
  app.post(
    '/stats/exports',
    {
      preHandler,
      schema: {
        tags: TAG,
        security: bearer,
        summary:
          'Start a background export of items, dialogs, messages, replies or one stats tab (CSV or XLSX)',
        body: exportInput,
      },
    },
    async (req) =>
      startExport(
        { db, bus: deps.bus },
        await loadActor(db, req.auth!.user),
        requestLocale(req),
        req.body,
        taskClock.now(),
      ),
  );
  app.get(
    '/stats/exports/:id/file',
    {
      preHandler,
      schema: {
        tags: TAG,
        security: bearer,
        summary: "Download a finished export's file (its creator only, until it expires)",
        params: z.object({ id }),
      },
    },
    async (req, reply) => {
      const file = await exportFile(
        db,
        await loadActor(db, req.auth!.user),
        deps.config.dataDir,
        req.params.id,
        taskClock.now(),
      );
      reply
        .header('content-type', file.type)
        .header('content-disposition', `attachment; filename="${file.name}"`)
        .header('cache-control', 'private, no-store');
      if (file.size !== null) reply.header('content-length', String(file.size));
      return reply.send(createReadStream(file.path));
    },
  );
}
