import {
  csiAccountsWireSchema,
  csiAccountWireSchema,
  csiResponsePageWireSchema,
  csiResponsesQuery,
  csiSettingsBody,
  csiStatsWireSchema,
  statsQuery,
} from '@otklik/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { objects } from '../../db/schema';
import { type Authenticate, signedInScope } from '../../http/auth';
import { AppError, notFound } from '../../lib/errors';
import { audit } from '../audit/record';
import type { AppDeps } from '../deps';
import { inScope } from '../inbox/read/scope';
import { authorize, isMember } from '../spaces/actor';
import { resolvePeriod } from '../stats/period';
import { responses } from './queries';
import { csiStatsOf, spaceScope } from './scope';
import { listAccounts, loadSettings, presentAccount, saveSettings, surveysChats } from './settings';

// CSI (issue 21): settings/csi per account (csi.manage), the responses list (csi.view) and the
// stats/csi tab's figures (csi.view). Reads are limited to the caller's scope within one space.

const spaceQuery = z.object({ space_id: z.coerce.number().int().positive() });
const objectParams = z.object({ id: z.coerce.number().int().positive() });

export async function registerCsiModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;

    app.get(
      '/csi/accounts',
      {
        schema: {
          tags: ['settings'],
          summary: 'CSI survey settings per account',
          querystring: spaceQuery,
          response: { 200: csiAccountsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, 'csi.manage', req.query.space_id);
        const { scope } = await spaceScope(db, actor, req.query.space_id, 'csi.manage');
        return {
          accounts: await listAccounts(db, req.query.space_id, scope.spaces.get(req.query.space_id)!),
        };
      },
    );

    app.put(
      '/csi/accounts/:id',
      {
        schema: {
          tags: ['settings'],
          summary: "Change an account's CSI survey",
          params: objectParams,
          body: csiSettingsBody,
          response: { 200: csiAccountWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const [object] = await db.select().from(objects).where(eq(objects.id, req.params.id));
        if (!object || !isMember(actor, object.spaceId)) throw notFound();
        authorize(actor, 'csi.manage', object.spaceId);
        const { scope } = await spaceScope(db, actor, object.spaceId, 'csi.manage');
        if (!inScope(scope, object.spaceId, object.id)) throw notFound();
        if (!surveysChats(object.provider)) throw new AppError(400, 'csi.noChats');
        const before = await loadSettings(db, object.id);
        await db.transaction(async (t) => {
          const tx = t as unknown as Db;
          await saveSettings(tx, object, req.body);
          await audit(tx, actor, {
            spaceId: object.spaceId,
            kind: 'csi.settings',
            target: { type: 'account', id: object.id, label: object.name },
            before: {
              enabled: before.enabled,
              window_hours: before.window_hours,
              period_days: before.period_days,
            },
            after: {
              enabled: req.body.enabled,
              window_hours: req.body.window_hours,
              period_days: req.body.period_days,
            },
          });
        });
        return presentAccount(object, req.body);
      },
    );

    app.get(
      '/csi/responses',
      {
        schema: {
          tags: ['csi'],
          summary: 'Answered CSI surveys, newest first',
          querystring: csiResponsesQuery,
          response: { 200: csiResponsePageWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const { scope, timezone } = await spaceScope(db, actor, req.query.space_id, 'csi.view');
        const period =
          req.query.from && req.query.to
            ? await resolvePeriod(db, timezone, { from: req.query.from, to: req.query.to }, new Date())
            : null;
        return responses(db, scope, req.query, period);
      },
    );

    app.get(
      '/stats/csi',
      {
        schema: {
          tags: ['stats'],
          summary: 'CSI: CSAT, average score and response rate over time, by operator, account and network',
          querystring: statsQuery,
          response: { 200: csiStatsWireSchema },
        },
      },
      async (req) => csiStatsOf(db, req.actor, req.query, new Date()),
    );
  });
}
