import { DEFAULT_LOCALE, type ReplyKind } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { aiAgents, type chats, type items, spaces } from '../../db/schema';
import type { Sealer } from '../../lib/crypto';
import {
  authorHistory,
  buildPrompt,
  chatConversation,
  complete,
  itemConversation,
  replyLimit,
  spaceTemplates,
} from './suggest';

// The AI used explicitly by an auto-rule (`ai_reply`) or a chat-bot step (`ai`), issue 21: the same prompt
// as the composer's "suggest a reply" (suggest.ts buildPrompt: the conversation, the customer's earlier
// items of this space, the space's shared templates, the agent's instructions and knowledge) and the same
// provider call (`complete`, with the provider timeout). Nothing here sends: the caller does, through the
// send path, so the network's limits and the outbox apply. Only the conversation's own space is read.

type Agent = typeof aiAgents.$inferSelect;
export type AutoTarget =
  | { kind: 'item'; row: typeof items.$inferSelect }
  | { kind: 'chat'; row: typeof chats.$inferSelect };

/** The space's agent, when the space has the AI assistant on; another space's agent is none. */
export async function spaceAgent(db: Db, spaceId: number, agentId: number): Promise<Agent | null> {
  const [row] = await db
    .select({ agent: aiAgents, settings: spaces.settings })
    .from(aiAgents)
    .innerJoin(spaces, eq(spaces.id, aiAgents.spaceId))
    .where(and(eq(aiAgents.id, agentId), eq(aiAgents.spaceId, spaceId)))
    .limit(1);
  if (row?.settings.ai !== true) return null;
  return row.agent;
}

/** Cuts an answer to the network's limit at the last sentence or word end that fits. */
export function fitToLimit(text: string, limit: number | null): string {
  const trimmed = text.trim();
  if (!limit || trimmed.length <= limit) return trimmed;
  const head = trimmed.slice(0, limit);
  const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '));
  if (sentence > limit / 2) return head.slice(0, sentence + 1).trim();
  const space = head.lastIndexOf(' ');
  return (space > limit / 2 ? head.slice(0, space) : head).trim();
}

/**
 * The agent's reply to the conversation, within the network's limit. Throws the provider's AppError
 * (`ai.provider.*`, errorType `ai_provider`) on a timeout, a refusal or an empty answer.
 */
export async function autoAnswer(
  deps: { db: Db; sealer: Sealer; config: { AI_TIMEOUT_MS: number } },
  agent: Agent,
  target: AutoTarget,
  options: { templatesOf?: number | null; sentAsIs?: boolean } = {},
): Promise<string> {
  const { db } = deps;
  const { row } = target;
  if (row.spaceId !== agent.spaceId) throw new Error('AI agent of another space');
  const kind: ReplyKind = target.kind === 'item' ? 'comment' : 'message';
  const conversation =
    target.kind === 'item' ? await itemConversation(db, target.row) : await chatConversation(db, target.row);
  const authorId =
    target.kind === 'item' ? (target.row.isOwn ? null : target.row.authorId) : target.row.authorId;
  const history = await authorHistory(
    db,
    null,
    row.spaceId,
    authorId,
    target.kind === 'item' ? row.id : null,
  );
  // The space's shared templates (and the rule author's own, when it has one).
  const templates = await spaceTemplates(db, row.spaceId, options.templatesOf ?? 0);
  const limit = await replyLimit(db, row.objectId, kind);
  const prompt = buildPrompt(
    agent,
    conversation,
    templates,
    {
      mode: 'reply',
      ...(target.kind === 'item' ? { item_id: row.id } : { chat_id: row.id }),
      agent_id: agent.id,
    },
    { limit, locale: DEFAULT_LOCALE },
    history,
    options.sentAsIs ?? true,
  );
  return fitToLimit(await complete(agent, deps.sealer, prompt, deps.config.AI_TIMEOUT_MS), limit);
}
