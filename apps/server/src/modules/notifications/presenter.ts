import type { NotificationEvent, NotificationWire } from '@otklik/shared';
import type { NotificationRow } from './service';

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

export function presentNotification(row: NotificationRow): NotificationWire {
  return {
    id: row.id,
    space_id: row.spaceId,
    event: row.event as NotificationEvent,
    title: row.title,
    text: row.text,
    item_id: row.itemId,
    chat_id: row.chatId,
    issue_id: row.issueId,
    read_at: unix(row.readAt),
    created_at: unix(row.createdAt)!,
  };
}
