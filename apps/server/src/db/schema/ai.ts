import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { spaces } from './spaces';

/** AI agents (issue 21): an OpenAI-compatible endpoint per space; the key sealed (lib/crypto Sealer). */
export const aiAgents = pgTable(
  'ai_agents',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    spaceId: integer('space_id')
      .notNull()
      .references(() => spaces.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1; /chat/completions is appended. */
    baseUrl: text('base_url').notNull(),
    model: text().notNull(),
    /** Sealer output; null: no key (a local server). Never returned by the API nor put into a prompt. */
    apiKeySealed: text('api_key_sealed'),
    instructions: text().notNull().default(''),
    knowledge: jsonb().$type<string[]>().notNull().default([]),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ai_agents_space_idx').on(t.spaceId)],
);
