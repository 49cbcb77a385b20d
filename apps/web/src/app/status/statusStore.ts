import { useSyncExternalStore } from 'react';
import {
  applyManualStatus,
  applySocketStatus,
  initialStatus,
  type LocalStatus,
  mergeServerStatus,
  type ServerStatus,
  type SocketStatus,
} from './statusLogic';

// The user's current status per space in this browser tab. The rules are in statusLogic.ts; this only
// keeps the values and tells React when one changes.

export const nowSeconds = () => Math.floor(Date.now() / 1000);

class StatusStore {
  private values = new Map<number, LocalStatus>();
  private readonly listeners = new Set<() => void>();
  private changes = 0;

  /** Grows on every change (a snapshot for useSyncExternalStore). */
  version(): number {
    return this.changes;
  }

  private emit() {
    this.changes++;
    for (const listener of this.listeners) listener();
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  get(spaceId: number): LocalStatus | undefined {
    return this.values.get(spaceId);
  }

  private set(spaceId: number, next: LocalStatus) {
    if (this.values.get(spaceId) === next) return;
    this.values.set(spaceId, next);
    this.emit();
  }

  private update(spaceId: number, change: (local: LocalStatus) => LocalStatus) {
    this.set(spaceId, change(this.values.get(spaceId) ?? initialStatus(null)));
  }

  /** A value read from the server (config, GET /v1/me/status): subject to the 30 s guard. */
  server(spaceId: number, value: ServerStatus, now = nowSeconds()) {
    if (!this.values.has(spaceId)) {
      this.set(spaceId, initialStatus(value.status, value.manual_at ?? null));
      return;
    }
    this.update(spaceId, (local) => mergeServerStatus(local, value, now));
  }

  /** The user picked a status and the server confirmed it. */
  manual(spaceId: number, status: number, now = nowSeconds()) {
    this.update(spaceId, (local) => applyManualStatus(local, status, now));
  }

  socket(spaceId: number, message: SocketStatus, now = nowSeconds()) {
    this.update(spaceId, (local) => applySocketStatus(local, message, now));
  }

  clear() {
    this.values = new Map();
    this.emit();
  }
}

export const statusStore = new StatusStore();

/** The current status id in a space (null: none or not loaded yet). */
export function useCurrentStatus(spaceId: number | undefined): number | null {
  return useSyncExternalStore(statusStore.subscribe, () =>
    spaceId === undefined ? null : (statusStore.get(spaceId)?.status ?? null),
  );
}

/** Re-renders on any status change; returns a reader. */
export function useStatusReader(): (spaceId: number) => number | null {
  useSyncExternalStore(statusStore.subscribe, () => statusStore.version());
  return (spaceId) => statusStore.get(spaceId)?.status ?? null;
}
