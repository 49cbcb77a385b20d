import type { FailedActionKind, FailedActionWire, FailureCountWire } from '@otklik/shared';
import {
  type ItemFailureAction,
  type ItemFailureWire,
  type NetworkBanWire,
  ITEM_FAILURE_ACTIONS as WIRE_ITEM_FAILURE_ACTIONS,
} from '@otklik/shared';
import { and, desc, eq, gte, inArray, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client';
import { authors, items, messages, objects, outbox, users } from '../../../db/schema';
import type { OutboxAction } from '../../outbox/queue';
import { type InboxScope, scopeCondition } from '../read/scope';

// Outgoing actions the networks refused for good (outbox rows in state 'failed'): settings/errors lists
// them, the errors dropdown counts them per account, the item page names the action that failed and the
// author page shows a failed network ban. Nothing here needs a table of its own: the outbox row is the
// record (its last error, attempts, when it gave up).

/** How far back settings/errors and the dropdown look. Older failures stay in the outbox, unlisted. */
export const RECENT_FAILURE_DAYS = 7;
export const FAILURES_PAGE_DEFAULT = 50;
export const FAILURES_PAGE_MAX = 100;

/** Actions on an item whose failure sets the item's delivery_error (outbox-effects.ts). */
export const ITEM_FAILURE_ACTIONS = WIRE_ITEM_FAILURE_ACTIONS satisfies readonly OutboxAction[];
/** Actions on a message whose failure sets the message's delivery_error. */
export const MESSAGE_FAILURE_ACTIONS = [
  'message',
  'direct',
  'react_message',
] as const satisfies readonly OutboxAction[];
export const BAN_ACTIONS = ['block', 'unblock'] as const satisfies readonly OutboxAction[];

const banAuthor = alias(authors, 'ban_author');

/** The author a block/unblock row is about: by the network id it carries, on the account's network. */
const banAuthorJoin = and(
  eq(banAuthor.spaceId, outbox.spaceId),
  eq(banAuthor.provider, objects.provider),
  eq(banAuthor.externalId, sql`${outbox.payload}->>'authorExternalId'`),
);

/**
 * A failure still stands: the item or message still shows its error (the next action on it, or a
 * retry, clears it), or — for a ban — no later block/unblock of the same author was queued since.
 */
const stillOpen: SQL = or(
  and(inArray(outbox.action, [...ITEM_FAILURE_ACTIONS]), isNotNull(items.deliveryError)),
  and(inArray(outbox.action, [...MESSAGE_FAILURE_ACTIONS]), isNotNull(messages.deliveryError)),
  and(
    inArray(outbox.action, [...BAN_ACTIONS]),
    sql`NOT EXISTS (SELECT 1 FROM outbox AS later WHERE later.object_id = ${outbox.objectId} AND later.action IN ('block', 'unblock') AND later.payload->>'authorExternalId' = ${outbox.payload}->>'authorExternalId' AND later.id > ${outbox.id})`,
  ),
)!;

function recentOpenFailures(scope: InboxScope, now: Date) {
  return and(
    eq(outbox.state, 'failed'),
    isNull(outbox.dismissedAt),
    gte(outbox.doneAt, new Date(now.getTime() - RECENT_FAILURE_DAYS * 86_400_000)),
    scopeCondition(scope, outbox.spaceId, outbox.objectId),
    stillOpen,
  );
}

/** Recent failures still standing, newest first; keyset by outbox id (`before`). */
export async function findFailedActions(
  db: Db,
  scope: InboxScope,
  page: { before?: number; limit: number },
  now = new Date(),
) {
  const rows = await db
    .select({
      row: outbox,
      account: { id: objects.id, name: objects.name, provider: objects.provider },
      item: {
        id: items.id,
        parentId: items.parentId,
        isOwn: items.isOwn,
        delivery: items.delivery,
        excerpt: items.excerpt,
      },
      message: {
        id: messages.id,
        chatId: messages.chatId,
        delivery: messages.delivery,
        text: sql<string>`left(${messages.text}, 200)`,
      },
      author: { id: banAuthor.id, name: banAuthor.name },
      user: { id: users.id, name: users.name },
    })
    .from(outbox)
    .innerJoin(objects, eq(objects.id, outbox.objectId))
    .leftJoin(items, eq(items.id, outbox.itemId))
    .leftJoin(messages, eq(messages.id, outbox.messageId))
    .leftJoin(banAuthor, and(inArray(outbox.action, [...BAN_ACTIONS]), banAuthorJoin))
    .leftJoin(users, eq(users.id, outbox.userId))
    .where(and(recentOpenFailures(scope, now), page.before ? lt(outbox.id, page.before) : undefined))
    .orderBy(desc(outbox.id))
    .limit(page.limit + 1);
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  return { rows: shown, nextBefore: more ? shown[shown.length - 1]!.row.id : null };
}
export type FailedActionRow = Awaited<ReturnType<typeof findFailedActions>>['rows'][number];

/** Per account: how many recent failures still stand (the errors dropdown), most recent first. */
export async function countFailedActions(db: Db, scope: InboxScope, now = new Date()) {
  return db
    .select({
      objectId: outbox.objectId,
      spaceId: objects.spaceId,
      name: objects.name,
      provider: objects.provider,
      count: sql<number>`count(*)::int`,
      lastAt: sql<Date>`max(${outbox.doneAt})`.mapWith((v: string | Date) => new Date(v)),
    })
    .from(outbox)
    .innerJoin(objects, eq(objects.id, outbox.objectId))
    .leftJoin(items, eq(items.id, outbox.itemId))
    .leftJoin(messages, eq(messages.id, outbox.messageId))
    .where(recentOpenFailures(scope, now))
    .groupBy(outbox.objectId, objects.spaceId, objects.name, objects.provider)
    .orderBy(desc(sql`max(${outbox.doneAt})`));
}

/**
 * Someone who sees errors acknowledges a failure: it leaves settings/errors and the dropdown's counts
 * (the item or message keeps showing its own state). The row's account, or null when the failure is not
 * one the scope covers, or was dismissed already.
 */
export async function dismissFailure(
  db: Db,
  scope: InboxScope,
  id: number,
  userId: number,
  now = new Date(),
) {
  const [row] = await db
    .update(outbox)
    .set({ dismissedAt: now, dismissedBy: userId })
    .where(
      and(
        eq(outbox.id, id),
        eq(outbox.state, 'failed'),
        isNull(outbox.dismissedAt),
        scopeCondition(scope, outbox.spaceId, outbox.objectId),
      ),
    )
    .returning({ spaceId: outbox.spaceId, objectId: outbox.objectId });
  return row ?? null;
}

/** The action that failed last on an item that shows an error (what the item page names). */
export async function getItemFailure(db: Db, item: typeof items.$inferSelect) {
  if (!item.deliveryError) return null;
  const [row] = await db
    .select()
    .from(outbox)
    .where(
      and(
        eq(outbox.objectId, item.objectId),
        eq(outbox.itemId, item.id),
        eq(outbox.state, 'failed'),
        inArray(outbox.action, [...ITEM_FAILURE_ACTIONS]),
      ),
    )
    .orderBy(desc(outbox.id))
    .limit(1);
  return row ?? null;
}

/** The author's latest network ban or unban (queued, done or failed), if the network was asked. */
export async function getNetworkBan(db: Db, author: typeof authors.$inferSelect) {
  const [row] = await db
    .select({ row: outbox })
    .from(outbox)
    .innerJoin(objects, eq(objects.id, outbox.objectId))
    .where(
      and(
        eq(objects.spaceId, author.spaceId),
        eq(objects.provider, author.provider),
        inArray(outbox.action, [...BAN_ACTIONS]),
        sql`${outbox.payload}->>'authorExternalId' = ${author.externalId}`,
      ),
    )
    .orderBy(desc(outbox.id))
    .limit(1);
  return row?.row ?? null;
}

const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** Where the failure can be seen and acted on: the thread, the chat, or the author page. */
function targetOf(r: FailedActionRow): { kind: 'item' | 'chat' | 'author'; id: number } | null {
  const action = r.row.action;
  if ((BAN_ACTIONS as readonly string[]).includes(action))
    return r.author ? { kind: 'author', id: r.author.id } : null;
  if ((MESSAGE_FAILURE_ACTIONS as readonly string[]).includes(action)) {
    const chatId = r.row.chatId ?? r.message?.chatId ?? null;
    return chatId ? { kind: 'chat', id: chatId } : null;
  }
  if (!r.item) return null;
  // Our reply is seen in the thread of the comment it answers.
  return { kind: 'item', id: r.item.isOwn && r.item.parentId ? r.item.parentId : r.item.id };
}

/** One row of settings/errors: what failed, where, on which account, the network's text, when, attempts. */
export function presentFailedAction(r: FailedActionRow): FailedActionWire {
  const action = r.row.action as FailedActionKind;
  const isItemSend = action === 'reply' && r.item?.delivery === 'failed';
  const isMessageSend = (action === 'message' || action === 'direct') && r.message?.delivery === 'failed';
  return {
    id: r.row.id,
    action,
    error: r.row.lastError,
    attempts: r.row.attempts,
    created_at: unix(r.row.createdAt),
    failed_at: unix(r.row.doneAt),
    space_id: r.row.spaceId,
    account: r.account,
    item_id: r.row.itemId,
    message_id: r.row.messageId,
    chat_id: r.row.chatId ?? r.message?.chatId ?? null,
    author: r.author?.id ? r.author : null,
    user: r.user?.id ? r.user : null,
    excerpt: r.item?.excerpt ?? r.message?.text ?? null,
    target: targetOf(r),
    /** POST /v1/items/:id/retry or /v1/messages/:id/retry sends it again. */
    retry: isItemSend
      ? { kind: 'item' as const, id: r.row.itemId! }
      : isMessageSend
        ? { kind: 'message' as const, id: r.row.messageId! }
        : null,
  };
}
export type PresentedFailedAction = ReturnType<typeof presentFailedAction>;

export function presentFailureCount(
  r: Awaited<ReturnType<typeof countFailedActions>>[number],
): FailureCountWire {
  return {
    object_id: r.objectId,
    space_id: r.spaceId,
    name: r.name,
    provider: r.provider,
    count: r.count,
    last_failed_at: unix(r.lastAt),
  };
}

/** The failed action of an item, as the item page names it. */
export function presentItemFailure(row: typeof outbox.$inferSelect): ItemFailureWire {
  // getItemFailure reads only these actions.
  return {
    action: row.action as ItemFailureAction,
    error: row.lastError,
    attempts: row.attempts,
    failed_at: unix(row.doneAt),
  };
}

/** The author's network ban: `pending` while queued or retrying, `failed` with the network's text. */
export function presentNetworkBan(row: typeof outbox.$inferSelect): NetworkBanWire {
  return {
    action: row.action as 'block' | 'unblock',
    state: row.state === 'running' ? ('pending' as const) : row.state,
    error: row.lastError,
    attempts: row.attempts,
    object_id: row.objectId,
    created_at: unix(row.createdAt),
    done_at: unix(row.doneAt),
  };
}
