import { type MonitoringNode, matchesMonitoring, monitoringText, parseMonitoringQuery } from '@otklik/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { monitoringMentions, monitoringQueries } from '../../db/schema';
import type { Published } from '../inbox/ingest/ingest-batch';

/** The socket message when mentions land: query ids only, never content (the screen reloads in scope). */
export const MONITORING_EVENT = 'monitoring';

/**
 * Matching in the ingestion pipeline (issue 21, modules/inbox/ingest/ingest.ts): every received public item
 * (comments, reviews, posts — never personal messages) is checked against the space's keyword queries in
 * the same transaction that stores it; a match is a mention. One read of the space's queries per batch.
 */
export async function matchArrivals(
  db: Db,
  spaceId: number,
  rows: Array<{ id: number; objectId: number; text: string; isOwn: boolean }>,
  published: Published[],
) {
  const received = rows.filter((r) => !r.isOwn && r.text.trim() !== '');
  if (received.length === 0) return;
  const queries = await db
    .select({ id: monitoringQueries.id, query: monitoringQueries.query })
    .from(monitoringQueries)
    .where(eq(monitoringQueries.spaceId, spaceId));
  if (queries.length === 0) return;
  const parsed = queries.flatMap((q) => {
    const p = parseMonitoringQuery(q.query);
    return p.ok ? [{ id: q.id, node: p.node as MonitoringNode }] : [];
  });
  const values: Array<typeof monitoringMentions.$inferInsert> = [];
  for (const row of received) {
    const words = monitoringText(row.text);
    for (const q of parsed)
      if (matchesMonitoring(q.node, words))
        values.push({ spaceId, queryId: q.id, itemId: row.id, objectId: row.objectId });
  }
  if (values.length === 0) return;
  const inserted = await db
    .insert(monitoringMentions)
    .values(values)
    .onConflictDoNothing()
    .returning({ queryId: monitoringMentions.queryId });
  if (inserted.length === 0) return;
  published.push({
    type: MONITORING_EVENT,
    spaceId,
    payload: { query_ids: [...new Set(inserted.map((r) => r.queryId))] },
  });
}
