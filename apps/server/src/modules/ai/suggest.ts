import {
  AI_DRAFT_MODES,
  type AiSuggestBody,
  isProviderId,
  type MessageKey,
  type ReplyKind,
  textLimit,
} from '@otklik/shared';
import { and, asc, desc, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type aiAgents, authors, items, messages, objects, posts, replyTemplates } from '../../db/schema';
import type { Sealer } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import { scopeCondition, scopeFor } from '../inbox/read/scope';
import type { ServerActor } from '../spaces/actor';

// Suggestions (issue 21): the prompt is built only from the one conversation the caller asked about
// (already scoped by the route), its space's templates and the agent's own instructions and knowledge.
// The key goes only into the Authorization header, never into the prompt or a log.

type Agent = typeof aiAgents.$inferSelect;
type Item = typeof items.$inferSelect;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const HISTORY_LIMIT = 30;
const TEMPLATES_LIMIT = 10;
/** The customer's earlier comments and reviews the prompt may show (newest first). */
const AUTHOR_HISTORY_LIMIT = 5;

/** What the prompt knows beyond the body: the reply box's limit on this network, the reader's language. */
export interface PromptContext {
  /** Characters a reply may have on the conversation's network (null: no limit known). */
  limit: number | null;
  /** The operator's language, for summaries written for them. */
  locale: string;
}

const within = (ctx: PromptContext) => (ctx.limit ? ` It must be at most ${ctx.limit} characters long.` : '');

const TASKS: Record<AiSuggestBody['mode'], (b: AiSuggestBody, ctx: PromptContext) => string> = {
  reply: (_b, ctx) =>
    `Write a reply from the operator to the customer’s last message, in the customer’s language.${within(ctx)} Output only the reply text.`,
  shorten: (_b, ctx) =>
    `Shorten the operator’s draft below, keeping its meaning and language.${within(ctx)} Output only the shortened text.`,
  rewrite_tone: (b, ctx) =>
    `Rewrite the operator’s draft below in a ${b.target || 'polite, friendly'} tone, in the same language.${within(ctx)} Output only the rewritten text.`,
  translate: (b) =>
    `Translate the operator’s draft below into the language "${b.target || 'en'}". Output only the translation.`,
  summarize: (b, ctx) =>
    `Summarize the conversation for a colleague in the language "${b.target || ctx.locale}": at most 5 short bullet points — what the customer wants, what has been answered, what is still open. Output only the summary.`,
};

/** One line of the transcript; `post`: the account's publication the comments are under. */
type Line = { own: boolean; author: string | null; text: string; post?: boolean };

async function authorNames(db: Db, ids: (number | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: authors.id, name: authors.name })
    .from(authors)
    .where(inArray(authors.id, wanted));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** A comment with its post, its parent and the replies under it, oldest first. */
export async function itemConversation(db: Db, item: Item): Promise<Line[]> {
  // The post is a row of `posts` (the account's publication), the parent a comment of the same space.
  const [post] =
    item.postId === null
      ? []
      : await db
          .select({ text: posts.text })
          .from(posts)
          .where(and(eq(posts.spaceId, item.spaceId), eq(posts.id, item.postId)));
  const parent =
    item.parentId === null
      ? []
      : await db
          .select()
          .from(items)
          .where(and(eq(items.spaceId, item.spaceId), eq(items.id, item.parentId)));
  const replies = await db
    .select()
    .from(items)
    .where(and(eq(items.spaceId, item.spaceId), eq(items.parentId, item.id)))
    .orderBy(asc(items.createdAt), asc(items.id))
    .limit(HISTORY_LIMIT);
  const rows = [...parent, item, ...replies];
  const names = await authorNames(
    db,
    rows.map((r) => r.authorId),
  );
  const lines: Line[] = rows.map((r) => ({
    own: r.isOwn,
    author: r.authorId === null ? null : (names.get(r.authorId) ?? null),
    text: r.text,
  }));
  return post?.text.trim() ? [{ own: true, author: null, text: post.text, post: true }, ...lines] : lines;
}

/** The chat's last messages, oldest first. */
export async function chatConversation(
  db: Db,
  chat: { id: number; spaceId: number; authorId: number | null },
): Promise<Line[]> {
  const rows = await db
    .select({ isOwn: messages.isOwn, text: messages.text })
    .from(messages)
    .where(and(eq(messages.spaceId, chat.spaceId), eq(messages.chatId, chat.id)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(HISTORY_LIMIT);
  const names = await authorNames(db, [chat.authorId]);
  const customer = chat.authorId === null ? null : (names.get(chat.authorId) ?? null);
  return rows.reverse().map((r) => ({ own: r.isOwn, author: r.isOwn ? null : customer, text: r.text }));
}

/**
 * The customer's earlier comments and reviews in the same space, outside this conversation, newest first —
 * only on accounts the operator may see (the inbox scope: user-group limits hold in prompts too). A rule or
 * bot (actor null) acts for the space: the space's own items, never another space's.
 */
export async function authorHistory(
  db: Db,
  actor: ServerActor | null,
  spaceId: number,
  authorId: number | null,
  exceptItemId: number | null,
): Promise<string[]> {
  if (authorId === null) return [];
  const scope = actor ? await scopeFor(db, actor, 'items.view') : null;
  const rows = await db
    .select({ text: items.text, createdAt: items.createdAt })
    .from(items)
    .where(
      and(
        eq(items.spaceId, spaceId),
        eq(items.authorId, authorId),
        eq(items.isOwn, false),
        eq(items.isDeleted, false),
        exceptItemId === null ? undefined : ne(items.id, exceptItemId),
        scope ? scopeCondition(scope, items.spaceId, items.objectId) : undefined,
      ),
    )
    .orderBy(desc(items.createdAt), desc(items.id))
    .limit(AUTHOR_HISTORY_LIMIT);
  return rows.filter((r) => r.text.trim()).map((r) => `${r.createdAt.toISOString().slice(0, 10)}: ${r.text}`);
}

export async function spaceTemplates(db: Db, spaceId: number, userId: number) {
  return db
    .select({ title: replyTemplates.title, text: replyTemplates.text })
    .from(replyTemplates)
    .where(
      and(
        eq(replyTemplates.spaceId, spaceId),
        or(isNull(replyTemplates.userId), eq(replyTemplates.userId, userId)),
      ),
    )
    .orderBy(desc(replyTemplates.usageCount), asc(replyTemplates.id))
    .limit(TEMPLATES_LIMIT);
}

/** The reply box's character limit on the account's network (shared limits table), or null. */
export async function replyLimit(db: Db, objectId: number, kind: ReplyKind): Promise<number | null> {
  const [row] = await db
    .select({ provider: objects.provider })
    .from(objects)
    .where(eq(objects.id, objectId))
    .limit(1);
  return row && isProviderId(row.provider) ? textLimit(row.provider, kind, false) : null;
}

/** The system message: the role, the agent's instructions and knowledge, the team's templates. */
export function systemMessage(
  agent: Pick<Agent, 'instructions' | 'knowledge'>,
  templates: { title: string; text: string }[],
  sentAsIs = false,
): ChatMessage {
  const system = [
    'You help a customer-support operator answer customers on social networks and messengers.',
    sentAsIs
      ? 'Your text is sent to the customer as it is, without review: write only what the conversation, the instructions and the knowledge support.'
      : 'The operator reviews and edits your text before anything is sent.',
  ];
  if (agent.instructions.trim()) system.push(`Instructions:\n${agent.instructions.trim()}`);
  if (agent.knowledge.length) system.push(`Knowledge:\n${agent.knowledge.map((k) => `- ${k}`).join('\n')}`);
  if (templates.length) {
    system.push(
      `Reply templates of the team:\n${templates.map((t) => `- ${t.title}: ${t.text}`).join('\n')}`,
    );
  }
  return { role: 'system', content: system.join('\n\n') };
}

/** The conversation as a transcript, oldest first. */
export function transcript(conversation: Line[]): string {
  const lines = conversation
    .filter((line) => line.text.trim())
    .map(
      (line) =>
        `${line.post ? 'Post' : line.own ? 'Operator' : `Customer${line.author ? ` (${line.author})` : ''}`}: ${line.text}`,
    )
    .join('\n');
  return `Conversation:\n${lines || '(empty)'}`;
}

export function buildPrompt(
  agent: Pick<Agent, 'instructions' | 'knowledge'>,
  conversation: Line[],
  templates: { title: string; text: string }[],
  body: AiSuggestBody,
  ctx: PromptContext = { limit: null, locale: 'ru' },
  history: string[] = [],
  /** An auto-rule or chat-bot sends the answer without an operator (modules/ai/auto.ts). */
  sentAsIs = false,
): ChatMessage[] {
  const user = [transcript(conversation)];
  if (history.length)
    user.push(
      `The same customer earlier, in other conversations (newest first):\n${history.map((h) => `- ${h}`).join('\n')}`,
    );
  user.push(TASKS[body.mode](body, ctx));
  if (AI_DRAFT_MODES.includes(body.mode)) user.push(`Draft:\n${body.text ?? ''}`);
  else if (body.mode === 'reply' && body.text?.trim())
    user.push(`The operator's draft so far:\n${body.text}`);
  return [systemMessage(agent, templates, sentAsIs), { role: 'user', content: user.join('\n\n') }];
}

export function providerError(status: number, key: MessageKey, params?: Record<string, string | number>) {
  return new AppError(status, key, { errorType: 'ai_provider', ...(params ? { params } : {}) });
}

function isTimeout(error: unknown, signal?: AbortSignal) {
  const name = (error as Error).name;
  // An abort the caller asked for (the operator cancelled) is not the provider's timeout.
  if (signal?.aborted) return false;
  return name === 'TimeoutError' || name === 'AbortError';
}

/**
 * POST {base_url}/chat/completions and check the answer's status; provider failures become translated
 * errors. `signal` ends the call early (timeout, the operator cancelled).
 */
export async function callProvider(
  agent: Agent,
  sealer: Sealer,
  prompt: ChatMessage[],
  options: { timeoutMs: number; stream: boolean; signal?: AbortSignal },
): Promise<Response> {
  const url = `${agent.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (agent.apiKeySealed) headers.authorization = `Bearer ${sealer.open(agent.apiKeySealed)}`;
  const timeout = AbortSignal.timeout(options.timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: agent.model, messages: prompt, stream: options.stream }),
      signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
      redirect: 'error',
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (isTimeout(error)) throw providerError(504, 'ai.provider.timeout');
    throw providerError(502, 'ai.provider.unreachable');
  }
  if (res.status === 401 || res.status === 403) throw providerError(502, 'ai.provider.unauthorized');
  if (res.status === 429) throw providerError(502, 'ai.provider.rateLimited');
  if (!res.ok) throw providerError(502, 'ai.provider.failed', { status: res.status });
  return res;
}

/** The whole answer at once (`stream: false`). */
export async function complete(
  agent: Agent,
  sealer: Sealer,
  prompt: ChatMessage[],
  timeoutMs: number,
): Promise<string> {
  const res = await callProvider(agent, sealer, prompt, { timeoutMs, stream: false });
  let json: { choices?: { message?: { content?: unknown } }[] };
  try {
    json = (await res.json()) as typeof json;
  } catch (error) {
    if (isTimeout(error)) throw providerError(504, 'ai.provider.timeout');
    throw providerError(502, 'ai.provider.empty');
  }
  const content = json.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim()) throw providerError(502, 'ai.provider.empty');
  return content.trim();
}
