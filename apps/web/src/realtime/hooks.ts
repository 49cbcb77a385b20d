import type { SocketMessageType } from '@otklik/shared';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useMe } from '../api/me';
import { socket } from './instance';
import type { LockHolder, SocketHandler, SocketMessage, SocketState } from './socket';

export type { LockHolder, SocketMessage, SocketState };

/**
 * The rows a push carries, read with the list types of api/: the catalogue types the fields that address
 * a row (id, space_id, object_id), the rest of a pushed row is the read API's row (api/inboxTypes.ts).
 */
export function rowsOf<T extends { id: number }>(rows: readonly { id: number }[] | undefined): T[] {
  return (rows ?? []) as T[];
}

/** Ask for a lock ('item:12', 'chat:5'); it is re-sent after every reconnect until unlock(key). */
export function lock(key: string) {
  socket.lock(key);
}

export function unlock(key: string) {
  socket.unlock(key);
}

/** Take a lock from the colleague who holds it (administrators); held like lock(key) afterwards. */
export function takeover(key: string) {
  socket.takeover(key);
}

/** Send a message over the socket now; false when not connected. */
export function sendSocketMessage(message: SocketMessage): boolean {
  return socket.send(message);
}

/** Run `handler` for every socket message of `type` ('*' for all) while the component is mounted. */
export function useSocketEvent<K extends SocketMessageType | '*'>(type: K, handler: SocketHandler<K>) {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => socket.subscribe(type, (message) => ref.current(message)), [type]);
}

export function useSocketState(): SocketState {
  return useSyncExternalStore(
    (listener) => socket.onStateChange(listener),
    () => socket.state(),
  );
}

export interface LockView {
  /** Who holds the lock (possibly the current user), or null when free or unknown. */
  holder: LockHolder | null;
  /** The current user holds it (in this or another tab). */
  isMine: boolean;
}

/**
 * Who holds `key` — for "Olga is answering" on inbox screens. Only watches: the reply box takes the
 * lock when its user types (features/inbox/hooks/useTypingLock.ts).
 */
export function useLock(key: string | null): LockView {
  const me = useMe().data;
  useEffect(() => {
    if (key) return socket.watch(key);
  }, [key]);
  const holder = useSyncExternalStore(
    (listener) => socket.onLocksChange(listener),
    () => (key ? socket.holder(key) : null),
  );
  return { holder, isMine: holder !== null && me !== undefined && holder.id === me.id };
}
