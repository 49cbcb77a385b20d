import { translate } from '@otklik/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { items, notificationWatches, objects, ruleQueue, savedFilters, users } from '../../db/schema';
import { inScope, scopeFor } from '../inbox/scope';
import { loadActor } from '../spaces/actor';
import { type NotifyDeps, notify } from './service';

// Watches (issue 18): "a new item in the accounts I chose" (`new_item`) and "a new item matching my saved
// comments filter" (`comments_filter`). The ingestion pipeline queues the arrivals of a space that has a
// watch in the same transaction (the rules' queue, with the `notify` trigger) and the rules worker
// matches them after the commit: intake never waits for the matching.

/** The rule_queue trigger of arrivals queued for the watches. */
export const NOTIFY_QUEUE_TRIGGER = 'notify' as const;

/** Called inside the ingestion transaction: true when something was queued (wake the worker). */
export async function queueWatchedArrivals(db: Db, spaceId: number, itemIds: number[]): Promise<boolean> {
  if (itemIds.length === 0) return false;
  const [watch] = await db
    .select({ userId: notificationWatches.userId })
    .from(notificationWatches)
    .where(
      and(
        eq(notificationWatches.spaceId, spaceId),
        sql`(jsonb_array_length(${notificationWatches.objectIds}) > 0 OR jsonb_array_length(${notificationWatches.filterIds}) > 0)`,
      ),
    )
    .limit(1);
  if (!watch) return false;
  await db
    .insert(ruleQueue)
    .values(itemIds.map((itemId) => ({ spaceId, itemId, trigger: NOTIFY_QUEUE_TRIGGER })));
  return true;
}

const asList = (value: unknown): string[] =>
  value === undefined || value === null || value === ''
    ? []
    : (Array.isArray(value) ? value : String(value).split(',')).map((v) => String(v).trim()).filter(Boolean);

/**
 * Whether a just-arrived item matches a saved comments filter's query (docs/product/screens-and-routes.md list parameters). A new
 * item is unassigned, untagged and `new`; unknown parameters do not narrow.
 */
export function matchesSavedQuery(
  query: Record<string, unknown>,
  item: { objectId: number; provider: string; authorId: number | null; text: string; createdAt: Date },
): boolean {
  const provider = asList(query.provider);
  if (provider.length > 0 && !provider.includes(item.provider)) return false;
  for (const key of ['object_id', 'source'] as const) {
    const ids = asList(query[key]);
    if (ids.length > 0 && !ids.includes(String(item.objectId))) return false;
  }
  if (asList(query.tag_id).length > 0) return false;
  const assigned = asList(query.assigned_user_id);
  if (assigned.length > 0 && !assigned.includes('none')) return false;
  const status = asList(query.status);
  if (status.length > 0 && !status.includes('new')) return false;
  if (asList(query.close_reason).length > 0) return false;
  const author = asList(query.author_id);
  if (author.length > 0 && !author.includes(String(item.authorId))) return false;
  const seconds = Math.floor(item.createdAt.getTime() / 1000);
  if (query.created_at_from !== undefined && seconds < Number(query.created_at_from)) return false;
  if (query.created_at_to !== undefined && seconds > Number(query.created_at_to)) return false;
  const q = typeof query.q === 'string' ? query.q.trim().toLowerCase() : '';
  if (q && !q.split(/\s+/).every((word) => item.text.toLowerCase().includes(word))) return false;
  return true;
}

/** Runs the watches of the space on one arrived item (the rules worker's `notify` rows). */
export async function notifyArrival(deps: NotifyDeps, itemId: number) {
  const { db } = deps;
  const [row] = await db
    .select({ item: items, objectName: objects.name, provider: objects.provider })
    .from(items)
    .innerJoin(objects, eq(objects.id, items.objectId))
    .where(eq(items.id, itemId))
    .limit(1);
  if (!row || row.item.isOwn) return;
  const { item } = row;
  const watches = await db
    .select()
    .from(notificationWatches)
    .where(eq(notificationWatches.spaceId, item.spaceId));
  if (watches.length === 0) return;
  const filterIds = [...new Set(watches.flatMap((w) => w.filterIds))];
  const filters =
    filterIds.length > 0
      ? await db.select().from(savedFilters).where(inArray(savedFilters.id, filterIds))
      : [];
  const byAccount: number[] = [];
  const byFilter = new Map<number, string>();
  const subject = {
    objectId: item.objectId,
    provider: row.provider,
    authorId: item.authorId,
    text: item.text,
    createdAt: item.createdAt,
  };
  for (const watch of watches) {
    if (watch.objectIds.includes(item.objectId)) byAccount.push(watch.userId);
    const own = filters.find(
      (f) =>
        f.userId === watch.userId && watch.filterIds.includes(f.id) && matchesSavedQuery(f.query, subject),
    );
    if (own) byFilter.set(watch.userId, own.name);
  }
  const candidates = [...new Set([...byAccount, ...byFilter.keys()])];
  if (candidates.length === 0) return;
  // Only those who may see the item now (roles, user groups).
  const people = await db.select().from(users).where(inArray(users.id, candidates));
  const visible = new Set<number>();
  for (const user of people) {
    const scope = await scopeFor(db, await loadActor(db, user), 'items.view');
    if (inScope(scope, item.spaceId, item.objectId)) visible.add(user.id);
  }
  const text = (item.excerpt ?? item.text ?? '').slice(0, 300);
  const common = { spaceId: item.spaceId, objectId: item.objectId, itemId: item.id };
  // A filter match says more than an account match: one notification per user, the filter's if both.
  const filtered = [...byFilter.keys()].filter((id) => visible.has(id));
  for (const userId of filtered)
    await notify(deps, {
      ...common,
      userIds: [userId],
      event: 'comments_filter',
      content: (locale) => ({
        title: translate(locale, 'notify.commentsFilter', { filter: byFilter.get(userId)! }),
        text,
      }),
    });
  const accountOnly = byAccount.filter((id) => visible.has(id) && !byFilter.has(id));
  if (accountOnly.length > 0)
    await notify(deps, {
      ...common,
      userIds: accountOnly,
      event: 'new_item',
      content: (locale) => ({
        title: translate(locale, 'notify.newItem', { account: row.objectName }),
        text,
      }),
    });
}

export async function watchOf(db: Db, userId: number, spaceId: number) {
  const [row] = await db
    .select()
    .from(notificationWatches)
    .where(and(eq(notificationWatches.userId, userId), eq(notificationWatches.spaceId, spaceId)))
    .limit(1);
  const filters = await db
    .select({ id: savedFilters.id, name: savedFilters.name, route: savedFilters.route })
    .from(savedFilters)
    .where(eq(savedFilters.userId, userId))
    .orderBy(savedFilters.id);
  return {
    space_id: spaceId,
    object_ids: row?.objectIds ?? [],
    filter_ids: row?.filterIds ?? [],
    filters: filters
      .filter((f) => f.route === null || f.route === 'items')
      .map(({ id, name }) => ({ id, name })),
  };
}

/** Saves what the user watches; accounts outside the space and filters not theirs are dropped. */
export async function saveWatch(
  db: Db,
  userId: number,
  spaceId: number,
  input: { object_ids: number[]; filter_ids: number[] },
) {
  const accounts =
    input.object_ids.length > 0
      ? await db
          .select({ id: objects.id })
          .from(objects)
          .where(and(eq(objects.spaceId, spaceId), inArray(objects.id, input.object_ids)))
      : [];
  const filters =
    input.filter_ids.length > 0
      ? await db
          .select({ id: savedFilters.id })
          .from(savedFilters)
          .where(and(eq(savedFilters.userId, userId), inArray(savedFilters.id, input.filter_ids)))
      : [];
  const values = {
    objectIds: accounts.map((a) => a.id).sort((a, b) => a - b),
    filterIds: filters.map((f) => f.id).sort((a, b) => a - b),
    updatedAt: new Date(),
  };
  await db
    .insert(notificationWatches)
    .values({ userId, spaceId, ...values })
    .onConflictDoUpdate({ target: [notificationWatches.userId, notificationWatches.spaceId], set: values });
  return watchOf(db, userId, spaceId);
}
