import type {
  AbsenceWire,
  HolidayWire,
  ScheduleSlotWire,
  ScheduleTemplateWire,
  WorkingHoursItemWire,
} from '@otklik/shared';
import type { absences, holidays, workinghoursItems, workinghoursTemplates } from '../../db/schema';

// What the working-hours API shows: unix seconds for instants (docs/product/entities.md Working-hours item), civil
// dates for holidays, snake_case fields. Allow-lists: a new column never leaks by accident.

type SlotRow = typeof workinghoursItems.$inferSelect;

export const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** docs/product/entities.md Working-hours item, as the caller's own schedule (GET /v1/me/workinghours). */
export function presentMySlot(slot: SlotRow): WorkingHoursItemWire {
  return {
    id: slot.id,
    space_id: slot.spaceId,
    started_at: unixSeconds(slot.startedAt),
    ended_at: unixSeconds(slot.endedAt),
    status: slot.statusId,
  };
}

/** A slot in the schedules screen (settings → users/workinghours). */
export function presentSlot(slot: SlotRow): ScheduleSlotWire {
  return {
    ...presentMySlot(slot),
    user_id: slot.userId,
    applied_at: slot.appliedAt ? unixSeconds(slot.appliedAt) : null,
    updated_at: unixSeconds(slot.updatedAt),
  };
}

export function presentTemplate(template: typeof workinghoursTemplates.$inferSelect): ScheduleTemplateWire {
  return {
    id: template.id,
    space_id: template.spaceId,
    name: template.name,
    items: template.items.map((item) => ({
      weekday: item.weekday,
      start: item.start,
      end: item.end,
      status_id: item.status_id,
    })),
  };
}

export function presentAbsence(absence: typeof absences.$inferSelect): AbsenceWire {
  return {
    id: absence.id,
    space_id: absence.spaceId,
    user_id: absence.userId,
    started_at: unixSeconds(absence.startedAt),
    ended_at: unixSeconds(absence.endedAt),
    reason: absence.reason,
  };
}

export function presentHoliday(holiday: typeof holidays.$inferSelect): HolidayWire {
  return { id: holiday.id, space_id: holiday.spaceId, day: holiday.day, name: holiday.name };
}
