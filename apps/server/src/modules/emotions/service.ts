import type { EmotionSettingsDto, EmotionWord, updateEmotionSettingsBody } from '@otklik/shared';
import { eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { emotionSettings } from '../../db/schema';
import { type AuditActor, audit } from '../audit/record';
import { classify, type Emotion, overridesOf } from './classifier';

// settings/emotions (issue 21): one row per space, read by ingestion once per batch.

export type EmotionReader = (text: string) => Emotion;

export async function getEmotionSettings(db: Db, spaceId: number): Promise<EmotionSettingsDto> {
  const [row] = await db.select().from(emotionSettings).where(eq(emotionSettings.spaceId, spaceId));
  return { space_id: spaceId, enabled: row?.enabled ?? true, words: row?.words ?? [] };
}

/** How this space's incoming texts are read; null while the space has the classifier switched off. */
export async function emotionReader(db: Db, spaceId: number): Promise<EmotionReader | null> {
  return readerOf(await getEmotionSettings(db, spaceId));
}

/** The reader of a space's settings row (none stored: the defaults, switched on). */
export function readerOf(
  settings: { enabled: boolean; words: EmotionWord[] } | undefined,
): EmotionReader | null {
  if (settings && !settings.enabled) return null;
  const words = settings?.words ?? [];
  const overrides = words.length > 0 ? overridesOf(words) : undefined;
  return (text) => classify(text, overrides);
}

/** The columns a received text gets (nothing for ours or while switched off). */
export function emotionColumns(reader: EmotionReader | null, text: string, isOwn: boolean) {
  if (!reader || isOwn || text.trim() === '') return { sentiment: null, emotion: null };
  const read = reader(text);
  return { sentiment: read.sentiment, emotion: read.emotion };
}

export async function updateEmotionSettings(
  db: Db,
  body: z.output<typeof updateEmotionSettingsBody>,
  by?: AuditActor,
): Promise<EmotionSettingsDto> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const before = await getEmotionSettings(t, body.space_id);
    const after = {
      enabled: body.enabled ?? before.enabled,
      words: (body.words ?? before.words).map((w: EmotionWord) => ({ word: w.word, sentiment: w.sentiment })),
    };
    await t
      .insert(emotionSettings)
      .values({ spaceId: body.space_id, ...after })
      .onConflictDoUpdate({
        target: emotionSettings.spaceId,
        set: { enabled: after.enabled, words: sql`excluded.words`, updatedAt: new Date() },
      });
    await audit(t, by, {
      spaceId: body.space_id,
      kind: 'space.emotions',
      target: { type: 'space', id: body.space_id },
      before: { enabled: before.enabled, words: before.words.length },
      after: { enabled: after.enabled, words: after.words.length },
    });
    return { space_id: body.space_id, ...after };
  });
}
