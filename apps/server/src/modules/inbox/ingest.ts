import { type AccountSettings, isExcluded, parseAccountSettings } from '@otklik/shared';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { columnsWithout, rowsOf, selectRows, unnestRows } from '../../db/rows';
import { activity, authors, chats, items, messages, type objects, posts } from '../../db/schema';
import type { BusEvent, EventBus } from '../../realtime/bus';
import { type InboundChange, type InboundItem, type InboundMessage, inboundEventSchema } from './inbound';
import { presentAuthor, presentChat, presentItem, presentMessage } from './presenter';
import { presentItems } from './read-present';

export type ObjectRow = typeof objects.$inferSelect;

export interface IngestResult {
  created: number;
  duplicates: number;
  excluded: number;
  updated: number;
  invalid: Array<{ index: number; error: string }>;
  itemIds: number[];
  messageIds: number[];
}

/**
 * The one ingestion entry point every connector uses (issue #4 pipeline): normalise → dedupe by
 * (account, external id) so a redelivered event changes nothing → store → apply the account's
 * exclusions → publish events after commit. Batches are stored with a few multi-row statements, so a
 * webhook burst or an initial import costs a handful of round trips, not one per item.
 */
export async function ingest(
  deps: { db: Db; bus: EventBus },
  object: ObjectRow,
  events: unknown[],
): Promise<IngestResult> {
  const result: IngestResult = {
    created: 0,
    duplicates: 0,
    excluded: 0,
    updated: 0,
    invalid: [],
    itemIds: [],
    messageIds: [],
  };
  const itemEvents: InboundItem[] = [];
  const messageEvents: InboundMessage[] = [];
  const changeEvents: InboundChange[] = [];
  events.forEach((raw, index) => {
    const parsed = inboundEventSchema.safeParse(raw);
    if (!parsed.success) {
      result.invalid.push({
        index,
        error: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
      });
      return;
    }
    const event = parsed.data;
    if (event.type === 'item') itemEvents.push(event);
    else if (event.type === 'message') messageEvents.push(event);
    else changeEvents.push(event);
  });

  const settings = parseAccountSettings(object.settings);
  const published: Published[] = [];
  await deps.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    if (itemEvents.length > 0) await storeItems(db, object, settings, itemEvents, result, published);
    if (messageEvents.length > 0) await storeMessages(db, object, settings, messageEvents, result, published);
    if (changeEvents.length > 0) await applyChanges(db, object, settings, changeEvents, result, published);
  });
  for (const event of published)
    await deps.bus.publish(typeof event === 'function' ? await event(deps.db) : event);
  return result;
}

/** An event to publish after commit, or one to build then (reads that must not run in the transaction). */
type Published = BusEvent | ((db: Db) => Promise<BusEvent>);

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const uniqueBy = <T>(rows: T[], key: (row: T) => string) => [
  ...new Map(rows.map((r) => [key(r), r])).values(),
];

/**
 * The batch's authors, created or refreshed (name, image), each returned once — one statement: the
 * upsert's RETURNING gives the rows it wrote, the rest are read as they were before it.
 */
/** Sorted: overlapping batches (batcher.ts) then lock the same rows in the same order. */
const sortedAuthors = (list: Array<InboundItem['author']>) =>
  uniqueBy(list, (a) => a.externalId).sort((a, b) => compare(a.externalId, b.externalId));

/**
 * CTEs `ai` (the batch's authors), `up` (created or refreshed: name, image) and `a` (every one of
 * them, each once: the upsert's RETURNING for the rows it wrote, the rest as they were before it).
 */
function authorCtes(object: ObjectRow, unique: Array<InboundItem['author']>) {
  const input = unnestRows('ai', [
    ['external_id', 'text', unique.map((a) => a.externalId)],
    ['name', 'text', unique.map((a) => a.name)],
    ['screen_name', 'text', unique.map((a) => a.screenName ?? null)],
    ['image', 'text', unique.map((a) => a.image ?? null)],
    ['url', 'text', unique.map((a) => a.url ?? null)],
  ]);
  return sql`ai AS (SELECT * FROM ${input}),
    up AS (
      INSERT INTO authors (space_id, provider, external_id, name, screen_name, image, url)
      SELECT ${object.spaceId}, ${object.provider}, ai.external_id, ai.name, ai.screen_name, ai.image, ai.url FROM ai
      ON CONFLICT (space_id, provider, external_id) DO UPDATE
        SET name = excluded.name, image = coalesce(excluded.image, authors.image), updated_at = now()
        -- A redelivered event with the same author changes nothing.
        WHERE authors.name IS DISTINCT FROM excluded.name
           OR (excluded.image IS NOT NULL AND authors.image IS DISTINCT FROM excluded.image)
      RETURNING authors.*
    ),
    a AS (
      SELECT * FROM up
      UNION ALL
      SELECT au.* FROM authors au JOIN ai ON au.external_id = ai.external_id
      WHERE au.space_id = ${object.spaceId} AND au.provider = ${object.provider}
        AND NOT EXISTS (SELECT 1 FROM up WHERE up.id = au.id)
    )`;
}

/**
 * Rows another transaction committed while our statement waited on them are outside its snapshot:
 * read those few again, with a fresh one, so nothing of the batch is left without its author or chat.
 */
async function lateAuthors(
  db: Db,
  object: ObjectRow,
  unique: Array<InboundItem['author']>,
  found: Map<string, typeof authors.$inferSelect>,
) {
  const late = unique.filter((a) => !found.has(a.externalId)).map((a) => a.externalId);
  if (late.length === 0) return;
  const more = await db
    .select()
    .from(authors)
    .where(
      and(
        eq(authors.spaceId, object.spaceId),
        eq(authors.provider, object.provider),
        inArray(authors.externalId, late),
      ),
    );
  for (const r of more) found.set(r.externalId, r);
}

/** The batch's authors, created or refreshed, each returned once — one statement. */
async function upsertAuthors(db: Db, object: ObjectRow, list: Array<InboundItem['author']>) {
  const unique = sortedAuthors(list);
  if (unique.length === 0) return new Map<string, typeof authors.$inferSelect>();
  const rows = await selectRows(db, authors, sql`WITH ${authorCtes(object, unique)} SELECT * FROM a`);
  const found = new Map(rows.map((r) => [r.externalId, r]));
  await lateAuthors(db, object, unique, found);
  return found;
}

async function storeItems(
  db: Db,
  object: ObjectRow,
  settings: AccountSettings,
  events: InboundItem[],
  result: IngestResult,
  published: Published[],
) {
  const kept = uniqueBy(events, (e) => e.externalId).filter((e) => {
    const excluded =
      !e.isOwn &&
      isExcluded(settings.exclude, {
        text: e.text,
        authorId: e.author.externalId,
        authorName: e.author.name,
      });
    if (excluded) result.excluded += 1;
    return !excluded;
  });
  if (kept.length === 0) return;
  const authorRows = await upsertAuthors(
    db,
    object,
    kept.map((e) => e.author),
  );

  const postEvents = uniqueBy(
    kept.flatMap((e) => (e.post ? [e.post] : [])),
    (p) => p.externalId,
  );
  const postIds = new Map<string, number>();
  if (postEvents.length > 0) {
    await db
      .insert(posts)
      .values(
        postEvents.map((p) => ({
          spaceId: object.spaceId,
          objectId: object.id,
          externalId: p.externalId,
          text: p.text,
          url: p.url,
          attachments: p.attachments,
          postedAt: p.postedAt ?? new Date(),
        })),
      )
      // A post first seen through a nested reply has no text yet; the first event that carries it fills
      // it in. Anything else about a known post changes nothing (redelivery stays a no-op).
      .onConflictDoUpdate({
        target: [posts.objectId, posts.externalId],
        set: { text: sql`excluded.text` },
        setWhere: sql`${posts.text} = '' AND excluded.text <> ''`,
      });
    const rows = await db
      .select({ id: posts.id, externalId: posts.externalId })
      .from(posts)
      .where(
        and(
          eq(posts.objectId, object.id),
          inArray(
            posts.externalId,
            postEvents.map((p) => p.externalId),
          ),
        ),
      );
    for (const r of rows) postIds.set(r.externalId, r.id);
  }

  const inserted = await db
    .insert(items)
    .values(
      kept.map((e) => ({
        spaceId: object.spaceId,
        objectId: object.id,
        postId: e.post ? (postIds.get(e.post.externalId) ?? null) : null,
        parentExternalId: e.parentExternalId,
        kind: e.kind,
        externalId: e.externalId,
        authorId: authorRows.get(e.author.externalId)?.id ?? null,
        isOwn: e.isOwn,
        text: e.text,
        rating: e.rating,
        attachments: settings.stickers ? e.attachments : e.attachments.filter((a) => a.type !== 'sticker'),
        url: e.url,
        // Our own replies made elsewhere are history, not work.
        status: e.isOwn ? ('closed' as const) : ('new' as const),
        delivery: e.isOwn ? ('sent' as const) : ('received' as const),
        createdAt: e.createdAt,
      })),
    )
    .onConflictDoNothing({ target: [items.objectId, items.externalId] })
    .returning();
  result.created += inserted.length;
  result.duplicates += kept.length - inserted.length;
  if (inserted.length === 0) return;

  // Link threads: new rows to their parents, and earlier orphans to parents that just arrived.
  const externalIds = inserted.map((r) => r.externalId!);
  const linked = await db.execute(sql`
    UPDATE items AS child SET parent_id = parent.id
    FROM items AS parent
    WHERE child.object_id = ${object.id} AND child.parent_id IS NULL AND child.parent_external_id IS NOT NULL
      AND parent.object_id = ${object.id} AND parent.external_id = child.parent_external_id
      AND (child.id IN (${sql.join(
        inserted.map((r) => sql`${r.id}`),
        sql`, `,
      )})
           OR child.parent_external_id IN (${sql.join(
             externalIds.map((id) => sql`${id}`),
             sql`, `,
           )}))
    RETURNING child.id, child.parent_id`);
  const parentOf = new Map<number, number>();
  for (const row of (linked as unknown as { rows: Array<{ id: number; parent_id: number }> }).rows ?? []) {
    parentOf.set(Number(row.id), Number(row.parent_id));
  }

  const received = inserted.filter((r) => !r.isOwn);
  if (received.length > 0)
    await db.insert(activity).values(
      received.map((r) => ({
        spaceId: object.spaceId,
        type: 'item.received' as const,
        objectId: object.id,
        itemId: r.id,
        causeKind: 'customer' as const,
        at: r.receivedAt,
      })),
    );
  result.itemIds.push(...inserted.map((r) => r.id));
  const authorById = new Map([...authorRows.values()].map((a) => [a.id, presentAuthor(a)]));
  published.push({
    type: 'items.created',
    spaceId: object.spaceId,
    payload: {
      object_id: object.id,
      items: inserted.map((r) =>
        presentItem(
          { ...r, parentId: parentOf.get(r.id) ?? r.parentId },
          { author: r.authorId ? authorById.get(r.authorId) : null, provider: object.provider },
        ),
      ),
    },
    cause: { kind: 'system' },
  });
}

async function storeMessages(
  db: Db,
  object: ObjectRow,
  settings: AccountSettings,
  events: InboundMessage[],
  result: IngestResult,
  published: Published[],
) {
  if (!settings.chats) {
    result.excluded += events.length;
    return;
  }
  const kept = uniqueBy(events, (e) => `${e.chatExternalId}\u0000${e.externalId}`).filter((e) => {
    const excluded =
      !e.isOwn &&
      isExcluded(settings.exclude_messages, {
        text: e.text,
        authorId: e.author.externalId,
        authorName: e.author.name,
      });
    if (excluded) result.excluded += 1;
    return !excluded;
  });
  if (kept.length === 0) return;
  // Authors and chats in one statement: new chats get their customer's author id from the same
  // statement's upsert (the same CTE shapes as upsertAuthors).
  const uniqueAuthors = sortedAuthors(kept.filter((e) => !e.isOwn).map((e) => e.author));
  const chatKeys = uniqueBy(kept, (e) => e.chatExternalId).sort((a, b) =>
    compare(a.chatExternalId, b.chatExternalId),
  );
  const chatInput = unnestRows('ci', [
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
  const found = (await db.execute(sql`WITH ${authorCtes(object, uniqueAuthors)},
    ci AS (SELECT * FROM ${chatInput}),
    created AS (
      INSERT INTO chats (space_id, object_id, external_id, author_id, last_message_at)
      SELECT ${object.spaceId}, ${object.id}, ci.external_id, a.id, ci.last_message_at
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
    SELECT 'chat' AS kind, to_jsonb(c) AS row FROM c`)) as unknown as {
    rows: Array<{ kind: 'author' | 'chat'; row: Record<string, unknown> }>;
  };
  const authorRows = new Map(
    rowsOf(
      authors,
      found.rows.filter((r) => r.kind === 'author').map((r) => r.row),
    ).map((r) => [r.externalId, r]),
  );
  await lateAuthors(db, object, uniqueAuthors, authorRows);
  const chatByExternal = new Map(
    rowsOf(
      chats,
      found.rows.filter((r) => r.kind === 'chat').map((r) => r.row),
    ).map((c) => [c.externalId, c]),
  );
  const lateChats = chatKeys.map((e) => e.chatExternalId).filter((id) => !chatByExternal.has(id));
  if (lateChats.length > 0) {
    // Created by a concurrent transaction after this statement's snapshot (see lateAuthors).
    const more = await db
      .select()
      .from(chats)
      .where(and(eq(chats.objectId, object.id), inArray(chats.externalId, lateChats)));
    for (const c of more) chatByExternal.set(c.externalId, c);
  }
  // A new chat whose customer was created by a concurrent transaction got no author in the statement
  // above (the author was outside its snapshot): give it the one read since.
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

  const messageInput = unnestRows('i', [
    ['chat_id', 'bigint', kept.map((e) => chatByExternal.get(e.chatExternalId)!.id)],
    ['external_id', 'text', kept.map((e) => e.externalId)],
    ['is_own', 'boolean', kept.map((e) => e.isOwn)],
    ['text', 'text', kept.map((e) => e.text)],
    [
      'attachments',
      'text',
      kept.map((e) =>
        JSON.stringify(settings.stickers ? e.attachments : e.attachments.filter((a) => a.type !== 'sticker')),
      ),
    ],
    ['created_at', 'timestamptz', kept.map((e) => e.createdAt.toISOString())],
  ]);
  // One statement stores the messages, records the customer's ones for statistics, and moves every
  // touched chat: its newest message becomes the last one, inbound messages count as unread, and a
  // customer writing again reopens a closed chat and wakes one that was waiting for them. Row locks on
  // the chats are taken in id order, the same in every batch (batcher.ts may overlap batches).
  const written = (await db.execute(sql`WITH stored AS (
      INSERT INTO messages (space_id, chat_id, external_id, is_own, text, attachments, delivery, created_at)
      SELECT ${object.spaceId}, i.chat_id, i.external_id, i.is_own, i.text, i.attachments::jsonb,
        CASE WHEN i.is_own THEN 'sent' ELSE 'received' END, i.created_at
      FROM ${messageInput}
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
    locked AS (SELECT id FROM chats WHERE id IN (SELECT id FROM v) ORDER BY id FOR UPDATE),
    moved AS (
      UPDATE chats SET
        last_message_at = greatest(chats.last_message_at, v.at),
        last_message_text = CASE WHEN v.at >= chats.last_message_at THEN v.txt ELSE chats.last_message_text END,
        last_message_is_own = CASE WHEN v.at >= chats.last_message_at THEN v.own ELSE chats.last_message_is_own END,
        unread_count = chats.unread_count + v.inbound,
        status = CASE WHEN v.inbound > 0 AND chats.status = 'closed' THEN 'new'
                      WHEN v.inbound > 0 AND chats.status = 'waiting' THEN 'inprogress'
                      ELSE chats.status END,
        close_reason = CASE WHEN v.inbound > 0 AND chats.status = 'closed' THEN NULL ELSE chats.close_reason END,
        updated_at = now()
      FROM v
      WHERE chats.id = v.id AND chats.id IN (SELECT id FROM locked)
      RETURNING chats.*
    )
    SELECT 'message' AS kind, to_jsonb(stored) AS row FROM stored
    UNION ALL
    SELECT 'chat' AS kind, to_jsonb(moved) AS row FROM moved`)) as unknown as {
    rows: Array<{ kind: 'message' | 'chat'; row: Record<string, unknown> }>;
  };
  const inserted = rowsOf(
    messages,
    written.rows.filter((r) => r.kind === 'message').map((r) => r.row),
  ).sort((a, b) => a.id - b.id);
  const updatedChats = rowsOf(
    chats,
    written.rows.filter((r) => r.kind === 'chat').map((r) => r.row),
  ).sort((a, b) => a.id - b.id);
  result.created += inserted.length;
  result.duplicates += kept.length - inserted.length;
  if (inserted.length === 0) return;
  result.messageIds.push(...inserted.map((m) => m.id));
  const authorById = new Map([...authorRows.values()].map((a) => [a.id, presentAuthor(a)]));
  published.push({
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
  });
}

async function applyChanges(
  db: Db,
  object: ObjectRow,
  settings: AccountSettings,
  events: InboundChange[],
  result: IngestResult,
  published: Published[],
) {
  const changedItems: Array<typeof items.$inferSelect> = [];
  const changedMessages: Array<typeof messages.$inferSelect> = [];
  for (const e of events) {
    if (e.change === 'reactions' && !settings.reactions) continue;
    if (e.change === 'delivery') {
      if (e.target === 'message') changedMessages.push(...(await applyDelivery(db, object, e)));
      continue;
    }
    if (e.target === 'item') {
      const set =
        e.change === 'edited'
          ? { text: e.text ?? '', editedAt: e.at ?? new Date() }
          : e.change === 'deleted'
            ? { isDeleted: true, status: 'deleted' as const }
            : e.change === 'restored'
              ? {
                  isDeleted: false,
                  status: sql`CASE WHEN ${items.status} = 'deleted' THEN 'new' ELSE ${items.status} END`,
                }
              : { reactions: e.reactions ?? [] };
      const rows = await db
        .update(items)
        .set({ ...set, updatedAt: new Date() })
        .where(and(eq(items.objectId, object.id), eq(items.externalId, e.externalId), changeNeeded(e)))
        .returning();
      changedItems.push(...rows);
    } else {
      const chatFilter = e.chatExternalId
        ? sql`${messages.chatId} IN (SELECT id FROM chats WHERE object_id = ${object.id} AND external_id = ${e.chatExternalId})`
        : sql`${messages.chatId} IN (SELECT id FROM chats WHERE object_id = ${object.id})`;
      const set =
        e.change === 'edited'
          ? { text: e.text ?? '', editedAt: e.at ?? new Date() }
          : e.change === 'deleted'
            ? { isDeleted: true }
            : e.change === 'restored'
              ? { isDeleted: false }
              : { reactions: e.reactions ?? [] };
      const rows = await db
        .update(messages)
        .set(set)
        .where(and(eq(messages.externalId, e.externalId), chatFilter, changeNeededMessage(e)))
        .returning();
      changedMessages.push(...rows);
    }
  }
  result.updated += changedItems.length + changedMessages.length;
  if (changedItems.length > 0) {
    // Full rows (author, tags), the same as lists show, so a pushed update never blanks a row. Read after
    // commit, on the pool: the presenter's parallel reads must not share the transaction's connection.
    published.push(async (outer) => ({
      type: 'items.updated',
      spaceId: object.spaceId,
      payload: { items: await presentItems(outer, changedItems) },
      cause: { kind: 'system' },
    }));
  }
  if (changedMessages.length > 0) {
    published.push({
      type: 'messages.updated',
      spaceId: object.spaceId,
      payload: { messages: changedMessages.map(presentMessage) },
      cause: { kind: 'system' },
    });
  }
}

/**
 * A delivery status of a message we sent. States only move forward (sent → delivered → read), so a late
 * or redelivered status changes nothing; 'failed' shows the network's reason unless the message was
 * already delivered or read.
 */
async function applyDelivery(db: Db, object: ObjectRow, e: InboundChange) {
  if (!e.delivery) return [];
  const state = e.delivery;
  const order = sql`ARRAY['queued','sending','sent','delivered','read']::text[]`;
  const moves =
    state === 'failed'
      ? sql`${messages.delivery} NOT IN ('delivered', 'read', 'failed')`
      : sql`coalesce(array_position(${order}, ${messages.delivery}), 0) < array_position(${order}, ${state}::text)`;
  const chatFilter = e.chatExternalId
    ? sql`${messages.chatId} IN (SELECT id FROM chats WHERE object_id = ${object.id} AND external_id = ${e.chatExternalId})`
    : sql`${messages.chatId} IN (SELECT id FROM chats WHERE object_id = ${object.id})`;
  return db
    .update(messages)
    .set({ delivery: state, deliveryError: state === 'failed' ? (e.error ?? null) : null })
    .where(and(eq(messages.externalId, e.externalId), eq(messages.isOwn, true), chatFilter, moves))
    .returning();
}

/** Redelivered changes (same edit text, already deleted) match no row and so change nothing. */
function changeNeeded(e: InboundChange) {
  switch (e.change) {
    case 'edited':
      return sql`${items.text} IS DISTINCT FROM ${e.text ?? ''}`;
    case 'deleted':
      return eq(items.isDeleted, false);
    case 'restored':
      return eq(items.isDeleted, true);
    case 'reactions':
      return sql`${items.reactions} IS DISTINCT FROM ${JSON.stringify(e.reactions ?? [])}::jsonb`;
  }
}

function changeNeededMessage(e: InboundChange) {
  switch (e.change) {
    case 'edited':
      return sql`${messages.text} IS DISTINCT FROM ${e.text ?? ''}`;
    case 'deleted':
      return eq(messages.isDeleted, false);
    case 'restored':
      return eq(messages.isDeleted, true);
    case 'reactions':
      return sql`${messages.reactions} IS DISTINCT FROM ${JSON.stringify(e.reactions ?? [])}::jsonb`;
  }
}
