import type { EventBus } from './bus';

// Ending sessions reaches open sockets on every node through the event bus (issue 11 item 5). The
// event is a hint: each node's hub checks the sessions against the database before it closes a socket,
// so a stray or replayed event can only cause a check, never close a live session's socket.

/** Bus event type: `userIds: [userId]`, payload `{ session_ids: number[] }` or `{ all: true }`. */
export const SESSIONS_ENDED = 'sessions.ended';

/** What ending a session needs of the bus. */
export type SessionEvents = Pick<EventBus, 'publish'>;

export type EndedSessions = { sessionIds: number[] } | { all: true };

export async function publishSessionsEnded(events: SessionEvents, userId: number, ended: EndedSessions) {
  await events.publish({
    type: SESSIONS_ENDED,
    userIds: [userId],
    payload: 'all' in ended ? { all: true } : { session_ids: ended.sessionIds },
    cause: { kind: 'user', id: userId },
  });
}

/** The sessions an event names for one user: a list of ids, or null for all of the user's sessions. */
export function endedSessionIds(payload: Record<string, unknown>): number[] | null {
  if (payload.all === true) return null;
  const ids = payload.session_ids;
  return Array.isArray(ids) ? ids.filter((id): id is number => typeof id === 'number') : [];
}

export {
  SOCKET_CLOSE_OTP_REQUIRED as CLOSE_OTP_REQUIRED,
  SOCKET_CLOSE_PAID_OVER as CLOSE_PAID_OVER,
  SOCKET_CLOSE_SESSION_ENDED as CLOSE_SESSION_ENDED,
} from '@otklik/shared';
