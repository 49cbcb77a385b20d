import { sql } from 'drizzle-orm';
import {
  bigint,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/**
 * Statistics rollup (docs/statistics.md "Rollups"): counts per space, UTC hour, account, kind and
 * acting user, kept by statement-level triggers on items, chats, messages and activity in the same
 * transaction as the change (migration "stats_hourly"), so the overview and the team table sum a few
 * thousand rows instead of scanning the raw ones. Two families of rows:
 * - `user_id` = 0: the units — `units` (incoming items / new dialogs by their arrival hour) and of
 *   those `replied` (with a first reply now), `messages` (customer messages by their hour, kind 'chat'),
 *   `closed_*` (closed now, by the `closed_at` hour and close reason);
 * - `user_id` = a member: their actions from the activity log — `acts` (any), `replies` (`*.replied`) and
 *   `closings` (status changes to closed), by the action's hour.
 * `kind` is the item's kind, or 'chat' for dialogs and their messages; `object_id` 0 = none.
 */
export const statsHourly = pgTable(
  'stats_hourly',
  {
    spaceId: integer('space_id').notNull(),
    hour: timestamp({ withTimezone: true }).notNull(),
    objectId: integer('object_id').notNull(),
    kind: text().notNull(),
    userId: integer('user_id').notNull().default(0),
    units: integer().notNull().default(0),
    replied: integer().notNull().default(0),
    messages: integer().notNull().default(0),
    closedReply: integer('closed_reply').notNull().default(0),
    closedNoreply: integer('closed_noreply').notNull().default(0),
    closedAutorule: integer('closed_autorule').notNull().default(0),
    acts: integer().notNull().default(0),
    replies: integer().notNull().default(0),
    closings: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.spaceId, t.hour, t.objectId, t.kind, t.userId] })],
);

/**
 * First replies of the statistics (docs/statistics.md "Rollups"): one row per first-reply action — an
 * `item.replied` / `chat.replied` activity row with `first`, by a member (`cause_kind` user) — on a unit
 * that counts as incoming (a customer item, or a dialog with a first customer message), with the unit's
 * space, account, kind ('chat' for dialogs) and arrival copied beside it, and its first response time
 * (`frt`, seconds, when the first reply came at or after the arrival; null otherwise). Kept by
 * statement-level triggers on activity, items and chats (migration "stats_first_replies"), so the team
 * table's first replies and their medians over a year read one index range instead of joining every
 * unit of the period to the activity log.
 */
export const statsFirstReplies = pgTable(
  'stats_first_replies',
  {
    activityId: bigint('activity_id', { mode: 'number' }).primaryKey(),
    itemId: bigint('item_id', { mode: 'number' }),
    chatId: bigint('chat_id', { mode: 'number' }),
    spaceId: integer('space_id').notNull(),
    objectId: integer('object_id').notNull(),
    kind: text().notNull(),
    arrived: timestamp({ withTimezone: true }).notNull(),
    userId: integer('user_id').notNull(),
    frt: doublePrecision(),
  },
  (t) => [
    // A short period reads its range of arrivals; a long one (a year's team table) reads the space's pairs
    // member by member in FRT order, so the medians need no sort of their own (the planner picks).
    index('stats_first_replies_arrival_idx').on(t.spaceId, t.arrived, t.kind, t.objectId, t.userId, t.frt),
    index('stats_first_replies_member_idx').on(t.spaceId, t.userId, t.frt, t.arrived, t.kind, t.objectId),
    index('stats_first_replies_item_idx').on(t.itemId).where(sql`${t.itemId} IS NOT NULL`),
    index('stats_first_replies_chat_idx').on(t.chatId).where(sql`${t.chatId} IS NOT NULL`),
  ],
);
