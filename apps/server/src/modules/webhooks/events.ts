import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { activity } from '../../db/schema';
import type { Logger } from '../../lib/logger';
import type { BusEvent, EventBus } from '../../realtime/bus';
import { enqueueWebhookEvents, type WebhookEvent } from './service';

/** Published after deliveries are queued, so a worker on any node starts at once (to no socket: userIds []). */
export const WEBHOOKS_QUEUED = 'webhooks.queued';

type Row = Record<string, unknown>;
const list = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);

/** The closing that made an item closed: its latest status activity, so re-publishing it changes nothing. */
async function closingKey(db: Db, item: Row): Promise<string> {
  const [row] = await db
    .select({ id: activity.id })
    .from(activity)
    .where(
      and(
        eq(activity.itemId, Number(item.id)),
        eq(activity.type, 'item.status'),
        sql`${activity.data}->>'to' = 'closed'`,
      ),
    )
    .orderBy(desc(activity.id))
    .limit(1);
  return row ? `item.closed:${item.id}:a${row.id}` : `item.closed:${item.id}:u${item.updated_at}`;
}

/**
 * The webhook events in one bus event. The bus already carries every change after its commit (inbox
 * ingestion, the send path, the workflow, account errors), so webhooks are one more listener of it
 * rather than calls in each service. `task.changed` joins when tasks publish their events.
 */
export async function webhookEventsOf(db: Db, event: BusEvent): Promise<WebhookEvent[]> {
  const spaceId = event.spaceId;
  if (spaceId === undefined) return [];
  const out: WebhookEvent[] = [];
  switch (event.type) {
    case 'items.created':
      for (const item of list(event.payload.items)) {
        if (item.is_own && item.parent_id)
          out.push({ type: 'item.replied', spaceId, key: `item.replied:${item.id}`, data: { item } });
        else if (!item.is_own)
          out.push({ type: 'item.created', spaceId, key: `item.created:${item.id}`, data: { item } });
      }
      break;
    case 'items.updated':
      for (const item of list(event.payload.items)) {
        if (item.status !== 'closed' || item.is_own) continue;
        out.push({ type: 'item.closed', spaceId, key: await closingKey(db, item), data: { item } });
      }
      break;
    case 'messages.created': {
      const chats = new Map(list(event.payload.chats).map((chat) => [chat.id, chat]));
      for (const message of list(event.payload.messages))
        out.push({
          type: 'chat.message',
          spaceId,
          key: `chat.message:${message.id}`,
          data: { message, chat: chats.get(message.chat_id) ?? null },
        });
      break;
    }
    case 'objects.updated':
      for (const object of list(event.payload.objects)) {
        if (!object.error) continue;
        const account = {
          id: object.id,
          name: object.name,
          provider: object.provider,
          error: object.error,
          error_at: object.error_at,
        };
        out.push({
          type: 'account.error',
          spaceId,
          key: `account.error:${object.id}:${object.error_at}`,
          data: { account },
        });
      }
      break;
    case 'tasks.changed':
      for (const task of list(event.payload.tasks))
        out.push({
          type: 'task.changed',
          spaceId,
          key: `task.changed:${task.id}:${task.updated_at}`,
          data: { task },
        });
      break;
  }
  return out;
}

/**
 * Queues deliveries for what this node published (`origin`), one bus event after another, and wakes
 * the workers. A failure is logged: the change itself is committed and stays.
 */
export function watchWebhookEvents(deps: { db: Db; bus: EventBus; log: Logger }): {
  stop: () => void;
  idle: () => Promise<void>;
} {
  let queue = Promise.resolve();
  const stop = deps.bus.subscribe((event) => {
    if (event.origin !== deps.bus.nodeId) return;
    if (
      !['items.created', 'items.updated', 'messages.created', 'objects.updated', 'tasks.changed'].includes(
        event.type,
      )
    )
      return;
    queue = queue.then(async () => {
      try {
        const events = await webhookEventsOf(deps.db, event);
        if (events.length === 0) return;
        if ((await enqueueWebhookEvents(deps.db, events)) > 0)
          await deps.bus.publish({
            type: WEBHOOKS_QUEUED,
            userIds: [],
            payload: {},
            cause: { kind: 'system' },
          });
      } catch (error) {
        deps.log.error({ err: String(error), type: event.type }, 'Could not queue webhook deliveries');
      }
    });
  });
  return { stop, idle: () => queue };
}
