import type { SocketMessageOf, SocketMessageType } from '@otklik/shared';
import { useEffect, useRef } from 'react';

// Server pushes for the query hooks of this folder (refetch the notes, the history, the failures when the
// socket says they changed). api/ sits below realtime/ and must not import it, so the dependency is
// inverted: the socket layer (realtime/instance.ts) hands every message it receives to publishPush.

/** One JSON message from the socket: a `type` and its fields. */
export interface PushMessage {
  type: string;
  [key: string]: unknown;
}

type Handler = (message: PushMessage) => void;

/** A handler for one message type, typed from the catalogue (packages/shared socket-events.ts). */
export type PushHandler<K extends SocketMessageType> = (message: SocketMessageOf<K>) => void;

const handlers = new Map<string, Set<Handler>>();

/** Called by the socket for every message it receives. */
export function publishPush(message: PushMessage) {
  for (const handler of handlers.get(message.type) ?? []) handler(message);
}

/** Hear pushed messages of `type` until the returned function is called. */
export function onPush<K extends SocketMessageType>(type: K, handler: PushHandler<K>): () => void {
  let set = handlers.get(type);
  if (!set) {
    set = new Set();
    handlers.set(type, set);
  }
  // Stored untyped: publishPush hands each handler only the messages of its own type.
  const untyped = handler as unknown as Handler;
  set.add(untyped);
  return () => {
    set.delete(untyped);
  };
}

/** Run `handler` for every pushed message of `type` while the component is mounted. */
export function usePush<K extends SocketMessageType>(type: K, handler: PushHandler<K>) {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => onPush(type, (message) => ref.current(message)), [type]);
}
