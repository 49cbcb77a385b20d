import { BULK_REPLY_MAX, type ReplyKind } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { authors, chats, type items, objects } from '../../../db/schema';
import type { Config } from '../../../lib/config';
import type { Sealer } from '../../../lib/crypto';
import { AppError } from '../../../lib/errors';
import type { OutgoingButton } from '../../../providers/types';
import type { EventBus } from '../../../realtime/bus';
import type { LockStore } from '../../../realtime/locks';
import { audit } from '../../audit/record';
import { stopBotSession } from '../../bots/sessions';
import { sendSurveys } from '../../csi/survey';
import { enqueueOutbox, kickOutbox } from '../../outbox/queue';
import { holdForApproval, needsApproval } from '../../qa/approval-hold';
import { assertUsable } from '../../templates/policy';
import { countUse, getTemplate } from '../../templates/service';
import { presentMessage } from '../read/presenter';
import {
  assertDraftFits,
  assertNetworkAllows,
  auditActorOf,
  causeOf,
  loadChatFor,
  loadItemFor,
  loadItemsFor,
  type Performer,
  userIdOf,
} from './policy';
import { presentChats, presentItems, publishBySpace } from './present';
import {
  closeRepliedItem,
  type Draft,
  findOrCreateDirectChat,
  recordChatMessage,
  recordItemReply,
} from './record';
import { assertNotLockedByOther, chatLockKey, itemLockKey } from './reply-locks';
import { chatUndoState, heldFor, itemUndoState, publishApprovalsChanged } from './undo-send';
import { resolveAttachments } from './uploads';

// THE send path (ARCHITECTURE "One send path"). Every reply — from the composer today; templates,
// macros, rules, bots and the AI later — comes through here: check who may (role + accounts), check what
// the network allows (docs/product/entities.md catalogue, §5 limits), record it (own reply, statuses, activity) and queue
// the network call in the same transaction, then tell open lists. A record a colleague is answering
// (their socket holds its lock, reply-locks.ts) is refused with 409 `locked`. The request never waits
// for the network: jobs/outbox-worker.ts makes the call. Moderation (moderation.ts) and workflow actions
// use the same checks and the same outbox.

export interface ActionDeps {
  db: Db;
  bus: EventBus;
  config: Config;
  /** Opens account credentials for the connector's up-front refusals (policy.ts assertNetworkAllows). */
  sealer: Sealer;
  /** "Who is answering" locks the socket hub takes; a reply to what another user holds is refused. */
  locks: LockStore;
}

export interface DraftInput {
  text: string;
  attachments?: Array<{ url: string; name?: string }>;
  /** Hold the network call SEND_UNDO_SECONDS so the sender can undo it (undo-send.ts). */
  undoable?: boolean;
  /** Close what is answered: comments by default (docs/product/states.md), chats when asked ("Send and close"). */
  close?: boolean;
  /** The reply template the text came from (the composer's picker, a macro): one use and a log entry. */
  template_id?: number;
  /** A chat-bot's options in rows, shown as the network's buttons where it has them (modules/bots). */
  buttons?: OutgoingButton[][];
}

type TemplateRow = NonNullable<Awaited<ReturnType<typeof getTemplate>>>;

/** The template a reply says it was made from: one the performer may use, of the answered record's space. */
async function templateOf(
  deps: ActionDeps,
  performer: Performer,
  spaceId: number,
  input: DraftInput,
): Promise<TemplateRow | null> {
  if (input.template_id === undefined) return null;
  const row = await getTemplate(deps.db, input.template_id);
  if (performer.kind === 'user') assertUsable(performer.actor, row);
  if (!row || row.spaceId !== spaceId) throw new AppError(404, 'error.notFound');
  return row;
}

/** In the reply's transaction: the template counts one use and the action log says what it answered. */
async function recordTemplateUse(
  tx: Db,
  performer: Performer,
  template: TemplateRow | null,
  answered: { item: number } | { chat: number },
) {
  if (!template) return;
  await countUse(tx, template);
  await audit(tx, auditActorOf(performer), {
    spaceId: template.spaceId,
    kind: 'template.used',
    target: { type: 'template', id: template.id, label: template.title },
    after: { template: template.title, ...answered },
  });
}

/** Bulk reply limit (docs/product/validation.md 'Выбрано слишком много комментариев для ответа'). */

export function transaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => work(tx as unknown as Db));
}

export async function getObjectRow(db: Db, id: number) {
  const [row] = await db.select().from(objects).where(eq(objects.id, id)).limit(1);
  if (!row) throw new AppError(404, 'error.notFound');
  return row;
}

/** The text and files of a reply, checked against the network's limits before anything is stored. */
export async function prepareDraft(
  deps: ActionDeps,
  provider: string,
  kind: ReplyKind,
  input: DraftInput,
): Promise<Draft> {
  const text = input.text.trim();
  const files = input.attachments ?? [];
  if (!text && files.length === 0) {
    throw new AppError(400, 'reply.empty', { errorType: 'validation', fields: { text: 'reply.empty' } });
  }
  assertDraftFits(provider, kind, { text, attachments: files.length });
  return { text, attachments: await resolveAttachments(deps.config, files) };
}

/** Replies go to what customers wrote; a thread's own replies and deleted comments are not targets. */
function assertReplyTarget(item: typeof items.$inferSelect) {
  if (item.isOwn || !item.externalId)
    throw new AppError(400, 'reply.notSupported', { errorType: 'not_supported' });
  if (item.isDeleted) throw new AppError(400, 'reply.itemDeleted');
}

async function publishItemReplies(
  deps: ActionDeps,
  performer: Performer,
  results: Array<{ reply: typeof items.$inferSelect; item: typeof items.$inferSelect }>,
) {
  const cause = causeOf(performer);
  const replies = await presentItems(
    deps.db,
    results.map((r) => r.reply),
  );
  const replied = await presentItems(
    deps.db,
    results.map((r) => r.item),
  );
  for (const reply of replies) {
    await deps.bus.publish({
      type: 'items.created',
      spaceId: reply.space_id,
      payload: { object_id: reply.object_id, items: [reply] },
      cause,
    });
  }
  await publishBySpace(deps.bus, 'items.updated', replied, cause);
  await kickOutbox(deps.bus);
  return { replies, replied };
}

/** Approval mode (modules/qa/approval-hold.ts): the reply to `item` waits for a reviewer. */
async function holdItemReply(
  tx: Db,
  performer: Performer,
  provider: string,
  item: typeof items.$inferSelect,
  reply: typeof items.$inferSelect,
  now: Date,
) {
  await holdForApproval(
    tx,
    {
      spaceId: item.spaceId,
      objectId: item.objectId,
      provider,
      action: 'reply',
      userId: userIdOf(performer)!,
      replyId: reply.id,
      itemId: item.id,
      undo: itemUndoState(item),
    },
    now,
  );
  reply.delivery = 'approval';
}

/** A public reply under a comment or review; closes it "with reply" (docs/product/states.md). */
export async function replyToItem(deps: ActionDeps, performer: Performer, itemId: number, input: DraftInput) {
  const item = await loadItemFor(deps.db, performer, itemId, 'items.reply');
  assertReplyTarget(item);
  await assertNotLockedByOther(deps.locks, performer, [itemLockKey(item.id)]);
  const object = await getObjectRow(deps.db, item.objectId);
  assertNetworkAllows(object.provider, 'reply', 'sendReply', { object, sealer: deps.sealer, item });
  const draft = await prepareDraft(deps, object.provider, 'comment', input);
  const template = await templateOf(deps, performer, item.spaceId, input);
  const approval = await needsApproval(deps.db, performer, item.spaceId, new Date());
  const result = await transaction(deps.db, async (tx) => {
    const now = new Date();
    const recorded = await recordItemReply(tx, performer, item, draft, now, input.close ?? true);
    await recordTemplateUse(tx, performer, template, { item: item.id });
    if (approval) {
      await holdItemReply(tx, performer, object.provider, item, recorded.reply, now);
      return recorded;
    }
    await enqueueOutbox(tx, {
      spaceId: item.spaceId,
      objectId: item.objectId,
      action: 'reply',
      itemId: recorded.reply.id,
      userId: userIdOf(performer),
      ...(input.undoable ? heldFor(now, itemUndoState(item)) : {}),
    });
    return recorded;
  });
  const { replies, replied } = await publishItemReplies(deps, performer, [result]);
  if (approval) await publishApprovalsChanged(deps, item.spaceId, item.objectId);
  return { item: replied[0]!, reply: replies[0]! };
}

/** The same reply to several comments of one account (docs/product/validation.md: one account, a limited number). */
export async function replyToItems(deps: ActionDeps, performer: Performer, ids: number[], input: DraftInput) {
  const unique = [...new Set(ids)];
  if (unique.length > BULK_REPLY_MAX)
    throw new AppError(400, 'comments.tooMany', { params: { limit: BULK_REPLY_MAX } });
  const rows = await loadItemsFor(deps.db, performer, unique, () => 'items.reply');
  if (new Set(rows.map((r) => r.objectId)).size > 1) throw new AppError(400, 'comments.sameAccount');
  rows.forEach(assertReplyTarget);
  await assertNotLockedByOther(
    deps.locks,
    performer,
    rows.map((r) => itemLockKey(r.id)),
  );
  const object = await getObjectRow(deps.db, rows[0]!.objectId);
  for (const item of rows)
    assertNetworkAllows(object.provider, 'reply', 'sendReply', { object, sealer: deps.sealer, item });
  const draft = await prepareDraft(deps, object.provider, 'comment', input);
  const template = await templateOf(deps, performer, rows[0]!.spaceId, input);
  const approval = await needsApproval(deps.db, performer, object.spaceId, new Date());
  const results = await transaction(deps.db, async (tx) => {
    const now = new Date();
    const done: Array<Awaited<ReturnType<typeof recordItemReply>>> = [];
    for (const item of rows) {
      const recorded = await recordItemReply(tx, performer, item, draft, now);
      await recordTemplateUse(tx, performer, template, { item: item.id });
      done.push(recorded);
      if (approval) {
        await holdItemReply(tx, performer, object.provider, item, recorded.reply, now);
        continue;
      }
      await enqueueOutbox(tx, {
        spaceId: item.spaceId,
        objectId: item.objectId,
        action: 'reply',
        itemId: recorded.reply.id,
        userId: userIdOf(performer),
      });
    }
    return done;
  });
  const { replies, replied } = await publishItemReplies(deps, performer, results);
  if (approval) await publishApprovalsChanged(deps, object.spaceId, object.id);
  return { items: replied, replies };
}

async function publishChatMessage(
  deps: ActionDeps,
  performer: Performer,
  result: Awaited<ReturnType<typeof recordChatMessage>>,
) {
  const cause = causeOf(performer);
  const [chat] = await presentChats(deps.db, [result.chat]);
  const message = presentMessage(result.message);
  await deps.bus.publish({
    type: 'messages.created',
    spaceId: result.chat.spaceId,
    payload: { object_id: result.chat.objectId, chats: [chat], messages: [message] },
    cause,
  });
  await publishBySpace(deps.bus, 'chats.updated', [chat!], cause);
  await kickOutbox(deps.bus);
  return { chat: chat!, message };
}

/** A message in a private conversation. */
export async function sendChatMessage(
  deps: ActionDeps,
  performer: Performer,
  chatId: number,
  input: DraftInput,
) {
  const chat = await loadChatFor(deps.db, performer, chatId, 'messages.reply');
  await assertNotLockedByOther(deps.locks, performer, [chatLockKey(chat.id)]);
  const object = await getObjectRow(deps.db, chat.objectId);
  assertNetworkAllows(object.provider, 'reply', 'sendMessage', { object, sealer: deps.sealer });
  const draft = await prepareDraft(deps, object.provider, 'message', input);
  const template = await templateOf(deps, performer, chat.spaceId, input);
  const approval = await needsApproval(deps.db, performer, chat.spaceId, new Date());
  const result = await transaction(deps.db, async (tx) => {
    const now = new Date();
    const recorded = await recordChatMessage(tx, performer, chat, draft, now, {}, input.close ?? false);
    if (performer.kind === 'user') await stopBotSession(tx, chat.id, now);
    await recordTemplateUse(tx, performer, template, { chat: chat.id });
    if (approval) {
      await holdForApproval(
        tx,
        {
          spaceId: chat.spaceId,
          objectId: chat.objectId,
          provider: object.provider,
          action: 'message',
          userId: userIdOf(performer)!,
          replyId: recorded.message.id,
          chatId: chat.id,
          undo: chatUndoState(chat),
          ...(input.buttons?.length ? { payload: { buttons: input.buttons } } : {}),
        },
        now,
      );
      recorded.message.delivery = 'approval';
      return recorded;
    }
    await enqueueOutbox(tx, {
      spaceId: chat.spaceId,
      objectId: chat.objectId,
      action: 'message',
      chatId: chat.id,
      messageId: recorded.message.id,
      userId: userIdOf(performer),
      ...(input.buttons?.length ? { payload: { buttons: input.buttons } } : {}),
      ...(input.undoable ? heldFor(now, chatUndoState(chat)) : {}),
    });
    return recorded;
  });
  const published = await publishChatMessage(deps, performer, result);
  if (approval) await publishApprovalsChanged(deps, chat.spaceId, chat.objectId);
  // "Send and close" closes the dialog: it may get a satisfaction survey after the reply (modules/csi).
  if (result.chat.status === 'closed' && chat.status !== 'closed')
    await sendSurveys(deps, [result.chat], userIdOf(performer));
  return published;
}

/** 'Direct': one private message to a commenter (docs/product/limits.md), starting or continuing their chat. */
export async function sendDirect(
  deps: ActionDeps,
  performer: Performer,
  itemId: number,
  input: { text: string },
) {
  const item = await loadItemFor(deps.db, performer, itemId, 'items.reply');
  assertReplyTarget(item);
  const object = await getObjectRow(deps.db, item.objectId);
  assertNetworkAllows(object.provider, 'direct', 'sendDirect', { object, sealer: deps.sealer, item });
  const draft = await prepareDraft(deps, object.provider, 'message', { text: input.text });
  // One private reply per comment, and the approval queue takes back nothing but replies and messages.
  if (await needsApproval(deps.db, performer, item.spaceId, new Date()))
    throw new AppError(403, 'qa.approval.direct');
  const [author] = item.authorId
    ? await deps.db.select().from(authors).where(eq(authors.id, item.authorId))
    : [];
  if (!author) throw new AppError(400, 'reply.notSupported', { errorType: 'not_supported' });
  // The comment, and the conversation the message lands in when there already is one.
  const [existing] = await deps.db
    .select({ id: chats.id })
    .from(chats)
    .where(and(eq(chats.objectId, item.objectId), eq(chats.externalId, author.externalId)))
    .limit(1);
  await assertNotLockedByOther(deps.locks, performer, [
    itemLockKey(item.id),
    ...(existing ? [chatLockKey(existing.id)] : []),
  ]);
  const result = await transaction(deps.db, async (tx) => {
    const now = new Date();
    const chat = await findOrCreateDirectChat(tx, item, author, now);
    const recorded = await recordChatMessage(tx, performer, chat, draft, now, { replyToItemId: item.id });
    const replied = await closeRepliedItem(tx, performer, item, now, {
      via: 'direct',
      message_id: recorded.message.id,
      chat_id: chat.id,
    });
    await enqueueOutbox(tx, {
      spaceId: item.spaceId,
      objectId: item.objectId,
      action: 'direct',
      itemId: item.id,
      chatId: chat.id,
      messageId: recorded.message.id,
      userId: userIdOf(performer),
    });
    return { ...recorded, item: replied };
  });
  const [presentedItem] = await presentItems(deps.db, [result.item]);
  await publishBySpace(deps.bus, 'items.updated', [presentedItem!], causeOf(performer));
  return { item: presentedItem!, ...(await publishChatMessage(deps, performer, result)) };
}
