import { type AccountSettings, isExcluded } from '@otklik/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { selectRows, unnestRows } from '../../../db/rows';
import { authors } from '../../../db/schema';
import type { InboundItem, InboundMessage } from '../../../providers/inbound';
import type { PublishedEvent } from '../../../realtime/bus';
import type { IngestResult, ObjectRow } from './ingest';

// What the parts of one ingestion batch share (ingest.ts items and changes, ingest-messages.ts): the
// order rows are written in, dedupe and the account's exclusions, and the batch's authors, created or
// refreshed in one statement.

/** An event to publish after commit, or one to build then (reads that must not run in the transaction). */
export type Published = PublishedEvent | ((db: Db) => Promise<PublishedEvent>);

export const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const uniqueBy = <T>(rows: T[], key: (row: T) => string) => [
  ...new Map(rows.map((r) => [key(r), r])).values(),
];

/** The events once each (by `key`), without those the account's exclusion `rule` drops (counted as excluded). */
export function keptEvents<T extends InboundItem | InboundMessage>(
  events: T[],
  key: (event: T) => string,
  rule: AccountSettings['exclude'],
  result: IngestResult,
) {
  return uniqueBy(events, key).filter((e) => {
    const excluded =
      !e.isOwn &&
      isExcluded(rule, {
        text: e.text,
        authorId: e.author.externalId,
        authorName: e.author.name,
      });
    if (excluded) result.excluded += 1;
    return !excluded;
  });
}

/**
 * The batch's authors, created or refreshed (name, image), each returned once — one statement: the
 * upsert's RETURNING gives the rows it wrote, the rest are read as they were before it.
 */
/** Sorted: overlapping batches (batcher.ts) then lock the same rows in the same order. */
export const sortedAuthors = (list: Array<InboundItem['author']>) =>
  uniqueBy(list, (a) => a.externalId).sort((a, b) => compare(a.externalId, b.externalId));

/**
 * CTEs `ai` (the batch's authors), `up` (created or refreshed: name, image) and `a` (every one of
 * them, each once: the upsert's RETURNING for the rows it wrote, the rest as they were before it).
 */
export function authorCtes(object: ObjectRow, unique: Array<InboundItem['author']>) {
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
export async function lateAuthors(
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
export async function upsertAuthors(db: Db, object: ObjectRow, list: Array<InboundItem['author']>) {
  const unique = sortedAuthors(list);
  if (unique.length === 0) return new Map<string, typeof authors.$inferSelect>();
  const rows = await selectRows(db, authors, sql`WITH ${authorCtes(object, unique)} SELECT * FROM a`);
  const found = new Map(rows.map((r) => [r.externalId, r]));
  await lateAuthors(db, object, unique, found);
  return found;
}
