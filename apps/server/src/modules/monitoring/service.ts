import {
  MONITORING_PAGE_SIZE,
  type MonitoringMentionDto,
  type MonitoringMentionFilter,
  type MonitoringQueryDto,
  type MonitoringQueryInput,
  spaceSettingsSchema,
} from '@otklik/shared';
import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authors, items, itemTags, monitoringMentions, monitoringQueries, objects } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import type { EventBus } from '../../realtime/bus';
import { auditedWrite } from '../audit/record';
import { scopeCondition, scopeFor } from '../inbox/read/scope';
import { authorize, type ServerActor, spaceIdsWhere } from '../spaces/actor';
import { MONITORING_EVENT } from './matcher';

// Who: members with `monitoring.view` (the role's monitoring flag and the space's monitoring feature)
// list, add, change and delete the space's queries; how many queries a space may have is the space's
// `monitoring_count` setting. Mentions are read inside the caller's `items.view` scope, so a user group
// limited to some accounts sees only mentions from those accounts (counter included).

export const VIEW = 'monitoring.view' as const;

const epoch = (d: Date) => Math.floor(d.getTime() / 1000);

export async function mentionScope(db: Db, actor: ServerActor) {
  const scope = await scopeFor(db, actor, 'items.view');
  const allowed = new Set(spaceIdsWhere(actor, VIEW));
  for (const id of [...scope.spaces.keys()]) if (!allowed.has(id)) scope.spaces.delete(id);
  return scope;
}

/** monitoring_count: unread mentions in the caller's scope. */
export async function unreadCount(db: Db, actor: ServerActor) {
  const scope = await mentionScope(db, actor);
  if (scope.spaces.size === 0) return 0;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(monitoringMentions)
    .where(
      and(
        isNull(monitoringMentions.readAt),
        scopeCondition(scope, monitoringMentions.spaceId, monitoringMentions.objectId),
      ),
    );
  return row?.n ?? 0;
}

export async function listQueries(
  db: Db,
  actor: ServerActor,
  spaceIds: number[],
): Promise<MonitoringQueryDto[]> {
  if (spaceIds.length === 0) return [];
  const scope = await mentionScope(db, actor);
  const rows = await db
    .select()
    .from(monitoringQueries)
    .where(inArray(monitoringQueries.spaceId, spaceIds))
    .orderBy(monitoringQueries.id);
  const counts =
    rows.length === 0
      ? []
      : await db
          .select({
            queryId: monitoringMentions.queryId,
            total: sql<number>`count(*)::int`,
            unread: sql<number>`(count(*) FILTER (WHERE ${monitoringMentions.readAt} IS NULL))::int`,
          })
          .from(monitoringMentions)
          .where(
            and(
              inArray(
                monitoringMentions.queryId,
                rows.map((r) => r.id),
              ),
              scopeCondition(scope, monitoringMentions.spaceId, monitoringMentions.objectId),
            ),
          )
          .groupBy(monitoringMentions.queryId);
  const byId = new Map(counts.map((c) => [c.queryId, c]));
  return rows.map((r) => ({
    id: r.id,
    space_id: r.spaceId,
    name: r.name,
    query: r.query,
    unread: byId.get(r.id)?.unread ?? 0,
    total: byId.get(r.id)?.total ?? 0,
    created_at: epoch(r.createdAt),
  }));
}

export async function getQuery(db: Db, actor: ServerActor, id: number) {
  const [row] = await db.select().from(monitoringQueries).where(eq(monitoringQueries.id, id)).limit(1);
  if (!row || !spaceIdsWhere(actor, VIEW).includes(row.spaceId)) throw notFound();
  return row;
}

function limitOf(actor: ServerActor, spaceId: number) {
  const row = actor.rows.find((r) => r.space.id === spaceId);
  return row ? spaceSettingsSchema.parse(row.space.settings).monitoring_count : 0;
}

export async function createQuery(db: Db, actor: ServerActor, input: MonitoringQueryInput) {
  authorize(actor, VIEW, input.space_id);
  const limit = limitOf(actor, input.space_id);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(monitoringQueries)
    .where(eq(monitoringQueries.spaceId, input.space_id));
  if ((count?.n ?? 0) >= limit) throw new AppError(400, 'monitoring.queries.tooMany', { params: { limit } });
  return auditedWrite(
    db,
    actor,
    async (tx) => {
      const [row] = await tx
        .insert(monitoringQueries)
        .values({ spaceId: input.space_id, name: input.name, query: input.query, createdBy: actor.userId })
        .returning();
      return row!;
    },
    (row) => ({
      spaceId: row.spaceId,
      kind: 'monitoring_query.created',
      target: { type: 'monitoring_query', id: row.id, label: row.name },
      after: { name: row.name, query: row.query },
    }),
  );
}

export async function updateQuery(db: Db, actor: ServerActor, id: number, input: MonitoringQueryInput) {
  const row = await getQuery(db, actor, id);
  if (row.spaceId !== input.space_id) throw notFound();
  return auditedWrite(
    db,
    actor,
    async (tx) => {
      const [updated] = await tx
        .update(monitoringQueries)
        .set({ name: input.name, query: input.query, updatedAt: new Date() })
        .where(eq(monitoringQueries.id, id))
        .returning();
      return updated!;
    },
    (updated) => ({
      spaceId: row.spaceId,
      kind: 'monitoring_query.updated',
      target: { type: 'monitoring_query', id, label: updated.name },
      before: { name: row.name, query: row.query },
      after: { name: updated.name, query: updated.query },
    }),
  );
}

export async function deleteQuery(db: Db, bus: EventBus, actor: ServerActor, id: number) {
  const row = await getQuery(db, actor, id);
  await auditedWrite(
    db,
    actor,
    (tx) => tx.delete(monitoringQueries).where(eq(monitoringQueries.id, id)),
    () => ({
      spaceId: row.spaceId,
      kind: 'monitoring_query.deleted',
      target: { type: 'monitoring_query', id, label: row.name },
      before: { name: row.name, query: row.query },
    }),
  );
  await bus.publish({ type: MONITORING_EVENT, spaceId: row.spaceId, payload: { query_ids: [id] } });
}

/** The narrowing of a query's mentions (account, network, sentiment, read state) as SQL. */
function filterCondition(filter: MonitoringMentionFilter) {
  return and(
    filter.object_id ? eq(monitoringMentions.objectId, filter.object_id) : undefined,
    filter.provider ? eq(objects.provider, filter.provider) : undefined,
    filter.sentiment ? eq(items.sentiment, filter.sentiment) : undefined,
    filter.read === 'unread' ? isNull(monitoringMentions.readAt) : undefined,
    filter.read === 'read' ? isNotNull(monitoringMentions.readAt) : undefined,
  );
}

/** One query's mentions, newest first, a page at a time, inside the caller's scope, narrowed by `filter`. */
export async function listMentions(
  db: Db,
  actor: ServerActor,
  queryId: number,
  page: number,
  filter: MonitoringMentionFilter = {},
): Promise<{ items: MonitoringMentionDto[]; has_more: boolean }> {
  await getQuery(db, actor, queryId);
  const scope = await mentionScope(db, actor);
  const rows = await db
    .select({
      id: monitoringMentions.id,
      queryId: monitoringMentions.queryId,
      itemId: monitoringMentions.itemId,
      objectId: monitoringMentions.objectId,
      provider: objects.provider,
      text: items.text,
      url: items.url,
      authorName: authors.name,
      matchedAt: monitoringMentions.matchedAt,
      readAt: monitoringMentions.readAt,
      sentiment: items.sentiment,
      status: items.status,
    })
    .from(monitoringMentions)
    .innerJoin(items, eq(items.id, monitoringMentions.itemId))
    .innerJoin(objects, eq(objects.id, monitoringMentions.objectId))
    .leftJoin(authors, eq(authors.id, items.authorId))
    .where(
      and(
        eq(monitoringMentions.queryId, queryId),
        scopeCondition(scope, monitoringMentions.spaceId, monitoringMentions.objectId),
        filterCondition(filter),
      ),
    )
    .orderBy(desc(monitoringMentions.matchedAt), desc(monitoringMentions.id))
    .limit(MONITORING_PAGE_SIZE + 1)
    .offset((page - 1) * MONITORING_PAGE_SIZE);
  const shown = rows.slice(0, MONITORING_PAGE_SIZE);
  const tagRows =
    shown.length === 0
      ? []
      : await db
          .select({ itemId: itemTags.itemId, tagId: itemTags.tagId })
          .from(itemTags)
          .where(
            inArray(
              itemTags.itemId,
              shown.map((r) => r.itemId),
            ),
          );
  const tagsOf = new Map<number, number[]>();
  for (const t of tagRows) tagsOf.set(t.itemId, [...(tagsOf.get(t.itemId) ?? []), t.tagId]);
  return {
    has_more: rows.length > MONITORING_PAGE_SIZE,
    items: shown.map((r) => ({
      id: r.id,
      query_id: r.queryId,
      item_id: r.itemId,
      object_id: r.objectId,
      provider: r.provider,
      text: r.text,
      author_name: r.authorName ?? null,
      url: r.url ?? null,
      matched_at: epoch(r.matchedAt),
      read: r.readAt !== null,
      sentiment: r.sentiment ?? null,
      status: r.status,
      tag_ids: (tagsOf.get(r.itemId) ?? []).sort((a, b) => a - b),
    })),
  };
}

/** Marks mentions read: the listed ones, or all of one query. Only inside the caller's scope. */
export async function markRead(
  db: Db,
  bus: EventBus,
  actor: ServerActor,
  queryId: number,
  mentionIds: number[] | undefined,
) {
  const query = await getQuery(db, actor, queryId);
  const scope = await mentionScope(db, actor);
  const updated = await db
    .update(monitoringMentions)
    .set({ readAt: new Date() })
    .where(
      and(
        eq(monitoringMentions.queryId, queryId),
        isNull(monitoringMentions.readAt),
        mentionIds ? inArray(monitoringMentions.id, mentionIds.length ? mentionIds : [0]) : undefined,
        scopeCondition(scope, monitoringMentions.spaceId, monitoringMentions.objectId),
      ),
    )
    .returning({ id: monitoringMentions.id });
  if (updated.length > 0)
    await bus.publish({ type: MONITORING_EVENT, spaceId: query.spaceId, payload: { query_ids: [queryId] } });
  return updated.length;
}
