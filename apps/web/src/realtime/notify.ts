import { NOTIFICATION_DURATION_MS } from '@otklik/shared';
import type { SocketMessage } from './socket';

// SPEC §3 Notification message: type (issue or comments_filter), text, title, user, id, icon, class,
// duration. Over the socket it arrives as `{type: 'notify', notification: {...}}`; a flat message with
// `kind` instead of the inner `type` is read the same way.

export interface AppNotification {
  kind: 'issue' | 'comments_filter' | 'other';
  title?: string;
  text: string;
  /** The issue's id for kind 'issue'. */
  id?: number | string;
  durationMs: number;
}

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

export function parseNotify(message: SocketMessage): AppNotification {
  const inner =
    message.notification && typeof message.notification === 'object'
      ? (message.notification as Record<string, unknown>)
      : message;
  const rawKind = inner === message ? message.kind : inner.type;
  const kind = rawKind === 'issue' || rawKind === 'comments_filter' ? rawKind : 'other';
  const id = typeof inner.id === 'number' || typeof inner.id === 'string' ? inner.id : undefined;
  const fallback =
    kind === 'issue' ? NOTIFICATION_DURATION_MS.issue : NOTIFICATION_DURATION_MS.comments_filter;
  const duration = typeof inner.duration === 'number' && inner.duration > 0 ? inner.duration : fallback;
  return { kind, title: str(inner.title), text: str(inner.text) ?? '', id, durationMs: duration };
}
