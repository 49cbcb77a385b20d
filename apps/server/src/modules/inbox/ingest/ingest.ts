import { type AccountSettings, parseAccountSettings } from '@otklik/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { columnsWithout, executePrepared, rowsOf, unnestRows } from '../../../db/rows';
import { activity, companies, items, memberships, type objects, posts } from '../../../db/schema';
import { isDataRefusal, refusalMessage } from '../../../db/sqlstate';
import { pgSafeDeep } from '../../../lib/pg-text';
import {
  type InboundChange,
  type InboundItem,
  type InboundMessage,
  inboundEventSchema,
} from '../../../providers/inbound';
import type { EventBus } from '../../../realtime/bus';
import { captureAnswers } from '../../csi/answers';
import { type EmotionReader, emotionColumns, emotionReader } from '../../emotions/service';
import { matchArrivals } from '../../monitoring/matcher';
import { queueWatchedArrivals } from '../../notifications/watches';
import { companySettingsSchema } from '../../organisation/schemas';
import { queueArrivals, rulesQueuedEvent } from '../../rules/queue';
import { presentAuthor, presentItem } from '../read/presenter';
import { applyChanges } from './changes';
import { keptEvents, type Published, uniqueBy, upsertAuthors } from './ingest-batch';
import { storeMessages } from './ingest-messages';
import { type IntakeFailure, recordIntakeFailures } from './intake-errors';

export type ObjectRow = typeof objects.$inferSelect;

/** Events stored in one transaction at most (see ingest()). */
export const INGEST_CHUNK = 1_000;

export interface IngestResult {
  created: number;
  duplicates: number;
  excluded: number;
  updated: number;
  invalid: Array<{ index: number; error: string }>;
  itemIds: number[];
  messageIds: number[];
}

export interface IngestOptions {
  /**
   * The caller hands `invalid` back to whoever sent the events (the ingestion API's answer), so events
   * that failed validation are not also the account's error; events the database refused still are.
   */
  sendsInvalidBack?: boolean;
  /**
   * Received items are stored closed: monitoring-only sources (RSS/Atom feeds, modules/monitoring/feeds)
   * whose entries are not the operators' work until a mention is sent to the inbox.
   */
  arrivesClosed?: boolean;
}

type Parsed = { index: number; event: InboundItem | InboundMessage | InboundChange };
type ItemRow = typeof items.$inferSelect;
type AuthorRows = Awaited<ReturnType<typeof upsertAuthors>>;

export const emptyIngestResult = (): IngestResult => ({
  created: 0,
  duplicates: 0,
  excluded: 0,
  updated: 0,
  invalid: [],
  itemIds: [],
  messageIds: [],
});

/**
 * The one ingestion entry point every connector uses (issue #4 pipeline): normalise → dedupe by
 * (account, external id) so a redelivered event changes nothing → store → apply the account's
 * exclusions → publish events after commit. Batches are stored with a few multi-row statements, so a
 * webhook burst or an initial import costs a handful of round trips, not one per item.
 *
 * One bad event never takes its neighbours down (issue #11): text is made storable at the door (NUL
 * and lone surrogates, pg-text.ts); an event that fails validation, or that the database still refuses
 * (stored one by one after the batch failed), is listed in `invalid` and recorded as the account's
 * error, and the rest is stored. Only a failure of the moment (connection, deadlock) is thrown.
 */
export async function ingest(
  deps: { db: Db; bus: EventBus },
  object: ObjectRow,
  events: unknown[],
  opts: IngestOptions = {},
): Promise<IngestResult> {
  const result = emptyIngestResult();
  const parsed: Parsed[] = [];
  events.forEach((raw, index) => {
    // Cleaned before validation: an id that was nothing but NUL then fails its length check.
    const checked = inboundEventSchema.safeParse(pgSafeDeep(raw));
    if (!checked.success) {
      result.invalid.push({
        index,
        error: checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
      });
      return;
    }
    parsed.push({ index, event: checked.data });
  });

  const refused: IntakeFailure[] = [];
  // A big poll round (YouTube: up to 20,000 threads) is stored a chunk at a time, in order: one statement
  // per chunk stays within the driver's parameter handling, and a refusal isolates events of its chunk only.
  for (let start = 0; start < parsed.length; start += INGEST_CHUNK) {
    const chunk = parsed.slice(start, start + INGEST_CHUNK);
    try {
      merge(result, await storeBatch(deps, object, chunk, opts));
    } catch (error) {
      if (!isDataRefusal(error)) throw error;
      // Which event the database refused is not said: each goes on its own, so only that one is lost.
      for (const one of chunk) {
        const oneError =
          chunk.length === 1
            ? error
            : await storeBatch(deps, object, [one], opts).then(
                (part) => void merge(result, part),
                (e: unknown) => e ?? new Error('ingest failed'),
              );
        if (oneError === undefined) continue;
        if (!isDataRefusal(oneError)) throw oneError;
        const failure = { index: one.index, error: `not stored: ${refusalMessage(oneError)}` };
        result.invalid.push(failure);
        refused.push({ ...failure, event: one.event });
      }
    }
  }
  result.invalid.sort((a, b) => a.index - b.index);
  const unstored = opts.sendsInvalidBack
    ? refused
    : result.invalid.map((i) => refused.find((r) => r.index === i.index) ?? { ...i, event: events[i.index] });
  if (unstored.length > 0) await recordIntakeFailures(deps, object, unstored, events.length);
  return result;
}

/** Stores parsed events in one transaction and publishes what changed after commit. */
async function storeBatch(
  deps: { db: Db; bus: EventBus },
  object: ObjectRow,
  parsed: Parsed[],
  opts: IngestOptions = {},
) {
  const result = emptyIngestResult();
  if (parsed.length === 0) return result;
  const itemEvents: InboundItem[] = [];
  const messageEvents: InboundMessage[] = [];
  const changeEvents: InboundChange[] = [];
  for (const { event } of parsed) {
    if (event.type === 'item') itemEvents.push(event);
    else if (event.type === 'message') messageEvents.push(event);
    else changeEvents.push(event);
  }

  const settings = parseAccountSettings(object.settings);
  const published: Published[] = [];
  await deps.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const arrival =
      itemEvents.length + messageEvents.length > 0 ? await arrivalRules(db, object) : NO_RULES();
    // Emotions (issue 21): every received text is read in the pipeline, with the space's own words. A
    // batch of private messages alone reads the space's settings with its first statement instead
    // (ingest-messages.ts): one round trip fewer for a webhook burst.
    const readEmotion =
      itemEvents.length > 0 || changeEvents.some((e) => e.change === 'edited')
        ? await emotionReader(db, object.spaceId)
        : messageEvents.length > 0
          ? undefined
          : null;
    arrival.readEmotion = readEmotion;
    arrival.arrivesClosed = opts.arrivesClosed ?? false;
    if (itemEvents.length > 0) await storeItems(db, object, settings, arrival, itemEvents, result, published);
    if (messageEvents.length > 0) {
      const stored = await storeMessages(db, object, settings, arrival, messageEvents, result, published);
      // Answers to a satisfaction survey (modules/csi/answers.ts).
      await captureAnswers(db, object, stored.inbound, stored.surveys, published);
    }
    if (changeEvents.length > 0)
      await applyChanges(db, object, settings, readEmotion ?? null, changeEvents, result, published);
  });
  for (const event of published)
    await deps.bus.publish(typeof event === 'function' ? await event(deps.db) : event);
  return result;
}

function merge(into: IngestResult, part: IngestResult) {
  into.created += part.created;
  into.duplicates += part.duplicates;
  into.excluded += part.excluded;
  into.updated += part.updated;
  into.invalid.push(...part.invalid);
  into.itemIds.push(...part.itemIds);
  into.messageIds.push(...part.messageIds);
}

/**
 * What the account's company says about new work (docs/product/entities.md company settings, organisation/schemas.ts):
 * who new comments and chats are assigned to — while that user is still a member of the space — and
 * whether new chats start `open` instead of `new`. Comments always start `new`: `open` is not among the
 * comment list's default statuses (docs/product/limits.md), so an `open` comment would be missed.
 */
export interface ArrivalRules {
  assignedUserId: number | null;
  chatStatus: 'new' | 'open';
  /** The space's emotion reader for this batch (null: switched off; undefined: not read yet). */
  readEmotion?: EmotionReader | null;
  arrivesClosed?: boolean;
}

const NO_RULES = (): ArrivalRules => ({ assignedUserId: null, chatStatus: 'new' });

async function arrivalRules(db: Db, object: ObjectRow): Promise<ArrivalRules> {
  if (object.companyId === null) return NO_RULES();
  const [row] = await db
    .select({ settings: companies.settings, member: memberships.userId })
    .from(companies)
    .leftJoin(
      memberships,
      and(
        eq(memberships.spaceId, companies.spaceId),
        eq(
          memberships.userId,
          sql`CASE WHEN jsonb_typeof(${companies.settings}->'items_assigned_to') = 'number'
            THEN (${companies.settings}->>'items_assigned_to')::int END`,
        ),
      ),
    )
    .where(eq(companies.id, object.companyId))
    .limit(1);
  if (!row) return NO_RULES();
  const company = companySettingsSchema.parse(row.settings ?? {});
  return { assignedUserId: row.member ?? null, chatStatus: company.status_open ? 'open' : 'new' };
}

async function storeItems(
  db: Db,
  object: ObjectRow,
  settings: AccountSettings,
  arrival: ArrivalRules,
  events: InboundItem[],
  result: IngestResult,
  published: Published[],
) {
  const kept = keptEvents(events, (e) => e.externalId, settings.exclude, result);
  if (kept.length === 0) return;
  const authorRows = await upsertAuthors(
    db,
    object,
    kept.map((e) => e.author),
  );
  const postIds = await storePosts(db, object, kept);
  const inserted = await insertItems(db, object, settings, arrival, kept, authorRows, postIds);
  result.created += inserted.length;
  result.duplicates += kept.length - inserted.length;
  if (inserted.length === 0) return;
  const parentOf = await linkThreads(db, object, inserted);
  const received = inserted.filter((r) => !r.isOwn);
  await recordReceived(db, object, received);
  result.itemIds.push(...inserted.map((r) => r.id));
  await queueReceived(db, object, received, published);
  // Monitoring (issue 21): keyword queries over received public content; matches become mentions.
  await matchArrivals(db, object.spaceId, received, published);
  published.push(itemsCreated(object, authorRows, inserted, parentOf));
}

/** The posts the items belong to, stored once each: their ids by external id. */
async function storePosts(db: Db, object: ObjectRow, kept: InboundItem[]) {
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
  return postIds;
}

/**
 * Inserts the new items (a known external id is a redelivery: skipped); returns the rows inserted. One
 * prepared statement fed by one array per column (db/rows.ts unnestRows, executePrepared): a batch of 500
 * as a multi-row VALUES cost about 12,500 parameters to build, send, parse and plan each time (README
 * "Where ingest()'s time goes").
 */
async function insertItems(
  db: Db,
  object: ObjectRow,
  settings: AccountSettings,
  arrival: ArrivalRules,
  kept: InboundItem[],
  authorRows: AuthorRows,
  postIds: Map<string, number>,
): Promise<ItemRow[]> {
  const readings = kept.map((e) => emotionColumns(arrival.readEmotion ?? null, e.text, e.isOwn));
  const rows = unnestRows('i', [
    ['post_id', 'bigint', kept.map((e) => (e.post ? (postIds.get(e.post.externalId) ?? null) : null))],
    ['parent_external_id', 'text', kept.map((e) => e.parentExternalId ?? null)],
    ['kind', 'text', kept.map((e) => e.kind)],
    ['external_id', 'text', kept.map((e) => e.externalId)],
    ['author_id', 'bigint', kept.map((e) => authorRows.get(e.author.externalId)?.id ?? null)],
    ['is_own', 'boolean', kept.map((e) => e.isOwn)],
    ['text', 'text', kept.map((e) => e.text)],
    ['sentiment', 'text', readings.map((r) => r.sentiment)],
    ['emotion', 'text', readings.map((r) => r.emotion)],
    ['rating', 'smallint', kept.map((e) => e.rating ?? null)],
    [
      'attachments',
      'text',
      kept.map((e) =>
        JSON.stringify(settings.stickers ? e.attachments : e.attachments.filter((a) => a.type !== 'sticker')),
      ),
    ],
    ['url', 'text', kept.map((e) => e.url ?? null)],
    ['is_hidden', 'boolean', kept.map((e) => e.hidden)],
    ['created_at', 'timestamptz', kept.map((e) => e.createdAt.toISOString())],
  ]);
  // Our own replies made elsewhere are history, not work: closed, unassigned, sent.
  const written = await executePrepared<Record<string, unknown>>(
    db,
    sql`INSERT INTO items (space_id, object_id, post_id, parent_external_id, kind, external_id, author_id, is_own,
        text, sentiment, emotion, rating, attachments, url, is_hidden, status, assigned_user_id, delivery, created_at)
      SELECT ${object.spaceId}::int, ${object.id}::int, i.post_id, i.parent_external_id, i.kind, i.external_id,
        i.author_id, i.is_own, i.text, i.sentiment, i.emotion, i.rating, i.attachments::jsonb, i.url, i.is_hidden,
        CASE WHEN i.is_own OR ${arrival.arrivesClosed === true}::boolean THEN 'closed' ELSE 'new' END,
        CASE WHEN i.is_own THEN NULL ELSE ${arrival.assignedUserId ?? null}::int END,
        CASE WHEN i.is_own THEN 'sent' ELSE 'received' END, i.created_at
      FROM ${rows}
      ON CONFLICT (object_id, external_id) DO NOTHING
      RETURNING ${columnsWithout(items, 'search')}`,
  );
  return rowsOf(items, written.rows);
}

/**
 * Link threads: new rows to their parents, and earlier orphans to parents that just arrived. Returns the
 * parent id of every row linked.
 */
async function linkThreads(db: Db, object: ObjectRow, inserted: ItemRow[]) {
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
  return parentOf;
}

/** The activity rows of the received items (not our own). */
async function recordReceived(db: Db, object: ObjectRow, received: ItemRow[]) {
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
}

/**
 * Auto-rules (issue 17) and notification watches (issue 18): queued in this transaction, run by the
 * rules worker after the commit.
 */
async function queueReceived(db: Db, object: ObjectRow, received: ItemRow[], published: Published[]) {
  const rulesQueued = await queueArrivals(
    db,
    object.spaceId,
    received.map((r) => r.id),
  );
  const watchQueued = await queueWatchedArrivals(
    db,
    object.spaceId,
    received.map((r) => r.id),
  );
  if (rulesQueued || watchQueued) published.push(rulesQueuedEvent());
}

/** The `items.created` event: the inserted items with their authors and the parents just linked. */
function itemsCreated(
  object: ObjectRow,
  authorRows: AuthorRows,
  inserted: ItemRow[],
  parentOf: Map<number, number>,
): Published {
  const authorById = new Map([...authorRows.values()].map((a) => [a.id, presentAuthor(a)]));
  return {
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
  };
}
