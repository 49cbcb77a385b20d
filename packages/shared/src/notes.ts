import { z } from 'zod';

// Internal notes with @mentions (issue 13). A note's text stores a mention as `<@12>` (the colleague's
// user id); screens render the current name in its place. Pure, shared by the server and the web.

export const NOTE_TEXT_MAX = 4_000;
/** The author may edit or delete a note this long after writing it; the history keeps every version. */
export const NOTE_EDIT_WINDOW_MS = 15 * 60_000;
/** At most this many colleagues in one note. */
export const NOTE_MENTIONS_MAX = 20;

const MENTION = /<@(\d{1,9})>/g;

/** The distinct user ids a note's text mentions, in order of first appearance. */
export function mentionIds(text: string): number[] {
  const ids: number[] = [];
  for (const match of text.matchAll(MENTION)) {
    const id = Number(match[1]);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

export type NotePart = { kind: 'text'; text: string } | { kind: 'mention'; userId: number };

/** The text cut into plain runs and mentions, for rendering names in place of ids. */
export function noteParts(text: string): NotePart[] {
  const parts: NotePart[] = [];
  let last = 0;
  for (const match of text.matchAll(MENTION)) {
    if (match.index > last) parts.push({ kind: 'text', text: text.slice(last, match.index) });
    parts.push({ kind: 'mention', userId: Number(match[1]) });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

/** The text with every mention as `@Name` (notifications, plain-text places). */
export function notePlainText(text: string, nameOf: (id: number) => string): string {
  return text.replace(MENTION, (_, id: string) => `@${nameOf(Number(id))}`);
}

export const noteInputSchema = z.object({
  text: z
    .string({ error: 'notes.text.required' })
    .trim()
    .min(1, 'notes.text.required')
    .max(NOTE_TEXT_MAX, 'field.tooLong')
    .refine((text) => mentionIds(text).length <= NOTE_MENTIONS_MAX, 'notes.mentions.tooMany'),
});
export type NoteInput = z.infer<typeof noteInputSchema>;
