import type { MacroAction } from '@otklik/shared';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { spaces } from './spaces';
import { users } from './users';

/** Macros (issue 16): a space's (user_id null) or one member's own (user_id = owner). */
export const macros = pgTable(
  'macros',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** Checked against packages/shared macroActionSchema on every write. */
    actions: jsonb().$type<MacroAction[]>().notNull(),
    /** 1–9: the item page's Alt+digit; null: none. */
    shortcut: integer(),
    sortOrder: integer('sort_order').notNull().default(0),
    usageCount: integer('usage_count').notNull().default(0),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('macros_space_user_idx').on(t.spaceId, t.userId)],
);
