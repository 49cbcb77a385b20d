import {
  createScorecardBody,
  listWireSchema,
  qaAiScoreWireSchema,
  qaOverviewWireSchema,
  qaReviewBody,
  qaSampleDetailWireSchema,
  qaSamplesQuery,
  qaSampleWireSchema,
  qaSamplingRunWireSchema,
  qaScorecardWireSchema,
  qaStatsQuery,
  qaStatsWireSchema,
  updateScorecardBody,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { registerManagedKind } from '../../http/managed-routes';
import { patchOf } from '../../http/validation';
import { taskClock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import type { AppDeps } from '../deps';
import { scopeFor } from '../inbox/read/scope';
import { authorize, spaceIdsWhere } from '../spaces/actor';
import { listSpaceIds } from '../tags/policy';
import { aiScore } from './ai-score';
import { registerApprovalRoutes } from './approval-routes';
import { assertManageable, assertReviewable, assertVisibleSample, LOGS, MANAGE, OWN, REVIEW } from './policy';
import { presentSample, presentSampleDetail, presentScorecard } from './presenter';
import { sampleSpace } from './sampling';
import * as service from './service';

const TAG = ['qa'];
const idParams = z.object({ id: z.coerce.number().int().positive() });
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive().optional() });
const runBody = z.object({ space_id: z.number().int().positive() });

/** Quality check (issue 21): scorecards, samples, reviews, own results, figures. */
export async function registerQaModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    registerApprovalRoutes(app, deps);

    app.get(
      '/qa/scorecards',
      {
        schema: {
          tags: TAG,
          summary: 'Quality scorecards',
          querystring: spaceQuery,
          response: { 200: listWireSchema(qaScorecardWireSchema) },
        },
      },
      async (req) => {
        const { actor } = req;
        if (req.query.space_id !== undefined) authorize(actor, MANAGE, req.query.space_id);
        const allowed = new Set(spaceIdsWhere(actor, MANAGE));
        const spaceIds = listSpaceIds(actor, req.query.space_id).filter((id) => allowed.has(id));
        return { items: (await service.listScorecards(db, spaceIds)).map(presentScorecard) };
      },
    );

    registerManagedKind(app, {
      path: '/qa/scorecards',
      tags: TAG,
      read: { summary: 'One scorecard' },
      authorizeCreate: (actor, spaceId) => authorize(actor, MANAGE, spaceId),
      manageable: async (actor, id) => assertManageable(actor, await service.getScorecard(db, id)),
      record: qaScorecardWireSchema,
      present: presentScorecard,
      create: {
        summary: 'Create a scorecard',
        body: createScorecardBody,
        run: ({ space_id, ...input }, actor) => service.createScorecard(db, space_id, input, actor),
      },
      update: {
        summary: 'Change a scorecard',
        body: patchOf(updateScorecardBody),
        run: (row, body, actor) => service.updateScorecard(db, row, body, actor),
      },
      remove: {
        summary: 'Delete a scorecard and its samples',
        run: (row, actor) => service.deleteScorecard(db, row, actor),
      },
    });

    app.post(
      '/qa/sampling/run',
      {
        schema: {
          tags: TAG,
          summary: 'Sample the space now (the job does it every hour)',
          body: runBody,
          response: { 200: qaSamplingRunWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, MANAGE, req.body.space_id);
        return sampleSpace(db, req.body.space_id, { now: taskClock.now() });
      },
    );

    app.get(
      '/qa/samples',
      {
        schema: {
          tags: TAG,
          summary: 'Sampled replies: the review queue, or settings/logsrandom',
          querystring: qaSamplesQuery,
          response: { 200: listWireSchema(qaSampleWireSchema) },
        },
      },
      async (req) => {
        const { actor } = req;
        const ability = req.query.view === 'logs' ? LOGS : REVIEW;
        if (req.query.space_id !== undefined) authorize(actor, ability, req.query.space_id);
        else if (spaceIdsWhere(actor, ability).length === 0) authorize(actor, ability, 0);
        const scope = await scopeFor(db, actor, ability);
        const rows = await service.listSamples(db, scope, {
          spaceId: req.query.space_id,
          status: req.query.status,
          source: req.query.source,
          notOperatorId: ability === REVIEW && req.query.status === 'pending' ? actor.userId : undefined,
          limit: req.query.limit,
        });
        return { items: rows.map(presentSample) };
      },
    );

    app.get(
      '/qa/samples/:id',
      {
        schema: {
          tags: TAG,
          summary: 'A sample with its conversation and scorecard',
          params: idParams,
          response: { 200: qaSampleDetailWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const visible = await assertVisibleSample(db, actor, await service.getSample(db, req.params.id));
        const card = await service.scorecardOf(db, visible.row.sample.scorecardId);
        const conversation = await service.conversationOf(db, visible.row.sample);
        return presentSampleDetail(visible.row, card, conversation, visible.canReview);
      },
    );

    app.post(
      '/qa/samples/:id/review',
      {
        schema: {
          tags: TAG,
          summary: 'Score a sampled reply (again, to change the review)',
          params: idParams,
          body: qaReviewBody,
          response: { 200: qaSampleWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const visible = await assertVisibleSample(db, actor, await service.getSample(db, req.params.id));
        assertReviewable(actor, visible);
        const card = await service.scorecardOf(db, visible.row.sample.scorecardId);
        await service.reviewSample(
          db,
          visible.row.sample,
          card.criteria,
          req.body,
          actor.userId,
          taskClock.now(),
        );
        const row = await service.getSample(db, req.params.id);
        if (!row) throw notFound();
        deps.bus.publish({
          type: 'qa.changed',
          spaceId: row.sample.spaceId,
          payload: { id: row.sample.id },
        });
        return presentSample(row);
      },
    );

    app.post(
      '/qa/samples/:id/ai-score',
      {
        schema: {
          tags: TAG,
          summary: "The space's AI agent proposes a review (nothing is saved; the reviewer confirms)",
          params: idParams,
          response: { 200: qaAiScoreWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const visible = await assertVisibleSample(db, actor, await service.getSample(db, req.params.id));
        assertReviewable(actor, visible);
        const card = await service.scorecardOf(db, visible.row.sample.scorecardId);
        const conversation = await service.conversationOf(db, visible.row.sample);
        return aiScore(
          db,
          deps.sealer,
          deps.config.AI_TIMEOUT_MS,
          visible.row.sample,
          card.criteria,
          conversation,
        );
      },
    );

    app.get(
      '/qa/my',
      {
        schema: {
          tags: TAG,
          summary: 'Reviews of my own replies',
          querystring: spaceQuery,
          response: { 200: listWireSchema(qaSampleWireSchema) },
        },
      },
      async (req) => {
        const { actor } = req;
        if (req.query.space_id !== undefined) authorize(actor, OWN, req.query.space_id);
        const spaceIds = spaceIdsWhere(actor, OWN).filter(
          (id) => req.query.space_id === undefined || id === req.query.space_id,
        );
        if (spaceIds.length === 0) authorize(actor, OWN, 0);
        const own = { spaces: new Map(spaceIds.map((id) => [id, null] as [number, null])) };
        const rows = await service.listSamples(db, own, {
          status: 'reviewed',
          operatorId: actor.userId,
          limit: 200,
        });
        return { items: rows.map(presentSample) };
      },
    );

    app.get(
      '/qa/stats',
      {
        schema: {
          tags: TAG,
          summary: 'Review scores by week, operator and criterion',
          querystring: qaStatsQuery,
          response: { 200: qaStatsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        if (req.query.space_id !== undefined) authorize(actor, REVIEW, req.query.space_id);
        else if (spaceIdsWhere(actor, REVIEW).length === 0) authorize(actor, REVIEW, 0);
        const scope = await scopeFor(db, actor, REVIEW);
        return service.qaStats(db, scope, req.query.space_id, req.query.weeks, taskClock.now());
      },
    );

    app.get(
      '/qa/overview',
      {
        schema: {
          tags: TAG,
          summary: 'The quality check at a glance',
          response: { 200: qaOverviewWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const review = spaceIdsWhere(actor, REVIEW);
        const own = spaceIdsWhere(actor, OWN);
        if (review.length === 0 && own.length === 0) authorize(actor, OWN, 0);
        const scope = await scopeFor(db, actor, REVIEW);
        const counts = await service.overviewCounts(db, scope, actor.userId, own, taskClock.now());
        return {
          ...counts,
          can_review: review.length > 0,
          can_manage: spaceIdsWhere(actor, MANAGE).length > 0,
        };
      },
    );
  });
}
