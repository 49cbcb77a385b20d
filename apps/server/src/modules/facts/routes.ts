import {
  authorFactsBodySchema,
  authorFactsWireSchema,
  createFactBodySchema,
  factDefinitionsWireSchema,
  factDefinitionWireSchema,
  okWireSchema,
  updateFactBodySchema,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { getVisibleAuthor } from '../authors/policy';
import type { AppDeps } from '../deps';
import { authorize, spaceIdsWhere } from '../spaces/actor';
import * as facts from './service';

const TAG = ['facts'];
const idParams = z.object({ id: z.coerce.number().int().positive() });

/** Settings → Custom fields (docs/product/screens-and-routes.md settings/custom/facts) and an author's values of them. */
export async function registerFactsModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;

    app.get(
      '/facts',
      {
        schema: {
          tags: TAG,
          summary: 'Custom fields of authors in the spaces where the caller sees authors',
          querystring: z.object({ space_id: z.coerce.number().int().positive().optional() }),
          response: { 200: factDefinitionsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const spaceIds = spaceIdsWhere(actor, 'authors.view').filter(
          (id) => req.query.space_id === undefined || id === req.query.space_id,
        );
        return { items: (await facts.findFacts(db, spaceIds)).map(facts.presentFact) };
      },
    );

    app.post(
      '/facts',
      {
        schema: {
          tags: TAG,
          summary: 'Create a custom field',
          body: createFactBodySchema,
          response: { 200: factDefinitionWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        authorize(actor, 'settings.manage', req.body.space_id);
        const row = await facts.createFact(
          db,
          {
            spaceId: req.body.space_id,
            name: req.body.name,
            kind: req.body.kind,
            options: req.body.options,
          },
          actor,
        );
        return facts.presentFact(row);
      },
    );

    app.put(
      '/facts/:id',
      {
        schema: {
          tags: TAG,
          summary: "Rename a custom field or change a list's options (the kind is fixed)",
          params: idParams,
          body: updateFactBodySchema,
          response: { 200: factDefinitionWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const fact = await facts.getFact(db, req.params.id);
        authorize(actor, 'settings.manage', fact.spaceId);
        return facts.presentFact(await facts.updateFact(db, fact, req.body, actor));
      },
    );

    app.delete(
      '/facts/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Delete a custom field and its values',
          params: idParams,
          response: { 200: okWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const fact = await facts.getFact(db, req.params.id);
        authorize(actor, 'settings.manage', fact.spaceId);
        await facts.deleteFact(db, fact, actor);
        return { message: 'ok' as const };
      },
    );

    app.get(
      '/authors/:id/facts',
      {
        schema: {
          tags: TAG,
          summary: "Every custom field of the author's space with the author's value",
          params: idParams,
          response: { 200: authorFactsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const { author } = await getVisibleAuthor(db, actor, req.params.id);
        return { items: await facts.findAuthorFacts(db, author) };
      },
    );

    app.put(
      '/authors/:id/facts',
      {
        schema: {
          tags: TAG,
          summary: "Set or clear (null) the author's values of custom fields",
          params: idParams,
          body: authorFactsBodySchema,
          response: { 200: authorFactsWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const { author } = await getVisibleAuthor(db, actor, req.params.id);
        authorize(actor, 'authors.edit', author.spaceId);
        return { items: await facts.setAuthorFacts(db, author, req.body.values, actor.userId) };
      },
    );
  });
}
