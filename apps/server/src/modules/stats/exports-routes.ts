import { createReadStream } from 'node:fs';
import { exportInput, exportsListWireSchema, exportWireSchema } from '@otklik/shared';
import { z } from 'zod';
import type { ZodApp } from '../../http/auth';
import { requestLocale } from '../../http/locale';
import { rowId as id } from '../../http/validation';
import { taskClock } from '../../lib/clock';
import type { AppDeps } from '../deps';
import { exportFile, listExports, startExport } from './exports';

const TAG = ['stats'];

/** Background exports (stats/export): start one, the caller's list with progress, download a file. */
export function registerExportRoutes(app: ZodApp, deps: AppDeps) {
  const { db } = deps.database;
  app.get(
    '/stats/exports',
    {
      schema: {
        tags: TAG,
        summary: "The caller's exports of the space, newest first",
        querystring: z.object({ space_id: id }),
        response: { 200: exportsListWireSchema },
      },
    },
    async (req) => listExports(db, req.actor, requestLocale(req), req.query.space_id),
  );
  app.post(
    '/stats/exports',
    {
      schema: {
        tags: TAG,
        summary:
          'Start a background export of items, dialogs, messages, replies or one stats tab (CSV or XLSX)',
        body: exportInput,
        response: { 200: exportWireSchema },
      },
    },
    async (req) =>
      startExport({ db, bus: deps.bus }, req.actor, requestLocale(req), req.body, taskClock.now()),
  );
  app.get(
    '/stats/exports/:id/file',
    {
      schema: {
        tags: TAG,
        summary: "Download a finished export's file (its creator only, until it expires)",
        params: z.object({ id }),
      },
    },
    async (req, reply) => {
      const file = await exportFile(db, req.actor, deps.config.dataDir, req.params.id, taskClock.now());
      reply
        .header('content-type', file.type)
        .header('content-disposition', `attachment; filename="${file.name}"`)
        .header('cache-control', 'private, no-store');
      if (file.size !== null) reply.header('content-length', String(file.size));
      return reply.send(createReadStream(file.path));
    },
  );
}
