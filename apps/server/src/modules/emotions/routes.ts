import { updateEmotionSettingsBody } from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app';
import { type AuthContext, requireAuth } from '../../http/auth';
import { authorize, loadActor } from '../spaces/actor';
import * as service from './service';

const bearer = [{ bearer: [] }];
const TAG = ['settings'];
const MANAGE = 'emotions.manage' as const;
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive() });

/** settings/emotions (issue 21): the classifier per space, on or off, and the space's own words. */
export async function registerEmotionsModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: (token: string) => Promise<AuthContext>,
) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const authenticated = requireAuth(authenticate);
  const { db } = deps.database;

  app.get(
    '/emotions/settings',
    {
      preHandler: authenticated,
      schema: { tags: TAG, security: bearer, summary: "A space's emotion settings", querystring: spaceQuery },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      authorize(actor, MANAGE, req.query.space_id);
      return service.getEmotionSettings(db, req.query.space_id);
    },
  );

  app.put(
    '/emotions/settings',
    {
      preHandler: authenticated,
      schema: {
        tags: TAG,
        security: bearer,
        summary: "Change a space's emotion settings",
        body: updateEmotionSettingsBody,
      },
    },
    async (req) => {
      const actor = await loadActor(db, req.auth!.user);
      authorize(actor, MANAGE, req.body.space_id);
      return service.updateEmotionSettings(db, req.body, actor);
    },
  );
}
