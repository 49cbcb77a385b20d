import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { authors, chats, items, messages, type outbox, posts } from '../db/schema';
import { outboxPayloadSchemas } from '../modules/outbox/queue';
import {
  type ChatRef,
  type Connector,
  type ConnectorContext,
  ConnectorError,
  type ItemRef,
  type SentRef,
} from '../providers/types';

// What an outbox row points at, as the connector sees it (the network's ids), and the call it makes.

export type OutboxRow = typeof outbox.$inferSelect;

const parentItem = alias(items, 'parent_item');

async function loadItemRef(
  db: Db,
  id: number | null,
): Promise<{ row: typeof items.$inferSelect; ref: ItemRef }> {
  const [found] = id
    ? await db
        .select({
          row: items,
          post: posts.externalId,
          author: authors.externalId,
          parent: parentItem.externalId,
        })
        .from(items)
        .leftJoin(posts, eq(posts.id, items.postId))
        .leftJoin(authors, eq(authors.id, items.authorId))
        .leftJoin(parentItem, eq(parentItem.id, items.parentId))
        .where(eq(items.id, id))
        .limit(1)
    : [];
  if (!found)
    throw new ConnectorError('permanent', 'The record was deleted', {
      reason: { key: 'failure.recordDeleted' },
    });
  if (!found.row.externalId)
    throw new ConnectorError('permanent', 'The record is not sent yet', {
      reason: { key: 'failure.recordNotSent' },
    });
  const ref: ItemRef = {
    externalId: found.row.externalId,
    kind: found.row.kind,
    postExternalId: found.post,
    parentExternalId: found.parent ?? found.row.parentExternalId,
    authorExternalId: found.author,
  };
  return { row: found.row, ref };
}

async function loadChatRef(db: Db, id: number | null): Promise<ChatRef> {
  const [found] = id
    ? await db
        .select({ chat: chats, author: authors.externalId })
        .from(chats)
        .leftJoin(authors, eq(authors.id, chats.authorId))
        .where(eq(chats.id, id))
        .limit(1)
    : [];
  if (!found)
    throw new ConnectorError('permanent', 'The chat was deleted', { reason: { key: 'failure.chatDeleted' } });
  return { externalId: found.chat.externalId, authorExternalId: found.author };
}

async function loadMessage(db: Db, id: number | null) {
  const [row] = id ? await db.select().from(messages).where(eq(messages.id, id)).limit(1) : [];
  if (!row)
    throw new ConnectorError('permanent', 'The message was deleted', {
      reason: { key: 'failure.messageDeleted' },
    });
  return row;
}

async function loadOwnItem(db: Db, id: number | null) {
  const [row] = id ? await db.select().from(items).where(eq(items.id, id)).limit(1) : [];
  if (!row)
    throw new ConnectorError('permanent', 'The record was deleted', {
      reason: { key: 'failure.recordDeleted' },
    });
  return row;
}

function method<K extends keyof Connector>(connector: Connector, name: K): NonNullable<Connector[K]> {
  const fn = connector[name];
  if (typeof fn !== 'function')
    throw new ConnectorError('permanent', `${connector.id}: ${String(name)} is not supported`, {
      reason: { key: 'failure.notSupported', params: { network: connector.id } },
    });
  return fn.bind(connector) as NonNullable<Connector[K]>;
}

/** One key per outbox row, the same on every attempt (OutgoingContent.idempotencyKey). */
const keyOf = (row: OutboxRow) => `outbox:${row.id}`;

/** Makes the network call of one outbox row. Returns the network's id of what was created, if any. */
export async function performOutboxCall(
  db: Db,
  ctx: ConnectorContext,
  connector: Connector,
  row: OutboxRow,
): Promise<SentRef | null> {
  switch (row.action) {
    case 'reply': {
      const reply = await loadOwnItem(db, row.itemId);
      const { ref } = await loadItemRef(db, reply.parentId);
      return method(connector, 'sendReply')(ctx, ref, {
        text: reply.text,
        attachments: reply.attachments,
        idempotencyKey: keyOf(row),
      });
    }
    case 'direct': {
      const { ref } = await loadItemRef(db, row.itemId);
      const message = await loadMessage(db, row.messageId);
      return method(connector, 'sendDirect')(ctx, ref, {
        text: message.text,
        attachments: message.attachments,
        idempotencyKey: keyOf(row),
      });
    }
    case 'message': {
      const chat = await loadChatRef(db, row.chatId);
      const message = await loadMessage(db, row.messageId);
      const buttons = connector.buttons ? outboxPayloadSchemas.message.parse(row.payload).buttons : undefined;
      return method(connector, 'sendMessage')(ctx, chat, {
        text: message.text,
        attachments: message.attachments,
        idempotencyKey: keyOf(row),
        ...(buttons?.length ? { buttons } : {}),
      });
    }
    case 'edit': {
      const { row: reply, ref } = await loadItemRef(db, row.itemId);
      await method(connector, 'editReply')(ctx, ref, { text: reply.text, attachments: reply.attachments });
      return null;
    }
    case 'delete':
      await method(connector, 'deleteItem')(ctx, (await loadItemRef(db, row.itemId)).ref);
      return null;
    case 'restore':
      await method(connector, 'restoreItem')(ctx, (await loadItemRef(db, row.itemId)).ref);
      return null;
    case 'hide':
    case 'unhide':
      await method(connector, 'hideItem')(
        ctx,
        (await loadItemRef(db, row.itemId)).ref,
        row.action === 'hide',
      );
      return null;
    case 'like':
    case 'unlike':
      await method(connector, 'likeItem')(
        ctx,
        (await loadItemRef(db, row.itemId)).ref,
        row.action === 'like',
      );
      return null;
    case 'report':
      await method(connector, 'reportItem')(ctx, (await loadItemRef(db, row.itemId)).ref);
      return null;
    case 'react': {
      const { value } = outboxPayloadSchemas.react.parse(row.payload);
      await method(connector, 'react')(
        ctx,
        { kind: 'item', item: (await loadItemRef(db, row.itemId)).ref },
        value,
      );
      return null;
    }
    case 'react_message': {
      const { value } = outboxPayloadSchemas.react.parse(row.payload);
      const message = await loadMessage(db, row.messageId);
      if (!message.externalId)
        throw new ConnectorError('permanent', 'The message is not sent yet', {
          reason: { key: 'failure.messageNotSent' },
        });
      const chat = await loadChatRef(db, row.chatId);
      await method(connector, 'react')(
        ctx,
        { kind: 'message', chat, messageExternalId: message.externalId },
        value,
      );
      return null;
    }
    case 'block':
    case 'unblock': {
      const { authorExternalId, until } = outboxPayloadSchemas.block.parse(row.payload);
      await method(connector, 'blockAuthor')(
        ctx,
        { externalId: authorExternalId },
        { blocked: row.action === 'block', until: until ? new Date(until) : null },
      );
      return null;
    }
    default:
      throw new ConnectorError('permanent', `Unknown outbox action: ${row.action}`, {
        reason: { key: 'failure.notSupported', params: { network: 'Otklik' }, detail: row.action },
      });
  }
}
