import { CSI_DIGIT_HINT, CSI_SCORES, type CsiLanguage, type CsiSettingsBody } from '@otklik/shared';
import { and, desc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chats, csiSurveys, messages, objects } from '../../db/schema';
import type { Logger } from '../../lib/logger';
import type { EventBus } from '../../realtime/bus';
import { presentChats } from '../inbox/actions/present';
import { presentMessage } from '../inbox/read/presenter';
import { enqueueOutbox, kickOutbox } from '../outbox/queue';
import { hasButtons, loadSettings, surveysChats } from './settings';

// Sending a CSI survey (docs/product/csi.md): when a chat is closed and its account surveys, the
// customer gets the question as our own message through the outbox (the one send path, like a reply),
// with 1–5 buttons where the network has them, else a "reply with a digit" line. At most one survey per
// chat per `period_days`. The operator counted is who closed it, else who replied last, else the assignee.

type ChatRow = typeof chats.$inferSelect;
export interface SurveyDeps {
  db: Db;
  bus: EventBus;
  log?: Pick<Logger, 'error'>;
}

const CYRILLIC = /[\u0400-\u04ff]/;

/** The customer's language: the account's choice, or by their last message's letters ('auto'). */
async function languageFor(db: Db, chatId: number, settings: CsiSettingsBody): Promise<CsiLanguage> {
  if (settings.language !== 'auto') return settings.language;
  const [last] = await db
    .select({ text: messages.text })
    .from(messages)
    .where(and(eq(messages.chatId, chatId), eq(messages.isOwn, false)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return last && CYRILLIC.test(last.text) ? 'ru' : 'en';
}

async function operatorOf(db: Db, chat: ChatRow, closedBy: number | null): Promise<number | null> {
  if (closedBy !== null) return closedBy;
  const [last] = await db
    .select({ userId: messages.userId })
    .from(messages)
    .where(and(eq(messages.chatId, chat.id), eq(messages.isOwn, true), isNotNull(messages.userId)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  return last?.userId ?? chat.assignedUserId;
}

/** Our own message in the chat, queued for the network; the chat's last message moves, its status not. */
export async function queueOwnMessage(
  tx: Db,
  chat: Pick<ChatRow, 'id' | 'spaceId' | 'objectId'>,
  text: string,
  now: Date,
  payload: Record<string, unknown> = {},
) {
  const [message] = await tx
    .insert(messages)
    .values({ spaceId: chat.spaceId, chatId: chat.id, isOwn: true, text, delivery: 'queued', createdAt: now })
    .returning();
  const [updated] = await tx
    .update(chats)
    .set({
      lastMessageAt: sql`greatest(${chats.lastMessageAt}, ${now})`,
      lastMessageText: text,
      lastMessageIsOwn: true,
      updatedAt: now,
    })
    .where(eq(chats.id, chat.id))
    .returning();
  await enqueueOutbox(tx, {
    spaceId: chat.spaceId,
    objectId: chat.objectId,
    action: 'message',
    chatId: chat.id,
    messageId: message!.id,
    payload,
  });
  return { message: message!, chat: updated! };
}

export const SCALE_BUTTONS = [CSI_SCORES.map((n) => ({ label: String(n), data: String(n) }))];

/** The survey's text as sent: with the digit line where the network has no buttons. */
export function surveyText(settings: CsiSettingsBody, language: CsiLanguage, buttons: boolean) {
  const question = settings.texts[language].survey;
  return buttons ? question : `${question}\n${CSI_DIGIT_HINT[language]}`;
}

/** After chats were closed (by `closedBy`, a user, or null for rules/bots): survey those that qualify. */
export async function sendSurveys(
  deps: SurveyDeps,
  closed: ChatRow[],
  closedBy: number | null,
  now = new Date(),
) {
  for (const chat of closed) {
    if (chat.status !== 'closed') continue;
    try {
      await sendSurvey(deps, chat, closedBy, now);
    } catch (error) {
      // The close stands whatever happens to the survey.
      deps.log?.error({ err: error, chatId: chat.id }, 'csi survey not sent');
    }
  }
}

async function sendSurvey(deps: SurveyDeps, chat: ChatRow, closedBy: number | null, now: Date) {
  const { db } = deps;
  const [object] = await db.select().from(objects).where(eq(objects.id, chat.objectId));
  if (!object?.isActive || !surveysChats(object.provider)) return;
  const settings = await loadSettings(db, object.id);
  if (!settings.enabled) return;
  // One per chat per period; with period 0 still none while the last one waits for its answer.
  const since = settings.period_days > 0 ? new Date(now.getTime() - settings.period_days * 86_400_000) : null;
  const [recent] = await db
    .select({ id: csiSurveys.id })
    .from(csiSurveys)
    .where(
      and(
        eq(csiSurveys.chatId, chat.id),
        since
          ? gt(csiSurveys.sentAt, since)
          : and(gt(csiSurveys.expiresAt, now), sql`${csiSurveys.score} IS NULL`),
      ),
    )
    .limit(1);
  if (recent) return;
  const language = await languageFor(db, chat.id, settings);
  const buttons = hasButtons(object.provider);
  const userId = await operatorOf(db, chat, closedBy);
  const sent = await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const queued = await queueOwnMessage(
      tx,
      chat,
      surveyText(settings, language, buttons),
      now,
      buttons ? { buttons: SCALE_BUTTONS } : {},
    );
    await tx.insert(csiSurveys).values({
      spaceId: chat.spaceId,
      objectId: chat.objectId,
      chatId: chat.id,
      userId,
      language,
      messageId: queued.message.id,
      sentAt: now,
      expiresAt: new Date(now.getTime() + settings.window_hours * 3_600_000),
      closeReason: chat.closeReason,
      closedAt: chat.closedAt,
    });
    return queued;
  });
  const [presented] = await presentChats(db, [sent.chat]);
  await deps.bus.publish({
    type: 'messages.created',
    spaceId: chat.spaceId,
    payload: { object_id: chat.objectId, chats: [presented], messages: [presentMessage(sent.message)] },
    cause: { kind: 'system' },
  });
  await kickOutbox(deps.bus);
}
