import type { FastifyRequest } from 'fastify';
import { authorize } from '../spaces/actor';
import { createAbsence, deleteAbsence, findAbsences, getAbsence, updateAbsence } from './absences';
import { createHoliday, deleteHoliday, findHolidays, getHoliday, updateHoliday } from './holidays';
import {
  authorizeRecord,
  authorizeScheduleRead,
  authorizeScheduleWrite,
  canManageSchedule,
  memberSpaceIds,
  requireMembership,
} from './policy';
import { presentAbsence, presentHoliday } from './presenter';
import { actorOf, bearer, maybeDate, type RouteContext, toDate, writeOf } from './route-context';
import {
  absenceBody,
  absencePatch,
  absencesQuery,
  holidayBody,
  holidayPatch,
  holidaysQuery,
  idParams,
} from './schemas';
import { readRange } from './slots';

const tags = ['workinghours'];

/** Settings → users/workinghours/absences: vacations and sick leave suppress scheduled switches. */
export function registerAbsenceRoutes(ctx: RouteContext) {
  const { app, db } = ctx;
  const loadAbsence = async (req: FastifyRequest, id: number) => {
    const actor = await actorOf(ctx, req);
    const absence = authorizeRecord(actor, await getAbsence(db, id), (spaceId) =>
      authorizeScheduleWrite(actor, spaceId),
    );
    return { actor, absence };
  };

  app.get(
    '/workinghours/absences',
    { preHandler: ctx.authenticated, schema: { tags, security: bearer, querystring: absencesQuery } },
    async (req) => {
      const actor = await actorOf(ctx, req);
      const { space_id: spaceId } = req.query;
      const userId = req.query.user_id ?? (canManageSchedule(actor, spaceId) ? undefined : actor.userId);
      authorizeScheduleRead(actor, spaceId, userId ?? actor.userId);
      const rows = await findAbsences(db, { spaceId, userId, ...readRange(req.query, new Date()) });
      return { items: rows.map(presentAbsence) };
    },
  );

  app.post(
    '/workinghours/absences',
    { preHandler: ctx.authenticated, schema: { tags, security: bearer, body: absenceBody } },
    async (req) => {
      const actor = await actorOf(ctx, req);
      const { body } = req;
      authorizeScheduleWrite(actor, body.space_id);
      const row = await createAbsence(writeOf(ctx, actor), {
        spaceId: body.space_id,
        userId: body.user_id,
        startedAt: toDate(body.started_at),
        endedAt: toDate(body.ended_at),
        reason: body.reason ?? null,
      });
      return presentAbsence(row);
    },
  );

  app.put(
    '/workinghours/absences/:id',
    {
      preHandler: ctx.authenticated,
      schema: { tags, security: bearer, params: idParams, body: absencePatch },
    },
    async (req) => {
      const { actor, absence } = await loadAbsence(req, req.params.id);
      const row = await updateAbsence(writeOf(ctx, actor), absence, {
        startedAt: maybeDate(req.body.started_at),
        endedAt: maybeDate(req.body.ended_at),
        reason: req.body.reason,
      });
      return presentAbsence(row);
    },
  );

  app.delete(
    '/workinghours/absences/:id',
    { preHandler: ctx.authenticated, schema: { tags, security: bearer, params: idParams } },
    async (req) => {
      const { actor, absence } = await loadAbsence(req, req.params.id);
      await deleteAbsence(writeOf(ctx, actor), absence);
      return { message: 'ok' };
    },
  );
}

/** The space's holidays: every member reads them; 'workinghours.manage' edits them. */
export function registerHolidayRoutes(ctx: RouteContext) {
  const { app, db } = ctx;
  const loadHoliday = async (req: FastifyRequest, id: number) => {
    const actor = await actorOf(ctx, req);
    const holiday = authorizeRecord(actor, await getHoliday(db, id), (spaceId) =>
      authorize(actor, 'workinghours.manage', spaceId),
    );
    return { actor, holiday };
  };

  app.get(
    '/workinghours/holidays',
    { preHandler: ctx.authenticated, schema: { tags, security: bearer, querystring: holidaysQuery } },
    async (req) => {
      const actor = await actorOf(ctx, req);
      const { space_id: spaceId, from, to } = req.query;
      if (spaceId !== undefined) requireMembership(actor, spaceId);
      const spaceIds = spaceId !== undefined ? [spaceId] : memberSpaceIds(actor);
      const rows = await findHolidays(db, { spaceIds, from, to });
      return { items: rows.map(presentHoliday) };
    },
  );

  app.post(
    '/workinghours/holidays',
    { preHandler: ctx.authenticated, schema: { tags, security: bearer, body: holidayBody } },
    async (req) => {
      const actor = await actorOf(ctx, req);
      authorize(actor, 'workinghours.manage', req.body.space_id);
      const row = await createHoliday(writeOf(ctx, actor), {
        spaceId: req.body.space_id,
        day: req.body.day,
        name: req.body.name,
      });
      return presentHoliday(row);
    },
  );

  app.put(
    '/workinghours/holidays/:id',
    {
      preHandler: ctx.authenticated,
      schema: { tags, security: bearer, params: idParams, body: holidayPatch },
    },
    async (req) => {
      const { actor, holiday } = await loadHoliday(req, req.params.id);
      return presentHoliday(await updateHoliday(writeOf(ctx, actor), holiday, req.body));
    },
  );

  app.delete(
    '/workinghours/holidays/:id',
    { preHandler: ctx.authenticated, schema: { tags, security: bearer, params: idParams } },
    async (req) => {
      const { actor, holiday } = await loadHoliday(req, req.params.id);
      await deleteHoliday(writeOf(ctx, actor), holiday);
      return { message: 'ok' };
    },
  );
}
