import type { Ability } from '@otklik/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { activity, chats, chatTags, items, itemTags, tags } from '../../../db/schema';
import { AppError } from '../../../http/errors';
import { isSpaceMember } from '../../organisation/queries';
import {
  activityCause,
  causeOf,
  loadChatFor,
  loadChatsFor,
  loadItemFor,
  loadItemsFor,
  type Performer,
} from './policy';
import { presentChats, presentItems, publishBySpace } from './present';
import { type ActionDeps, transaction } from './send';

// Our side of the work on an item or chat: status (SPEC §4), tags and who it is assigned to. No network
// call; each change is recorded in activity and pushed to open lists.

export const SETTABLE_STATUSES = ['new', 'inprogress', 'open', 'closed', 'delayed', 'waiting'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

export interface StatusInput {
  status: SettableStatus;
  close_reason?: 'reply' | 'noreply';
  delayed_until?: number;
}

type Target = { firstReplyAt: Date | null; status: string };

/**
 * Closing "with reply" needs a reply to have been sent; closing without one is moderation
 * (SPEC §6: `closeWithoutReply`). Other statuses need the plain close ability.
 */
function closeReasonFor(row: Target, input: StatusInput): 'reply' | 'noreply' | null {
  if (input.status !== 'closed') return null;
  const reason = input.close_reason ?? (row.firstReplyAt ? 'reply' : 'noreply');
  if (reason === 'reply' && !row.firstReplyAt) {
    throw new AppError(400, 'status.noReplyYet', {
      errorType: 'validation',
      fields: { close_reason: 'status.noReplyYet' },
    });
  }
  return reason;
}

function statusChange(row: Target, input: StatusInput, now: Date) {
  const closeReason = closeReasonFor(row, input);
  if (input.status === 'delayed' && (!input.delayed_until || input.delayed_until * 1000 <= now.getTime())) {
    throw new AppError(400, 'status.delayedUntilRequired', {
      errorType: 'validation',
      fields: { delayed_until: 'status.delayedUntilRequired' },
    });
  }
  return {
    status: input.status,
    closeReason,
    closedAt: input.status === 'closed' ? now : null,
    delayedUntil: input.status === 'delayed' ? new Date(input.delayed_until! * 1000) : null,
    updatedAt: now,
  };
}

const abilityForStatus =
  (kind: 'items' | 'messages', input: StatusInput) =>
  (row: Target): Ability => {
    const reason =
      input.status === 'closed' ? (input.close_reason ?? (row.firstReplyAt ? 'reply' : 'noreply')) : null;
    return reason === 'noreply' ? `${kind}.closeWithoutReply` : `${kind}.close`;
  };

export async function setItemsStatus(
  deps: ActionDeps,
  performer: Performer,
  ids: number[],
  input: StatusInput,
) {
  const rows = await loadItemsFor(deps.db, performer, [...new Set(ids)], abilityForStatus('items', input));
  const now = new Date();
  const changes = rows.map((row) => ({ row, set: statusChange(row, input, now) }));
  const updated = await transaction(deps.db, async (tx) => {
    const out: Array<typeof items.$inferSelect> = [];
    for (const { row, set } of changes) {
      const [u] = await tx.update(items).set(set).where(eq(items.id, row.id)).returning();
      out.push(u!);
    }
    await tx.insert(activity).values(
      changes.map(({ row, set }) => ({
        spaceId: row.spaceId,
        objectId: row.objectId,
        itemId: row.id,
        type: 'item.status' as const,
        ...activityCause(performer),
        data: { from: row.status, to: set.status, close_reason: set.closeReason },
        at: now,
      })),
    );
    return out;
  });
  const presented = await presentItems(deps.db, updated);
  await publishBySpace(deps.bus, 'items.updated', 'items', presented, causeOf(performer));
  return presented;
}

export async function setChatsStatus(
  deps: ActionDeps,
  performer: Performer,
  ids: number[],
  input: StatusInput,
) {
  const rows = await loadChatsFor(deps.db, performer, [...new Set(ids)], abilityForStatus('messages', input));
  const now = new Date();
  const changes = rows.map((row) => ({ row, set: statusChange(row, input, now) }));
  const updated = await transaction(deps.db, async (tx) => {
    const out: Array<typeof chats.$inferSelect> = [];
    for (const { row, set } of changes) {
      const [u] = await tx.update(chats).set(set).where(eq(chats.id, row.id)).returning();
      out.push(u!);
    }
    await tx.insert(activity).values(
      changes.map(({ row, set }) => ({
        spaceId: row.spaceId,
        objectId: row.objectId,
        chatId: row.id,
        type: 'chat.status' as const,
        ...activityCause(performer),
        data: { from: row.status, to: set.status, close_reason: set.closeReason },
        at: now,
      })),
    );
    return out;
  });
  const presented = await presentChats(deps.db, updated);
  await publishBySpace(deps.bus, 'chats.updated', 'chats', presented, causeOf(performer));
  return presented;
}

async function assertTagsInSpace(deps: ActionDeps, spaceId: number, tagIds: number[]) {
  if (tagIds.length === 0) return;
  const found = await deps.db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.spaceId, spaceId), inArray(tags.id, tagIds)));
  if (found.length !== tagIds.length) {
    throw new AppError(400, 'field.invalid', {
      errorType: 'validation',
      fields: { tag_ids: 'field.invalid' },
    });
  }
}

const diff = (before: number[], after: number[]) => ({
  added: after.filter((id) => !before.includes(id)),
  removed: before.filter((id) => !after.includes(id)),
});

/** Replaces an item's tags. */
export async function setItemTags(deps: ActionDeps, performer: Performer, itemId: number, tagIds: number[]) {
  const item = await loadItemFor(deps.db, performer, itemId, 'items.tag');
  const wanted = [...new Set(tagIds)];
  await assertTagsInSpace(deps, item.spaceId, wanted);
  await transaction(deps.db, async (tx) => {
    const before = (await tx.select().from(itemTags).where(eq(itemTags.itemId, item.id))).map((t) => t.tagId);
    const change = diff(before, wanted);
    if (change.added.length === 0 && change.removed.length === 0) return;
    await tx.delete(itemTags).where(eq(itemTags.itemId, item.id));
    if (wanted.length > 0) {
      await tx
        .insert(itemTags)
        .values(wanted.map((tagId) => ({ itemId: item.id, tagId, spaceId: item.spaceId })));
    }
    await tx.insert(activity).values({
      spaceId: item.spaceId,
      objectId: item.objectId,
      itemId: item.id,
      type: 'item.tagged',
      ...activityCause(performer),
      data: change,
    });
  });
  const [presented] = await presentItems(deps.db, [item]);
  await publishBySpace(deps.bus, 'items.updated', 'items', [presented!], causeOf(performer));
  return presented!;
}

export async function setChatTags(deps: ActionDeps, performer: Performer, chatId: number, tagIds: number[]) {
  const chat = await loadChatFor(deps.db, performer, chatId, 'messages.tag');
  const wanted = [...new Set(tagIds)];
  await assertTagsInSpace(deps, chat.spaceId, wanted);
  await transaction(deps.db, async (tx) => {
    const before = (await tx.select().from(chatTags).where(eq(chatTags.chatId, chat.id))).map((t) => t.tagId);
    const change = diff(before, wanted);
    if (change.added.length === 0 && change.removed.length === 0) return;
    await tx.delete(chatTags).where(eq(chatTags.chatId, chat.id));
    if (wanted.length > 0) {
      await tx
        .insert(chatTags)
        .values(wanted.map((tagId) => ({ chatId: chat.id, tagId, spaceId: chat.spaceId })));
    }
    await tx.insert(activity).values({
      spaceId: chat.spaceId,
      objectId: chat.objectId,
      chatId: chat.id,
      type: 'chat.tagged',
      ...activityCause(performer),
      data: change,
    });
  });
  const [presented] = await presentChats(deps.db, [chat]);
  await publishBySpace(deps.bus, 'chats.updated', 'chats', [presented!], causeOf(performer));
  return presented!;
}

async function assertAssignable(deps: ActionDeps, spaceId: number, userId: number | null) {
  if (userId !== null && !(await isSpaceMember(deps.db, spaceId, userId))) {
    throw new AppError(400, 'field.invalid', {
      errorType: 'validation',
      fields: { user_id: 'field.invalid' },
    });
  }
}

export async function assignItem(
  deps: ActionDeps,
  performer: Performer,
  itemId: number,
  userId: number | null,
) {
  const item = await loadItemFor(deps.db, performer, itemId, 'items.assign');
  await assertAssignable(deps, item.spaceId, userId);
  const updated = await transaction(deps.db, async (tx) => {
    const [row] = await tx
      .update(items)
      .set({ assignedUserId: userId, updatedAt: new Date() })
      .where(eq(items.id, item.id))
      .returning();
    await tx.insert(activity).values({
      spaceId: item.spaceId,
      objectId: item.objectId,
      itemId: item.id,
      type: 'item.assigned',
      ...activityCause(performer),
      data: { from: item.assignedUserId, to: userId },
    });
    return row!;
  });
  const [presented] = await presentItems(deps.db, [updated]);
  await publishBySpace(deps.bus, 'items.updated', 'items', [presented!], causeOf(performer));
  return presented!;
}

export async function assignChat(
  deps: ActionDeps,
  performer: Performer,
  chatId: number,
  userId: number | null,
) {
  const chat = await loadChatFor(deps.db, performer, chatId, 'messages.assign');
  await assertAssignable(deps, chat.spaceId, userId);
  const updated = await transaction(deps.db, async (tx) => {
    const [row] = await tx
      .update(chats)
      .set({ assignedUserId: userId, updatedAt: new Date() })
      .where(eq(chats.id, chat.id))
      .returning();
    await tx.insert(activity).values({
      spaceId: chat.spaceId,
      objectId: chat.objectId,
      chatId: chat.id,
      type: 'chat.assigned',
      ...activityCause(performer),
      data: { from: chat.assignedUserId, to: userId },
    });
    return row!;
  });
  const [presented] = await presentChats(deps.db, [updated]);
  await publishBySpace(deps.bus, 'chats.updated', 'chats', [presented!], causeOf(performer));
  return presented!;
}
