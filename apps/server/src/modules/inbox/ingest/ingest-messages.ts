import type { AccountSettings } from '@otklik/shared';
import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client';
import { columnsWithout, executePrepared, rowsOf, unnestRows } from '../../../db/rows';
import { authors, chats, csiSurveys, emotionSettings, messages } from '../../../db/schema';
import type { InboundItem, InboundMessage } from '../../../providers/inbound';
import { queueBotMessagesSql } from '../../bots/runtime';
import { openSurveysSql } from '../../csi/answers';
import { emotionColumns, readerOf } from '../../emotions/service';
import { rulesQueuedEvent } from '../../rules/queue';
import { presentAuthor, presentChat, presentMessage } from '../read/presenter';
import type { ArrivalRules, IngestResult, ObjectRow } from './ingest';
import {
  authorCtes,
  compare,
  keptEvents,
  lateAuthors,
  type Published,
  sortedAuthors,
  uniqueBy,
} from './ingest-batch';

// Private messages of an ingestion batch (ingest.ts): authors and chats in one statement, then the
// messages, their activity rows, the chats' last message, unread count and status, the bot's queue and
// the chats' open CSI surveys in another.

/** What the batch stored for the steps after it in the same transaction (CSI answers, ingest.ts). */
export interface StoredMessages {
  /** The customer messages stored, in id order. */
  inbound: Array<typeof messages.$inferSelect>;
  /** The open CSI surveys of their chats (csi/answers.ts openSurveysSql). */
  surveys: Array<typeof csiSurveys.$inferSelect>;
}

type AuthorRow = typeof authors.$inferSelect;
type ChatRow = typeof chats.$inferSelect;
type MessageRow = typeof messages.$inferSelect;
type Written = { kind: 'message' | 'chat' | 'bot' | 'survey'; row: Record<string, unknown> };

export async function storeMessages(
  db: Db,
  object: ObjectRow,
  settings: AccountSettings,
  arrival: ArrivalRules,
  events: InboundMessage[],
  result: IngestResult,
  published: Published[],
): Promise<StoredMessages> {
  const nothing: StoredMessages = { inbound: [], surveys: [] };
  if (!settings.chats) {
    result.excluded += events.length;
    return nothing;
  }
  const kept = keptEvents(
    events,
    (e) => `${e.chatExternalId}\u0000${e.externalId}`,
    settings.exclude_messages,
    result,
  );
  if (kept.length === 0) return nothing;
  const { authorRows, chatByExternal } = await authorsAndChats(db, object, arrival, kept);
  const messageRows = messageInput(settings, arrival, kept, chatByExternal);
  const written = await insertMessages(db, object, arrival, messageRows);
  const inserted = rowsOfKind(messages, written.rows, 'message').sort((a, b) => a.id - b.id);
  result.created += inserted.length;
  result.duplicates += kept.length - inserted.length;
  if (inserted.length === 0) return nothing;
  result.messageIds.push(...inserted.map((m) => m.id));
  if (written.rows.some((r) => r.kind === 'bot')) published.push(rulesQueuedEvent());
  published.push(messagesCreated(object, authorRows, written.rows, inserted));
  return {
    inbound: inserted.filter((m) => !m.isOwn),
    surveys: rowsOfKind(csiSurveys, written.rows, 'survey'),
  };
}

/** The batch's authors by external id and its chats by external id, each created where new. */
async function authorsAndChats(db: Db, object: ObjectRow, arrival: ArrivalRules, kept: InboundMessage[]) {
  // Authors and chats in one statement: new chats get their customer's author id from the same
  // statement's upsert (the same CTE shapes as upsertAuthors).
  const uniqueAuthors = sortedAuthors(kept.filter((e) => !e.isOwn).map((e) => e.author));
  const chatKeys = uniqueBy(kept, (e) => e.chatExternalId).sort((a, b) =>
    compare(a.chatExternalId, b.chatExternalId),
  );
  const found = await upsertAuthorsAndChats(db, object, arrival, uniqueAuthors, chatInput(kept, chatKeys));
  const authorRows = new Map(rowsOfKind(authors, found.rows, 'author').map((r) => [r.externalId, r]));
  await lateAuthors(db, object, uniqueAuthors, authorRows);
  const chatByExternal = new Map(rowsOfKind(chats, found.rows, 'chat').map((c) => [c.externalId, c]));
  await addLateChats(db, object, chatKeys, chatByExternal);
  await fillChatAuthors(db, kept, authorRows, chatByExternal);
  return { authorRows, chatByExternal };
}

/** The first statement's chats: one row per chat, with its customer (its first message not our own). */
function chatInput(kept: InboundMessage[], chatKeys: InboundMessage[]) {
  return unnestRows('ci', [
    ['external_id', 'text', chatKeys.map((e) => e.chatExternalId)],
    [
      'author_external_id',
      'text',
      chatKeys.map(
        (e) => kept.find((m) => m.chatExternalId === e.chatExternalId && !m.isOwn)?.author.externalId ?? null,
      ),
    ],
    ['last_message_at', 'timestamptz', chatKeys.map((e) => e.createdAt.toISOString())],
  ]);
}

/** The batch's first statement: authors and chats, created where new, and the space's emotion settings. */
async function upsertAuthorsAndChats(
  db: Db,
  object: ObjectRow,
  arrival: ArrivalRules,
  uniqueAuthors: Array<InboundItem['author']>,
  chatRows: SQL,
) {
  // The space's emotion settings come with them when the batch has not read them yet (ingest.ts).
  const readsEmotion = arrival.readEmotion === undefined;
  const emotionRow = readsEmotion
    ? sql`
    UNION ALL
    SELECT 'emotion' AS kind, to_jsonb(es) AS row FROM emotion_settings es WHERE es.space_id = ${object.spaceId}`
    : sql``;
  // Both statements of a batch are prepared (db/rows.ts executePrepared): their text is the same for
  // every batch, so PostgreSQL need not parse and plan them each time.
  const found = await executePrepared<{ kind: 'author' | 'chat' | 'emotion'; row: Record<string, unknown> }>(
    db,
    sql`WITH ${authorCtes(object, uniqueAuthors)},
    ci AS (SELECT * FROM ${chatRows}),
    created AS (
      INSERT INTO chats (space_id, object_id, external_id, author_id, last_message_at, status, assigned_user_id)
      SELECT ${object.spaceId}, ${object.id}, ci.external_id, a.id, ci.last_message_at, ${arrival.chatStatus},
        ${arrival.assignedUserId}::int
      FROM ci LEFT JOIN a ON a.external_id = ci.author_external_id
      ON CONFLICT (object_id, external_id) DO NOTHING
      RETURNING chats.*
    ),
    c AS (
      SELECT * FROM created
      UNION ALL
      SELECT ch.* FROM chats ch JOIN ci ON ch.external_id = ci.external_id
      WHERE ch.object_id = ${object.id} AND NOT EXISTS (SELECT 1 FROM created WHERE created.id = ch.id)
    )
    SELECT 'author' AS kind, to_jsonb(a) AS row FROM a
    UNION ALL
    SELECT 'chat' AS kind, to_jsonb(c) AS row FROM c${emotionRow}`,
  );
  if (readsEmotion) {
    const [row] = rowsOfKind(emotionSettings, found.rows, 'emotion');
    arrival.readEmotion = readerOf(row);
  }
  return found;
}

/** Chats the statement did not return, read again and added to `chatByExternal`. */
async function addLateChats(
  db: Db,
  object: ObjectRow,
  chatKeys: InboundMessage[],
  chatByExternal: Map<string, ChatRow>,
) {
  const lateChats = chatKeys.map((e) => e.chatExternalId).filter((id) => !chatByExternal.has(id));
  if (lateChats.length > 0) {
    // Created by a concurrent transaction after the first statement's snapshot (see lateAuthors).
    const more = await db
      .select()
      .from(chats)
      .where(and(eq(chats.objectId, object.id), inArray(chats.externalId, lateChats)));
    for (const c of more) chatByExternal.set(c.externalId, c);
  }
}

/**
 * A new chat whose customer was created by a concurrent transaction got no author in the first statement
 * (the author was outside its snapshot): give it the one read since.
 */
async function fillChatAuthors(
  db: Db,
  kept: InboundMessage[],
  authorRows: Map<string, AuthorRow>,
  chatByExternal: Map<string, ChatRow>,
) {
  for (const chat of chatByExternal.values()) {
    if (chat.authorId !== null) continue;
    const customer = kept.find((m) => m.chatExternalId === chat.externalId && !m.isOwn);
    const author = customer ? authorRows.get(customer.author.externalId) : undefined;
    if (!author) continue;
    await db
      .update(chats)
      .set({ authorId: author.id })
      .where(and(eq(chats.id, chat.id), isNull(chats.authorId)));
    chatByExternal.set(chat.externalId, { ...chat, authorId: author.id });
  }
}

/** The second statement's input: one row per message, its emotion read and stickers dropped if off. */
function messageInput(
  settings: AccountSettings,
  arrival: ArrivalRules,
  kept: InboundMessage[],
  chatByExternal: Map<string, ChatRow>,
) {
  const readings = kept.map((e) => emotionColumns(arrival.readEmotion ?? null, e.text, e.isOwn));
  return unnestRows('i', [
    ['chat_id', 'bigint', kept.map((e) => chatByExternal.get(e.chatExternalId)!.id)],
    ['external_id', 'text', kept.map((e) => e.externalId)],
    ['is_own', 'boolean', kept.map((e) => e.isOwn)],
    ['text', 'text', kept.map((e) => e.text)],
    ['sentiment', 'text', readings.map((r) => r.sentiment)],
    ['emotion', 'text', readings.map((r) => r.emotion)],
    [
      'attachments',
      'text',
      kept.map((e) =>
        JSON.stringify(settings.stickers ? e.attachments : e.attachments.filter((a) => a.type !== 'sticker')),
      ),
    ],
    ['created_at', 'timestamptz', kept.map((e) => e.createdAt.toISOString())],
  ]);
}

/**
 * One statement stores the messages, records the customer's ones for statistics, and moves every
 * touched chat: its newest message becomes the last one, inbound messages count as unread, and a
 * customer writing again reopens a closed chat and wakes one that was waiting for them or put off
 * (delayed: back as jobs/delayed.ts would bring it, ending the delay early). Row locks on
 * the chats are taken in id order, the same in every batch (batcher.ts may overlap batches). The
 * same statement queues the customer messages for the account's chat-bot, answered after the commit
 * (modules/bots/runtime.ts), and reads the chats' open CSI surveys (modules/csi/answers.ts).
 */
function insertMessages(db: Db, object: ObjectRow, arrival: ArrivalRules, messageRows: SQL) {
  return executePrepared<Written>(
    db,
    sql`WITH stored AS (
      INSERT INTO messages (space_id, chat_id, external_id, is_own, text, sentiment, emotion, attachments, delivery, created_at)
      SELECT ${object.spaceId}, i.chat_id, i.external_id, i.is_own, i.text, i.sentiment, i.emotion, i.attachments::jsonb,
        CASE WHEN i.is_own THEN 'sent' ELSE 'received' END, i.created_at
      FROM ${messageRows}
      ON CONFLICT (chat_id, external_id) DO NOTHING
      RETURNING ${columnsWithout(messages, 'search')}
    ),
    recorded AS (
      INSERT INTO activity (space_id, type, object_id, chat_id, cause_kind, data, at)
      SELECT ${object.spaceId}, 'chat.received', ${object.id}, stored.chat_id, 'customer',
        jsonb_build_object('message_id', stored.id), stored.received_at
      FROM stored WHERE NOT stored.is_own
    ),
    v AS (
      SELECT DISTINCT ON (chat_id) chat_id AS id, created_at AS at, text AS txt, is_own AS own,
        count(*) FILTER (WHERE NOT is_own) OVER (PARTITION BY chat_id) AS inbound
      FROM stored ORDER BY chat_id, created_at DESC, id DESC
    ),
    inbound AS (
      SELECT DISTINCT ON (chat_id) chat_id AS id, sentiment, emotion
      FROM stored WHERE NOT is_own ORDER BY chat_id, created_at DESC, id DESC
    ),
    locked AS (SELECT id FROM chats WHERE id IN (SELECT id FROM v) ORDER BY id FOR UPDATE),
    moved AS (
      UPDATE chats SET
        last_message_at = greatest(chats.last_message_at, v.at),
        last_message_text = CASE WHEN v.at >= chats.last_message_at THEN v.txt ELSE chats.last_message_text END,
        last_message_is_own = CASE WHEN v.at >= chats.last_message_at THEN v.own ELSE chats.last_message_is_own END,
        unread_count = chats.unread_count + v.inbound,
        last_sentiment = CASE WHEN v.inbound > 0 THEN (SELECT sentiment FROM inbound WHERE inbound.id = v.id) ELSE chats.last_sentiment END,
        last_emotion = CASE WHEN v.inbound > 0 THEN (SELECT emotion FROM inbound WHERE inbound.id = v.id) ELSE chats.last_emotion END,
        status = CASE WHEN v.inbound > 0 AND chats.status = 'closed' THEN ${arrival.chatStatus}
                      WHEN v.inbound > 0 AND chats.status = 'waiting' THEN 'inprogress'
                      WHEN v.inbound > 0 AND chats.status = 'delayed' THEN
                        CASE WHEN chats.assigned_user_id IS NOT NULL OR chats.first_reply_at IS NOT NULL
                             THEN 'inprogress' ELSE 'new' END
                      ELSE chats.status END,
        close_reason = CASE WHEN v.inbound > 0 AND chats.status = 'closed' THEN NULL ELSE chats.close_reason END,
        delayed_until = CASE WHEN v.inbound > 0 THEN NULL ELSE chats.delayed_until END,
        updated_at = now()
      FROM v
      WHERE chats.id = v.id AND chats.id IN (SELECT id FROM locked)
      RETURNING chats.*
    ),
    bot_queued AS (${queueBotMessagesSql(object)}),
    surveys AS (${openSurveysSql()})
    SELECT 'message' AS kind, to_jsonb(stored) AS row FROM stored
    UNION ALL
    SELECT 'chat' AS kind, to_jsonb(moved) AS row FROM moved
    UNION ALL
    (SELECT 'bot' AS kind, NULL::jsonb AS row FROM bot_queued LIMIT 1)
    UNION ALL
    SELECT 'survey' AS kind, to_jsonb(surveys) AS row FROM surveys`,
  );
}

/** The rows of one kind in a statement's answer (`kind`, `row` as JSON), as rows of `table`. */
function rowsOfKind<T extends PgTable, K extends string>(
  table: T,
  rows: Array<{ kind: K; row: Record<string, unknown> }>,
  kind: K,
) {
  return rowsOf(
    table,
    rows.filter((r) => r.kind === kind).map((r) => r.row),
  );
}

/** The `messages.created` event: the stored messages and their chats as moved, with their authors. */
function messagesCreated(
  object: ObjectRow,
  authorRows: Map<string, AuthorRow>,
  written: Written[],
  inserted: MessageRow[],
): Published {
  const updatedChats = rowsOfKind(chats, written, 'chat').sort((a, b) => a.id - b.id);
  const authorById = new Map([...authorRows.values()].map((a) => [a.id, presentAuthor(a)]));
  return {
    type: 'messages.created',
    spaceId: object.spaceId,
    payload: {
      object_id: object.id,
      chats: updatedChats.map((c) =>
        presentChat(c, { author: c.authorId ? authorById.get(c.authorId) : null, provider: object.provider }),
      ),
      messages: inserted.map(presentMessage),
    },
    cause: { kind: 'system' },
  };
}
