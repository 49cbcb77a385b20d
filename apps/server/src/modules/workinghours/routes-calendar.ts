import {
  absenceWireSchema,
  businessHoursWireSchema,
  holidayWireSchema,
  listWireSchema,
  okWireSchema,
} from '@otklik/shared';
import type { FastifyRequest } from 'fastify';
import { authorize } from '../spaces/actor';
import { createAbsence, deleteAbsence, findAbsences, getAbsence, updateAbsence } from './absences';
import { deleteBusinessHours, readBusinessHours, saveBusinessHours } from './business-hours';
import { createHoliday, deleteHoliday, findHolidays, getHoliday, updateHoliday } from './holidays';
import {
  authorizeRecord,
  authorizeScheduleRecord,
  authorizeScheduleWrite,
  memberSpaceIds,
  requireMembership,
  scheduleReadFilter,
  spaceTimeZone,
} from './policy';
import { presentAbsence, presentHoliday } from './presenter';
import { newSpan, type RouteContext, spanPatch, writeOf } from './route-context';
import {
  absenceBody,
  absencePatch,
  absencesQuery,
  businessHoursBody,
  businessHoursDeleteQuery,
  businessHoursQuery,
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
    const { actor } = req;
    return { actor, absence: authorizeScheduleRecord(actor, await getAbsence(db, id)) };
  };

  app.get(
    '/workinghours/absences',
    { schema: { tags, querystring: absencesQuery, response: { 200: listWireSchema(absenceWireSchema) } } },
    async (req) => {
      const filter = scheduleReadFilter(req.actor, req.query);
      const rows = await findAbsences(db, { ...filter, ...readRange(req.query, new Date()) });
      return { items: rows.map(presentAbsence) };
    },
  );

  app.post(
    '/workinghours/absences',
    { schema: { tags, body: absenceBody, response: { 200: absenceWireSchema } } },
    async (req) => {
      const { actor, body } = req;
      authorizeScheduleWrite(actor, body.space_id);
      const row = await createAbsence(writeOf(ctx, actor), { ...newSpan(body), reason: body.reason ?? null });
      return presentAbsence(row);
    },
  );

  app.put(
    '/workinghours/absences/:id',
    {
      schema: { tags, params: idParams, body: absencePatch, response: { 200: absenceWireSchema } },
    },
    async (req) => {
      const { actor, absence } = await loadAbsence(req, req.params.id);
      const row = await updateAbsence(writeOf(ctx, actor), absence, {
        ...spanPatch(req.body),
        reason: req.body.reason,
      });
      return presentAbsence(row);
    },
  );

  app.delete(
    '/workinghours/absences/:id',
    { schema: { tags, params: idParams, response: { 200: okWireSchema } } },
    async (req) => {
      const { actor, absence } = await loadAbsence(req, req.params.id);
      await deleteAbsence(writeOf(ctx, actor), absence);
      return { message: 'ok' as const };
    },
  );
}

/** The space's holidays: every member reads them; 'workinghours.manage' edits them. */
export function registerHolidayRoutes(ctx: RouteContext) {
  const { app, db } = ctx;
  const loadHoliday = async (req: FastifyRequest, id: number) => {
    const { actor } = req;
    const holiday = authorizeRecord(actor, await getHoliday(db, id), (spaceId) =>
      authorize(actor, 'workinghours.manage', spaceId),
    );
    return { actor, holiday };
  };

  app.get(
    '/workinghours/holidays',
    { schema: { tags, querystring: holidaysQuery, response: { 200: listWireSchema(holidayWireSchema) } } },
    async (req) => {
      const { actor } = req;
      const { space_id: spaceId, from, to } = req.query;
      if (spaceId !== undefined) requireMembership(actor, spaceId);
      const spaceIds = spaceId !== undefined ? [spaceId] : memberSpaceIds(actor);
      const rows = await findHolidays(db, { spaceIds, from, to });
      return { items: rows.map(presentHoliday) };
    },
  );

  app.post(
    '/workinghours/holidays',
    { schema: { tags, body: holidayBody, response: { 200: holidayWireSchema } } },
    async (req) => {
      const { actor } = req;
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
      schema: { tags, params: idParams, body: holidayPatch, response: { 200: holidayWireSchema } },
    },
    async (req) => {
      const { actor, holiday } = await loadHoliday(req, req.params.id);
      return presentHoliday(await updateHoliday(writeOf(ctx, actor), holiday, req.body));
    },
  );

  app.delete(
    '/workinghours/holidays/:id',
    { schema: { tags, params: idParams, response: { 200: okWireSchema } } },
    async (req) => {
      const { actor, holiday } = await loadHoliday(req, req.params.id);
      await deleteHoliday(writeOf(ctx, actor), holiday);
      return { message: 'ok' as const };
    },
  );
}

/**
 * The space's business-hours schedule and its companies' overrides (settings/workinghours): every member
 * reads them (statistics and the rules use them); 'workinghours.manage' sets and removes them.
 */
export function registerBusinessHoursRoutes(ctx: RouteContext) {
  const { app, db } = ctx;

  app.get(
    '/workinghours/business',
    {
      schema: {
        tags,
        summary: "The space's business hours (weekly hours, special working days) and companies' overrides",
        querystring: businessHoursQuery,
        response: { 200: businessHoursWireSchema },
      },
    },
    async (req) => {
      const { actor } = req;
      const spaceId = req.query.space_id;
      requireMembership(actor, spaceId);
      return readBusinessHours(db, spaceId, spaceTimeZone(actor, spaceId));
    },
  );

  app.put(
    '/workinghours/business',
    {
      schema: {
        tags,
        summary: "Sets the space's business hours, or a company's override with company_id",
        body: businessHoursBody,
        response: { 200: businessHoursWireSchema },
      },
    },
    async (req) => {
      const { actor } = req;
      const { space_id: spaceId, company_id: companyId, week, special_days } = req.body;
      authorize(actor, 'workinghours.manage', spaceId);
      await saveBusinessHours(writeOf(ctx, actor), spaceId, companyId ?? null, { week, special_days });
      return readBusinessHours(db, spaceId, spaceTimeZone(actor, spaceId));
    },
  );

  app.delete(
    '/workinghours/business',
    {
      schema: {
        tags,
        summary: "Removes the space's business hours, or a company's override with company_id",
        querystring: businessHoursDeleteQuery,
        response: { 200: businessHoursWireSchema },
      },
    },
    async (req) => {
      const { actor } = req;
      const { space_id: spaceId, company_id: companyId } = req.query;
      authorize(actor, 'workinghours.manage', spaceId);
      await deleteBusinessHours(writeOf(ctx, actor), spaceId, companyId ?? null);
      return readBusinessHours(db, spaceId, spaceTimeZone(actor, spaceId));
    },
  );
}
