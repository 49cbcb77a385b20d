import { NOTIFICATION_DURATION_MS } from '@otklik/shared';
import type { SocketMessage } from './socket';

// docs/product/entities.md Notification message: type (issue or comments_filter), text, title, user, id, icon, class,
// duration. Over the socket it arrives as `{type: 'notify', notification: {...}}`; a flat message with
// `kind` instead of the inner `type` is read the same way. Issue 13 adds `mention`: a colleague's note
// mentions the user, with the item_id or chat_id it is on (the toast opens it).

export interface AppNotification {
  kind: 'issue' | 'comments_filter' | 'mention' | 'item' | 'failure' | 'other';
  title?: string;
  text: string;
  /** The issue's id for kind 'issue'. */
  id?: number | string;
  /** Where a mention is (kind 'mention'). */
  itemId?: number;
  chatId?: number;
  durationMs: number;
  /** Issue 18: the user's channels for this event — the toast (in-app), a desktop pop-up (browser). */
  inapp: boolean;
  browser: boolean;
}

const KINDS = ['issue', 'comments_filter', 'mention', 'item', 'failure'] as const;

/** A mention's toast stays this long: it is addressed to the user personally. */
const MENTION_DURATION_MS = 10_000;
const positive = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);

export function parseNotify(message: SocketMessage): AppNotification {
  const inner =
    message.notification && typeof message.notification === 'object'
      ? (message.notification as Record<string, unknown>)
      : message;
  const rawKind = inner === message ? message.kind : inner.type;
  const kind = KINDS.find((k) => k === rawKind) ?? 'other';
  const id = typeof inner.id === 'number' || typeof inner.id === 'string' ? inner.id : undefined;
  const fallback =
    kind === 'mention'
      ? MENTION_DURATION_MS
      : kind === 'issue'
        ? NOTIFICATION_DURATION_MS.issue
        : NOTIFICATION_DURATION_MS.comments_filter;
  const duration = typeof inner.duration === 'number' && inner.duration > 0 ? inner.duration : fallback;
  const place =
    kind === 'mention' || kind === 'item' || kind === 'failure' || kind === 'comments_filter'
      ? positive(inner.item_id) !== undefined
        ? { itemId: positive(inner.item_id) }
        : positive(inner.chat_id) !== undefined
          ? { chatId: positive(inner.chat_id) }
          : {}
      : {};
  return {
    kind,
    title: str(inner.title),
    text: str(inner.text) ?? '',
    id,
    durationMs: duration,
    ...place,
    inapp: inner.inapp !== false,
    browser: inner.browser === true,
  };
}

/** The route a notification opens when clicked, if any: a task, or the item or chat of a mention. */
export function notificationTarget(
  notice: AppNotification,
): { route: 'issue-page' | 'item' | 'chat-messages'; id: number | string } | null {
  if (notice.kind === 'issue' && notice.id !== undefined) return { route: 'issue-page', id: notice.id };
  if (notice.itemId !== undefined) return { route: 'item', id: notice.itemId };
  if (notice.chatId !== undefined) return { route: 'chat-messages', id: notice.chatId };
  return null;
}
