import { z } from 'zod';
import { statsPeriodWireSchema } from './stats-wire';

// Emotions (issue 21, docs/product/emotions.md): every incoming comment and message gets a sentiment
// (negative / neutral / positive) and, for negative ones, the category `anger` when it shows, from the
// server's offline classifier. settings/emotions switches it per space and lists the space's own words.

export const SENTIMENTS = ['negative', 'neutral', 'positive'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];
export const EMOTION_CATEGORIES = ['anger'] as const;
export type EmotionCategory = (typeof EMOTION_CATEGORIES)[number];
/** What the inbox filter and the rules condition choose from: a sentiment, or anger (negative and angry). */
export const EMOTION_CHOICES = [...SENTIMENTS, ...EMOTION_CATEGORIES] as const;
export type EmotionChoice = (typeof EMOTION_CHOICES)[number];

export const EMOTION_WORDS_MAX = 500;
export const EMOTION_WORD_MAX_LENGTH = 60;

export const emotionWordSchema = z.object({
  word: z
    .string()
    .trim()
    .min(1, 'field.required')
    .max(EMOTION_WORD_MAX_LENGTH, 'field.tooLong')
    // One word: letters, digits, hyphens (the classifier reads words, not phrases).
    .regex(/^[\p{L}\p{N}-]+$/u, 'emotions.word.invalid'),
  sentiment: z.enum(SENTIMENTS, 'field.invalid'),
});
export type EmotionWord = z.output<typeof emotionWordSchema>;

export const updateEmotionSettingsBody = z
  .object({
    space_id: z.number().int().positive(),
    enabled: z.boolean().optional(),
    words: z.array(emotionWordSchema).max(EMOTION_WORDS_MAX, 'emotions.words.tooMany').optional(),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.words?.forEach((w, index) => {
      const key = w.word.toLocaleLowerCase().replaceAll('ё', 'е');
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: ['words', index, 'word'], message: 'emotions.word.duplicate' });
      seen.add(key);
    });
  });
export type UpdateEmotionSettingsBody = z.input<typeof updateEmotionSettingsBody>;

/** settings/emotions (GET and PUT /v1/emotions/settings): the space's switch and its own words. */
export const emotionSettingsWireSchema = z.object({
  space_id: z.number(),
  enabled: z.boolean(),
  words: z.array(z.object({ word: z.string(), sentiment: z.enum(SENTIMENTS) })),
});
export type EmotionSettingsDto = z.infer<typeof emotionSettingsWireSchema>;

/** Counts of rated texts by sentiment, and how many of the negative ones were angry. */
export const emotionCountsWireSchema = z.object({
  negative: z.number(),
  neutral: z.number(),
  positive: z.number(),
  anger: z.number(),
});
export type EmotionCounts = z.infer<typeof emotionCountsWireSchema>;

/**
 * stats/emotions (docs/statistics.md "Emotions"): the rated customer texts of the period — comments,
 * reviews and mentions, and the customer's messages in dialogs — by sentiment.
 */
export const statsEmotionsWireSchema = z.object({
  period: statsPeriodWireSchema,
  totals: emotionCountsWireSchema.extend({ unrated: z.number() }),
  /** Per local day of the text's arrival. */
  days: z.array(z.object({ day: z.string(), ...emotionCountsWireSchema.shape })),
  by_object: z.array(
    z.object({ object_id: z.number(), provider: z.string(), ...emotionCountsWireSchema.shape }),
  ),
  by_provider: z.array(z.object({ provider: z.string(), ...emotionCountsWireSchema.shape })),
  /** The top posts (STATS_TOP_POSTS) by rated comments under them. */
  by_post: z.array(
    z.object({
      post_id: z.number(),
      object_id: z.number(),
      provider: z.string(),
      text: z.string(),
      url: z.string().nullable(),
      ...emotionCountsWireSchema.shape,
    }),
  ),
});
export type StatsEmotions = z.infer<typeof statsEmotionsWireSchema>;
