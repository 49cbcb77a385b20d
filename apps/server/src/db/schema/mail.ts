import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Every mail the product sends is recorded here first; delivery state is written back. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    to: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    html: text(),
    kind: text().notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    attempts: integer().notNull().default(0),
    error: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_outbox_to_idx').on(t.to)],
);
