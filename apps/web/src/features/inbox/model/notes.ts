import { noteParts } from '@otklik/shared';

// The note composer's mentions (issue 13): the person types `@An…`, picks Anna, and sees `@Anna` in the
// text; what is sent stores her id (`<@12>`), so a later rename still shows the right person.

export interface Colleague {
  id: number;
  name: string;
}

/** The `@query` being typed just before the caret, or null. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@<>]{0,30})$/.exec(before);
  if (!match) return null;
  return { start: before.length - match[2]!.length - 1, query: match[2]! };
}

/** Colleagues whose name matches the query (any word starting with it, or containing it). */
export function matchColleagues(list: Colleague[], query: string, limit = 8): Colleague[] {
  const q = query.trim().toLocaleLowerCase();
  if (!q) return list.slice(0, limit);
  const starts = list.filter((c) =>
    c.name
      .toLocaleLowerCase()
      .split(/\s+/)
      .some((word) => word.startsWith(q)),
  );
  const contains = list.filter((c) => !starts.includes(c) && c.name.toLocaleLowerCase().includes(q));
  return [...starts, ...contains].slice(0, limit);
}

/** The text with the picked mention in place of `@query`, and where the caret goes after it. */
export function insertMention(
  text: string,
  at: { start: number; query: string },
  colleague: Colleague,
): { text: string; caret: number } {
  const end = at.start + 1 + at.query.length;
  const inserted = `@${colleague.name} `;
  return { text: text.slice(0, at.start) + inserted + text.slice(end), caret: at.start + inserted.length };
}

/** What is sent: every `@Name` of a picked colleague still in the text becomes `<@id>`. */
export function encodeMentions(text: string, picked: Colleague[]): string {
  // Longer names first, so "Anna Maria" is not taken for "Anna".
  const ordered = [...picked].sort((a, b) => b.name.length - a.name.length);
  let out = text;
  for (const colleague of ordered) out = out.split(`@${colleague.name}`).join(`<@${colleague.id}>`);
  return out.trim();
}

/** A stored note back into editable text, with the colleagues it mentions as picked. */
export function decodeMentions(
  text: string,
  nameOf: (id: number) => string,
): { text: string; picked: Colleague[] } {
  const picked: Colleague[] = [];
  const out = noteParts(text)
    .map((part) => {
      if (part.kind === 'text') return part.text;
      const name = nameOf(part.userId);
      if (!picked.some((c) => c.id === part.userId)) picked.push({ id: part.userId, name });
      return `@${name}`;
    })
    .join('');
  return { text: out, picked };
}
