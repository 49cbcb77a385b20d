import {
  type StatsQuery,
  statsClosedWireSchema,
  statsDashboardWireSchema,
  statsEmotionsWireSchema,
  statsExploreQuery,
  statsExploreWireSchema,
  statsHoursWireSchema,
  statsLiveWireSchema,
  statsOperatorsWireSchema,
  statsOperatorTimesWireSchema,
  statsOverviewWireSchema,
  statsPersonWireSchema,
  statsPostsWireSchema,
  statsQuery,
  statsStatusesWireSchema,
  statsTagsWireSchema,
  statsTimeWireSchema,
  statsVolumeWireSchema,
  statsWorkinghoursWireSchema,
} from '@otklik/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { type Authenticate, signedInScope, type ZodApp } from '../../http/auth';
import { rowId } from '../../http/validation';
import type { AppDeps } from '../deps';
import type { ServerActor } from '../spaces/actor';
import { statsAnswerReuse } from './answer-reuse';
import { exploreOf } from './explore';
import { registerExportRoutes } from './exports-routes';
import { registerReportRoutes } from './reports-routes';
import {
  closedOf,
  dashboardOf,
  emotionsOf,
  hoursOf,
  liveOf,
  myStats,
  myStatuses,
  operatorsOf,
  operatorTimesOf,
  overview,
  postsStats,
  statusesOf,
  tagsOf,
  timeOf,
  userStats,
  userStatusesOf,
  userWorkinghoursOf,
  volumeOf,
  workinghoursOf,
} from './service';

const TAG = ['stats'];

/** Statistics (issue 15): figures over what the inbox recorded; definitions in docs/statistics.md. */
export async function registerStatsModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const reused = statsAnswerReuse(root.statsAnswers, deps.config.STATS_FRESH_S * 1000);
    const figures = <S extends z.ZodType>(
      url: string,
      summary: string,
      answer: S,
      run: (db: Db, actor: ServerActor, q: StatsQuery, now: Date) => Promise<z.input<S>>,
      reuse = true,
    ) =>
      statsRoute(app, url, summary, answer, (req, reply) =>
        reuse
          ? reused(req, reply, answer, () => run(db, req.actor, req.query, new Date()))
          : run(db, req.actor, req.query, new Date()),
      );
    figures(
      '/stats/overview',
      'Overview: incoming, replied share, first response time, closed, backlog',
      statsOverviewWireSchema,
      overview,
    );
    figures('/stats/volume', 'Incoming per local day, network and kind', statsVolumeWireSchema, volumeOf);
    figures(
      '/stats/hours',
      'Incoming per weekday and hour in the space time zone',
      statsHoursWireSchema,
      hoursOf,
    );
    figures(
      '/stats/operators',
      'Per operator: replies, closed, median first response time',
      statsOperatorsWireSchema,
      operatorsOf,
    );
    figures('/stats/tags', 'Incoming per tag and local day; the top tags', statsTagsWireSchema, tagsOf);
    figures(
      '/stats/posts',
      'Top posts: incoming items, replied, our replies',
      statsPostsWireSchema,
      postsStats,
    );
    figures('/stats/closed', 'Closings per team member (or rules) and how', statsClosedWireSchema, closedOf);
    figures(
      '/stats/emotions',
      'Rated customer texts by sentiment: per day, account, network and post',
      statsEmotionsWireSchema,
      emotionsOf,
    );
    figures(
      '/stats/time',
      'First response and resolution time: median, p90, distribution',
      statsTimeWireSchema,
      timeOf,
    );
    figures(
      '/stats/operator-times',
      'Per operator: first response time median and p90',
      statsOperatorTimesWireSchema,
      operatorTimesOf,
    );
    figures('/stats/my', "The caller's own figures", statsPersonWireSchema, myStats);
    figures('/stats/statuses', 'Per member: time in each user status', statsStatusesWireSchema, statusesOf);
    figures(
      '/stats/my/statuses',
      "The caller's time in each user status",
      statsStatusesWireSchema,
      myStatuses,
    );
    figures(
      '/stats/workinghours',
      'Per member: scheduled working hours against time in working statuses',
      statsWorkinghoursWireSchema,
      workinghoursOf,
    );
    figures(
      '/stats/dashboard',
      "Today's and 7 days' key figures with daily series",
      statsDashboardWireSchema,
      dashboardOf,
    );
    figures(
      '/stats/live',
      'The wall: waiting now per network and account, longest waiting, people by status, today',
      statsLiveWireSchema,
      liveOf,
      // The wall shows waiting times to the second and refreshes on socket events: always computed.
      false,
    );
    app.get(
      '/stats/explore',
      {
        schema: {
          tags: TAG,
          summary:
            'Analytics: the overview figures split by a dimension (time bucket, network, account, ...)',
          querystring: statsExploreQuery,
          response: { 200: statsExploreWireSchema },
        },
      },
      async (req, reply) =>
        reused(req, reply, statsExploreWireSchema, () => exploreOf(db, req.actor, req.query, new Date())),
    );
    registerReportRoutes(app, deps);
    registerExportRoutes(app, deps);
    const person = <S extends z.ZodType>(
      url: string,
      summary: string,
      answer: S,
      run: (db: Db, actor: ServerActor, q: StatsQuery, now: Date, id: number) => Promise<z.input<S>>,
    ) =>
      app.get(
        url,
        {
          schema: {
            tags: TAG,
            summary,
            params: memberParams,
            querystring: statsQuery,
            response: { 200: answer as z.ZodType },
          },
        },
        async (req, reply) =>
          reused(req, reply, answer, () => run(db, req.actor, req.query, new Date(), req.params.id)),
      );
    person('/stats/users/:id', "One team member's figures", statsPersonWireSchema, userStats);
    person(
      '/stats/users/:id/statuses',
      "One member's time in each user status",
      statsStatusesWireSchema,
      userStatusesOf,
    );
    person(
      '/stats/users/:id/workinghours',
      "One member's scheduled and worked time",
      statsWorkinghoursWireSchema,
      userWorkinghoursOf,
    );
  });
}

const memberParams = z.object({ id: rowId });

/** One stats endpoint on the frame's query, answering `answer` (declared, so the API document shows it). */
function statsRoute<S extends z.ZodType>(
  app: ZodApp,
  url: string,
  summary: string,
  answer: S,
  run: (req: FastifyRequest<{ Querystring: StatsQuery }>, reply: FastifyReply) => Promise<unknown>,
) {
  // The answer's type is held where `run` is given (it returns the schema's type); the route sees a
  // plain schema, as a generic one cannot be resolved by the type provider.
  app.get(
    url,
    { schema: { tags: TAG, summary, querystring: statsQuery, response: { 200: answer as z.ZodType } } },
    async (req, reply) => run(req, reply),
  );
}
