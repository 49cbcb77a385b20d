import { businessHoursSettingsSchema } from '@otklik/shared';
import { z } from 'zod';
import { parseCivilDate } from './timezone';

// Request shapes of the working-hours API. Times are unix seconds (ARCHITECTURE "Times"); days are
// civil dates 'YYYY-MM-DD' in the space's time zone.

export const MAX_SLOT_S = 86_400;
/** Longest range one request may read or fill (a two-month schedule screen). */
export const MAX_RANGE_DAYS = 62;
export const MINUTES_PER_DAY = 1_440;

const id = z.number().int().positive();
const unixSeconds = z.number().int().min(0).max(32_503_680_000);
export const civilDate = z
  .string()
  .refine((value) => parseCivilDate(value) !== undefined, { message: 'field.invalid' });

export const idParams = z.object({ id: z.coerce.number().int().positive() });

export const meQuery = z.object({ space_id: z.coerce.number().int().positive().optional() });

export const slotsQuery = z.object({
  space_id: z.coerce.number().int().positive(),
  user_id: z.coerce.number().int().positive().optional(),
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
});

export const slotBody = z.object({
  space_id: id,
  user_id: id,
  started_at: unixSeconds,
  ended_at: unixSeconds,
  status: id.nullable(),
});
export type SlotBody = z.infer<typeof slotBody>;

export const slotPatch = slotBody.pick({ started_at: true, ended_at: true, status: true }).partial();
export type SlotPatch = z.infer<typeof slotPatch>;

export const templateItem = z
  .object({
    weekday: z.number().int().min(1).max(7),
    /** Minutes from local midnight. */
    start: z
      .number()
      .int()
      .min(0)
      .max(MINUTES_PER_DAY - 1),
    /** Minutes from local midnight; past 1 440 the slot ends the next day (night shift). */
    end: z
      .number()
      .int()
      .min(1)
      .max(2 * MINUTES_PER_DAY),
    status_id: id.nullable(),
  })
  .refine((item) => item.end > item.start && item.end - item.start <= MINUTES_PER_DAY, {
    message: 'field.invalid',
    path: ['end'],
  });
export type TemplateItem = z.infer<typeof templateItem>;

export const templateBody = z.object({
  space_id: id,
  name: z.string().trim().min(1, 'field.required').max(200, 'field.tooLong'),
  items: z.array(templateItem).max(100),
});
export type TemplateBody = z.infer<typeof templateBody>;
export const templatePatch = templateBody.omit({ space_id: true }).partial();
export type TemplatePatch = z.infer<typeof templatePatch>;

export const applyBody = z.object({
  user_ids: z.array(id).min(1).max(500),
  from: civilDate,
  to: civilDate,
});
export type ApplyBody = z.infer<typeof applyBody>;

export const templatesQuery = z.object({ space_id: z.coerce.number().int().positive().optional() });

export const absencesQuery = slotsQuery;

export const absenceBody = z.object({
  space_id: id,
  user_id: id,
  started_at: unixSeconds,
  ended_at: unixSeconds,
  reason: z.string().trim().max(500, 'field.tooLong').nullable().optional(),
});
export type AbsenceBody = z.infer<typeof absenceBody>;
export const absencePatch = absenceBody.pick({ started_at: true, ended_at: true, reason: true }).partial();
export type AbsencePatch = z.infer<typeof absencePatch>;

export const holidaysQuery = z.object({
  space_id: z.coerce.number().int().positive().optional(),
  from: civilDate.optional(),
  to: civilDate.optional(),
});

export const holidayBody = z.object({
  space_id: id,
  day: civilDate,
  name: z.string().trim().min(1, 'field.required').max(200, 'field.tooLong'),
});
export type HolidayBody = z.infer<typeof holidayBody>;
export const holidayPatch = holidayBody.omit({ space_id: true }).partial();
export type HolidayPatch = z.infer<typeof holidayPatch>;

export const businessHoursQuery = z.object({ space_id: z.coerce.number().int().positive() });
export const businessHoursBody = businessHoursSettingsSchema.and(
  z.object({ space_id: id, company_id: id.nullable().optional() }),
);
export const businessHoursDeleteQuery = businessHoursQuery.extend({
  company_id: z.coerce.number().int().positive().optional(),
});
