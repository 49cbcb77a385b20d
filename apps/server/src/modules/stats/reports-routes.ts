import {
  okTrueWireSchema,
  reportInput,
  reportRunWireSchema,
  reportsListWireSchema,
  reportWireSchema,
} from '@otklik/shared';
import { z } from 'zod';
import type { ZodApp } from '../../http/auth';
import { requestLocale } from '../../http/locale';
import { rowId as id } from '../../http/validation';
import { taskClock } from '../../lib/clock';
import type { AppDeps } from '../deps';
import { createReport, deleteReport, listReports, sendReportNow, updateReport } from './reports';

const TAG = ['stats'];

/** Scheduled statistics reports (stats/reports, /reports): list with history, create, edit, delete, send now. */
export function registerReportRoutes(app: ZodApp, deps: AppDeps) {
  const { db } = deps.database;
  const reportDeps = { db, mailer: deps.mailer, appUrl: deps.config.appUrl, log: deps.log };
  app.get(
    '/stats/reports',
    {
      schema: {
        tags: TAG,
        summary: "The space's scheduled reports and their sending history",
        querystring: z.object({ space_id: id }),
        response: { 200: reportsListWireSchema },
      },
    },
    async (req) => listReports(db, req.actor, requestLocale(req), req.query.space_id),
  );
  app.post(
    '/stats/reports',
    {
      schema: {
        tags: TAG,
        summary: 'Schedule a report',
        body: reportInput,
        response: { 200: reportWireSchema },
      },
    },
    async (req) => createReport(db, req.actor, requestLocale(req), req.body, taskClock.now()),
  );
  app.put(
    '/stats/reports/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Change a report',
        params: z.object({ id }),
        body: reportInput,
        response: { 200: reportWireSchema },
      },
    },
    async (req) => updateReport(db, req.actor, requestLocale(req), req.params.id, req.body, taskClock.now()),
  );
  app.delete(
    '/stats/reports/:id',
    {
      schema: {
        tags: TAG,
        summary: 'Delete a report',
        params: z.object({ id }),
        response: { 200: okTrueWireSchema },
      },
    },
    async (req) => {
      await deleteReport(db, req.actor, req.params.id);
      return { ok: true as const };
    },
  );
  app.post(
    '/stats/reports/:id/send',
    {
      schema: {
        tags: TAG,
        summary: 'Send the report now for its last finished period',
        params: z.object({ id }),
        response: { 200: reportRunWireSchema },
      },
    },
    async (req) => sendReportNow(reportDeps, req.actor, requestLocale(req), req.params.id, taskClock.now()),
  );
}
