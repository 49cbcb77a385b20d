import { STATUS_MANUAL_GUARD_S, STATUS_SERVER_WINS_AFTER_S } from '@otklik/shared';
import type { UserStatus } from '../../api/types';

// docs/product/states.md user status, as pure rules over unix seconds: the components only feed them the clock.

/** What this browser believes the user's status in one space is. */
export interface LocalStatus {
  status: number | null;
  /** When this browser last changed it by hand (unix s); null: never, the value came from the server. */
  changedAt: number | null;
  /** The last manual change anywhere (this browser, another tab, the server's manual_at), unix s. */
  manualAt: number | null;
}

export interface ServerStatus {
  status: number | null;
  manual_at?: number | null;
}

export const initialStatus = (status: number | null, manualAt: number | null = null): LocalStatus => ({
  status,
  changedAt: null,
  manualAt,
});

const latest = (a: number | null, b: number | null | undefined): number | null =>
  b === null || b === undefined ? a : a === null ? b : Math.max(a, b);

/** docs/product/states.md: re-poll the server (every 180 s) only when more than 600 s passed since the last manual change. */
export function shouldPollStatus(local: LocalStatus, nowS: number): boolean {
  return local.manualAt === null || nowS - local.manualAt > STATUS_MANUAL_GUARD_S;
}

/** The user picked a status here. */
export function applyManualStatus(local: LocalStatus, status: number, nowS: number): LocalStatus {
  return { ...local, status, changedAt: nowS, manualAt: nowS };
}

/** docs/product/states.md: a server value replaces the local one only when more than 30 s passed since the local change. */
export function mergeServerStatus(local: LocalStatus, server: ServerStatus, nowS: number): LocalStatus {
  const manualAt = latest(local.manualAt, server.manual_at);
  if (server.status === local.status) return manualAt === local.manualAt ? local : { ...local, manualAt };
  const localIsRecent = local.changedAt !== null && nowS - local.changedAt <= STATUS_SERVER_WINS_AFTER_S;
  if (localIsRecent) return manualAt === local.manualAt ? local : { ...local, manualAt };
  return { status: server.status, changedAt: local.changedAt, manualAt };
}

export interface SocketStatus {
  status: number | null;
  /** 'manual' (a person picked it), 'schedule' (working hours), 'system'… */
  source?: string;
  changed_at?: number | null;
}

/**
 * docs/product/states.md: a socket `status` message updates the status. The server sends it after it stored a change,
 * so a switch by the schedule or the system always applies; a manual change (another tab, our own echo)
 * goes through the same 30 s guard as polling, so a late echo of an older pick cannot undo a newer one.
 */
export function applySocketStatus(local: LocalStatus, message: SocketStatus, nowS: number): LocalStatus {
  if (message.source === 'manual') {
    return mergeServerStatus(local, { status: message.status, manual_at: message.changed_at ?? nowS }, nowS);
  }
  if (message.status === local.status) return local;
  return { ...local, status: message.status };
}

/** Statuses a person may pick in a space: the space's own, not hidden, in their order. */
export function pickableStatuses(statuses: readonly UserStatus[], spaceId: number): UserStatus[] {
  return statuses
    .filter((s) => s.space_id === spaceId && !s.hidden)
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || a.id - b.id);
}

/** The statuses that end the offline dialog: pickable and not offline themselves. */
export function onlineChoices(statuses: readonly UserStatus[], spaceId: number): UserStatus[] {
  return pickableStatuses(statuses, spaceId).filter((s) => !s.offline);
}

export function isOfflineStatus(statuses: readonly UserStatus[], statusId: number | null): boolean {
  if (statusId === null) return false;
  return statuses.some((s) => s.id === statusId && s.offline);
}

/**
 * docs/product/states.md: when the current status is offline a blocking dialog forces a non-hidden status. Returns the
 * first space (in the given order) where the user is offline and has something else to pick.
 */
export function spaceNeedingStatus(
  spaceIds: readonly number[],
  current: (spaceId: number) => number | null,
  statuses: readonly UserStatus[],
): number | null {
  for (const spaceId of spaceIds) {
    if (isOfflineStatus(statuses, current(spaceId)) && onlineChoices(statuses, spaceId).length > 0) {
      return spaceId;
    }
  }
  return null;
}
