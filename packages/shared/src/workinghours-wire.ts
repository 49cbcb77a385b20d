import { z } from 'zod';

// Working hours on the wire (settings → users/workinghours; docs/product/entities.md Working-hours item):
// slots, templates, absences, holidays and the business-hours schedule. Instants are unix seconds, days
// civil dates 'YYYY-MM-DD', times of day minutes from local midnight. The server's presenters
// (modules/workinghours/presenter.ts, business-hours.ts) are typed to return these.

const id = z.number().int();
const seconds = z.number().int();

/** A slot of the caller's own schedule (GET /v1/me/workinghours). */
export const workingHoursItemWireSchema = z.object({
  id,
  space_id: id,
  started_at: seconds,
  ended_at: seconds,
  /** The user status the slot switches to; null: the status is left alone. */
  status: id.nullable(),
});
export type WorkingHoursItemWire = z.infer<typeof workingHoursItemWireSchema>;

/** A slot of a user's schedule (GET /v1/workinghours, and what its create and update answer). */
export const scheduleSlotWireSchema = workingHoursItemWireSchema.extend({
  user_id: id,
  /** When the scheduler switched the status by it; null: not yet. */
  applied_at: seconds.nullable(),
  updated_at: seconds,
});
export type ScheduleSlotWire = z.infer<typeof scheduleSlotWireSchema>;

export const scheduleTemplateItemWireSchema = z.object({
  /** ISO weekday, 1 = Monday. */
  weekday: z.number().int(),
  /** Minutes from local midnight. */
  start: z.number().int(),
  /** Minutes from local midnight; past 1440 the slot ends the next day. */
  end: z.number().int(),
  status_id: id.nullable(),
});
export type ScheduleTemplateItemWire = z.infer<typeof scheduleTemplateItemWireSchema>;

export const scheduleTemplateWireSchema = z.object({
  id,
  space_id: id,
  name: z.string(),
  items: z.array(scheduleTemplateItemWireSchema),
});
export type ScheduleTemplateWire = z.infer<typeof scheduleTemplateWireSchema>;

/** POST /v1/workinghours/templates/{id}/apply: how many slots were created. */
export const scheduleTemplateApplyWireSchema = z.object({ created: z.number().int() });
export type ScheduleTemplateApplyWire = z.infer<typeof scheduleTemplateApplyWireSchema>;

export const absenceWireSchema = z.object({
  id,
  space_id: id,
  user_id: id,
  started_at: seconds,
  ended_at: seconds,
  reason: z.string().nullable(),
});
export type AbsenceWire = z.infer<typeof absenceWireSchema>;

export const holidayWireSchema = z.object({
  id,
  space_id: id,
  /** YYYY-MM-DD in the space's time zone. */
  day: z.string(),
  name: z.string(),
});
export type HolidayWire = z.infer<typeof holidayWireSchema>;

// The business-hours schedule as stored (jsonb): the keys are listed in the order the database gives
// them back (jsonb orders an object's keys by length, then bytes), so the answer's bytes stay as they were.
const businessIntervalWireSchema = z.object({ end: z.number().int(), start: z.number().int() });
const businessSettingsWire = {
  week: z.array(businessIntervalWireSchema.extend({ weekday: z.number().int() })),
  special_days: z.array(z.object({ day: z.string(), intervals: z.array(businessIntervalWireSchema) })),
};

/** GET, PUT and DELETE /v1/workinghours/business: the space's schedule and the companies' overrides. */
export const businessHoursWireSchema = z.object({
  space_id: id,
  timezone: z.string(),
  /** null: no schedule set — business-hours figures are empty. */
  schedule: z.object({ ...businessSettingsWire, updated_at: seconds }).nullable(),
  companies: z.array(z.object({ company_id: id, ...businessSettingsWire, updated_at: seconds })),
});
export type BusinessHoursAnswer = z.infer<typeof businessHoursWireSchema>;
