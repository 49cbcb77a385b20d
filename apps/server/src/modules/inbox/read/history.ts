import type { HistoryEntryWire } from '@otklik/shared';
import { and, asc, eq, gt, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { activity, type chats, type items, messages, users } from '../../../db/schema';

// The history of one item or chat (GET /v1/items/:id/history, /v1/chats/:id/history): what the
// activity table recorded about it, oldest first, with who did it. A comment's history shows a Direct
// reply to its author linked to the chat (defect 5 of issue 13).

const HISTORY_LIMIT = 500;

/** One line of the history (packages/shared inbox-actions-wire.ts). */
export type HistoryEntry = HistoryEntryWire;

/** Only the fields a timeline needs: ids, statuses, tag changes — never message texts. */
const KEPT = [
  'from',
  'to',
  'close_reason',
  'reason',
  'first',
  'via',
  'action',
  'added',
  'removed',
  'from_status',
  'item_id',
  'message_id',
  'chat_id',
  'taken',
  'note_id',
  'mentions',
  // item.rule (issue 17): the rule's name, how the run went, why it failed.
  'rule',
  'status',
  'error',
  // chat.bot: the bot's name and the failed step.
  'bot',
  'step_id',
];

/** One "viewed" record per person and record in this window: opening it again soon adds nothing. */
const VIEW_WINDOW_MS = 10 * 60_000;

/** Opening an item or chat is in its history (who looked at it), at most once per window per person. */
export async function recordView(
  db: Db,
  userId: number,
  row: { id: number; spaceId: number; objectId: number },
  kind: 'item' | 'chat',
  now = new Date(),
) {
  const column = kind === 'item' ? activity.itemId : activity.chatId;
  const type = kind === 'item' ? ('item.viewed' as const) : ('chat.viewed' as const);
  const [recent] = await db
    .select({ id: activity.id })
    .from(activity)
    .where(
      and(
        eq(column, row.id),
        eq(activity.type, type),
        eq(activity.userId, userId),
        gt(activity.at, new Date(now.getTime() - VIEW_WINDOW_MS)),
      ),
    )
    .limit(1);
  if (recent) return;
  await db.insert(activity).values({
    spaceId: row.spaceId,
    objectId: row.objectId,
    ...(kind === 'item' ? { itemId: row.id } : { chatId: row.id }),
    type,
    userId,
    causeKind: 'user',
    causeId: userId,
    at: now,
  });
}

function pick(data: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(data).filter(([key]) => KEPT.includes(key)));
}

async function readHistory(db: Db, where: SQL) {
  const rows = await db
    .select({
      id: activity.id,
      type: activity.type,
      at: activity.at,
      causeKind: activity.causeKind,
      chatId: activity.chatId,
      userId: activity.userId,
      userName: users.name,
      data: activity.data,
    })
    .from(activity)
    .leftJoin(users, eq(users.id, activity.userId))
    .where(where)
    .orderBy(asc(activity.at), asc(activity.id))
    .limit(HISTORY_LIMIT);
  return rows.map(
    (r): HistoryEntry => ({
      id: r.id,
      type: r.type,
      at: r.at.toISOString(),
      cause_kind: r.causeKind,
      user: r.userId !== null ? { id: r.userId, name: r.userName ?? '' } : null,
      chat_id: null,
      data: pick(r.data),
    }),
  );
}

/**
 * A comment's history. A Direct reply is recorded on the comment as item.replied via 'direct'; its
 * chat is named in the record (data.chat_id) or, for older records, found from the message it sent.
 */
export async function itemHistory(db: Db, item: typeof items.$inferSelect) {
  const entries = await readHistory(db, eq(activity.itemId, item.id));
  const direct = entries.filter((e) => e.type === 'item.replied' && e.data.via === 'direct');
  const unresolved = direct.filter(
    (e) => typeof e.data.chat_id !== 'number' && typeof e.data.message_id === 'number',
  );
  const chatOfMessage = new Map<number, number>();
  if (unresolved.length > 0) {
    const rows = await db
      .select({ id: messages.id, chatId: messages.chatId })
      .from(messages)
      .where(
        and(
          eq(messages.spaceId, item.spaceId),
          inArray(
            messages.id,
            unresolved.map((e) => e.data.message_id as number),
          ),
        ),
      );
    for (const row of rows) chatOfMessage.set(row.id, row.chatId);
  }
  for (const entry of direct) {
    entry.chat_id =
      typeof entry.data.chat_id === 'number'
        ? entry.data.chat_id
        : (chatOfMessage.get(entry.data.message_id as number) ?? null);
    delete entry.data.message_id;
    delete entry.data.chat_id;
  }
  return entries;
}

export function chatHistory(db: Db, chat: typeof chats.$inferSelect) {
  return readHistory(db, eq(activity.chatId, chat.id));
}
