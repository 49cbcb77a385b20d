import {
  createMacroBody,
  MACRO_RUN_MAX_ITEMS,
  macroRunResultWireSchema,
  macrosListWireSchema,
  macroWireSchema,
  okWireSchema,
  runMacroBody,
  updateMacroBody,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Authenticate, signedInScope } from '../../http/auth';
import { requestLocale } from '../../http/locale';
import { AppError } from '../../lib/errors';
import type { AppDeps } from '../deps';
import type { ActionDeps } from '../inbox/actions/send';
import { authorize, spaceIdsWhere } from '../spaces/actor';
import { listSpaceIds } from '../tags/policy';
import { assertManageable, assertUsable, authorizeCreate, MANAGE, USE } from './policy';
import { presentMacro } from './presenter';
import { previewMacro, runMacro } from './runner';
import * as service from './service';

const TAG = ['settings'];
const idParams = z.object({ id: z.coerce.number().int().positive() });
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive().optional() });

function assertRunSize(ids: number[]) {
  if (new Set(ids).size > MACRO_RUN_MAX_ITEMS) {
    throw new AppError(400, 'macros.items.tooMany', { params: { limit: MACRO_RUN_MAX_ITEMS } });
  }
}

/** Settings → macros, and running one on comments (issue 16). */
export async function registerMacrosModule(root: FastifyInstance, deps: AppDeps, authenticate: Authenticate) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;
    const actionDeps: ActionDeps = {
      db,
      bus: deps.bus,
      config: deps.config,
      sealer: deps.sealer,
      locks: deps.locks,
    };

    app.get(
      '/macros',
      {
        schema: {
          tags: TAG,
          summary: 'Space and own macros',
          querystring: spaceQuery,
          response: { 200: macrosListWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const asked = listSpaceIds(actor, req.query.space_id);
        if (req.query.space_id !== undefined) authorize(actor, USE, req.query.space_id);
        const usable = new Set(spaceIdsWhere(actor, USE));
        const spaceIds = asked.filter((id) => usable.has(id));
        const rows = await service.listMacros(db, spaceIds, actor.userId);
        const manage = new Set(spaceIdsWhere(actor, MANAGE));
        return { items: rows.map(presentMacro), can_manage: spaceIds.filter((id) => manage.has(id)) };
      },
    );

    app.get(
      '/macros/:id',
      {
        schema: { tags: TAG, summary: 'One macro', params: idParams, response: { 200: macroWireSchema } },
      },
      async (req) => {
        const { actor } = req;
        return presentMacro(assertUsable(actor, await service.getMacro(db, req.params.id)));
      },
    );

    app.post(
      '/macros',
      {
        schema: {
          tags: TAG,
          summary: 'Create a macro',
          body: createMacroBody,
          response: { 200: macroWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const { space_id, personal, ...input } = req.body;
        authorizeCreate(actor, space_id, personal);
        return presentMacro(
          await service.createMacro(db, space_id, personal ? actor.userId : null, input, actor.userId, actor),
        );
      },
    );

    app.put(
      '/macros/:id',
      {
        schema: {
          tags: TAG,
          summary: 'Change a macro',
          params: idParams,
          body: updateMacroBody,
          response: { 200: macroWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = assertManageable(actor, await service.getMacro(db, req.params.id));
        return presentMacro(await service.updateMacro(db, row, req.body, actor));
      },
    );

    app.delete(
      '/macros/:id',
      {
        schema: { tags: TAG, summary: 'Delete a macro', params: idParams, response: { 200: okWireSchema } },
      },
      async (req) => {
        const { actor } = req;
        const row = assertManageable(actor, await service.getMacro(db, req.params.id));
        await service.deleteMacro(db, row, actor);
        return { message: 'ok' as const };
      },
    );

    app.post(
      '/macros/:id/preview',
      {
        schema: {
          tags: TAG,
          summary: 'What running the macro on these comments would do, per item and action',
          params: idParams,
          body: runMacroBody,
          response: { 200: macroRunResultWireSchema },
        },
      },
      async (req) => {
        assertRunSize(req.body.item_ids);
        const { actor } = req;
        const macro = assertUsable(actor, await service.getMacro(db, req.params.id));
        return previewMacro(
          { deps: actionDeps, actor, locale: requestLocale(req) },
          macro,
          req.body.item_ids,
        );
      },
    );

    app.post(
      '/macros/:id/run',
      {
        schema: {
          tags: TAG,
          summary: 'Run the macro on comments; the result per item: ok, skipped or failed (nothing kept)',
          params: idParams,
          body: runMacroBody,
          response: { 200: macroRunResultWireSchema },
        },
      },
      async (req) => {
        assertRunSize(req.body.item_ids);
        const { actor } = req;
        const macro = assertUsable(actor, await service.getMacro(db, req.params.id));
        return runMacro({ deps: actionDeps, actor, locale: requestLocale(req) }, macro, req.body.item_ids);
      },
    );
  });
}
