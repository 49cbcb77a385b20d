import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authors, chats, items, messages, objects, outbox } from '../db/schema';
import { isUniqueViolation } from '../db/sqlstate';
import { presentItems } from '../modules/inbox/actions/present';
import { presentMessage } from '../modules/inbox/read/presenter';
import { notifyReplyFailed } from '../modules/notifications/events';
import { recordAccountError } from '../modules/objects/account-error';
import { backoffSeconds, MAX_ATTEMPTS, OUTBOX_FAILED, outboxPayloadSchemas } from '../modules/outbox/queue';
import { ConnectorError, type SentRef } from '../providers/types';
import type { EventBus } from '../realtime/bus';
import type { OutboxRow } from './outbox-targets';

// What the outcome of a network call changes: delivery states on our replies, the undo of a refused
// moderation, the account's error, the outbox row itself. Each change is pushed to open lists.

export interface EffectDeps {
  db: Db;
  bus: EventBus;
}

const SYSTEM = { kind: 'system' as const };
/** Outbox actions that are a reply someone wrote (their failure notifies the writer). */
const REPLY_ACTIONS = new Set<string>(['reply', 'direct', 'message']);

/** Still ours: nobody re-claimed the row after our lease ran out (a claim counts an attempt). */
const isRunning = (row: OutboxRow) =>
  and(eq(outbox.id, row.id), eq(outbox.state, 'pending'), eq(outbox.attempts, row.attempts));

async function publishItem(deps: EffectDeps, id: number | null) {
  if (!id) return;
  const [row] = await deps.db.select().from(items).where(eq(items.id, id));
  if (!row) return;
  const [presented] = await presentItems(deps.db, [row]);
  await deps.bus.publish({
    type: 'items.updated',
    spaceId: row.spaceId,
    payload: { items: [presented] },
    cause: SYSTEM,
  });
}

async function publishMessage(deps: EffectDeps, id: number | null, objectId: number) {
  if (!id) return;
  const [row] = await deps.db.select().from(messages).where(eq(messages.id, id));
  if (!row) return;
  await deps.bus.publish({
    type: 'messages.updated',
    spaceId: row.spaceId,
    payload: { object_id: objectId, messages: [presentMessage(row)] },
    cause: SYSTEM,
  });
}

/** The network took it: our reply is sent (with the network's id) and the row is done. */
export async function recordSuccess(deps: EffectDeps, row: OutboxRow, sent: SentRef | null, now: Date) {
  const [done] = await deps.db
    .update(outbox)
    .set({ state: 'done', doneAt: now, lastError: null })
    .where(isRunning(row))
    .returning();
  if (!done) return;
  const externalId = sent?.externalId ?? null;
  if (row.action === 'reply' && row.itemId) {
    const itemId = row.itemId;
    const removed = await deps.db.transaction(async (tx) => {
      const echoes = externalId
        ? await adoptItemEcho(tx as unknown as Db, row.objectId, itemId, externalId)
        : [];
      await tx
        .update(items)
        .set({ delivery: 'sent', deliveryError: null, updatedAt: now, ...(externalId ? { externalId } : {}) })
        .where(eq(items.id, itemId));
      return echoes;
    });
    if (removed.length > 0)
      await deps.bus.publish({
        type: 'items.removed',
        spaceId: done.spaceId,
        payload: { object_id: done.objectId, ids: removed },
        cause: SYSTEM,
      });
    await publishItem(deps, itemId);
  } else if ((row.action === 'message' || row.action === 'direct') && row.messageId) {
    const messageId = row.messageId;
    const removed = await deps.db.transaction(async (tx) => {
      const echoes = externalId ? await adoptMessageEcho(tx as unknown as Db, messageId, externalId) : [];
      await tx
        .update(messages)
        .set({ delivery: 'sent', deliveryError: null, ...(externalId ? { externalId } : {}) })
        .where(eq(messages.id, messageId));
      return echoes;
    });
    if (removed.length > 0)
      await deps.bus.publish({
        type: 'messages.removed',
        spaceId: done.spaceId,
        payload: { object_id: done.objectId, chat_id: removed[0]!.chatId, ids: removed.map((m) => m.id) },
        cause: SYSTEM,
      });
    if (row.action === 'direct' && sent?.chatExternalId)
      await rekeyChat(deps.db, messageId, sent.chatExternalId);
    await publishMessage(deps, messageId, row.objectId);
  }
}

/**
 * The network named the conversation anew (SentRef.chatExternalId): the message's chat takes that id, so
 * the customer's answers in it land in this chat — unless another chat of the account has it already.
 */
async function rekeyChat(db: Db, messageId: number, chatExternalId: string) {
  const [message] = await db
    .select({ chatId: messages.chatId })
    .from(messages)
    .where(eq(messages.id, messageId));
  if (!message) return;
  try {
    await db
      .update(chats)
      .set({ externalId: chatExternalId })
      .where(and(eq(chats.id, message.chatId), ne(chats.externalId, chatExternalId)));
  } catch (error) {
    // Another chat of the account has that id already (chats_external_key): it stays theirs.
    if (!isUniqueViolation(error)) throw error;
  }
}

/**
 * The network's echo of our reply (its webhook or poll beat this answer) was stored as a row of its
 * own. Ours takes the network's id and the echo goes — replies to it move to ours — so the reply
 * shows once, with its author. Returns the removed rows' ids.
 */
async function adoptItemEcho(db: Db, objectId: number, itemId: number, externalId: string) {
  const echoes = await db
    .select({ id: items.id })
    .from(items)
    .where(
      and(
        eq(items.objectId, objectId),
        eq(items.externalId, externalId),
        eq(items.isOwn, true),
        ne(items.id, itemId),
      ),
    );
  const ids = echoes.map((e) => e.id);
  if (ids.length === 0) return [];
  await db.update(items).set({ parentId: itemId }).where(inArray(items.parentId, ids));
  await db.delete(items).where(inArray(items.id, ids));
  return ids;
}

async function adoptMessageEcho(db: Db, messageId: number, externalId: string) {
  const [ours] = await db
    .select({ chatId: messages.chatId })
    .from(messages)
    .where(eq(messages.id, messageId));
  if (!ours) return [];
  return db
    .delete(messages)
    .where(
      and(
        eq(messages.chatId, ours.chatId),
        eq(messages.externalId, externalId),
        eq(messages.isOwn, true),
        ne(messages.id, messageId),
      ),
    )
    .returning({ id: messages.id, chatId: messages.chatId });
}

/**
 * Gives up: the row stays `failed` with the network's text — the record settings/errors and the errors
 * dropdown read (modules/inbox/failures/failures.ts). False when the row was no longer ours.
 */
async function recordFinalFailure(deps: EffectDeps, row: OutboxRow, message: string, now: Date) {
  const [failed] = await deps.db
    .update(outbox)
    .set({ state: 'failed', doneAt: now, lastError: message })
    .where(isRunning(row))
    .returning();
  if (!failed) return false;
  await markRefused(deps, row, message, now);
  return true;
}

/** Our reply shows the network's own text; a refused moderation is undone and shows it too. */
async function markRefused(deps: EffectDeps, row: OutboxRow, message: string, now: Date) {
  const failItem = (set: Partial<typeof items.$inferInsert>) =>
    row.itemId
      ? deps.db
          .update(items)
          .set({ ...set, deliveryError: message, updatedAt: now })
          .where(eq(items.id, row.itemId))
      : undefined;
  switch (row.action) {
    case 'reply':
      await failItem({ delivery: 'failed' });
      return publishItem(deps, row.itemId);
    case 'direct':
    case 'message':
      if (row.messageId) {
        await deps.db
          .update(messages)
          .set({ delivery: 'failed', deliveryError: message })
          .where(eq(messages.id, row.messageId));
      }
      return publishMessage(deps, row.messageId, row.objectId);
    case 'edit':
      await failItem({ text: outboxPayloadSchemas.edit.parse(row.payload).previousText });
      return publishItem(deps, row.itemId);
    case 'react':
      await failItem({ reactions: outboxPayloadSchemas.react.parse(row.payload).previous });
      return publishItem(deps, row.itemId);
    case 'react_message':
      if (row.messageId) {
        await deps.db
          .update(messages)
          .set({ reactions: outboxPayloadSchemas.react.parse(row.payload).previous, deliveryError: message })
          .where(eq(messages.id, row.messageId));
      }
      return publishMessage(deps, row.messageId, row.objectId);
    case 'block':
    case 'unblock':
      // Our own block stands (docs/product/limits.md); the refused network ban shows on the author page and in
      // settings/errors, both read from this row.
      return;
    default: {
      const { previous } = outboxPayloadSchemas.moderation.parse(row.payload);
      await failItem(previous as Partial<typeof items.$inferInsert>);
      return publishItem(deps, row.itemId);
    }
  }
}

/**
 * One more failed action on the account (after the item or message shows it): the errors dropdown,
 * settings/errors and an open author page read again. Not the account's `error` — one refused comment
 * does not make the account broken; only auth failures set that (recordAccountError). An `objects.*`
 * event, so it reaches only those who see the account.
 */
async function publishGaveUp(deps: EffectDeps, row: OutboxRow) {
  let authorId: number | null = null;
  if (row.action === 'block' || row.action === 'unblock') {
    const { authorExternalId } = outboxPayloadSchemas.block.parse(row.payload);
    const [author] = await deps.db
      .select({ id: authors.id })
      .from(authors)
      .innerJoin(objects, eq(objects.id, row.objectId))
      .where(
        and(
          eq(authors.spaceId, row.spaceId),
          eq(authors.provider, objects.provider),
          eq(authors.externalId, authorExternalId),
        ),
      )
      .limit(1);
    authorId = author?.id ?? null;
  }
  await deps.bus.publish({
    type: OUTBOX_FAILED,
    spaceId: row.spaceId,
    payload: {
      object_id: row.objectId,
      action: row.action,
      item_id: row.itemId,
      chat_id: row.chatId,
      author_id: authorId,
    },
    cause: SYSTEM,
  });
}

/**
 * A failed call: rate limits wait as long as the network asks (not counted as an attempt); temporary
 * failures back off (5 s … 1 h) up to MAX_ATTEMPTS; refusals and revoked tokens fail at once.
 */
export async function recordFailure(deps: EffectDeps, row: OutboxRow, error: unknown, now: Date) {
  const failure =
    error instanceof ConnectorError
      ? error
      : new ConnectorError('temporary', error instanceof Error ? error.message : String(error));
  const retryIn =
    failure.kind === 'rate_limited'
      ? (failure.retryAfterSeconds ?? 60)
      : failure.kind === 'temporary' && row.attempts < MAX_ATTEMPTS
        ? backoffSeconds(row.attempts)
        : null;
  if (retryIn !== null) {
    await deps.db
      .update(outbox)
      .set({
        state: 'pending',
        runAt: new Date(now.getTime() + retryIn * 1000),
        lastError: failure.stored,
        ...(failure.kind === 'rate_limited' ? { attempts: sql`${outbox.attempts} - 1` } : {}),
      })
      .where(isRunning(row));
    return { retryIn };
  }
  if (await recordFinalFailure(deps, row, failure.stored, now)) {
    // A revoked token: the account shows the network's text in the errors dropdown until an admin acts.
    if (failure.kind === 'auth') await recordAccountError(deps, row.objectId, failure.stored, now);
    await publishGaveUp(deps, row);
    // Whoever wrote the reply is told (issue 18); moderation failures show on the account instead.
    if (REPLY_ACTIONS.has(row.action)) await notifyReplyFailed(deps, row, failure.stored);
  }
  return { retryIn: null };
}
