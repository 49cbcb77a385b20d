import { emotionSettingsWireSchema, updateEmotionSettingsBody } from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import type { AppDeps } from '../deps';
import { authorize } from '../spaces/actor';
import * as service from './service';

const TAG = ['settings'];
const MANAGE = 'emotions.manage' as const;
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive() });

/** settings/emotions (issue 21): the classifier per space, on or off, and the space's own words. */
export async function registerEmotionsModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;

    app.get(
      '/emotions/settings',
      {
        schema: {
          tags: TAG,
          summary: "A space's emotion settings",
          querystring: spaceQuery,
          response: { 200: emotionSettingsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, MANAGE, req.query.space_id);
        return service.getEmotionSettings(db, req.query.space_id);
      },
    );

    app.put(
      '/emotions/settings',
      {
        schema: {
          tags: TAG,
          summary: "Change a space's emotion settings",
          body: updateEmotionSettingsBody,
          response: { 200: emotionSettingsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, MANAGE, req.body.space_id);
        return service.updateEmotionSettings(db, req.body, actor);
      },
    );
  });
}
