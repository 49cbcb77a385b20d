import {
  type PresentedYouscan,
  spaceSettingsSchema,
  YOUSCAN_EVENT,
  YOUSCAN_PAGE_SIZE,
  YOUSCAN_TOPICS_MAX,
  type YouscanForm,
  type YouscanMentionDto,
  youscanSentiment,
} from '@otklik/shared';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { spaces, youscanMentions, youscanTopics } from '../../db/schema';
import type { Sealer } from '../../lib/crypto';
import { AppError, notFound } from '../../lib/errors';
import type { EventBus } from '../../realtime/bus';
import { auditedWrite } from '../audit/record';
import { authorize, isMember, type ServerActor, spaceIdsWhere } from '../spaces/actor';
import { fetchMentions, YOUSCAN_FETCH_SIZE, YouscanError } from './client';

// Who: members with `monitoring.view` in a space whose `youscan` setting is on connect topics, read
// and import their mentions. YouScan mentions belong to no account of ours, so user-group account limits
// do not narrow them (docs/product/monitoring.md).

export type YouscanRow = typeof youscanTopics.$inferSelect;
const VIEW = 'monitoring.view' as const;
/** A new topic's first import reaches this far back. */
export const YOUSCAN_FIRST_IMPORT_DAYS = 7;
/** Pages of YOUSCAN_FETCH_SIZE per import run; the rest waits for the next run. */
const MAX_PAGES = 50;
const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

function youscanOn(actor: ServerActor, spaceId: number) {
  const row = actor.rows.find((r) => r.space.id === spaceId);
  return row ? spaceSettingsSchema.parse(row.space.settings).youscan : false;
}

/** Spaces where the actor may use YouScan. */
export function youscanSpaces(actor: ServerActor): number[] {
  return spaceIdsWhere(actor, VIEW).filter((id) => youscanOn(actor, id));
}

export function assertYouscan(actor: ServerActor, spaceId: number) {
  authorize(actor, VIEW, spaceId);
  if (!youscanOn(actor, spaceId)) throw new AppError(403, 'youscan.off');
}

export async function getTopic(db: Db, actor: ServerActor, id: number): Promise<YouscanRow> {
  const [row] = await db.select().from(youscanTopics).where(eq(youscanTopics.id, id)).limit(1);
  if (!row || !isMember(actor, row.spaceId) || !youscanSpaces(actor).includes(row.spaceId)) throw notFound();
  return row;
}

async function counts(db: Db, topicIds: number[]) {
  if (topicIds.length === 0) return new Map<number, { total: number; unread: number }>();
  const rows = await db
    .select({
      topicRef: youscanMentions.topicRef,
      total: sql<number>`count(*)::int`,
      unread: sql<number>`(count(*) FILTER (WHERE ${youscanMentions.readAt} IS NULL))::int`,
    })
    .from(youscanMentions)
    .where(inArray(youscanMentions.topicRef, topicIds))
    .groupBy(youscanMentions.topicRef);
  return new Map(rows.map((r) => [r.topicRef, r]));
}

export async function present(db: Db, rows: YouscanRow[]): Promise<PresentedYouscan[]> {
  const byId = await counts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    space_id: r.spaceId,
    name: r.name,
    topic_id: r.topicId,
    has_api_key: r.apiKeySealed.length > 0,
    status: r.status ?? null,
    last_import_at: unix(r.lastImportAt),
    cursor: unix(r.cursor),
    total: byId.get(r.id)?.total ?? 0,
    unread: byId.get(r.id)?.unread ?? 0,
    created_at: unix(r.createdAt)!,
  }));
}

export async function listTopics(db: Db, spaceIds: number[]) {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(youscanTopics)
    .where(inArray(youscanTopics.spaceId, spaceIds))
    .orderBy(asc(youscanTopics.id));
}

/** Unread YouScan mentions in the spaces the actor may read them (part of monitoring_count). */
export async function unreadCount(db: Db, actor: ServerActor) {
  const spaceIds = youscanSpaces(actor);
  if (spaceIds.length === 0) return 0;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(youscanMentions)
    .where(and(isNull(youscanMentions.readAt), inArray(youscanMentions.spaceId, spaceIds)));
  return row?.n ?? 0;
}

export async function createTopic(
  db: Db,
  sealer: Sealer,
  actor: ServerActor,
  input: YouscanForm & { space_id: number },
): Promise<YouscanRow> {
  assertYouscan(actor, input.space_id);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(youscanTopics)
    .where(eq(youscanTopics.spaceId, input.space_id));
  if ((count?.n ?? 0) >= YOUSCAN_TOPICS_MAX)
    throw new AppError(400, 'youscan.topics.tooMany', { params: { limit: YOUSCAN_TOPICS_MAX } });
  return auditedWrite(
    db,
    actor,
    async (tx) => {
      const [row] = await tx
        .insert(youscanTopics)
        .values({
          spaceId: input.space_id,
          name: input.name,
          topicId: input.topic_id,
          apiKeySealed: sealer.seal(input.api_key),
          createdBy: actor.userId,
        })
        .returning();
      return row!;
    },
    (row) => ({
      spaceId: row.spaceId,
      kind: 'youscan_topic.created',
      target: { type: 'youscan_topic', id: row.id, label: row.name },
      after: { name: row.name, topic_id: row.topicId },
    }),
  );
}

export async function updateTopic(
  db: Db,
  sealer: Sealer,
  actor: ServerActor,
  row: YouscanRow,
  input: Partial<YouscanForm>,
): Promise<YouscanRow> {
  const topicChanged = input.topic_id !== undefined && input.topic_id !== row.topicId;
  return auditedWrite(
    db,
    actor,
    async (tx) => {
      const [next] = await tx
        .update(youscanTopics)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.topic_id !== undefined ? { topicId: input.topic_id } : {}),
          ...(input.api_key ? { apiKeySealed: sealer.seal(input.api_key) } : {}),
          // Another topic starts its own history; a new key is checked by the next import.
          ...(topicChanged ? { cursor: null } : {}),
          ...(topicChanged || input.api_key ? { status: null } : {}),
          updatedAt: new Date(),
        })
        .where(eq(youscanTopics.id, row.id))
        .returning();
      return next!;
    },
    (next) => ({
      spaceId: row.spaceId,
      kind: 'youscan_topic.updated',
      target: { type: 'youscan_topic', id: row.id, label: next.name },
      before: { name: row.name, topic_id: row.topicId },
      after: { name: next.name, topic_id: next.topicId, key_changed: Boolean(input.api_key) },
    }),
  );
}

export async function deleteTopic(db: Db, bus: EventBus, actor: ServerActor, row: YouscanRow) {
  await auditedWrite(
    db,
    actor,
    (tx) => tx.delete(youscanTopics).where(eq(youscanTopics.id, row.id)),
    () => ({
      spaceId: row.spaceId,
      kind: 'youscan_topic.deleted',
      target: { type: 'youscan_topic', id: row.id, label: row.name },
      before: { name: row.name, topic_id: row.topicId },
    }),
  );
  await bus.publish({ type: YOUSCAN_EVENT, spaceId: row.spaceId, payload: { topic_ids: [row.id] } });
}

/**
 * Imports a topic's mentions published since its cursor (the first time: the last week) up to `now`,
 * page by page. Each mention is stored once per topic (unique YouScan id), so overlapping windows and
 * repeated runs add nothing. When every page was read the cursor moves to the newest published time.
 * A refused key or an unknown topic is remembered on the topic (its status) and thrown.
 */
export async function importTopic(
  db: Db,
  bus: EventBus,
  sealer: Sealer,
  base: string,
  row: YouscanRow,
  now = new Date(),
): Promise<{ imported: number; fetched: number }> {
  const from = row.cursor ?? new Date(now.getTime() - YOUSCAN_FIRST_IMPORT_DAYS * 86_400_000);
  const apiKey = sealer.open(row.apiKeySealed);
  let skip = 0;
  let fetched = 0;
  let imported = 0;
  let newest = row.cursor;
  let complete = false;
  try {
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const answer = await fetchMentions(base, { apiKey, topicId: row.topicId, from, to: now, skip });
      const list = answer.mentions;
      if (list.length > 0) {
        const inserted = await db
          .insert(youscanMentions)
          .values(
            list.map((m) => ({
              spaceId: row.spaceId,
              topicRef: row.id,
              externalId: m.id,
              url: m.url,
              text: m.text,
              authorName: m.authorName,
              authorUrl: m.authorUrl,
              source: m.source,
              sentiment: youscanSentiment(m.sentiment),
              publishedAt: m.published,
            })),
          )
          .onConflictDoNothing()
          .returning({ id: youscanMentions.id });
        imported += inserted.length;
        for (const m of list) if (!newest || m.published > newest) newest = m.published;
      }
      fetched += list.length;
      skip += YOUSCAN_FETCH_SIZE;
      if (list.length === 0 || skip >= answer.total) {
        complete = true;
        break;
      }
    }
  } catch (error) {
    if (error instanceof YouscanError)
      await db.update(youscanTopics).set({ status: error.failure }).where(eq(youscanTopics.id, row.id));
    throw error;
  }
  await db
    .update(youscanTopics)
    .set({ status: 'ok', lastImportAt: now, ...(complete ? { cursor: newest } : {}) })
    .where(eq(youscanTopics.id, row.id));
  await bus.publish({
    type: YOUSCAN_EVENT,
    spaceId: row.spaceId,
    payload: { topic_ids: [row.id], imported },
  });
  return { imported, fetched };
}

/**
 * Every topic of a space with YouScan on, in turn (the job); a failing one is left for the next run, its
 * status shows why. A space whose YouScan was switched off keeps its topics but imports nothing.
 */
export async function importAll(db: Db, bus: EventBus, sealer: Sealer, base: string, now = new Date()) {
  const rows = (
    await db
      .select({ topic: youscanTopics })
      .from(youscanTopics)
      .innerJoin(spaces, eq(spaces.id, youscanTopics.spaceId))
      .where(sql`(${spaces.settings}->>'youscan') = 'true'`)
      .orderBy(asc(youscanTopics.id))
  ).map((r) => r.topic);
  let imported = 0;
  for (const row of rows) {
    try {
      imported += (await importTopic(db, bus, sealer, base, row, now)).imported;
    } catch {
      // the status on the topic tells its page what went wrong
    }
  }
  return { topics: rows.length, imported };
}

export async function listMentions(
  db: Db,
  row: YouscanRow,
  page: number,
): Promise<{ items: YouscanMentionDto[]; has_more: boolean }> {
  const rows = await db
    .select()
    .from(youscanMentions)
    .where(eq(youscanMentions.topicRef, row.id))
    .orderBy(desc(youscanMentions.publishedAt), desc(youscanMentions.id))
    .limit(YOUSCAN_PAGE_SIZE + 1)
    .offset((page - 1) * YOUSCAN_PAGE_SIZE);
  return {
    has_more: rows.length > YOUSCAN_PAGE_SIZE,
    items: rows.slice(0, YOUSCAN_PAGE_SIZE).map((r) => ({
      id: r.id,
      topic_ref: r.topicRef,
      external_id: r.externalId,
      url: r.url,
      text: r.text,
      author_name: r.authorName,
      author_url: r.authorUrl,
      source: r.source,
      sentiment: youscanSentiment(r.sentiment),
      published_at: unix(r.publishedAt)!,
      read: r.readAt !== null,
    })),
  };
}

export async function markRead(db: Db, bus: EventBus, row: YouscanRow, ids: number[] | undefined) {
  const updated = await db
    .update(youscanMentions)
    .set({ readAt: new Date() })
    .where(
      and(
        eq(youscanMentions.topicRef, row.id),
        isNull(youscanMentions.readAt),
        ids ? inArray(youscanMentions.id, ids.length ? ids : [0]) : undefined,
      ),
    )
    .returning({ id: youscanMentions.id });
  if (updated.length > 0)
    await bus.publish({ type: YOUSCAN_EVENT, spaceId: row.spaceId, payload: { topic_ids: [row.id] } });
  return updated.length;
}
