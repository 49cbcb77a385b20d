import type { BusinessHoursAnswer, BusinessHoursSettings, BusinessSchedule } from '@otklik/shared';
import { isEmptySchedule, isWithinBusinessHours } from '@otklik/shared';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { businessHours, companies, holidays, spaces } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { publishSpaceScheduleChanged, type ScheduleWrite } from './events';

// The business-hours schedule of a space and its companies' overrides (settings/workinghours; shared math
// in packages/shared/src/business-hours.ts; what statistics make of it: docs/statistics.md "Business hours").
// The time zone is the space's (settings/space), the days off are the space's holiday calendar; a company
// override replaces the weekly hours and special days, never the holidays.

type Row = typeof businessHours.$inferSelect;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const settingsOf = (row: Row): BusinessHoursSettings => ({ week: row.week, special_days: row.specialDays });

/** Weekly intervals sorted by weekday and start, special days by date: one stored shape. */
function normalised(settings: BusinessHoursSettings): BusinessHoursSettings {
  return {
    week: [...settings.week]
      .map(({ weekday, start, end }) => ({ weekday, start, end }))
      .sort((a, b) => a.weekday - b.weekday || a.start - b.start),
    special_days: [...settings.special_days]
      .map((d) => ({
        day: d.day,
        intervals: [...d.intervals]
          .map(({ start, end }) => ({ start, end }))
          .sort((a, b) => a.start - b.start),
      }))
      .sort((a, b) => a.day.localeCompare(b.day)),
  };
}

export async function readBusinessHours(
  db: Db,
  spaceId: number,
  timezone: string,
): Promise<BusinessHoursAnswer> {
  const rows = await db
    .select()
    .from(businessHours)
    .where(eq(businessHours.spaceId, spaceId))
    .orderBy(asc(businessHours.companyId));
  const own = rows.find((r) => r.companyId === null);
  return {
    space_id: spaceId,
    timezone,
    schedule: own ? { ...settingsOf(own), updated_at: seconds(own.updatedAt) } : null,
    companies: rows
      .filter((r) => r.companyId !== null)
      .map((r) => ({ company_id: r.companyId!, ...settingsOf(r), updated_at: seconds(r.updatedAt) })),
  };
}

async function assertCompanyOfSpace(db: Db, spaceId: number, companyId: number) {
  const [company] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(and(eq(companies.id, companyId), eq(companies.spaceId, spaceId)))
    .limit(1);
  if (!company)
    throw badRequest('businessHours.company', { fields: { company_id: 'businessHours.company' } });
}

const whereOwner = (spaceId: number, companyId: number | null) =>
  and(
    eq(businessHours.spaceId, spaceId),
    companyId === null ? isNull(businessHours.companyId) : eq(businessHours.companyId, companyId),
  );

/** Sets the space's schedule (companyId null) or a company's override: one row each, replaced whole. */
export async function saveBusinessHours(
  write: ScheduleWrite,
  spaceId: number,
  companyId: number | null,
  settings: BusinessHoursSettings,
) {
  if (companyId !== null) await assertCompanyOfSpace(write.db, spaceId, companyId);
  const value = normalised(settings);
  const set = {
    week: value.week,
    specialDays: value.special_days,
    updatedBy: write.performedBy,
    updatedAt: write.now,
  };
  const updated = await write.db
    .update(businessHours)
    .set(set)
    .where(whereOwner(spaceId, companyId))
    .returning({ id: businessHours.id });
  // A concurrent first save loses on the unique index (space, company) and answers an error; retrying works.
  if (updated.length === 0) await write.db.insert(businessHours).values({ spaceId, companyId, ...set });
  await publishSpaceScheduleChanged(write, spaceId, 'business');
}

/** Removes the space's schedule or a company's override (the company then follows the space's). */
export async function deleteBusinessHours(write: ScheduleWrite, spaceId: number, companyId: number | null) {
  await write.db.delete(businessHours).where(whereOwner(spaceId, companyId));
  await publishSpaceScheduleChanged(write, spaceId, 'business');
}

/**
 * Everything statistics, rules and bots need to measure business time in a space: the resolved schedule
 * of the space and of each company with an override (null = no schedule, nothing to measure).
 */
export interface BusinessCalendar {
  /** No schedule at all (neither the space's nor a company's): business-hours figures are null. */
  empty: boolean;
  forCompany(companyId: number | null): BusinessSchedule | null;
}

export async function loadBusinessCalendar(
  db: Db,
  spaceId: number,
  timezone: string,
): Promise<BusinessCalendar> {
  const rows = await db.select().from(businessHours).where(eq(businessHours.spaceId, spaceId));
  const days = await db.select({ day: holidays.day }).from(holidays).where(eq(holidays.spaceId, spaceId));
  const off = days.map((d) => d.day);
  const resolve = (row: Row | undefined): BusinessSchedule | null =>
    row && !isEmptySchedule(settingsOf(row))
      ? { timezone, week: row.week, special_days: row.specialDays, holidays: off }
      : null;
  const space = resolve(rows.find((r) => r.companyId === null));
  const byCompany = new Map<number, BusinessSchedule | null>();
  for (const row of rows) if (row.companyId !== null) byCompany.set(row.companyId, resolve(row));
  return {
    empty: space === null && [...byCompany.values()].every((s) => s === null),
    forCompany: (companyId) =>
      companyId !== null && byCompany.has(companyId) ? byCompany.get(companyId)! : space,
  };
}

/** The calendar of a space in its own time zone (rules and bots, which have no actor to read it from). */
export async function spaceBusinessCalendar(db: Db, spaceId: number): Promise<BusinessCalendar> {
  const [space] = await db
    .select({ timezone: spaces.timezone })
    .from(spaces)
    .where(eq(spaces.id, spaceId))
    .limit(1);
  return loadBusinessCalendar(db, spaceId, space?.timezone ?? 'UTC');
}

/** Whether an instant falls within the business hours that apply to a company's account (rules' condition). */
export function withinBusinessHours(calendar: BusinessCalendar, companyId: number | null, at: Date): boolean {
  const schedule = calendar.forCompany(companyId);
  return schedule !== null && isWithinBusinessHours(Math.floor(at.getTime() / 1000), schedule);
}
