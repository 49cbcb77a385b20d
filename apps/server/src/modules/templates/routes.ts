import {
  createTemplateBody,
  templateRenderWireSchema,
  templatesImportedWireSchema,
  templatesListWireSchema,
  templateUsedWireSchema,
  templateWireSchema,
  updateTemplateBody,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { type Authenticate, signedInScope } from '../../http/auth';
import { requestLocale } from '../../http/locale';
import { registerManagedKind } from '../../http/managed-routes';
import type { AppDeps } from '../deps';
import { authorize, type ServerActor, spaceIdsWhere } from '../spaces/actor';
import { listSpaceIds } from '../tags/policy';
import { assertManageable, assertUsable, authorizeCreate, MANAGE, USE } from './policy';
import { presentTemplate } from './presenter';
import * as service from './service';

const TAG = ['settings'];
const idParams = z.object({ id: z.coerce.number().int().positive() });
const spaceQuery = z.object({ space_id: z.coerce.number().int().positive().optional() });
const renderBody = z.object({
  item_id: z.number().int().positive().optional(),
  chat_id: z.number().int().positive().optional(),
  provider: z.string().max(40).optional(),
});
const importBody = z.object({ space_id: z.number().int().positive(), csv: z.string().max(2_000_000) });

/** Settings → templates and the composer's picker (issue 16). */
export async function registerTemplatesModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, async (app) => {
    const { db } = deps.database;

    /** The spaces asked for where the actor may use templates (the flag on). */
    async function usableSpaces({ actor }: { actor: ServerActor }, spaceId: number | undefined) {
      const asked = listSpaceIds(actor, spaceId);
      const usable = new Set(spaceIdsWhere(actor, USE));
      // Asking for one space where templates are off (flag, tariff or role) is a 403, not an empty list.
      if (spaceId !== undefined) authorize(actor, USE, spaceId);
      return { actor, spaceIds: asked.filter((id) => usable.has(id)) };
    }

    app.get(
      '/templates',
      {
        schema: {
          tags: TAG,
          summary: 'Space and own templates',
          querystring: spaceQuery,
          response: { 200: templatesListWireSchema },
        },
      },
      async (req) => {
        const { actor, spaceIds } = await usableSpaces(req, req.query.space_id);
        const rows = await service.listTemplates(db, spaceIds, actor.userId);
        const manage = new Set(spaceIdsWhere(actor, MANAGE));
        return {
          items: rows.map(presentTemplate),
          can_manage: spaceIds.filter((id) => manage.has(id)),
        };
      },
    );

    app.get(
      '/templates/export.csv',
      {
        schema: { tags: TAG, summary: 'Templates as CSV', querystring: spaceQuery },
      },
      async (req, reply) => {
        const { actor, spaceIds } = await usableSpaces(req, req.query.space_id);
        const rows = await service.listTemplates(db, spaceIds, actor.userId);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="templates.csv"')
          .send(service.exportCsv(rows.map(presentTemplate)));
      },
    );

    app.post(
      '/templates/import',
      {
        schema: {
          tags: TAG,
          summary: 'Add templates from a CSV',
          body: importBody,
          response: { 200: templatesImportedWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const parsed = service.parseCsv(req.body.csv, req.body.space_id);
        for (const row of parsed) authorizeCreate(actor, req.body.space_id, row.personal);
        authorizeCreate(actor, req.body.space_id, true);
        const created = await db.transaction(async (tx) => {
          const out = [];
          for (const { personal, space_id, ...input } of parsed) {
            out.push(
              await service.createTemplate(
                tx as unknown as Db,
                space_id,
                personal ? actor.userId : null,
                input,
                actor.userId,
                actor,
              ),
            );
          }
          return out;
        });
        return { items: created.map(presentTemplate) };
      },
    );

    app.get(
      '/templates/:id',
      {
        schema: {
          tags: TAG,
          summary: 'One template',
          params: idParams,
          response: { 200: templateWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        return presentTemplate(assertUsable(actor, await service.getTemplate(db, req.params.id)));
      },
    );

    registerManagedKind(app, {
      path: '/templates',
      tags: TAG,
      // A personal template needs only the use of templates; a space one, their management.
      authorizeCreate: (actor, spaceId, body) => authorizeCreate(actor, spaceId, body.personal),
      manageable: async (actor, id) => assertManageable(actor, await service.getTemplate(db, id)),
      record: templateWireSchema,
      present: presentTemplate,
      create: {
        summary: 'Create a template',
        body: createTemplateBody,
        run: ({ space_id, personal, ...input }, actor) =>
          service.createTemplate(db, space_id, personal ? actor.userId : null, input, actor.userId, actor),
      },
      update: {
        summary: 'Change a template',
        body: updateTemplateBody,
        run: (row, body, actor) => service.updateTemplate(db, row, body, actor),
      },
      remove: {
        summary: 'Delete a template',
        run: (row, actor) => service.deleteTemplate(db, row, actor),
      },
    });

    app.post(
      '/templates/:id/render',
      {
        schema: {
          tags: TAG,
          summary: 'The template filled for a comment or chat',
          params: idParams,
          body: renderBody,
          response: { 200: templateRenderWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = assertUsable(actor, await service.getTemplate(db, req.params.id));
        return service.renderTemplate(db, row, {
          itemId: req.body.item_id,
          chatId: req.body.chat_id,
          provider: req.body.provider,
          operatorId: actor.userId,
          locale: requestLocale(req),
          now: new Date(),
        });
      },
    );

    app.post(
      '/templates/:id/used',
      {
        schema: {
          tags: TAG,
          summary: 'A reply made from it was sent',
          params: idParams,
          response: { 200: templateUsedWireSchema },
        },
      },
      async (req) => {
        const { actor } = req;
        const row = assertUsable(actor, await service.getTemplate(db, req.params.id));
        return { usage_count: await service.countUse(db, row) };
      },
    );
  });
}
