import {
  listWireSchema,
  okWireSchema,
  scheduleTemplateApplyWireSchema,
  scheduleTemplateWireSchema,
} from '@otklik/shared';
import type { ServerActor } from '../spaces/actor';
import { applyTemplate } from './apply';
import { authorizeScheduleRecord, authorizeScheduleWrite, manageableSpaceIds, spaceTimeZone } from './policy';
import { presentTemplate } from './presenter';
import { type RouteContext, writeOf } from './route-context';
import { applyBody, idParams, templateBody, templatePatch, templatesQuery } from './schemas';
import { createTemplate, deleteTemplate, findTemplates, getTemplate, updateTemplate } from './templates';

/** Settings → users/workinghours/templates: weekly patterns applied to users' schedules. */
export function registerTemplateRoutes(ctx: RouteContext) {
  const { app, db } = ctx;
  const tags = ['workinghours'];

  app.get(
    '/workinghours/templates',
    {
      schema: {
        tags,
        querystring: templatesQuery,
        response: { 200: listWireSchema(scheduleTemplateWireSchema) },
      },
    },
    async (req) => {
      const { actor } = req;
      const spaceId = req.query.space_id;
      if (spaceId !== undefined) authorizeScheduleWrite(actor, spaceId);
      const rows = await findTemplates(db, spaceId !== undefined ? [spaceId] : manageableSpaceIds(actor));
      return { items: rows.map(presentTemplate) };
    },
  );

  app.post(
    '/workinghours/templates',
    { schema: { tags, body: templateBody, response: { 200: scheduleTemplateWireSchema } } },
    async (req) => {
      const { actor } = req;
      authorizeScheduleWrite(actor, req.body.space_id);
      const row = await createTemplate(writeOf(ctx, actor), {
        spaceId: req.body.space_id,
        name: req.body.name,
        items: req.body.items,
      });
      return presentTemplate(row);
    },
  );

  const loadTemplate = async (actor: ServerActor, id: number) =>
    authorizeScheduleRecord(actor, await getTemplate(db, id));

  app.put(
    '/workinghours/templates/:id',
    {
      schema: { tags, params: idParams, body: templatePatch, response: { 200: scheduleTemplateWireSchema } },
    },
    async (req) => {
      const { actor } = req;
      const template = await loadTemplate(actor, req.params.id);
      return presentTemplate(await updateTemplate(writeOf(ctx, actor), template, req.body));
    },
  );

  app.delete(
    '/workinghours/templates/:id',
    { schema: { tags, params: idParams, response: { 200: okWireSchema } } },
    async (req) => {
      const { actor } = req;
      const template = await loadTemplate(actor, req.params.id);
      await deleteTemplate(writeOf(ctx, actor), template);
      return { message: 'ok' as const };
    },
  );

  app.post(
    '/workinghours/templates/:id/apply',
    {
      schema: {
        tags,
        summary:
          "Fill users' schedules from the template for days from..to in the space's time zone, replacing their not-yet-started slots",
        params: idParams,
        body: applyBody,
        response: { 200: scheduleTemplateApplyWireSchema },
      },
    },
    async (req) => {
      const { actor } = req;
      const template = await loadTemplate(actor, req.params.id);
      return applyTemplate(writeOf(ctx, actor), template, {
        timeZone: spaceTimeZone(actor, template.spaceId),
        userIds: req.body.user_ids,
        from: req.body.from,
        to: req.body.to,
      });
    },
  );
}
