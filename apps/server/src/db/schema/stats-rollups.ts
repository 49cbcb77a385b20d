import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

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
