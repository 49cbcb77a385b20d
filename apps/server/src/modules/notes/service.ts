import { mentionIds, NOTE_EDIT_WINDOW_MS, notePlainText, translate } from '@otklik/shared';
import { and, asc, countDistinct, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { activity, type chats, type items, memberships, noteMentions, notes, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { EventBus } from '../../realtime/bus';
import { type InboxScope, inScope, scopeCondition, scopeFor } from '../inbox/read/scope';
import { notify } from '../notifications/service';
import { loadActor, type ServerActor } from '../spaces/actor';

// Internal notes with @mentions on items and chats (issue 13). A note lives in its own table, so no
// send path (outbox, connectors) and no customer page (the sandbox) ever reads it. Mentioned colleagues
// get a row in note_mentions (the "Mentions of me" view and count) and a `notify` on their own sockets.

export type NoteKind = 'item' | 'chat';
type ItemRow = typeof items.$inferSelect;
type ChatRow = typeof chats.$inferSelect;
export type NoteTarget = { kind: 'item'; row: ItemRow } | { kind: 'chat'; row: ChatRow };
export type NoteRow = typeof notes.$inferSelect;

const VIEW = { item: 'items.view', chat: 'messages.view' } as const;

const targetWhere = (target: NoteTarget) =>
  target.kind === 'item' ? eq(notes.itemId, target.row.id) : eq(notes.chatId, target.row.id);

/** Whether this user may see the record now (space, role, user group), as its read API decides. */
async function mayView(db: Db, userId: number, target: NoteTarget): Promise<boolean> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) return false;
  const scope = await scopeFor(db, await loadActor(db, user), VIEW[target.kind]);
  return inScope(scope, target.row.spaceId, target.row.objectId);
}

/** The colleagues who may see the record: whom a note on it may mention (the composer's `@` picker). */
export async function mentionable(db: Db, target: NoteTarget) {
  const members = await db
    .select({ id: users.id, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.spaceId, target.row.spaceId))
    .orderBy(asc(users.name), asc(users.id));
  const allowed: Array<{ id: number; name: string }> = [];
  for (const member of members) if (await mayView(db, member.id, target)) allowed.push(member);
  return allowed;
}

async function assertMentionable(db: Db, target: NoteTarget, ids: number[]) {
  for (const id of ids) {
    if (!(await mayView(db, id, target))) throw new AppError(400, 'notes.mentionNoAccess');
  }
}

export async function listNotes(db: Db, target: NoteTarget) {
  return db
    .select({ note: notes, userName: users.name })
    .from(notes)
    .leftJoin(users, eq(users.id, notes.userId))
    .where(targetWhere(target))
    .orderBy(asc(notes.createdAt), asc(notes.id))
    .limit(500);
}

async function namesOf(db: Db, ids: number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

interface Deps {
  db: Db;
  bus: EventBus;
}

const ids = (target: NoteTarget) =>
  target.kind === 'item' ? { itemId: target.row.id } : { chatId: target.row.id };

/** A note changed on a record: its open pages (and history) reload; scoped like the record's content. */
async function publishChanged(bus: EventBus, target: NoteTarget, noteId: number, userId: number) {
  const spaceId = target.row.spaceId;
  const [objectId, id] = [target.row.objectId, target.row.id];
  const cause = { kind: 'user' as const, id: userId };
  if (target.kind === 'item')
    await bus.publish({
      type: 'items.notes',
      spaceId,
      payload: { object_id: objectId, item_id: id, note_id: noteId },
      cause,
    });
  else
    await bus.publish({
      type: 'chats.notes',
      spaceId,
      payload: { object_id: objectId, chat_id: id, note_id: noteId },
      cause,
    });
}

/** These users' "Mentions of me" changed: their counts reload (only their own sockets hear it). */
async function publishMentionsChanged(bus: EventBus, spaceId: number, userIds: number[]) {
  if (userIds.length === 0) return;
  await bus.publish({ type: 'mentions.changed', spaceId, userIds, payload: {} });
}

/** Mention rows for newly mentioned colleagues, and an in-app notification to each of them. */
async function mention(
  deps: Deps,
  target: NoteTarget,
  note: NoteRow,
  author: { id: number; name: string },
  userIds: number[],
) {
  const fresh = userIds.filter((id) => id !== author.id);
  if (fresh.length === 0) return;
  await deps.db
    .insert(noteMentions)
    .values(
      fresh.map((userId) => ({
        noteId: note.id,
        userId,
        spaceId: target.row.spaceId,
        objectId: target.row.objectId,
        ...ids(target),
        byUserId: author.id,
        createdAt: note.editedAt ?? note.createdAt,
      })),
    )
    .onConflictDoNothing();
  const names = await namesOf(deps.db, mentionIds(note.text));
  const text = notePlainText(note.text, (id) => names.get(id) ?? `#${id}`).slice(0, 300);
  // Through the notifications module (issue 18): the centre, the socket toast, email by subscription.
  await notify(deps, {
    spaceId: target.row.spaceId,
    userIds: fresh,
    event: 'mention',
    objectId: target.row.objectId,
    ...(target.kind === 'item' ? { itemId: target.row.id } : { chatId: target.row.id }),
    content: (locale) => ({ title: translate(locale, 'notes.mentioned', { name: author.name }), text }),
    socket: { type: 'mention', id: note.id },
  });
  await publishMentionsChanged(deps.bus, target.row.spaceId, fresh);
}

async function record(
  db: Db,
  target: NoteTarget,
  type: 'note.added' | 'note.edited' | 'note.deleted',
  userId: number,
  data: Record<string, unknown>,
) {
  await db.insert(activity).values({
    spaceId: target.row.spaceId,
    objectId: target.row.objectId,
    ...ids(target),
    type,
    userId,
    causeKind: 'user',
    causeId: userId,
    data,
  });
}

export async function createNote(
  deps: Deps,
  target: NoteTarget,
  author: { id: number; name: string },
  text: string,
) {
  const mentions = mentionIds(text);
  await assertMentionable(deps.db, target, mentions);
  const [note] = await deps.db
    .insert(notes)
    .values({
      spaceId: target.row.spaceId,
      objectId: target.row.objectId,
      ...ids(target),
      userId: author.id,
      text,
      mentions,
    })
    .returning();
  await record(deps.db, target, 'note.added', author.id, { note_id: note!.id, mentions });
  await mention(deps, target, note!, author, mentions);
  await publishChanged(deps.bus, target, note!.id, author.id);
  return note!;
}

/** The note of this record, editable by its author within NOTE_EDIT_WINDOW_MS. */
async function ownNote(db: Db, target: NoteTarget, noteId: number, userId: number, now: Date) {
  const [note] = await db
    .select()
    .from(notes)
    .where(and(eq(notes.id, noteId), targetWhere(target), isNull(notes.deletedAt)))
    .limit(1);
  if (!note) throw new AppError(404, 'notes.notFound');
  if (note.userId !== userId) throw new AppError(403, 'notes.notAuthor');
  if (now.getTime() - note.createdAt.getTime() > NOTE_EDIT_WINDOW_MS)
    throw new AppError(409, 'notes.editExpired');
  return note;
}

export async function editNote(
  deps: Deps,
  target: NoteTarget,
  author: { id: number; name: string },
  noteId: number,
  text: string,
  now = new Date(),
) {
  const note = await ownNote(deps.db, target, noteId, author.id, now);
  const mentions = mentionIds(text);
  await assertMentionable(deps.db, target, mentions);
  const [updated] = await deps.db
    .update(notes)
    .set({
      text,
      mentions,
      editedAt: now,
      revisions: [
        ...note.revisions,
        { text: note.text, mentions: note.mentions, replaced_at: now.toISOString() },
      ],
    })
    .where(eq(notes.id, note.id))
    .returning();
  // Someone no longer mentioned loses the unseen mention; someone newly mentioned is told.
  const removed = note.mentions.filter((id) => !mentions.includes(id));
  const dropped = removed.length > 0 ? await dropUnseen(deps.db, note.id, removed) : [];
  await record(deps.db, target, 'note.edited', author.id, { note_id: note.id, mentions });
  await mention(
    deps,
    target,
    updated!,
    author,
    mentions.filter((id) => !note.mentions.includes(id)),
  );
  await publishMentionsChanged(deps.bus, target.row.spaceId, dropped);
  await publishChanged(deps.bus, target, note.id, author.id);
  return updated!;
}

async function dropUnseen(db: Db, noteId: number, userIds?: number[]) {
  const rows = await db
    .delete(noteMentions)
    .where(
      and(
        eq(noteMentions.noteId, noteId),
        isNull(noteMentions.seenAt),
        userIds ? inArray(noteMentions.userId, userIds) : undefined,
      ),
    )
    .returning({ userId: noteMentions.userId });
  return [...new Set(rows.map((r) => r.userId))];
}

/** Deleting keeps the row and its revisions (the history); the note shows as deleted. */
export async function deleteNote(
  deps: Deps,
  target: NoteTarget,
  userId: number,
  noteId: number,
  now = new Date(),
) {
  const note = await ownNote(deps.db, target, noteId, userId, now);
  await deps.db.update(notes).set({ deletedAt: now }).where(eq(notes.id, note.id));
  const dropped = await dropUnseen(deps.db, note.id);
  await record(deps.db, target, 'note.deleted', userId, { note_id: note.id });
  await publishMentionsChanged(deps.bus, target.row.spaceId, dropped);
  await publishChanged(deps.bus, target, note.id, userId);
}

/** The user opened the record (or marked its mentions read): its mentions of them are seen. */
export async function markMentionsSeen(
  deps: Deps,
  userId: number,
  target: { kind: NoteKind; id: number; spaceId: number },
) {
  const rows = await deps.db
    .update(noteMentions)
    .set({ seenAt: sql`now()` })
    .where(
      and(
        eq(noteMentions.userId, userId),
        isNull(noteMentions.seenAt),
        target.kind === 'item' ? eq(noteMentions.itemId, target.id) : eq(noteMentions.chatId, target.id),
      ),
    )
    .returning({ id: noteMentions.id });
  if (rows.length > 0) await publishMentionsChanged(deps.bus, target.spaceId, [userId]);
  return rows.length;
}

/** Marks every unseen mention of the user read. */
export async function markAllMentionsSeen(deps: Deps, userId: number) {
  const rows = await deps.db
    .update(noteMentions)
    .set({ seenAt: sql`now()` })
    .where(and(eq(noteMentions.userId, userId), isNull(noteMentions.seenAt)))
    .returning({ spaceId: noteMentions.spaceId });
  for (const spaceId of new Set(rows.map((r) => r.spaceId)))
    await publishMentionsChanged(deps.bus, spaceId, [userId]);
  return rows.length;
}

/**
 * How many items and chats mention the user unseen, in their current scope: read from the partial
 * index note_mentions_unseen_idx (user_id, unseen only), never from the items or chats tables.
 */
export async function mentionCounts(db: Db, actor: ServerActor) {
  const [itemScope, chatScope] = await Promise.all([
    scopeFor(db, actor, 'items.view'),
    scopeFor(db, actor, 'messages.view'),
  ]);
  const countFor = async (scope: InboxScope, column: AnyPgColumn) => {
    if (scope.spaces.size === 0) return 0;
    const [row] = await db
      .select({ n: countDistinct(column) })
      .from(noteMentions)
      .where(
        and(
          eq(noteMentions.userId, actor.userId),
          isNull(noteMentions.seenAt),
          isNotNull(column),
          scopeCondition(scope, noteMentions.spaceId, noteMentions.objectId),
        ),
      );
    return row?.n ?? 0;
  };
  const [itemCount, chatCount] = await Promise.all([
    countFor(itemScope, noteMentions.itemId),
    countFor(chatScope, noteMentions.chatId),
  ]);
  return { items: itemCount, chats: chatCount };
}

const MENTIONS_PAGE = 100;

/** The "Mentions of me" list: the latest unseen mention per item or chat, newest first, in scope. */
export async function listMentions(db: Db, actor: ServerActor, kind: NoteKind) {
  const scope = await scopeFor(db, actor, VIEW[kind]);
  if (scope.spaces.size === 0) return [];
  const column = kind === 'item' ? noteMentions.itemId : noteMentions.chatId;
  const rows = await db
    .select({
      mention: noteMentions,
      text: notes.text,
      byName: users.name,
    })
    .from(noteMentions)
    .innerJoin(notes, eq(notes.id, noteMentions.noteId))
    .leftJoin(users, eq(users.id, noteMentions.byUserId))
    .where(
      and(
        eq(noteMentions.userId, actor.userId),
        isNull(noteMentions.seenAt),
        isNotNull(column),
        scopeCondition(scope, noteMentions.spaceId, noteMentions.objectId),
      ),
    )
    .orderBy(desc(noteMentions.createdAt), desc(noteMentions.id))
    .limit(MENTIONS_PAGE * 5);
  const seen = new Set<number>();
  const latest = rows.filter((r) => {
    const id = (kind === 'item' ? r.mention.itemId : r.mention.chatId)!;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  const names = await namesOf(db, [...new Set(latest.flatMap((r) => mentionIds(r.text)))]);
  return latest.slice(0, MENTIONS_PAGE).map((r) => ({
    item_id: r.mention.itemId,
    chat_id: r.mention.chatId,
    note_id: r.mention.noteId,
    space_id: r.mention.spaceId,
    object_id: r.mention.objectId,
    by: r.mention.byUserId !== null ? { id: r.mention.byUserId, name: r.byName ?? '' } : null,
    text: notePlainText(r.text, (id) => names.get(id) ?? `#${id}`).slice(0, 300),
    at: Math.floor(r.mention.createdAt.getTime() / 1000),
  }));
}
