import {
  FEED_PROVIDER,
  MONITORING_FEEDS_MAX,
  type MonitoringFeedForm,
  type MonitoringNode,
  matchesMonitoring,
  monitoringText,
  type PresentedMonitoringFeed,
  parseMonitoringQuery,
} from '@otklik/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { monitoringQueries, objects } from '../../../db/schema';
import { AppError, notFound } from '../../../lib/errors';
import type { Logger } from '../../../lib/logger';
import { assertPublicUrl, type MediaNetwork } from '../../../providers/public-network';
import { ConnectorError, storedFailure } from '../../../providers/types';
import type { EventBus } from '../../../realtime/bus';
import { auditedWrite } from '../../audit/record';
import { ingest } from '../../inbox/ingest/ingest';
import { authorize, type ServerActor, spaceIdsWhere } from '../../spaces/actor';
import { type FeedEntry, type FeedValidators, fetchFeed } from './fetch';

// RSS/Atom monitoring sources (issue 21). A feed is an account of the space (an `objects` row of
// provider `rss`), so the entries it brings are items of that account and their mentions are exactly
// the mentions of a connected network: same list, counter, socket message, filters and actions. Only
// entries that match one of the space's queries are stored (a feed is not an inbox). Where the fetch
// stands lives on the row: `poll_cursor` holds the validators and the last fetch time, `error` the
// last failure (encoded, shown in the reader's language) — so no table of its own.

/** Managing feeds is an administrator's (accounts.manage) in a space with monitoring on. */
export function feedSpaces(actor: ServerActor): number[] {
  const monitoring = new Set(spaceIdsWhere(actor, 'monitoring.view'));
  return spaceIdsWhere(actor, 'accounts.manage').filter((id) => monitoring.has(id));
}

function authorizeFeeds(actor: ServerActor, spaceId: number) {
  authorize(actor, 'accounts.manage', spaceId);
  authorize(actor, 'monitoring.view', spaceId);
}

export type FeedRow = typeof objects.$inferSelect;
interface FeedCursor extends FeedValidators {
  fetched_at?: number;
}

function cursorOf(row: FeedRow): FeedCursor {
  try {
    return row.pollCursor ? (JSON.parse(row.pollCursor) as FeedCursor) : {};
  } catch {
    return {};
  }
}

export function presentFeed(row: FeedRow): PresentedMonitoringFeed {
  const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);
  return {
    id: row.id,
    space_id: row.spaceId,
    object_id: row.id,
    name: row.name,
    url: row.url ?? '',
    last_fetched_at: cursorOf(row).fetched_at ?? null,
    last_error: row.error,
    last_error_at: unix(row.errorAt),
    created_at: unix(row.createdAt)!,
  };
}

export async function listFeeds(db: Db, spaceIds: number[]) {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(objects)
    .where(and(inArray(objects.spaceId, spaceIds), eq(objects.provider, FEED_PROVIDER)))
    .orderBy(asc(objects.id));
}

export async function getFeed(db: Db, actor: ServerActor, id: number) {
  const [row] = await db
    .select()
    .from(objects)
    .where(and(eq(objects.id, id), eq(objects.provider, FEED_PROVIDER)))
    .limit(1);
  // Another space's feed and no feed look the same.
  if (!row || !feedSpaces(actor).includes(row.spaceId)) throw notFound();
  return row;
}

export interface FeedNetwork {
  network?: MediaNetwork;
  allowPrivate: boolean;
}

/** The URL is refused at the door when it is not http(s) or leads into a private network. */
async function assertFeedUrl(url: string, net: FeedNetwork) {
  try {
    await assertPublicUrl(url, net);
  } catch (error) {
    // A name that does not resolve now may later: the fetch shows it on the feed instead.
    if (error instanceof ConnectorError && error.kind === 'temporary') return;
    const key = error instanceof ConnectorError && error.reason?.key === 'failure.privateAddress';
    throw new AppError(400, key ? 'monitoring.feed.url.private' : 'monitoring.feed.url.invalid', {
      fields: { url: key ? 'monitoring.feed.url.private' : 'monitoring.feed.url.invalid' },
    });
  }
}

async function assertUrlFree(db: Db, spaceId: number, url: string, except?: number) {
  const [taken] = await db
    .select({ id: objects.id })
    .from(objects)
    .where(and(eq(objects.spaceId, spaceId), eq(objects.provider, FEED_PROVIDER), eq(objects.url, url)))
    .limit(1);
  if (taken && taken.id !== except)
    throw new AppError(400, 'monitoring.feed.url.taken', { fields: { url: 'monitoring.feed.url.taken' } });
}

export async function createFeed(
  db: Db,
  actor: ServerActor,
  net: FeedNetwork,
  input: MonitoringFeedForm & { space_id: number },
) {
  authorizeFeeds(actor, input.space_id);
  await assertFeedUrl(input.url, net);
  return auditedWrite(
    db,
    actor,
    async (tx) => {
      const [count] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(objects)
        .where(and(eq(objects.spaceId, input.space_id), eq(objects.provider, FEED_PROVIDER)));
      if ((count?.n ?? 0) >= MONITORING_FEEDS_MAX)
        throw new AppError(400, 'monitoring.feeds.tooMany', { params: { limit: MONITORING_FEEDS_MAX } });
      await assertUrlFree(tx, input.space_id, input.url);
      const [row] = await tx
        .insert(objects)
        .values({ spaceId: input.space_id, provider: FEED_PROVIDER, name: input.name, url: input.url })
        .returning();
      return row!;
    },
    (row) => ({
      spaceId: row.spaceId,
      kind: 'monitoring_feed.created',
      target: { type: 'monitoring_feed', id: row.id, label: row.name },
      after: { name: row.name, url: row.url },
    }),
  );
}

export async function updateFeed(
  db: Db,
  actor: ServerActor,
  net: FeedNetwork,
  row: FeedRow,
  input: Partial<MonitoringFeedForm>,
) {
  const urlChanged = input.url !== undefined && input.url !== row.url;
  if (urlChanged) {
    await assertFeedUrl(input.url!, net);
    await assertUrlFree(db, row.spaceId, input.url!, row.id);
  }
  return auditedWrite(
    db,
    actor,
    async (tx) => {
      const [updated] = await tx
        .update(objects)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          // Another address starts over: its validators and error belong to the old one.
          ...(urlChanged ? { url: input.url, pollCursor: null, error: null, errorAt: null } : {}),
        })
        .where(eq(objects.id, row.id))
        .returning();
      return updated!;
    },
    (updated) => ({
      spaceId: row.spaceId,
      kind: 'monitoring_feed.updated',
      target: { type: 'monitoring_feed', id: row.id, label: updated.name },
      before: { name: row.name, url: row.url },
      after: { name: updated.name, url: updated.url },
    }),
  );
}

/** Removing a feed removes its account, so its items and their mentions go with it. */
export async function deleteFeed(db: Db, actor: ServerActor, row: FeedRow) {
  await auditedWrite(
    db,
    actor,
    (tx) => tx.delete(objects).where(eq(objects.id, row.id)),
    () => ({
      spaceId: row.spaceId,
      kind: 'monitoring_feed.deleted',
      target: { type: 'monitoring_feed', id: row.id, label: row.name },
      before: { name: row.name, url: row.url },
    }),
  );
}

function hostOf(url: string | null) {
  try {
    return url ? new URL(url).hostname : 'feed';
  } catch {
    return 'feed';
  }
}

/** An entry as the pipeline's inbound item: a public mention by its author (or the site). */
function inboundOf(row: FeedRow, entry: FeedEntry, text: string, now: Date) {
  const author = entry.author ?? row.name;
  return {
    type: 'item' as const,
    kind: 'mention' as const,
    externalId: entry.key,
    author: { externalId: `${hostOf(row.url)}:${author}`.slice(0, 255), name: author.slice(0, 512) },
    text,
    ...(entry.link ? { url: entry.link.slice(0, 4096) } : {}),
    createdAt: entry.publishedAt ?? now,
  };
}

export interface FeedRunDeps {
  db: Db;
  bus: EventBus;
  net: FeedNetwork;
  log?: Logger;
}

/**
 * Fetches one feed and stores its new matching entries. A redelivered entry (same guid / id / link) is
 * a duplicate for the pipeline and lands once; a 304 changes nothing but the fetch time. A failure is
 * kept on the feed (shown with its time) and cleared by the next good fetch; it is not thrown.
 */
export async function refreshFeed(deps: FeedRunDeps, row: FeedRow, now = new Date()) {
  const cursor = cursorOf(row);
  try {
    const answer = await fetchFeed(row.url ?? '', cursor, deps.net);
    let created = 0;
    if (!answer.notModified) {
      const queries = await deps.db
        .select({ query: monitoringQueries.query })
        .from(monitoringQueries)
        .where(eq(monitoringQueries.spaceId, row.spaceId));
      const nodes = queries.flatMap((q) => {
        const p = parseMonitoringQuery(q.query);
        return p.ok ? [p.node as MonitoringNode] : [];
      });
      const events = answer.entries.flatMap((entry) => {
        const text = [entry.title, entry.summary].filter(Boolean).join('\n\n');
        if (!text) return [];
        const words = monitoringText(text);
        return nodes.some((n) => matchesMonitoring(n, words)) ? [inboundOf(row, entry, text, now)] : [];
      });
      if (events.length > 0)
        created = (await ingest({ db: deps.db, bus: deps.bus }, row, events, { arrivesClosed: true }))
          .created;
    }
    const next: FeedCursor = { ...answer.validators, fetched_at: Math.floor(now.getTime() / 1000) };
    const [updated] = await deps.db
      .update(objects)
      .set({ pollCursor: JSON.stringify(next), error: null, errorAt: null })
      .where(eq(objects.id, row.id))
      .returning();
    return { feed: updated ?? row, created, notModified: answer.notModified };
  } catch (error) {
    deps.log?.warn({ feed: row.id, err: (error as Error).message }, 'Feed fetch failed');
    const next: FeedCursor = { ...cursor, fetched_at: Math.floor(now.getTime() / 1000) };
    const [updated] = await deps.db
      .update(objects)
      .set({ pollCursor: JSON.stringify(next), error: storedFailure(error), errorAt: now })
      .where(eq(objects.id, row.id))
      .returning();
    return { feed: updated ?? row, created: 0, notModified: false };
  }
}

/** Every active feed of every space, one after another (jobs/monitoring-feeds.ts). */
export async function refreshAllFeeds(deps: FeedRunDeps, now = new Date()) {
  const rows = await deps.db
    .select()
    .from(objects)
    .where(and(eq(objects.provider, FEED_PROVIDER), eq(objects.isActive, true)))
    .orderBy(asc(objects.id));
  let created = 0;
  for (const row of rows) created += (await refreshFeed(deps, row, now)).created;
  return { feeds: rows.length, created };
}
