import { and, eq, lte, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chats, csiSurveys, messages } from '../../db/schema';
import { presentChats } from '../inbox/actions/present';
import type { Published } from '../inbox/ingest/ingest-batch';
import { presentMessage } from '../inbox/read/presenter';
import { OUTBOX_QUEUED } from '../outbox/queue';
import { loadSettings } from './settings';
import { queueOwnMessage } from './survey';

// The customer's answers to a CSI survey (docs/product/csi.md), read from the messages an ingestion
// batch stored, in the same transaction:
// - a message that is a digit 1–5 (or a press of one of our buttons, which arrives as that digit) while
//   the chat's latest survey is open is its score; a later one replaces it (the last answer wins);
// - the next other text within the window is the comment, when the account asks for one;
// - after the first score the customer gets the comment question or the thank-you; after the comment,
//   the thank-you;
// - answers do not reopen the closed chat (the close is put back); anything else, and anything after
//   the window, is an ordinary message.

const SCORE = /^\s*([1-5])\s*(?:⭐|\*)?\s*$/u;

type Survey = typeof csiSurveys.$inferSelect;
type ObjectRef = { id: number; spaceId: number };

/**
 * Inside the ingestion statement that stores a batch's messages (inbox/ingest/ingest-messages.ts): a CTE
 * body selecting the surveys whose answer window is open (a second's grace) in the chats of the
 * customer messages of CTE `stored`: what captureAnswers is handed.
 */
export function openSurveysSql() {
  return sql`SELECT * FROM csi_surveys
    WHERE chat_id IN (SELECT chat_id FROM stored WHERE NOT stored.is_own)
      AND expires_at > now() - interval '1 second'`;
}

/**
 * `inbound`: the customer messages the batch stored, in id order; `surveys`: openSurveysSql's rows,
 * read in the same statement that stored them.
 */
export async function captureAnswers(
  db: Db,
  object: ObjectRef,
  inbound: Array<typeof messages.$inferSelect>,
  surveys: Survey[],
  published: Published[],
) {
  if (inbound.length === 0 || surveys.length === 0) return;
  // The chat's latest survey first.
  const open = [...surveys].sort((a, b) => b.sentAt.getTime() - a.sentAt.getTime() || b.id - a.id);
  const settings = await loadSettings(db, object.id);
  const consumed = new Map<number, number[]>();
  let queued = false;
  for (const message of inbound) {
    const survey = open.find(
      (s) =>
        s.chatId === message.chatId && s.sentAt <= message.receivedAt && message.receivedAt < s.expiresAt,
    );
    if (!survey) continue;
    const texts = settings.texts[survey.language];
    const score = SCORE.exec(message.text)?.[1];
    let reply: string | null = null;
    if (score && message.attachments.length === 0) {
      const first = survey.score === null;
      await db
        .update(csiSurveys)
        .set({
          score: Number(score),
          answeredAt: message.receivedAt,
          answerMessageIds: sql`array_append(${csiSurveys.answerMessageIds}, ${message.id}::bigint)`,
        })
        .where(eq(csiSurveys.id, survey.id));
      survey.score = Number(score);
      if (first) reply = texts.comment || texts.thanks || null;
    } else if (survey.score !== null && survey.comment === null && texts.comment && message.text.trim()) {
      const comment = message.text.trim();
      await db
        .update(csiSurveys)
        .set({
          comment,
          commentedAt: message.receivedAt,
          answerMessageIds: sql`array_append(${csiSurveys.answerMessageIds}, ${message.id}::bigint)`,
        })
        .where(eq(csiSurveys.id, survey.id));
      survey.comment = comment;
      reply = texts.thanks || null;
    } else continue;
    consumed.set(message.chatId, [...(consumed.get(message.chatId) ?? []), message.id]);
    if (reply) {
      const sent = await queueOwnMessage(
        db,
        { id: message.chatId, spaceId: object.spaceId, objectId: object.id },
        reply,
        new Date(),
      );
      queued = true;
      published.push(async (read) => ({
        type: 'messages.created',
        spaceId: object.spaceId,
        payload: {
          object_id: object.id,
          chats: await presentChats(read, [sent.chat]),
          messages: [presentMessage(sent.message)],
        },
        cause: { kind: 'system' },
      }));
    }
  }
  for (const [chatId, ids] of consumed)
    await keepClosed(db, object, open.find((s) => s.chatId === chatId)!, ids, published);
  if (queued) published.push({ type: OUTBOX_QUEUED, userIds: [], payload: {}, cause: { kind: 'system' } });
}

/**
 * An answer came as a customer message, which reopened the chat: put the close back, unless the
 * customer also wrote something else since the survey (then it is a new conversation).
 */
async function keepClosed(
  db: Db,
  object: ObjectRef,
  survey: Survey,
  answerIds: number[],
  published: Published[],
) {
  if (survey.closedAt === null) return;
  const [other] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.chatId, survey.chatId),
        eq(messages.isOwn, false),
        lte(sql`${survey.sentAt.toISOString()}::timestamptz`, messages.receivedAt),
        notInArray(messages.id, [...survey.answerMessageIds, ...answerIds]),
      ),
    )
    .limit(1);
  if (other) return;
  const [row] = await db
    .update(chats)
    .set({
      status: 'closed',
      closeReason: (survey.closeReason as typeof chats.$inferSelect.closeReason) ?? 'reply',
      closedAt: survey.closedAt,
      unreadCount: sql`greatest(${chats.unreadCount} - ${answerIds.length}, 0)`,
    })
    .where(eq(chats.id, survey.chatId))
    .returning();
  if (!row) return;
  published.push(async (read) => ({
    type: 'chats.updated',
    spaceId: object.spaceId,
    payload: { object_id: object.id, chats: await presentChats(read, [row]) },
    cause: { kind: 'system' },
  }));
}
