import { type NotificationWatchWire, translate } from '@otklik/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  items,
  memberships,
  notificationWatches,
  objects,
  ruleQueue,
  savedFilters,
  spaces,
  tariffs,
  userGroups,
  users,
} from '../../db/schema';
import { type InboxScope, inScope, scopeFor } from '../inbox/read/scope';
import { actorOf, type MembershipRow } from '../spaces/actor';
import { type NotifyDeps, notify } from './service';

// Watches (issue 18): "a new item in the accounts I chose" (`new_item`) and "a new item matching my saved
// comments filter" (`comments_filter`). The ingestion pipeline queues the arrivals of a space that has a
// watch in the same transaction (the rules' queue, with the `notify` trigger) and the rules worker
// matches them after the commit: intake never waits for the matching.

/** The rule_queue trigger of arrivals queued for the watches. */
export const NOTIFY_QUEUE_TRIGGER = 'notify' as const;

/**
 * Called inside the ingestion transaction: true when something was queued (wake the worker). One
 * statement: the arrivals are inserted only when the space has a watch.
 */
export async function queueWatchedArrivals(db: Db, spaceId: number, itemIds: number[]): Promise<boolean> {
  if (itemIds.length === 0) return false;
  const queued = (await db.execute(sql`
    INSERT INTO ${ruleQueue} (space_id, item_id, trigger)
    SELECT ${spaceId}, arrived.id, ${NOTIFY_QUEUE_TRIGGER}
    FROM unnest(${`{${itemIds.map((id) => Math.trunc(id)).join(',')}}`}::bigint[]) WITH ORDINALITY AS arrived(id, n)
    WHERE EXISTS (
      SELECT 1 FROM ${notificationWatches} w
      WHERE w.space_id = ${spaceId}
        AND (jsonb_array_length(w.object_ids) > 0 OR jsonb_array_length(w.filter_ids) > 0)
    )
    ORDER BY arrived.n
    RETURNING id`)) as unknown as { rows: unknown[] };
  return queued.rows.length > 0;
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

/** Who is told about one arrived item, and how: the outcome of matching the space's watches. */
/** What matching and the notification need of an arrived item. */
const arrivalColumns = {
  id: items.id,
  spaceId: items.spaceId,
  objectId: items.objectId,
  authorId: items.authorId,
  isOwn: items.isOwn,
  text: items.text,
  excerpt: items.excerpt,
  createdAt: items.createdAt,
};
type ArrivedItem = { [K in keyof typeof arrivalColumns]: (typeof items.$inferSelect)[K] };

export interface ArrivalMatch {
  item: ArrivedItem;
  objectName: string;
  /** Users whose saved comments filter matched (and who may see the item), with the filter's name. */
  byFilter: Map<number, string>;
  /** Users who watch the item's account (and may see it) and whose filters did not match. */
  accountOnly: number[];
}

type Arrival = { item: ArrivedItem; objectName: string; provider: string };

interface SpaceWatches {
  watches: Array<typeof notificationWatches.$inferSelect>;
  filters: Map<number, typeof savedFilters.$inferSelect>;
  /** The watchers who are members of the space, with their membership there. */
  members: Map<number, { user: typeof users.$inferSelect; row: MembershipRow }>;
  groups: Array<typeof userGroups.$inferSelect>;
}

/**
 * What matching reads, read for a whole batch of arrivals at once (one rules-worker tick): the items, and
 * per space its watches, the watchers' saved filters, their memberships and user groups — a handful of
 * queries per batch instead of a dozen per item. It lives for one batch only, so a watch, filter,
 * membership or group changed meanwhile is seen by the next batch, as it was seen by the next item.
 */
export class MatchCache {
  private readonly arrivals = new Map<number, Arrival | null>();
  private readonly spaces = new Map<number, Promise<SpaceWatches>>();
  private readonly scopes = new Map<string, Promise<InboxScope>>();

  constructor(private readonly db: Db) {}

  /** Reads these items and what their spaces' matching needs, in a few queries. */
  async prefetch(itemIds: number[]): Promise<void> {
    const missing = [...new Set(itemIds)].filter((id) => !this.arrivals.has(id));
    if (missing.length === 0) return;
    const rows = await this.db
      .select({ item: arrivalColumns, objectName: objects.name, provider: objects.provider })
      .from(items)
      .innerJoin(objects, eq(objects.id, items.objectId))
      .where(inArray(items.id, missing));
    for (const id of missing) this.arrivals.set(id, null);
    for (const row of rows) this.arrivals.set(row.item.id, row);
    const spaceIds = [...new Set(rows.filter((r) => !r.item.isOwn).map((r) => r.item.spaceId))];
    this.load(spaceIds.filter((id) => !this.spaces.has(id)));
    await Promise.all(spaceIds.map((id) => this.spaces.get(id)));
  }

  async arrival(itemId: number): Promise<Arrival | null> {
    if (!this.arrivals.has(itemId)) await this.prefetch([itemId]);
    return this.arrivals.get(itemId) ?? null;
  }

  space(spaceId: number): Promise<SpaceWatches> {
    if (!this.spaces.has(spaceId)) this.load([spaceId]);
    return this.spaces.get(spaceId)!;
  }

  /** Whether a watcher may see an item of this account now: the inbox scope, as every list uses it. */
  async visible(spaceId: number, objectId: number, userId: number): Promise<boolean> {
    const space = await this.space(spaceId);
    const member = space.members.get(userId);
    if (!member) return false;
    const key = `${spaceId}:${userId}`;
    if (!this.scopes.has(key))
      this.scopes.set(key, scopeFor(this.db, actorOf(member.user, [member.row]), 'items.view', space.groups));
    return inScope(await this.scopes.get(key)!, spaceId, objectId);
  }

  private load(spaceIds: number[]) {
    if (spaceIds.length === 0) return;
    const loading = this.read(spaceIds);
    for (const id of spaceIds) {
      const space = loading.then((bySpace) => bySpace.get(id)!);
      this.spaces.set(id, space);
      // A failed read is not kept: the next item of the space reads again.
      space.catch(() => {
        if (this.spaces.get(id) === space) this.spaces.delete(id);
      });
    }
  }

  /** Two queries for any number of spaces: the watches with their watchers' memberships, then the filters. */
  private async read(spaceIds: number[]): Promise<Map<number, SpaceWatches>> {
    const { db } = this;
    // A watcher who is no longer a member of the space drops out here: they may not see its items.
    const rows = await db
      .select({
        watch: notificationWatches,
        user: users,
        space: spaces,
        tariff: tariffs,
        membership: memberships,
        group: userGroups,
      })
      .from(notificationWatches)
      .innerJoin(
        memberships,
        and(
          eq(memberships.spaceId, notificationWatches.spaceId),
          eq(memberships.userId, notificationWatches.userId),
        ),
      )
      .innerJoin(users, eq(users.id, memberships.userId))
      .innerJoin(spaces, eq(spaces.id, memberships.spaceId))
      .innerJoin(tariffs, eq(tariffs.id, spaces.tariffId))
      .leftJoin(userGroups, eq(userGroups.id, memberships.groupId))
      .where(inArray(notificationWatches.spaceId, spaceIds));
    const filterIds = [...new Set(rows.flatMap((r) => r.watch.filterIds))];
    const filters =
      filterIds.length > 0
        ? await db.select().from(savedFilters).where(inArray(savedFilters.id, filterIds))
        : [];
    const filterById = new Map(filters.map((f) => [f.id, f]));
    const bySpace = new Map<number, SpaceWatches>();
    for (const id of spaceIds)
      bySpace.set(id, { watches: [], filters: new Map(), members: new Map(), groups: [] });
    for (const { watch, user, group, ...row } of rows) {
      const space = bySpace.get(watch.spaceId);
      if (!space) continue;
      space.watches.push(watch);
      space.members.set(user.id, { user, row });
      if (group && !space.groups.some((g) => g.id === group.id)) space.groups.push(group);
      for (const filterId of watch.filterIds) {
        const filter = filterById.get(filterId);
        if (filter) space.filters.set(filterId, filter);
      }
    }
    return bySpace;
  }
}

/**
 * Matches the watches of the item's space against one arrived item: the users whose watched accounts or
 * saved comments filters it falls into, kept to those who may see it now (roles, user groups). Null when
 * nobody is to be told. Reads only (through the batch's cache); `notifyArrival` then writes the
 * notifications.
 */
export async function matchArrival(
  db: Db,
  itemId: number,
  cache = new MatchCache(db),
): Promise<ArrivalMatch | null> {
  const row = await cache.arrival(itemId);
  if (!row || row.item.isOwn) return null;
  const { item } = row;
  const space = await cache.space(item.spaceId);
  if (space.watches.length === 0) return null;
  const byAccount: number[] = [];
  const byFilter = new Map<number, string>();
  const subject = {
    objectId: item.objectId,
    provider: row.provider,
    authorId: item.authorId,
    text: item.text,
    createdAt: item.createdAt,
  };
  for (const watch of space.watches) {
    if (watch.objectIds.includes(item.objectId)) byAccount.push(watch.userId);
    for (const filterId of watch.filterIds) {
      const filter = space.filters.get(filterId);
      if (filter?.userId === watch.userId && matchesSavedQuery(filter.query, subject)) {
        byFilter.set(watch.userId, filter.name);
        break;
      }
    }
  }
  const candidates = [...new Set([...byAccount, ...byFilter.keys()])];
  if (candidates.length === 0) return null;
  // Only those who may see the item now (roles, user groups).
  const visible = new Set<number>();
  for (const userId of candidates)
    if (await cache.visible(item.spaceId, item.objectId, userId)) visible.add(userId);
  for (const userId of [...byFilter.keys()]) if (!visible.has(userId)) byFilter.delete(userId);
  // A filter match says more than an account match: one notification per user, the filter's if both.
  const accountOnly = byAccount.filter((id) => visible.has(id) && !byFilter.has(id));
  if (byFilter.size === 0 && accountOnly.length === 0) return null;
  return { item, objectName: row.objectName, byFilter, accountOnly };
}

/** Runs the watches of the space on one arrived item (the rules worker's `notify` rows). */
export async function notifyArrival(deps: NotifyDeps, itemId: number, cache?: MatchCache) {
  const match = await matchArrival(deps.db, itemId, cache);
  if (!match) return;
  const { item, byFilter, accountOnly } = match;
  const text = (item.excerpt ?? item.text ?? '').slice(0, 300);
  const common = { spaceId: item.spaceId, objectId: item.objectId, itemId: item.id };
  for (const [userId, filter] of byFilter)
    await notify(deps, {
      ...common,
      userIds: [userId],
      event: 'comments_filter',
      content: (locale) => ({ title: translate(locale, 'notify.commentsFilter', { filter }), text }),
    });
  if (accountOnly.length > 0)
    await notify(deps, {
      ...common,
      userIds: accountOnly,
      event: 'new_item',
      content: (locale) => ({
        title: translate(locale, 'notify.newItem', { account: match.objectName }),
        text,
      }),
    });
}

export async function watchOf(db: Db, userId: number, spaceId: number): Promise<NotificationWatchWire> {
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
): Promise<NotificationWatchWire> {
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
