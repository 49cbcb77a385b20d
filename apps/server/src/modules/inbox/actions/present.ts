import type { PushedChat, PushedItem } from '@otklik/shared';
import { inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { authors, type chats, chatTags, type items, itemTags, objects } from '../../../db/schema';
import type { Cause, EventBus } from '../../../realtime/bus';
import {
  type PresentedChat,
  type PresentedItem,
  presentAuthor,
  presentChat,
  presentItem,
} from '../read/presenter';

// Items and chats as the lists show them (author, tags, provider), for responses and bus pushes alike.

type ItemRow = typeof items.$inferSelect;
type ChatRow = typeof chats.$inferSelect;

export type { Cause };

async function providersOf(db: Db, objectIds: number[]) {
  if (objectIds.length === 0) return new Map<number, string>();
  const rows = await db
    .select({ id: objects.id, provider: objects.provider })
    .from(objects)
    .where(inArray(objects.id, [...new Set(objectIds)]));
  return new Map(rows.map((r) => [r.id, r.provider]));
}

async function authorsOf(db: Db, authorIds: Array<number | null>) {
  const ids = [...new Set(authorIds.filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map<number, ReturnType<typeof presentAuthor>>();
  const rows = await db.select().from(authors).where(inArray(authors.id, ids));
  return new Map(rows.map((a) => [a.id, presentAuthor(a)]));
}

function group<T>(rows: T[], key: (row: T) => number, value: (row: T) => number) {
  const map = new Map<number, number[]>();
  for (const r of rows) map.set(key(r), [...(map.get(key(r)) ?? []), value(r)]);
  return map;
}

export async function presentItems(db: Db, rows: ItemRow[]): Promise<PresentedItem[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [providers, people, tagRows] = await Promise.all([
    providersOf(
      db,
      rows.map((r) => r.objectId),
    ),
    authorsOf(
      db,
      rows.map((r) => r.authorId),
    ),
    db.select().from(itemTags).where(inArray(itemTags.itemId, ids)),
  ]);
  const tags = group(
    tagRows,
    (t) => t.itemId,
    (t) => t.tagId,
  );
  return rows.map((r) =>
    presentItem(r, {
      author: r.authorId ? people.get(r.authorId) : null,
      tags: tags.get(r.id) ?? [],
      provider: providers.get(r.objectId),
    }),
  );
}

export async function presentChats(db: Db, rows: ChatRow[]): Promise<PresentedChat[]> {
  if (rows.length === 0) return [];
  const [providers, people, tagRows] = await Promise.all([
    providersOf(
      db,
      rows.map((r) => r.objectId),
    ),
    authorsOf(
      db,
      rows.map((r) => r.authorId),
    ),
    db
      .select()
      .from(chatTags)
      .where(
        inArray(
          chatTags.chatId,
          rows.map((r) => r.id),
        ),
      ),
  ]);
  const tags = group(
    tagRows,
    (t) => t.chatId,
    (t) => t.tagId,
  );
  return rows.map((r) =>
    presentChat(r, {
      author: r.authorId ? people.get(r.authorId) : null,
      tags: tags.get(r.id) ?? [],
      provider: providers.get(r.objectId),
    }),
  );
}

/**
 * Publishes after commit, one event per account: the socket hub delivers an account's content only to
 * the members whose scope covers that account (realtime/access.ts), so each event names its `object_id`.
 */
export async function publishBySpace(
  bus: EventBus,
  type: 'items.updated',
  presented: PushedItem[],
  cause: Cause,
): Promise<void>;
export async function publishBySpace(
  bus: EventBus,
  type: 'chats.updated',
  presented: PushedChat[],
  cause: Cause,
): Promise<void>;
export async function publishBySpace(
  bus: EventBus,
  type: 'items.updated' | 'chats.updated',
  presented: PushedItem[] | PushedChat[],
  cause: Cause,
) {
  for (const [objectId, list] of byAccount<PushedItem | PushedChat>(presented)) {
    const spaceId = list[0]!.space_id;
    if (type === 'items.updated')
      await bus.publish({
        type,
        spaceId,
        payload: { object_id: objectId, items: list as PushedItem[] },
        cause,
      });
    else
      await bus.publish({
        type,
        spaceId,
        payload: { object_id: objectId, chats: list as PushedChat[] },
        cause,
      });
  }
}

function byAccount<T extends { object_id: number }>(rows: T[]) {
  const grouped = new Map<number, T[]>();
  for (const row of rows) grouped.set(row.object_id, [...(grouped.get(row.object_id) ?? []), row]);
  return grouped;
}
