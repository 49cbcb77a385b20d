import {
  BOT_IDLE_HOURS,
  BOT_NATIVE_KEYBOARDS,
  BOT_RETRIES_MAX,
  type BotStep,
  DEFAULT_LOCALE,
  detectLanguage,
  type Locale,
  matchBotOption,
  numberedOptions,
  renderTemplateText,
  templateTextFor,
  translate,
  validateBotField,
} from '@otklik/shared';
import { and, desc, eq, gte, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  activity,
  authors,
  botSessions,
  bots,
  chats,
  messages,
  objects,
  replyTemplates,
} from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { autoAnswer, spaceAgent } from '../ai/auto';
import type { Performer } from '../inbox/actions/policy';
import { presentChats, publishBySpace } from '../inbox/actions/present';
import { type ActionDeps, sendChatMessage } from '../inbox/actions/send';
import { spaceBusinessCalendar, withinBusinessHours } from '../workinghours/business-hours';
import { callBotWebhook } from './webhook-call';

// The chat-bot runtime (issue 17). Ingestion queues each customer message of an account with an enabled
// bot (queueBotMessagesSql, in the statement that stores them, on the rules worker's queue with trigger `bot`);
// the rules worker calls runBotOn after the commit. The bot answers through THE send path
// (sendChatMessage as performer `bot`), so network limits, reply locks and the outbox apply, and its
// messages are in the chat like anyone's. Rules (docs/product/bots.md):
// - a conversation starts on a customer message in an unassigned chat no operator is answering; an
//   earlier hand-off or operator takeover keeps the bot out until the chat was closed after it;
// - an operator's reply, assigning the chat to someone, or an operator holding the chat's reply lock
//   stops it (state `stopped`);
// - a silent conversation is over after BOT_IDLE_HOURS (`dropped` at its step);
// - BOT_RETRIES_MAX wrong answers to one question hand the chat to an operator.

export const BOT_QUEUE_TRIGGER = 'bot' as const;

type BotRow = typeof bots.$inferSelect;
type SessionRow = typeof botSessions.$inferSelect;
type ChatRow = typeof chats.$inferSelect;

export interface BotDeps extends ActionDeps {
  log?: Logger;
  /** Pauses between webhook tries (webhook-call.ts); tests shorten them. */
  webhookBackoffMs?: number[];
}

/**
 * Inside the ingestion statement that stores a batch's messages (inbox/ingest/ingest-messages.ts): a CTE
 * body queueing the customer messages of CTE `stored` (in id order) for the account's bot when it has
 * one switched on; it returns a row per message queued.
 */
export function queueBotMessagesSql(object: { id: number; spaceId: number }) {
  return sql`INSERT INTO rule_queue (space_id, item_id, trigger)
    SELECT ${object.spaceId}, stored.id, ${BOT_QUEUE_TRIGGER}::text FROM stored
    WHERE NOT stored.is_own AND EXISTS (SELECT 1 FROM bots WHERE bots.object_id = ${object.id} AND bots.enabled)
    ORDER BY stored.id
    RETURNING rule_queue.id`;
}

const stepsOf = (bot: BotRow, flow: SessionRow['flow']) =>
  flow === 'off_hours' && bot.offHoursSteps.length > 0 ? bot.offHoursSteps : bot.steps;

const idle = (s: SessionRow, now: Date) => now.getTime() - s.updatedAt.getTime() > BOT_IDLE_HOURS * 3_600_000;

/** Someone of the team is on this chat since `since`: assigned, or an operator wrote in it. */
async function operatorOn(db: Db, chat: ChatRow, since: Date | null): Promise<boolean> {
  if (chat.assignedUserId !== null) return true;
  const [wrote] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.chatId, chat.id),
        eq(messages.isOwn, true),
        isNotNull(messages.userId),
        since ? gte(messages.createdAt, since) : undefined,
      ),
    )
    .limit(1);
  return Boolean(wrote);
}

/** The rules worker's call for one queued customer message. */
export async function runBotOn(deps: BotDeps, messageId: number, now = new Date()) {
  const { db } = deps;
  const [message] = await db.select().from(messages).where(eq(messages.id, messageId)).limit(1);
  if (!message || message.isOwn) return;
  const [chat] = await db.select().from(chats).where(eq(chats.id, message.chatId)).limit(1);
  if (!chat) return;
  const [bot] = await db
    .select()
    .from(bots)
    .where(and(eq(bots.objectId, chat.objectId), eq(bots.enabled, true)))
    .limit(1);
  if (!bot) return;
  let [last] = await db
    .select()
    .from(botSessions)
    .where(eq(botSessions.chatId, chat.id))
    .orderBy(desc(botSessions.id))
    .limit(1);
  if (last?.state === 'active' && idle(last, now)) {
    await end(db, last, 'dropped', now);
    last = { ...last, state: 'dropped', endedAt: now };
  }
  const run = new Run(deps, bot, chat, now);
  if (last?.state === 'active') {
    if (await operatorOn(db, chat, last.startedAt)) return end(db, last, 'stopped', now);
    return run.answer(last, message.text);
  }
  // A new conversation?
  if (last && (last.state === 'handed_off' || last.state === 'stopped')) {
    const closedSince = chat.closedAt && last.endedAt && chat.closedAt > last.endedAt;
    if (!closedSince) return;
  }
  if (await operatorOn(db, chat, last?.endedAt ?? null)) return;
  const offHours =
    bot.offHoursSteps.length > 0 &&
    !withinBusinessHours(await spaceBusinessCalendar(db, chat.spaceId), await companyOf(db, chat), now);
  const [session] = await db
    .insert(botSessions)
    .values({
      spaceId: chat.spaceId,
      botId: bot.id,
      chatId: chat.id,
      flow: offHours ? 'off_hours' : 'main',
      stepId: stepsOf(bot, offHours ? 'off_hours' : 'main')[0]?.id ?? '',
      startedAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (!session) return; // another node started it
  await run.from(session, 0);
}

async function companyOf(db: Db, chat: ChatRow) {
  const [object] = await db
    .select({ companyId: objects.companyId })
    .from(objects)
    .where(eq(objects.id, chat.objectId));
  return object?.companyId ?? null;
}

async function end(db: Db, session: SessionRow, state: SessionRow['state'], now: Date, extra = {}) {
  await db
    .update(botSessions)
    .set({ state, endedAt: now, updatedAt: now, ...extra })
    .where(and(eq(botSessions.id, session.id), eq(botSessions.state, 'active')));
}

/** One customer message's worth of bot work in one chat. */
class Run {
  private readonly performer: Performer;
  private provider: string | null = null;

  constructor(
    private readonly deps: BotDeps,
    private readonly bot: BotRow,
    private readonly chat: ChatRow,
    private readonly now: Date,
  ) {
    this.performer = { kind: 'bot', id: bot.id, spaceId: bot.spaceId, name: bot.name };
  }

  private async providerOf() {
    if (this.provider === null) {
      const [o] = await this.deps.db
        .select({ provider: objects.provider })
        .from(objects)
        .where(eq(objects.id, this.chat.objectId));
      this.provider = o?.provider ?? '';
    }
    return this.provider;
  }

  /** Sends through the send path; false when refused (an operator holds the chat, the network refuses). */
  private async send(
    session: SessionRow,
    text: string,
    options?: Array<{ label: string }>,
  ): Promise<boolean> {
    if (!text.trim() && !options?.length) return true;
    const native = BOT_NATIVE_KEYBOARDS[await this.providerOf()];
    const input = options?.length
      ? native
        ? { text, buttons: options.map((o) => [{ label: o.label, data: o.label }]) }
        : { text: numberedOptions(text, options) }
      : { text };
    try {
      await sendChatMessage(this.deps, this.performer, this.chat.id, input);
      return true;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      this.deps.log?.warn({ chat: this.chat.id, bot: this.bot.id, err: error.message }, 'Bot reply refused');
      await end(this.deps.db, session, 'stopped', this.now);
      return false;
    }
  }

  private async save(session: SessionRow, patch: Partial<SessionRow>) {
    await this.deps.db
      .update(botSessions)
      .set({ ...patch, updatedAt: this.now })
      .where(eq(botSessions.id, session.id));
  }

  private nextIndex(steps: BotStep[], at: number, next: string | null | undefined) {
    return next ? steps.findIndex((s) => s.id === next) : at + 1;
  }

  /** Runs steps from `index` until one waits for the customer, hands off or the flow ends. */
  async from(session: SessionRow, index: number) {
    const steps = stepsOf(this.bot, session.flow);
    const path = [...session.path];
    const fields = { ...session.fields };
    // A `next` pointing back could loop without the customer: at most one pass over the flow per message.
    for (let guard = 0; guard <= steps.length && index >= 0 && index < steps.length; guard++) {
      const step = steps[index]!;
      path.push(step.id);
      const at = { stepId: step.id, path, fields, retries: 0 };
      switch (step.type) {
        case 'message':
          if (!(await this.send(session, step.text))) return;
          index = this.nextIndex(steps, index, step.next);
          continue;
        case 'template': {
          const text = await this.templateText(step.template_id, fields);
          if (text && !(await this.send(session, text))) return;
          index = this.nextIndex(steps, index, step.next);
          continue;
        }
        case 'webhook': {
          const reply = await this.callWebhook(step, fields);
          Object.assign(fields, reply.fields);
          if (reply.text && !(await this.send(session, reply.text))) return;
          index = this.nextIndex(steps, index, step.next);
          continue;
        }
        case 'ai': {
          const text = await this.aiAnswer(step);
          if (text && !(await this.send(session, text))) return;
          index = this.nextIndex(steps, index, step.next);
          continue;
        }
        case 'menu':
          await this.save(session, at);
          await this.send(session, step.text, step.options);
          return;
        case 'collect':
          await this.save(session, at);
          await this.send(session, step.text);
          return;
        case 'handoff':
          if (step.text && !(await this.send(session, step.text))) return;
          return this.handOff(session, at, step.user_id ?? null);
      }
    }
    await end(this.deps.db, session, 'completed', this.now, { path, fields });
  }

  /** The customer's answer to the step the conversation waits at. */
  async answer(session: SessionRow, text: string) {
    const steps = stepsOf(this.bot, session.flow);
    const index = steps.findIndex((s) => s.id === session.stepId);
    const step = steps[index];
    if (!step || (step.type !== 'menu' && step.type !== 'collect')) {
      // The flow was edited under the conversation: it cannot go on.
      return end(this.deps.db, session, 'dropped', this.now);
    }
    if (step.type === 'menu') {
      const chosen = matchBotOption(step.options, text);
      if (chosen < 0)
        return this.retry(
          session,
          step,
          step.retry_text || (await this.say('bots.retry.menu', text, step.text)),
          step.options,
        );
      return this.from(session, this.nextIndex(steps, index, step.options[chosen]!.next));
    }
    const value = validateBotField(step.field, text);
    if (value === null) {
      const key =
        step.field === 'phone'
          ? 'bots.retry.phone'
          : step.field === 'email'
            ? 'bots.retry.email'
            : 'bots.retry.default';
      return this.retry(session, step, step.retry_text || (await this.say(key, text, step.text)));
    }
    const key = step.field === 'text' ? step.id : step.field;
    return this.from(
      { ...session, fields: { ...session.fields, [key]: value } },
      this.nextIndex(steps, index, step.next),
    );
  }

  /**
   * A retry text of ours in the customer's language: the language of their answer, else of their recent
   * messages in the chat (a phone number has no letters), else the language the flow is written in;
   * Russian or English (packages/shared language.ts), DEFAULT_LOCALE otherwise.
   */
  private async say(
    key: 'bots.retry.menu' | 'bots.retry.phone' | 'bots.retry.email' | 'bots.retry.default',
    answer: string,
    stepText: string,
  ) {
    const known = (text: string): Locale | null => {
      const language = detectLanguage(text);
      return language === 'ru' || language === 'en' ? language : null;
    };
    let locale = known(answer);
    if (!locale) {
      const recent = await this.deps.db
        .select({ text: messages.text })
        .from(messages)
        .where(and(eq(messages.chatId, this.chat.id), eq(messages.isOwn, false)))
        .orderBy(desc(messages.id))
        .limit(5);
      locale = known(recent.map((m) => m.text).join('\n'));
    }
    return translate(locale ?? known(stepText) ?? DEFAULT_LOCALE, key);
  }

  private async retry(session: SessionRow, step: BotStep, text: string, options?: Array<{ label: string }>) {
    const retries = session.retries + 1;
    if (retries >= BOT_RETRIES_MAX) {
      return this.handOff(
        session,
        { stepId: step.id, path: session.path, fields: session.fields, retries },
        null,
      );
    }
    await this.save(session, { retries });
    await this.send(session, text, options);
  }

  /** To an operator: the chat waits in the queue (or with `userId`), unread, with what was collected. */
  private async handOff(session: SessionRow, at: Partial<SessionRow>, userId: number | null) {
    const db = this.deps.db;
    await end(db, session, 'handed_off', this.now, at);
    const [chat] = await db
      .update(chats)
      .set({
        status: userId ? 'inprogress' : 'new',
        assignedUserId: userId ?? this.chat.assignedUserId,
        unreadCount: sql`greatest(${chats.unreadCount}, 1)`,
        updatedAt: this.now,
      })
      .where(and(eq(chats.id, this.chat.id), sql`${chats.status} <> 'closed'`))
      .returning();
    if (chat) {
      const presented = await presentChats(db, [chat]);
      await publishBySpace(this.deps.bus, 'chats.updated', presented, {
        kind: 'bot',
        id: this.bot.id,
      });
    }
  }

  private async templateText(templateId: number, fields: Record<string, string>) {
    const [template] = await this.deps.db
      .select()
      .from(replyTemplates)
      .where(and(eq(replyTemplates.id, templateId), eq(replyTemplates.spaceId, this.bot.spaceId)))
      .limit(1);
    // Only the space's shared templates: a personal one is its owner's.
    if (!template || template.userId !== null) return null;
    const [author] = this.chat.authorId
      ? await this.deps.db.select().from(authors).where(eq(authors.id, this.chat.authorId))
      : [];
    return renderTemplateText(
      templateTextFor(template, await this.providerOf()),
      { author_name: author?.name ?? fields.name ?? '', ...fields },
      template.variables,
    ).trim();
  }

  /**
   * The AI step (modules/ai/auto.ts, the composer's prompt on this chat): the agent's answer within the
   * network's limit. A provider error or timeout is in the chat's history (activity `chat.bot`, failed) and
   * the log, and the step's fallback text goes instead (none: nothing); the flow goes on.
   */
  private async aiAnswer(step: { id: string; agent_id: number; fallback_text: string }) {
    const agent = await spaceAgent(this.deps.db, this.bot.spaceId, step.agent_id);
    let error: string;
    if (agent) {
      try {
        return await autoAnswer(this.deps, agent, { kind: 'chat', row: this.chat });
      } catch (e) {
        error = e instanceof AppError ? translate(DEFAULT_LOCALE, e.key, e.extra.params) : String(e);
      }
    } else error = translate(DEFAULT_LOCALE, 'rules.skip.agent');
    this.deps.log?.warn({ bot: this.bot.id, chat: this.chat.id, err: error }, 'Bot AI step failed');
    await this.failed(step.id, error);
    return step.fallback_text.trim();
  }

  /** A step that failed: in the chat's history (activity `chat.bot`) and on settings/errors. */
  private async failed(stepId: string, error: string) {
    await this.deps.db.insert(activity).values({
      spaceId: this.chat.spaceId,
      objectId: this.chat.objectId,
      chatId: this.chat.id,
      type: 'chat.bot',
      causeKind: 'bot',
      causeId: this.bot.id,
      data: { bot: this.bot.name, status: 'failed', step_id: stepId, error },
      at: this.now,
    });
  }

  /**
   * The webhook step (webhook-call.ts): signed when it names an endpoint, retried a few times. A JSON
   * answer may give `text` (sent to the customer) and `fields` (merged into the collected ones). A call
   * that failed every try is in the chat's history (activity `chat.bot`) and the log; the flow goes on.
   */
  private async callWebhook(
    step: { id: string; url?: string; webhook_id?: number | null },
    fields: Record<string, string>,
  ) {
    const outcome = await callBotWebhook(
      {
        db: this.deps.db,
        sealer: this.deps.sealer,
        allowPrivate: this.deps.config.WEBHOOKS_ALLOW_PRIVATE === 'true',
        backoffMs: this.deps.webhookBackoffMs,
      },
      this.bot.spaceId,
      step,
      {
        type: 'bot.step',
        timestamp: this.now.toISOString(),
        data: {
          bot_id: this.bot.id,
          bot_name: this.bot.name,
          chat_id: this.chat.id,
          step_id: step.id,
          fields,
        },
      },
    );
    if (outcome.ok) return outcome.answer;
    this.deps.log?.warn(
      { bot: this.bot.id, chat: this.chat.id, attempts: outcome.attempts, err: outcome.error },
      'Bot webhook failed',
    );
    await this.failed(step.id, outcome.error);
    return { text: '', fields: {} };
  }
}
