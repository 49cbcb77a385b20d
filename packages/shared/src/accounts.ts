import { z } from 'zod';

// Per-account settings (docs/product/screens-and-routes.md settings/accounts/{id}/exclude, exclude_messages, chats, stickers,
// reactions). Server ingestion applies them; the settings screens edit them.

const exclusionSchema = z.object({
  /** Words or phrases: content containing any of them (case-insensitive) is not imported. */
  words: z.array(z.string().trim().min(1).max(200)).max(500).default([]),
  /** Network ids or names of authors whose content is not imported. */
  authors: z.array(z.string().trim().min(1).max(255)).max(5000).default([]),
});
export type Exclusion = z.infer<typeof exclusionSchema>;

export const accountSettingsSchema = z.object({
  exclude: exclusionSchema.default({ words: [], authors: [] }),
  exclude_messages: exclusionSchema.default({ words: [], authors: [] }),
  /** Collect private messages of this account. */
  chats: z.boolean().default(true),
  /** Keep stickers customers send. */
  stickers: z.boolean().default(true),
  /** Show customers' reactions. */
  reactions: z.boolean().default(true),
  /**
   * What the network's API plan gives this account (X: its tier), learned from the API's own answers by
   * the server; shown on the account, not editable (no provider offers it as a setting).
   */
  api_plan: z
    .object({
      tier: z.enum(['free', 'basic', 'pro', 'unknown']),
      mentions: z.boolean(),
      dms: z.boolean(),
      /** Mention reads per 15-minute window (x-rate-limit-limit), when X said. */
      per_15min: z.number().int().nullable(),
    })
    .optional(),
});
export type AccountSettings = z.infer<typeof accountSettingsSchema>;

export function parseAccountSettings(value: unknown): AccountSettings {
  const parsed = accountSettingsSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : accountSettingsSchema.parse({});
}

/** Whether content matches an exclusion list (by author id or name, or by a word in its text). */
export function isExcluded(
  rule: Exclusion,
  content: { text: string; authorId: string; authorName: string },
): boolean {
  if (rule.authors.length > 0) {
    const author = new Set(rule.authors.map((a) => a.toLowerCase()));
    if (author.has(content.authorId.toLowerCase()) || author.has(content.authorName.toLowerCase()))
      return true;
  }
  if (rule.words.length > 0) {
    const text = content.text.toLowerCase();
    if (rule.words.some((w) => text.includes(w.toLowerCase()))) return true;
  }
  return false;
}
