import { AI_TAGS_OFFERED, AI_TAGS_SUGGESTED } from '@otklik/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { companies, objects, tags } from '../../db/schema';
import type { ChatMessage } from './suggest';

// Tag suggestions (issue 21): the agent reads the one conversation and picks from the space's own tags,
// listed by number. Its answer is only a hint: numbers not in the list are dropped, so a confused or
// hostile answer can never name a tag of another space, and the operator applies what they accept.

export interface OfferedTag {
  id: number;
  name: string;
}

/**
 * The space's tags the conversation's account may take: with its company's `tags_mode` 'company' only
 * the company's own tags (as tagging itself checks, inbox/actions/workflow.ts), else any of the space.
 */
export async function offeredTags(db: Db, spaceId: number, objectId: number): Promise<OfferedTag[]> {
  const [owner] = await db
    .select({ id: companies.id, settings: companies.settings })
    .from(objects)
    .innerJoin(companies, eq(companies.id, objects.companyId))
    .where(eq(objects.id, objectId));
  const companyOnly = owner?.settings.tags_mode === 'company' ? owner.id : null;
  return db
    .select({ id: tags.id, name: tags.name })
    .from(tags)
    .where(and(eq(tags.spaceId, spaceId), companyOnly === null ? undefined : eq(tags.companyId, companyOnly)))
    .orderBy(asc(tags.name), asc(tags.id))
    .limit(AI_TAGS_OFFERED);
}

/** The conversation and the task: choose from the numbered list, answer a JSON array. */
export function tagTask(conversation: string, offered: OfferedTag[]): ChatMessage {
  const list = offered.map((tag, index) => `${index + 1}. ${tag.name}`).join('\n');
  return {
    role: 'user',
    content: `${conversation}\n\nChoose up to ${AI_TAGS_SUGGESTED} tags from the list below that describe this conversation. Answer only with a JSON array of their numbers, best first, e.g. [2, 5]; answer [] when none fits.\n\nTags:\n${list}`,
  };
}

/** The tag ids an answer names: the first JSON array of list numbers in it, unknown numbers dropped. */
export function parseTagAnswer(answer: string, offered: OfferedTag[]): number[] {
  const match = answer.match(/\[[\d\s,]*\]/);
  if (!match) return [];
  let numbers: unknown;
  try {
    numbers = JSON.parse(match[0]);
  } catch {
    return [];
  }
  if (!Array.isArray(numbers)) return [];
  const ids: number[] = [];
  for (const n of numbers) {
    const tag = typeof n === 'number' && Number.isInteger(n) ? offered[n - 1] : undefined;
    if (tag && !ids.includes(tag.id)) ids.push(tag.id);
  }
  return ids.slice(0, AI_TAGS_SUGGESTED);
}
