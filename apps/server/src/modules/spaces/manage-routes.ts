import {
  createSpaceBodySchema,
  spaceDetailsWireSchema,
  spaceFlagsBodySchema,
  tariffsListWireSchema,
  updateSpaceBodySchema,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import type { AppDeps } from '../deps';
import { authorize } from './actor';
import {
  createSignupSpace,
  findTariffs,
  getSpaceDetails,
  presentTariff,
  setSpaceFlags,
  updateSpace,
} from './manage';

const TAG = ['spaces'];
const idParams = z.object({ id: z.coerce.number().int().positive() });

/** Settings → Other (the space) and the tariffs list (issue 14 items 1–2). */
export async function registerSpaceManagementRoutes(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;

    app.get(
      '/tariffs',
      {
        schema: {
          tags: TAG,
          summary: 'Tariffs offered on the billing screen',
          response: { 200: tariffsListWireSchema },
        },
      },
      async () => ({ items: (await findTariffs(db, { publicOnly: true })).map(presentTariff) }),
    );

    app.post(
      '/spaces',
      {
        schema: {
          tags: TAG,
          summary: 'Create another space; the creator is its administrator (a 14-day trial)',
          body: createSpaceBodySchema,
          response: { 200: spaceDetailsWireSchema },
        },
      },
      async (req) => {
        const user = req.auth!.user;
        const space = await createSignupSpace(
          db,
          { name: req.body.name, ownerId: user.id, locale: user.locale },
          deps.config.FIRST_SPACE_TARIFF_ID,
        );
        return getSpaceDetails(db, space.id);
      },
    );

    app.get(
      '/spaces/:id',
      {
        schema: {
          tags: TAG,
          summary: "The space's name, time zone, tariff, feature flags and usage against the tariff's limits",
          params: idParams,
          response: { 200: spaceDetailsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, 'settings.manage', req.params.id);
        return getSpaceDetails(db, req.params.id);
      },
    );

    app.put(
      '/spaces/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Rename the space or change its time zone',
          params: idParams,
          body: updateSpaceBodySchema,
          response: { 200: spaceDetailsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, 'settings.manage', req.params.id);
        await updateSpace(db, req.params.id, req.body, actor);
        return getSpaceDetails(db, req.params.id);
      },
    );

    app.put(
      '/spaces/:id/features',
      {
        schema: {
          tags: TAG,
          summary: "Switch space features on or off (on: only those the space's tariff lists)",
          params: idParams,
          body: spaceFlagsBodySchema,
          response: { 200: spaceDetailsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, 'settings.manage', req.params.id);
        await setSpaceFlags(db, req.params.id, req.body.flags, {}, actor);
        return getSpaceDetails(db, req.params.id);
      },
    );
  });
}
