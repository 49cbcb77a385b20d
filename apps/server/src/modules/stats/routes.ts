import { statsExploreQuery, statsQuery } from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import type { AppDeps } from '../deps';
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
    const endpoints = [
      [
        '/stats/overview',
        'Overview: incoming, replied share, first response time, closed, backlog',
        overview,
      ],
      ['/stats/volume', 'Incoming per local day, network and kind', volumeOf],
      ['/stats/hours', 'Incoming per weekday and hour in the space time zone', hoursOf],
      ['/stats/operators', 'Per operator: replies, closed, median first response time', operatorsOf],
      ['/stats/tags', 'Incoming per tag and local day; the top tags', tagsOf],
      ['/stats/posts', 'Top posts: incoming items, replied, our replies', postsStats],
      ['/stats/closed', 'Closings per team member (or rules) and how', closedOf],
      [
        '/stats/emotions',
        'Rated customer texts by sentiment: per day, account, network and post',
        emotionsOf,
      ],
      ['/stats/time', 'First response and resolution time: median, p90, distribution', timeOf],
      ['/stats/operator-times', 'Per operator: first response time median and p90', operatorTimesOf],
      ['/stats/my', "The caller's own figures", myStats],
      ['/stats/statuses', 'Per member: time in each user status', statusesOf],
      ['/stats/my/statuses', "The caller's time in each user status", myStatuses],
      [
        '/stats/workinghours',
        'Per member: scheduled working hours against time in working statuses',
        workinghoursOf,
      ],
      ['/stats/dashboard', "Today's and 7 days' key figures with daily series", dashboardOf],
      [
        '/stats/live',
        'The wall: waiting now per network and account, longest waiting, people by status, today',
        liveOf,
      ],
    ] as const;
    for (const [url, summary, run] of endpoints) {
      app.get(
        url,
        {
          schema: { tags: TAG, summary, querystring: statsQuery },
        },
        async (req) => run(db, req.actor, req.query, new Date()),
      );
    }
    app.get(
      '/stats/explore',
      {
        schema: {
          tags: TAG,
          summary:
            'Analytics: the overview figures split by a dimension (time bucket, network, account, ...)',
          querystring: statsExploreQuery,
        },
      },
      async (req) => exploreOf(db, req.actor, req.query, new Date()),
    );
    registerReportRoutes(app, deps);
    registerExportRoutes(app, deps);
    const person = [
      ['/stats/users/:id', "One team member's figures", userStats],
      ['/stats/users/:id/statuses', "One member's time in each user status", userStatusesOf],
      ['/stats/users/:id/workinghours', "One member's scheduled and worked time", userWorkinghoursOf],
    ] as const;
    for (const [url, summary, run] of person) {
      app.get(
        url,
        {
          schema: {
            tags: TAG,
            summary,
            params: z.object({
              id: z.coerce
                .number()
                .int()
                .positive()
                .max(2 ** 31 - 1),
            }),
            querystring: statsQuery,
          },
        },
        async (req) => run(db, req.actor, req.query, new Date(), req.params.id),
      );
    }
  });
}
