import {
  createRuleBody,
  isMessageKey,
  ruleDryRunResultWireSchema,
  ruleFailuresWireSchema,
  ruleMatchesWireSchema,
  ruleStatsWireSchema,
  rulesListWireSchema,
  ruleWireSchema,
  statsQuery,
  translate,
  updateRuleBody,
} from '@otklik/shared';
import { and, desc, eq, gte } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { items, ruleMatches, rules } from '../../db/schema';
import { type Authenticate, signedInScope } from '../../http/auth';
import { requestLocale } from '../../http/locale';
import { registerManagedKind } from '../../http/managed-routes';
import { taskClock } from '../../lib/clock';
import { forbidden, notFound } from '../../lib/errors';
import type { AppDeps } from '../deps';
import { RECENT_FAILURE_DAYS } from '../inbox/failures/failures';
import { scopeCondition, scopeFor } from '../inbox/read/scope';
import { authorize, isMember, type ServerActor, spaceIdsWhere } from '../spaces/actor';
import { listSpaceIds } from '../tags/policy';
import { dryRun } from './dry-run';
import type { EngineDeps } from './engine';
import * as service from './service';
import { ruleStats } from './stats';

const TAG = ['settings'];
const MANAGE = 'rules.manage' as const;
const idParams = z.object({ id: z.coerce.number().int().positive() });
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive().optional() });
const dryRunBody = createRuleBody.safeExtend({ rule_id: z.number().int().positive().nullable().optional() });

function assertRule(actor: ServerActor, row: service.RuleRow | undefined): service.RuleRow {
  if (!row || !isMember(actor, row.spaceId)) throw notFound();
  authorize(actor, MANAGE, row.spaceId);
  return row;
}

/** Settings → auto-rules, their dry run and stats/rules (issue 17). */
export async function registerRulesModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const engineDeps: EngineDeps = {
      db,
      bus: deps.bus,
      config: deps.config,
      sealer: deps.sealer,
      locks: deps.locks,
      log: deps.log,
    };

    app.get(
      '/rules',
      {
        schema: {
          tags: TAG,
          summary: 'Auto-rules, in order',
          querystring: spaceQuery,
          response: { 200: rulesListWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const asked = listSpaceIds(actor, req.query.space_id);
        if (req.query.space_id !== undefined) authorize(actor, MANAGE, req.query.space_id);
        const allowed = new Set(spaceIdsWhere(actor, MANAGE));
        const rows = await service.listRules(
          db,
          asked.filter((id) => allowed.has(id)),
        );
        return { items: rows.map(service.presentRule) };
      },
    );

    registerManagedKind(app, {
      path: '/rules',
      tags: TAG,
      read: { summary: 'One auto-rule' },
      authorizeCreate: (actor, spaceId) => authorize(actor, MANAGE, spaceId),
      manageable: async (actor, id) => assertRule(actor, await service.getRule(db, id)),
      record: ruleWireSchema,
      present: service.presentRule,
      create: {
        summary: 'Create an auto-rule',
        body: createRuleBody,
        run: ({ space_id, ...input }, actor) => service.createRule(db, space_id, input, actor.userId, actor),
      },
      update: {
        summary: 'Change an auto-rule',
        body: updateRuleBody,
        run: (row, body, actor) => service.updateRule(db, row, body, actor),
      },
      remove: {
        summary: 'Delete an auto-rule',
        run: (row, actor) => service.deleteRule(db, row, actor),
      },
    });

    app.post(
      '/rules/dry-run',
      {
        schema: {
          tags: TAG,
          summary: 'Which of the last 1,000 items a rule (saved or not) would match, and what it would do',
          body: dryRunBody,
          response: { 200: ruleDryRunResultWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, MANAGE, req.body.space_id);
        if (req.body.rule_id) {
          const row = assertRule(actor, await service.getRule(db, req.body.rule_id));
          if (row.spaceId !== req.body.space_id) throw notFound();
        }
        return dryRun(
          engineDeps,
          req.body.space_id,
          { id: req.body.rule_id ?? null, conditions: req.body.conditions, actions: req.body.actions },
          requestLocale(req),
        );
      },
    );

    app.get(
      '/rules/:id/matches',
      {
        schema: {
          tags: TAG,
          summary: 'The items an auto-rule ran on, newest first (the stats drill-down)',
          params: idParams,
          response: { 200: ruleMatchesWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = assertRule(actor, await service.getRule(db, req.params.id));
        const list = await db
          .select({
            item_id: ruleMatches.itemId,
            status: ruleMatches.status,
            actions_done: ruleMatches.actionsDone,
            results: ruleMatches.results,
            error: ruleMatches.error,
            at: ruleMatches.at,
            excerpt: items.excerpt,
          })
          .from(ruleMatches)
          .leftJoin(items, eq(items.id, ruleMatches.itemId))
          .where(and(eq(ruleMatches.ruleId, row.id)))
          .orderBy(desc(ruleMatches.at), desc(ruleMatches.id))
          .limit(100);
        return { items: list.map((m) => ({ ...m, at: m.at.toISOString(), excerpt: m.excerpt ?? '' })) };
      },
    );

    app.get(
      '/errors/rules',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Recent failed auto-rule runs (settings/errors), newest first',
          description:
            'Runs of the last 7 days where an action failed (nothing of the run was kept), for those who see errors (`errors.view`), on the items of the accounts they see.',
          response: { 200: ruleFailuresWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const scope = await scopeFor(db, actor, 'errors.view');
        if (scope.spaces.size === 0) throw forbidden();
        const since = new Date(taskClock.now().getTime() - RECENT_FAILURE_DAYS * 86_400_000);
        const list = await db
          .select({
            id: ruleMatches.id,
            space_id: ruleMatches.spaceId,
            rule_id: ruleMatches.ruleId,
            rule: rules.name,
            item_id: ruleMatches.itemId,
            excerpt: items.excerpt,
            error: ruleMatches.error,
            results: ruleMatches.results,
            at: ruleMatches.at,
          })
          .from(ruleMatches)
          .innerJoin(rules, eq(rules.id, ruleMatches.ruleId))
          .innerJoin(items, eq(items.id, ruleMatches.itemId))
          .where(
            and(
              eq(ruleMatches.status, 'failed'),
              gte(ruleMatches.at, since),
              scopeCondition(scope, ruleMatches.spaceId, items.objectId),
            ),
          )
          .orderBy(desc(ruleMatches.at), desc(ruleMatches.id))
          .limit(100);
        const locale = requestLocale(req);
        return {
          items: list.map(({ results, ...m }) => {
            // The failed action's reason in the caller's language; a failure of the moment keeps its text.
            const reason = results.find((r) => r.outcome === 'failed')?.reason;
            return {
              ...m,
              error: reason && isMessageKey(reason) ? translate(locale, reason) : m.error,
              at: m.at.toISOString(),
              excerpt: m.excerpt ?? '',
            };
          }),
        };
      },
    );

    app.get(
      '/stats/rules',
      {
        schema: {
          tags: ['stats'],
          summary: 'Per auto-rule: items matched, actions done, failed runs, per day',
          querystring: statsQuery,
          response: { 200: ruleStatsWireSchema },
        },
      },
      async (req) => ruleStats(db, req.actor, req.query, taskClock.now()),
    );
  });
}
