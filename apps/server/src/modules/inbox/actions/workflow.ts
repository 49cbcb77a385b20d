import type { Ability } from '@otklik/shared';
import { and, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { activity, chats, chatTags, companies, items, itemTags, objects, tags } from '../../../db/schema';
import type { CloseReason } from '../../../db/schema/inbox';
import { AppError } from '../../../lib/errors';
import { stopBotSession } from '../../bots/sessions';
import { sendSurveys } from '../../csi/survey';
import { notifyAssigned } from '../../notifications/events';
import { isSpaceMember } from '../../organisation/queries';
import {
  activityCause,
  causeOf,
  loadChatFor,
  loadChatsFor,
  loadItemFor,
  loadItemsFor,
  type Performer,
  userIdOf,
} from './policy';
import { presentChats, presentItems, publishBySpace } from './present';
import { type ActionDeps, transaction } from './send';

// Our side of the work on an item or chat: status (docs/product/states.md), tags and who it is assigned to. No network
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
 * (docs/product/roles.md: `closeWithoutReply`). Other statuses need the plain close ability.
 */
function closeReasonFor(row: Target, input: StatusInput, byRule = false): CloseReason | null {
  if (input.status !== 'closed') return null;
  // Closed by an auto-rule (docs/product/states.md "closed by autorules"), whatever the reply state.
  if (byRule) return 'autorule';
  const reason = input.close_reason ?? (row.firstReplyAt ? 'reply' : 'noreply');
  if (reason === 'reply' && !row.firstReplyAt) {
    throw new AppError(400, 'status.noReplyYet', {
      errorType: 'validation',
      fields: { close_reason: 'status.noReplyYet' },
    });
  }
  return reason;
}

function statusChange(row: Target, input: StatusInput, now: Date, byRule = false) {
  const closeReason = closeReasonFor(row, input, byRule);
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
    // Someone dealt with it: no more "returned from snooze" mark.
    returnedAt: null,
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

/** The activity rows of status changes, one per item or chat: from, to and the close reason. */
function statusActivity(
  performer: Performer,
  changes: Array<{
    row: { id: number; spaceId: number; objectId: number; status: string };
    set: ReturnType<typeof statusChange>;
  }>,
  kind: 'item' | 'chat',
  at: Date,
) {
  return changes.map(({ row, set }) => ({
    spaceId: row.spaceId,
    objectId: row.objectId,
    ...(kind === 'item' ? { itemId: row.id } : { chatId: row.id }),
    type: kind === 'item' ? ('item.status' as const) : ('chat.status' as const),
    ...activityCause(performer),
    data: { from: row.status, to: set.status, close_reason: set.closeReason },
    at,
  }));
}

export async function setItemsStatus(
  deps: ActionDeps,
  performer: Performer,
  ids: number[],
  input: StatusInput,
) {
  const rows = await loadItemsFor(deps.db, performer, [...new Set(ids)], abilityForStatus('items', input));
  const now = new Date();
  const changes = rows.map((row) => ({ row, set: statusChange(row, input, now, performer.kind === 'rule') }));
  const updated = await transaction(deps.db, async (tx) => {
    const out: Array<typeof items.$inferSelect> = [];
    for (const { row, set } of changes) {
      const [u] = await tx.update(items).set(set).where(eq(items.id, row.id)).returning();
      out.push(u!);
    }
    await tx.insert(activity).values(statusActivity(performer, changes, 'item', now));
    return out;
  });
  const presented = await presentItems(deps.db, updated);
  await publishBySpace(deps.bus, 'items.updated', presented, causeOf(performer));
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
  const changes = rows.map((row) => ({ row, set: statusChange(row, input, now, performer.kind === 'rule') }));
  const updated = await transaction(deps.db, async (tx) => {
    const out: Array<typeof chats.$inferSelect> = [];
    for (const { row, set } of changes) {
      const [u] = await tx.update(chats).set(set).where(eq(chats.id, row.id)).returning();
      out.push(u!);
    }
    await tx.insert(activity).values(statusActivity(performer, changes, 'chat', now));
    return out;
  });
  const presented = await presentChats(deps.db, updated);
  await publishBySpace(deps.bus, 'chats.updated', presented, causeOf(performer));
  // A dialog that has just been closed may get a satisfaction survey (modules/csi).
  const closedNow = updated.filter((u, i) => u.status === 'closed' && changes[i]!.row.status !== 'closed');
  if (closedNow.length > 0) await sendSurveys(deps, closedNow, userIdOf(performer));
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

/**
 * A company's `tags_mode` (settings/users → companies): 'company' means its accounts' items and chats
 * take only the company's own tags (tags.company_id); 'space' (the default) any tag of the space. Only
 * tags being added are checked, so tags put on before the mode changed can still be removed or kept.
 */
async function assertTagsForCompany(deps: ActionDeps, objectId: number, added: number[]) {
  if (added.length === 0) return;
  const [owner] = await deps.db
    .select({ id: companies.id, settings: companies.settings })
    .from(objects)
    .innerJoin(companies, eq(companies.id, objects.companyId))
    .where(eq(objects.id, objectId));
  if (owner?.settings.tags_mode !== 'company') return;
  const foreign = await deps.db
    .select({ id: tags.id })
    .from(tags)
    .where(and(inArray(tags.id, added), or(isNull(tags.companyId), ne(tags.companyId, owner.id))));
  if (foreign.length > 0) {
    throw new AppError(400, 'tag.notForCompany', {
      errorType: 'validation',
      fields: { tag_ids: 'tag.notForCompany' },
    });
  }
}

type TagTarget = { itemId: number } | { chatId: number };

async function currentTags(db: Db, target: TagTarget) {
  const rows =
    'itemId' in target
      ? await db.select({ tagId: itemTags.tagId }).from(itemTags).where(eq(itemTags.itemId, target.itemId))
      : await db.select({ tagId: chatTags.tagId }).from(chatTags).where(eq(chatTags.chatId, target.chatId));
  return rows.map((r) => r.tagId);
}

const diff = (before: number[], after: number[]) => ({
  added: after.filter((id) => !before.includes(id)),
  removed: before.filter((id) => !after.includes(id)),
});

/**
 * Replaces the tags of an item or a chat (`row` is it, `target` says which): every tag of the space, those
 * of another company refused; one transaction writes the new set and the `*.tagged` activity with what
 * was added and removed; nothing is written when the set is the same.
 */
async function replaceTags(
  deps: ActionDeps,
  performer: Performer,
  row: { id: number; spaceId: number; objectId: number },
  target: TagTarget,
  tagIds: number[],
): Promise<void> {
  const wanted = [...new Set(tagIds)];
  await assertTagsInSpace(deps, row.spaceId, wanted);
  await assertTagsForCompany(deps, row.objectId, diff(await currentTags(deps.db, target), wanted).added);
  await transaction(deps.db, async (tx) => {
    const change = diff(await currentTags(tx, target), wanted);
    if (change.added.length === 0 && change.removed.length === 0) return;
    const spaceId = row.spaceId;
    if ('itemId' in target) {
      await tx.delete(itemTags).where(eq(itemTags.itemId, target.itemId));
      if (wanted.length > 0)
        await tx.insert(itemTags).values(wanted.map((tagId) => ({ itemId: target.itemId, tagId, spaceId })));
    } else {
      await tx.delete(chatTags).where(eq(chatTags.chatId, target.chatId));
      if (wanted.length > 0)
        await tx.insert(chatTags).values(wanted.map((tagId) => ({ chatId: target.chatId, tagId, spaceId })));
    }
    await tx.insert(activity).values({
      spaceId,
      objectId: row.objectId,
      ...target,
      type: 'itemId' in target ? 'item.tagged' : 'chat.tagged',
      ...activityCause(performer),
      data: change,
    });
  });
}

/** Replaces an item's tags. */
export async function setItemTags(deps: ActionDeps, performer: Performer, itemId: number, tagIds: number[]) {
  const item = await loadItemFor(deps.db, performer, itemId, 'items.tag');
  await replaceTags(deps, performer, item, { itemId: item.id }, tagIds);
  const [presented] = await presentItems(deps.db, [item]);
  await publishBySpace(deps.bus, 'items.updated', [presented!], causeOf(performer));
  return presented!;
}

/** Replaces a chat's tags. */
export async function setChatTags(deps: ActionDeps, performer: Performer, chatId: number, tagIds: number[]) {
  const chat = await loadChatFor(deps.db, performer, chatId, 'messages.tag');
  await replaceTags(deps, performer, chat, { chatId: chat.id }, tagIds);
  const [presented] = await presentChats(deps.db, [chat]);
  await publishBySpace(deps.bus, 'chats.updated', [presented!], causeOf(performer));
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

/** The action log's entry of an assignment (who had it, who has it now), without its item or chat id. */
function assignment(
  unit: 'item' | 'chat',
  row: { spaceId: number; objectId: number; assignedUserId: number | null },
  performer: Performer,
  to: number | null,
) {
  return {
    spaceId: row.spaceId,
    objectId: row.objectId,
    type: `${unit}.assigned` as const,
    ...activityCause(performer),
    data: { from: row.assignedUserId, to },
  };
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
    await tx.insert(activity).values({ itemId: item.id, ...assignment('item', item, performer, userId) });
    return row!;
  });
  const [presented] = await presentItems(deps.db, [updated]);
  await publishBySpace(deps.bus, 'items.updated', [presented!], causeOf(performer));
  if (userId !== null && userId !== item.assignedUserId)
    await notifyAssigned(deps, performer, { kind: 'item', row: updated, userId });
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
    await tx.insert(activity).values({ chatId: chat.id, ...assignment('chat', chat, performer, userId) });
    // Taking the chat (assigning it to someone) stops its chat-bot (modules/bots).
    if (userId !== null && performer.kind === 'user') await stopBotSession(tx, chat.id);
    return row!;
  });
  const [presented] = await presentChats(deps.db, [updated]);
  await publishBySpace(deps.bus, 'chats.updated', [presented!], causeOf(performer));
  if (userId !== null && userId !== chat.assignedUserId)
    await notifyAssigned(deps, performer, { kind: 'chat', row: updated, userId });
  return presented!;
}
