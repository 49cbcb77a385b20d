import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { chats, items } from '../../../db/schema';
import type { EventBus } from '../../../realtime/bus';
import { presentChats, presentItems, publishBySpace } from '../actions/present';

// "Returned from snooze" (issue 13): jobs/delayed.ts stamps `returned_at` on what comes back; the lists
// mark it until someone opens it (here, from the item and chat pages) or sets a status (workflow.ts).

type ItemRow = typeof items.$inferSelect;
type ChatRow = typeof chats.$inferSelect;

/** Opening a returned item ends its mark, for every open list. Returns the row as it is now. */
export async function itemOpened(db: Db, bus: EventBus, item: ItemRow, userId: number): Promise<ItemRow> {
  if (!item.returnedAt) return item;
  const [row] = await db.update(items).set({ returnedAt: null }).where(eq(items.id, item.id)).returning();
  await publishBySpace(bus, 'items.updated', await presentItems(db, [row!]), {
    kind: 'user',
    id: userId,
  });
  return row!;
}

export async function chatOpened(db: Db, bus: EventBus, chat: ChatRow, userId: number): Promise<ChatRow> {
  if (!chat.returnedAt) return chat;
  const [row] = await db.update(chats).set({ returnedAt: null }).where(eq(chats.id, chat.id)).returning();
  await publishBySpace(bus, 'chats.updated', await presentChats(db, [row!]), {
    kind: 'user',
    id: userId,
  });
  return row!;
}
