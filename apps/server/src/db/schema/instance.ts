import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Instance-wide values shared by every node (e.g. the generated sealing key when SECRET_KEY is unset). */
export const instanceSettings = pgTable('instance_settings', {
  key: text().primaryKey(),
  value: text().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
