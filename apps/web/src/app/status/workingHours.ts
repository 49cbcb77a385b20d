import { SCHEDULE_REFRESH_S, WORKINGHOURS_CHECK_MS, WORKINGHOURS_NOTIFY_WINDOW_S } from '@otklik/shared';
import type { WorkingHoursItem } from '../../api/types';

// docs/product/states.md working hours, as pure rules over unix seconds.
// - 'changing' ('Смена статуса', 30 s): a slot starts within 7 s and its status differs from the current one;
// - 'soon' ('Скоро смена статуса'): slot start − now is within 7 s of the user's wh_status_notification;
// - the schedule is reloaded once it is older than 1200 s.

export type NoticeKind = 'changing' | 'soon';

export interface WorkingHoursNotice {
  kind: NoticeKind;
  slot: WorkingHoursItem;
  /** Stable per slot and kind, so one notice is shown once. */
  key: string;
}

export interface NoticeInput {
  slots: readonly WorkingHoursItem[];
  /** The user's current status in the slots' space. */
  currentStatus: number | null;
  nowS: number;
  /** user.settings.wh_status_notification: seconds ahead to warn; 0 or missing = no warning. */
  warnBeforeS?: number | null;
}

const within = (a: number, b: number) => Math.abs(a - b) <= WORKINGHOURS_NOTIFY_WINDOW_S;

export function noticeKey(kind: NoticeKind, slot: WorkingHoursItem): string {
  return `${kind}:${slot.id}:${slot.started_at}`;
}

export function workingHoursNotices(input: NoticeInput): WorkingHoursNotice[] {
  const warn = input.warnBeforeS ?? 0;
  const notices: WorkingHoursNotice[] = [];
  for (const slot of input.slots) {
    // A slot without a status switches nothing; one that keeps the current status needs no notice.
    if (slot.status === null || slot.status === input.currentStatus) continue;
    const untilStart = slot.started_at - input.nowS;
    if (within(untilStart, 0)) notices.push({ kind: 'changing', slot, key: noticeKey('changing', slot) });
    else if (warn > 0 && within(untilStart, warn))
      notices.push({ kind: 'soon', slot, key: noticeKey('soon', slot) });
  }
  return notices;
}

/**
 * The schedule is checked about every minute; a 7 s window would be missed by a plain minute tick, so
 * the next check comes earlier when a slot start (or its warning moment) falls inside the next minute.
 */
export function nextCheckDelayMs(
  slots: readonly WorkingHoursItem[],
  nowS: number,
  warnBeforeS?: number | null,
): number {
  const warn = warnBeforeS ?? 0;
  let delay = WORKINGHOURS_CHECK_MS;
  for (const slot of slots) {
    if (slot.status === null) continue;
    const moments = warn > 0 ? [slot.started_at, slot.started_at - warn] : [slot.started_at];
    for (const moment of moments) {
      const ms = (moment - nowS) * 1000;
      if (ms > 0 && ms < delay) delay = ms;
    }
  }
  return Math.max(delay, 1000);
}

/** docs/product/states.md, limits.md: reload the schedule once it is older than 1200 s. */
export function isScheduleStale(loadedAtS: number, nowS: number): boolean {
  return nowS - loadedAtS > SCHEDULE_REFRESH_S;
}
