import { isWithinEditWindow } from '@otklik/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import { activity, items, messages, type Reaction } from '../../../db/schema';
import { AppError } from '../../../lib/errors';
import { capabilitiesOf } from '../../../providers/registry';
import type { Connector } from '../../../providers/types';
import { type AuditKind, audit } from '../../audit/record';
import { editCollectorReply } from '../../channels/generic-service';
import { enqueueOutbox, kickOutbox, type OutboxAction } from '../../outbox/queue';
import { presentMessage } from '../read/presenter';
import {
  activityCause,
  assertNetworkAllows,
  auditActorOf,
  catalogueEntry,
  causeOf,
  loadItemFor,
  loadMessageFor,
  type Performer,
  userIdOf,
} from './policy';
import { presentItems, publishBySpace } from './present';
import { type ActionDeps, getObjectRow, prepareDraft, transaction } from './send';

// Moderation and engagement on the network: delete / restore / hide / like / react on what customers
// wrote, and editing our own replies. Same path as replies: check, record (applied at once, undone by
// the worker if the network refuses), queue the call.

export const ITEM_ACTIONS = ['delete', 'restore', 'hide', 'unhide', 'like', 'unlike', 'report'] as const;
export type ItemAction = (typeof ITEM_ACTIONS)[number];

const RULES: Record<
  ItemAction,
  {
    ability: 'items.delete' | 'items.reply';
    network: 'delete' | 'restore' | 'hide' | 'like' | 'report';
    method: keyof Connector;
  }
> = {
  // docs/product/roles.md: moderators delete comments; hiding is the gentler form of the same moderation.
  delete: { ability: 'items.delete', network: 'delete', method: 'deleteItem' },
  restore: { ability: 'items.delete', network: 'restore', method: 'restoreItem' },
  hide: { ability: 'items.delete', network: 'hide', method: 'hideItem' },
  unhide: { ability: 'items.delete', network: 'hide', method: 'hideItem' },
  // Likes and reactions speak as the account, like a reply: operators.
  like: { ability: 'items.reply', network: 'like', method: 'likeItem' },
  unlike: { ability: 'items.reply', network: 'like', method: 'likeItem' },
  // A complaint to the network (catalogue `report`, issue 13 #16): moderation, like delete and hide.
  report: { ability: 'items.delete', network: 'report', method: 'reportItem' },
};

type ItemRow = typeof items.$inferSelect;

/** Moderation the action log records (likes speak for the account, not moderation: not logged). */
const AUDITED: Partial<Record<OutboxAction, AuditKind>> = {
  hide: 'item.hidden',
  unhide: 'item.shown',
  delete: 'item.deleted',
  restore: 'item.restored',
  report: 'item.reported',
};

/** The status a restored comment returns to: what it had when we deleted it, or new. */
async function statusBeforeDelete(deps: ActionDeps, item: ItemRow) {
  const [last] = await deps.db
    .select({ data: activity.data })
    .from(activity)
    .where(
      and(
        eq(activity.itemId, item.id),
        eq(activity.type, 'item.moderated'),
        sql`${activity.data}->>'action' = 'delete'`,
      ),
    )
    .orderBy(desc(activity.id))
    .limit(1);
  const from = last?.data.from_status;
  return typeof from === 'string' && from !== 'deleted' ? (from as ItemRow['status']) : 'new';
}

async function changeFor(deps: ActionDeps, action: ItemAction, item: ItemRow) {
  switch (action) {
    case 'delete':
      return {
        set: { isDeleted: true, status: 'deleted' as const },
        previous: { isDeleted: item.isDeleted, status: item.status },
      };
    case 'restore':
      return {
        set: { isDeleted: false, status: await statusBeforeDelete(deps, item) },
        previous: { isDeleted: item.isDeleted, status: item.status },
      };
    case 'hide':
    case 'unhide':
      return { set: { isHidden: action === 'hide' }, previous: { isHidden: item.isHidden } };
    case 'like':
    case 'unlike':
      return { set: { isLiked: action === 'like' }, previous: { isLiked: item.isLiked } };
    case 'report':
      // Nothing of ours changes: the complaint is recorded in the item's history (activity).
      return { set: {}, previous: {} };
  }
}

async function record(
  deps: ActionDeps,
  performer: Performer,
  item: ItemRow,
  action: OutboxAction,
  set: Partial<typeof items.$inferInsert>,
  payload: Record<string, unknown>,
) {
  const now = new Date();
  const updated = await transaction(deps.db, async (tx) => {
    const [row] = await tx
      .update(items)
      .set({ ...set, deliveryError: null, updatedAt: now })
      .where(eq(items.id, item.id))
      .returning();
    await tx.insert(activity).values({
      spaceId: item.spaceId,
      objectId: item.objectId,
      itemId: item.id,
      type: 'item.moderated',
      ...activityCause(performer),
      data: { action, from_status: item.status },
      at: now,
    });
    await enqueueOutbox(tx, {
      spaceId: item.spaceId,
      objectId: item.objectId,
      action,
      itemId: item.id,
      payload,
      userId: userIdOf(performer),
    });
    const kind = AUDITED[action];
    if (kind)
      await audit(tx, auditActorOf(performer), {
        spaceId: item.spaceId,
        kind,
        target: { type: 'item', id: item.id, label: item.text.slice(0, 80) },
        before: payload.previous,
        after: set,
        at: now,
      });
    return row!;
  });
  const [presented] = await presentItems(deps.db, [updated]);
  await publishBySpace(deps.bus, 'items.updated', [presented!], causeOf(performer));
  await kickOutbox(deps.bus);
  return presented!;
}

async function customerItem(
  deps: ActionDeps,
  performer: Performer,
  itemId: number,
  ability: 'items.delete' | 'items.reply',
  opts: { allowOwn?: boolean } = {},
) {
  const item = await loadItemFor(deps.db, performer, itemId, ability);
  // Our own sent reply may be deleted from the network (YouTube: only the author can delete a comment).
  const ownDelete = item.isOwn && opts.allowOwn;
  if ((item.isOwn && !ownDelete) || !item.externalId)
    throw new AppError(400, 'reply.notSupported', { errorType: 'not_supported' });
  return { item, object: await getObjectRow(deps.db, item.objectId) };
}

export async function moderateItem(
  deps: ActionDeps,
  performer: Performer,
  itemId: number,
  action: ItemAction,
) {
  const rule = RULES[action];
  const { item, object } = await customerItem(deps, performer, itemId, rule.ability, {
    allowOwn: action === 'delete',
  });
  assertNetworkAllows(object.provider, rule.network, rule.method, { object, sealer: deps.sealer, item });
  const { set, previous } = await changeFor(deps, action, item);
  return record(deps, performer, item, action, set, { previous });
}

/** Our reaction replaces any earlier one of ours; null takes it back. */
export function withOwnReaction(list: Reaction[], value: string | null): Reaction[] {
  const others = list
    .map((r) => (r.own ? { value: r.value, count: r.count - 1 } : r))
    .filter((r) => r.count > 0);
  if (value === null) return others;
  const existing = others.find((r) => r.value === value);
  return existing
    ? others.map((r) => (r === existing ? { ...r, count: r.count + 1, own: true } : r))
    : [...others, { value, count: 1, own: true }];
}

/** A reaction must be one of the network's set (docs/product/entities.md, limits.md: VK ids, Telegram and WhatsApp emoji). */
function assertReactionValue(provider: string, value: string | null, onMessages: boolean) {
  const set = catalogueEntry(provider).reactions;
  if (!set || (onMessages && !set.messages))
    throw new AppError(400, 'reply.notSupported', { errorType: 'not_supported' });
  if (value !== null && !set.items.some((r) => String(r.value) === value)) {
    throw new AppError(400, 'reaction.invalid', {
      errorType: 'validation',
      fields: { value: 'reaction.invalid' },
    });
  }
}

export async function reactToItem(
  deps: ActionDeps,
  performer: Performer,
  itemId: number,
  value: string | null,
) {
  const { item, object } = await customerItem(deps, performer, itemId, 'items.reply');
  assertNetworkAllows(object.provider, 'react', 'react', { object, sealer: deps.sealer, item });
  assertReactionValue(object.provider, value, false);
  const reactions = withOwnReaction(item.reactions, value);
  return record(deps, performer, item, 'react', { reactions }, { value, previous: item.reactions });
}

export async function reactToMessage(
  deps: ActionDeps,
  performer: Performer,
  messageId: number,
  value: string | null,
) {
  const { message, chat } = await loadMessageFor(deps.db, performer, messageId, 'messages.reply');
  if (message.isOwn || !message.externalId)
    throw new AppError(400, 'reply.notSupported', { errorType: 'not_supported' });
  const object = await getObjectRow(deps.db, chat.objectId);
  assertNetworkAllows(object.provider, 'react', 'react', { object, sealer: deps.sealer });
  assertReactionValue(object.provider, value, true);
  const now = new Date();
  const updated = await transaction(deps.db, async (tx) => {
    const [row] = await tx
      .update(messages)
      .set({ reactions: withOwnReaction(message.reactions, value), deliveryError: null })
      .where(eq(messages.id, message.id))
      .returning();
    await tx.insert(activity).values({
      spaceId: chat.spaceId,
      objectId: chat.objectId,
      chatId: chat.id,
      type: 'message.moderated',
      ...activityCause(performer),
      data: { action: 'react', message_id: message.id, value },
      at: now,
    });
    await enqueueOutbox(tx, {
      spaceId: chat.spaceId,
      objectId: chat.objectId,
      action: 'react_message',
      chatId: chat.id,
      messageId: message.id,
      payload: { value, previous: message.reactions },
      userId: userIdOf(performer),
    });
    return row!;
  });
  const presented = presentMessage(updated);
  await deps.bus.publish({
    type: 'messages.updated',
    spaceId: chat.spaceId,
    payload: { object_id: chat.objectId, messages: [presented] },
    cause: causeOf(performer),
  });
  await kickOutbox(deps.bus);
  return presented;
}

/**
 * Editing our own reply inside the network's edit window (docs/product/limits.md: VK 43200 s, vc 1200 s). A reply the
 * network has not accepted yet is simply changed before it goes out (the worker sends the current text).
 * On networks reached through a customer's collector (connector capability `collectorFeed`: vc and other
 * `ingest_token` sites) the reply is out once it is in the collector's feed, posted or not: from then on
 * the window applies, and the edit goes back to that feed (modules/channels/generic-service.ts).
 */
export async function editReply(
  deps: ActionDeps,
  performer: Performer,
  itemId: number,
  input: { text: string },
) {
  const item = await loadItemFor(deps.db, performer, itemId, 'items.reply');
  if (!item.isOwn) throw new AppError(400, 'reply.notOwn');
  const object = await getObjectRow(deps.db, item.objectId);
  const draft = await prepareDraft(deps, object.provider, 'comment', { text: input.text });
  const now = new Date();
  const viaCollector = capabilitiesOf(object.provider).collectorFeed === true;
  if (!item.externalId && !(viaCollector && item.delivery === 'sent')) {
    const [row] = await deps.db
      .update(items)
      .set({ text: draft.text, editedAt: now, updatedAt: now })
      .where(eq(items.id, item.id))
      .returning();
    const [presented] = await presentItems(deps.db, [row!]);
    await publishBySpace(deps.bus, 'items.updated', [presented!], causeOf(performer));
    return presented!;
  }
  assertNetworkAllows(object.provider, 'edit_comment', 'editReply', { object, sealer: deps.sealer, item });
  const sentAt = Math.floor(item.createdAt.getTime() / 1000);
  if (!isWithinEditWindow(catalogueEntry(object.provider), sentAt, Math.floor(now.getTime() / 1000))) {
    throw new AppError(400, 'reply.editWindowPassed', { errorType: 'edit_window_passed' });
  }
  if (viaCollector) {
    const row = await editCollectorReply(deps, performer, item, draft.text, now);
    const [presented] = await presentItems(deps.db, [row]);
    await publishBySpace(deps.bus, 'items.updated', [presented!], causeOf(performer));
    return presented!;
  }
  return record(
    deps,
    performer,
    item,
    'edit',
    { text: draft.text, editedAt: now },
    { previousText: item.text },
  );
}
