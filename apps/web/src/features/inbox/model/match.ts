import { MATCH_END, MATCH_START } from '@otklik/shared';

export interface MatchPart {
  text: string;
  found: boolean;
}

/**
 * A search passage from the server split into plain and found parts (the found words come between
 * MATCH_START and MATCH_END), so the row marks them as elements, never as HTML.
 */
export function matchParts(passage: string): MatchPart[] {
  const parts: MatchPart[] = [];
  let rest = passage;
  while (rest.length > 0) {
    const start = rest.indexOf(MATCH_START);
    const end = start === -1 ? -1 : rest.indexOf(MATCH_END, start + 1);
    if (start === -1 || end === -1) {
      parts.push({ text: rest.replaceAll(MATCH_START, '').replaceAll(MATCH_END, ''), found: false });
      break;
    }
    if (start > 0) parts.push({ text: rest.slice(0, start).replaceAll(MATCH_END, ''), found: false });
    if (end > start + 1) parts.push({ text: rest.slice(start + 1, end), found: true });
    rest = rest.slice(end + 1);
  }
  return parts.filter((p) => p.text.length > 0);
}
