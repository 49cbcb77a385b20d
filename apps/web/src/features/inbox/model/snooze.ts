import { addDays, civilDateOf, isoWeekday, minutesOfDay, zonedToUnix } from '../../../lib/zonedTime';

// Snooze presets (issue 13): "in 1 hour", "tomorrow 9:00", "next Monday 9:00" — wall-clock times in
// the SPACE's time zone (the team's working day), not the browser's. Pure: the clock and the zone are
// arguments. The result is the `delayed_until` of docs/product/states.md "delayed"; jobs/delayed.ts brings it back.

export const SNOOZE_PRESETS = ['hour', 'tomorrow', 'monday'] as const;
export type SnoozePreset = (typeof SNOOZE_PRESETS)[number];

/** The hour of the day the day-based presets return at. */
export const SNOOZE_MORNING_MINUTES = 9 * 60;

/** When each preset returns the record, unix seconds, seen from `nowS` in the space's `timeZone`. */
export function snoozePresetTimes(nowS: number, timeZone: string): Record<SnoozePreset, number> {
  const today = civilDateOf(nowS, timeZone);
  // The next Monday strictly after today: on a Monday, the one a week later.
  const toMonday = 8 - isoWeekday(today);
  return {
    hour: Math.floor(nowS) + 3_600,
    tomorrow: zonedToUnix(addDays(today, 1), SNOOZE_MORNING_MINUTES, timeZone),
    monday: zonedToUnix(addDays(today, toMonday), SNOOZE_MORNING_MINUTES, timeZone),
  };
}

/** A value for <input type="datetime-local"> showing the instant on the space's wall clock. */
export function toZonedInput(seconds: number, timeZone: string): string {
  const minutes = minutesOfDay(seconds, timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${civilDateOf(seconds, timeZone)}T${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** The instant a datetime-local value means on the space's wall clock; null when it is not one. */
export function fromZonedInput(value: string, timeZone: string): number | null {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!match) return null;
  return zonedToUnix(match[1]!, Number(match[2]) * 60 + Number(match[3]), timeZone);
}
