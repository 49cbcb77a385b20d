import {
  listWireSchema,
  myWorkingHoursWireSchema,
  okWireSchema,
  scheduleSlotWireSchema,
} from '@otklik/shared';
import type { FastifyInstance } from 'fastify';
import { type Authenticate, signedInScope } from '../../http/auth';
import type { AppDeps } from '../deps';
import {
  authorizeScheduleRecord,
  authorizeScheduleWrite,
  memberSpaceIds,
  requireMembership,
  scheduleReadFilter,
} from './policy';
import { presentMySlot, presentSlot } from './presenter';
import { newSpan, type RouteContext, spanPatch, writeOf } from './route-context';
import { registerAbsenceRoutes, registerBusinessHoursRoutes, registerHolidayRoutes } from './routes-calendar';
import { registerTemplateRoutes } from './routes-templates';
import { idParams, meQuery, slotBody, slotPatch, slotsQuery } from './schemas';
import { createSlot, deleteSlot, findMySchedule, findSlots, getSlot, readRange, updateSlot } from './slots';

/** Working hours: the caller's schedule, users' schedules, templates, absences, holidays (docs/product/screens-and-routes.md, states.md, api.md). */
export async function registerWorkinghoursModule(
  root: FastifyInstance,
  deps: AppDeps,
  authenticate: Authenticate,
) {
  await signedInScope(root, authenticate, (app) => {
    const ctx: RouteContext = { app, deps, db: deps.database.db };
    registerMyScheduleRoutes(ctx);
    registerSlotRoutes(ctx);
    registerTemplateRoutes(ctx);
    registerAbsenceRoutes(ctx);
    registerHolidayRoutes(ctx);
    registerBusinessHoursRoutes(ctx);
  });
}

function registerMyScheduleRoutes(ctx: RouteContext) {
  ctx.app.get(
    '/me/workinghours',
    {
      schema: {
        tags: ['me'],
        summary:
          'My schedule from a day ago to 14 days ahead (docs/product/api.md); updatedAt is the latest change',
        querystring: meQuery,
        response: { 200: myWorkingHoursWireSchema },
      },
    },
    async (req) => {
      const { actor } = req;
      const spaceId = req.query.space_id;
      // Membership only, not 'schedule.viewOwn': the browser polls this in the background, and a 403
      // would put the No-access page over whatever the user is doing (docs/product/roles.md).
      if (spaceId !== undefined) requireMembership(actor, spaceId);
      const spaceIds = spaceId !== undefined ? [spaceId] : memberSpaceIds(actor);
      const schedule = await findMySchedule(ctx.db, actor.userId, spaceIds, new Date());
      return { items: schedule.items.map(presentMySlot), updatedAt: schedule.updatedAt };
    },
  );
}

function registerSlotRoutes(ctx: RouteContext) {
  const { app, db } = ctx;
  const tags = ['workinghours'];

  app.get(
    '/workinghours',
    {
      schema: {
        tags,
        summary: "Users' schedules in a space (managers: anyone's; members: their own); at most 62 days",
        querystring: slotsQuery,
        response: { 200: listWireSchema(scheduleSlotWireSchema) },
      },
    },
    async (req) => {
      const filter = scheduleReadFilter(req.actor, req.query);
      const rows = await findSlots(db, { ...filter, ...readRange(req.query, new Date()) });
      return { items: rows.map(presentSlot) };
    },
  );

  app.post(
    '/workinghours',
    { schema: { tags, body: slotBody, response: { 200: scheduleSlotWireSchema } } },
    async (req) => {
      const { actor, body } = req;
      authorizeScheduleWrite(actor, body.space_id);
      const row = await createSlot(writeOf(ctx, actor), { ...newSpan(body), statusId: body.status });
      return presentSlot(row);
    },
  );

  app.put(
    '/workinghours/:id',
    { schema: { tags, params: idParams, body: slotPatch, response: { 200: scheduleSlotWireSchema } } },
    async (req) => {
      const { actor } = req;
      const slot = authorizeScheduleRecord(actor, await getSlot(db, req.params.id));
      const row = await updateSlot(writeOf(ctx, actor), slot, {
        ...spanPatch(req.body),
        statusId: req.body.status,
      });
      return presentSlot(row);
    },
  );

  app.delete(
    '/workinghours/:id',
    { schema: { tags, params: idParams, response: { 200: okWireSchema } } },
    async (req) => {
      const { actor } = req;
      const slot = authorizeScheduleRecord(actor, await getSlot(db, req.params.id));
      await deleteSlot(writeOf(ctx, actor), slot);
      return { message: 'ok' as const };
    },
  );
}
