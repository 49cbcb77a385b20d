import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { authors } from './inbox';
import { spaces } from './spaces';
import { users } from './users';

/** Custom fields of authors defined per space (docs/product/screens-and-routes.md settings/custom/facts). */
export const customFacts = pgTable(
  'custom_facts',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** packages/shared FACT_KINDS; fixed once created (stored values are in its form). */
    kind: text().notNull(),
    /** The choices of a `select` field. */
    options: jsonb().$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    position: integer().notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('custom_facts_space_name_key').on(t.spaceId, sql`lower(${t.name})`)],
);

/** One author's value of one custom field, in the canonical text form of the field's kind. */
export const authorFacts = pgTable(
  'author_facts',
  {
    authorId: bigint('author_id', { mode: 'number' })
      .notNull()
      .references(() => authors.id, { onDelete: 'cascade' }),
    factId: integer('fact_id')
      .notNull()
      .references(() => customFacts.id, { onDelete: 'cascade' }),
    value: text().notNull(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.authorId, t.factId] }), index('author_facts_fact_idx').on(t.factId)],
);
