import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { spaces } from './spaces';
import { users } from './users';

/** Reply templates (issue 16): a space's (user_id null) or one member's own (user_id = owner). */
export const replyTemplates = pgTable(
  'reply_templates',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    title: text().notNull(),
    folder: text().notNull().default(''),
    text: text().notNull(),
    /** provider id → that network's text. */
    variants: jsonb().$type<Record<string, string>>().notNull().default({}),
    /** Custom variables with their default values. */
    variables: jsonb().$type<Array<{ name: string; default: string }>>().notNull().default([]),
    usageCount: integer('usage_count').notNull().default(0),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('reply_templates_space_user_idx').on(t.spaceId, t.userId)],
);
