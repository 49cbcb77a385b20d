import type { EmotionWord } from '@otklik/shared';
import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { spaces } from './spaces';

/**
 * settings/emotions per space (issue 21): the classifier on or off, and the space's own words. No row:
 * on, no words.
 */
export const emotionSettings = pgTable('emotion_settings', {
  spaceId: integer('space_id')
    .primaryKey()
    .references(() => spaces.id, { onDelete: 'cascade' }),
  enabled: boolean().notNull().default(true),
  words: jsonb().$type<EmotionWord[]>().notNull().default(sql`'[]'::jsonb`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
