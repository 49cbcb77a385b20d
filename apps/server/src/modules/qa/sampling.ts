import type { QaConditions } from '@otklik/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { qaScorecards } from '../../db/schema';

// Which replies are reviewed (docs/product/qa.md "Sampling"). A reply is an operator's own comment reply
// (items.is_own) or own chat message (messages.is_own) with a user behind it (rules and bots have none).
//
// - Random share: for a finished week (Monday 00:00 to the next in the space's time zone — the weeks a
//   support lead talks about), each operator's replies are
//   ordered by md5(seed : scorecard : kind : id) and the first ceil(n × percent / 100) are taken. The
//   order depends only on the seed and the ids, so a re-run picks the same replies; an operator who has
//   random samples of that week already is skipped (a re-run adds nothing).
// - Conditions: every reply of the previous and the current week that matches all of the scorecard's
//   non-empty lists (accounts, networks, operators) is taken as it comes.
// The unique key (scorecard, kind, reply) keeps one sample per reply and scorecard.

const DAY_MS = 86_400_000;

/** Monday 00:00 UTC of the week holding `at` (the figures' window; sampling uses the space's weeks). */
export function weekStart(at: Date): Date {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * DAY_MS);
}

export function weekKey(at: Date): string {
  return weekStart(at).toISOString().slice(0, 10);
}

function hasConditions(c: QaConditions): boolean {
  return c.object_ids.length > 0 || c.providers.length > 0 || c.user_ids.length > 0;
}

/** The replies of one space in [from, to) with their account's network, as a subquery. */
function repliesIn(spaceId: number, from: Date, to: Date): SQL {
  return sql`(
    SELECT 'item'::text AS kind, i.id AS reply_id, coalesce(i.parent_id, i.id) AS item_id, NULL::bigint AS chat_id,
           i.object_id, i.user_id, i.created_at, o.provider
      FROM items i JOIN objects o ON o.id = i.object_id
     WHERE i.space_id = ${spaceId}::int AND i.is_own AND i.user_id IS NOT NULL AND NOT i.is_deleted
       AND i.created_at >= ${from.toISOString()}::timestamptz AND i.created_at < ${to.toISOString()}::timestamptz
    UNION ALL
    SELECT 'message'::text, m.id, NULL::bigint, m.chat_id, c.object_id, m.user_id, m.created_at, o.provider
      FROM messages m JOIN chats c ON c.id = m.chat_id JOIN objects o ON o.id = c.object_id
     WHERE m.space_id = ${spaceId}::int AND m.is_own AND m.user_id IS NOT NULL AND NOT m.is_deleted
       AND m.created_at >= ${from.toISOString()}::timestamptz AND m.created_at < ${to.toISOString()}::timestamptz
  )`;
}

function rowCount(result: unknown): number {
  return ((result as { rows?: unknown[] }).rows ?? []).length;
}

/** The local week (its Monday) of a reply in the space's time zone. */
const weekOf = (timezone: string) =>
  sql`to_char(date_trunc('week', r.created_at AT TIME ZONE ${timezone}::text), 'YYYY-MM-DD')`;

/**
 * The space's current and previous weeks: their Mondays as local dates and the instants those Mondays
 * begin in the space's time zone (PostgreSQL's zone rules: a week across a DST change is 167 or 169 h).
 */
async function localWeeks(db: Db, spaceId: number, now: Date) {
  const res = await db.execute(sql`
    SELECT s.timezone, to_char(x.w - 7, 'YYYY-MM-DD') AS week,
           extract(epoch FROM (x.w::timestamp AT TIME ZONE s.timezone)) AS cur,
           extract(epoch FROM ((x.w - 7)::timestamp AT TIME ZONE s.timezone)) AS prev
      FROM spaces s,
           LATERAL (SELECT date_trunc('week', ${now.toISOString()}::timestamptz AT TIME ZONE s.timezone)::date AS w) x
     WHERE s.id = ${spaceId}::int`);
  const row = (
    res as unknown as { rows: Array<{ timezone: string; week: string; cur: unknown; prev: unknown }> }
  ).rows[0];
  if (!row) return null;
  return {
    timezone: row.timezone,
    week: row.week,
    current: new Date(Number(row.cur) * 1000),
    previous: new Date(Number(row.prev) * 1000),
  };
}

export interface SamplingResult {
  random: number;
  condition: number;
}

export interface SamplingOptions {
  /** The job's clock (tests move it). */
  now: Date;
  /** Mixed into the random order; tests pass their own to check determinism. */
  seed?: string;
}

/** Samples one space's replies for every active scorecard; how many samples were added. */
export async function sampleSpace(db: Db, spaceId: number, opts: SamplingOptions): Promise<SamplingResult> {
  const seed = opts.seed ?? 'otklik-qa';
  const weeks = await localWeeks(db, spaceId, opts.now);
  if (!weeks) return { random: 0, condition: 0 };
  const { current, previous, week, timezone } = weeks;
  const cards = await db
    .select()
    .from(qaScorecards)
    .where(and(eq(qaScorecards.spaceId, spaceId), eq(qaScorecards.active, true)));
  const result: SamplingResult = { random: 0, condition: 0 };
  for (const card of cards) {
    if (card.randomPercent > 0) {
      const added = await db.execute(sql`
        INSERT INTO qa_samples (space_id, scorecard_id, kind, reply_id, item_id, chat_id, object_id, operator_id, reply_at, source, week)
        SELECT ${spaceId}::int, ${card.id}::int, r.kind, r.reply_id, r.item_id, r.chat_id, r.object_id, r.user_id, r.created_at, 'random', ${week}::text
          FROM (
            SELECT x.*,
                   row_number() OVER (PARTITION BY x.user_id ORDER BY md5(${`${seed}:${card.id}:`}::text || x.kind || ':' || x.reply_id::text)) AS rn,
                   count(*) OVER (PARTITION BY x.user_id) AS n
              FROM ${repliesIn(spaceId, previous, current)} x
          ) r
         WHERE r.rn <= ceil(r.n * ${card.randomPercent}::int / 100.0)
           AND NOT EXISTS (
             SELECT 1 FROM qa_samples s
              WHERE s.scorecard_id = ${card.id}::int AND s.source = 'random' AND s.week = ${week}::text AND s.operator_id = r.user_id)
        ON CONFLICT DO NOTHING
        RETURNING id`);
      result.random += rowCount(added);
    }
    const c = card.conditions;
    if (hasConditions(c)) {
      const filters: SQL[] = [];
      if (c.object_ids.length > 0)
        filters.push(
          sql`r.object_id IN (${sql.join(
            c.object_ids.map((v) => sql`${v}`),
            sql`, `,
          )})`,
        );
      if (c.providers.length > 0)
        filters.push(
          sql`r.provider IN (${sql.join(
            c.providers.map((v) => sql`${v}`),
            sql`, `,
          )})`,
        );
      if (c.user_ids.length > 0)
        filters.push(
          sql`r.user_id IN (${sql.join(
            c.user_ids.map((v) => sql`${v}`),
            sql`, `,
          )})`,
        );
      const added = await db.execute(sql`
        INSERT INTO qa_samples (space_id, scorecard_id, kind, reply_id, item_id, chat_id, object_id, operator_id, reply_at, source, week)
        SELECT ${spaceId}::int, ${card.id}::int, r.kind, r.reply_id, r.item_id, r.chat_id, r.object_id, r.user_id, r.created_at, 'condition', ${weekOf(timezone)}
          FROM ${repliesIn(spaceId, previous, new Date(opts.now.getTime() + 1))} r
         WHERE ${sql.join(filters, sql` AND `)}
        ON CONFLICT DO NOTHING
        RETURNING id`);
      result.condition += rowCount(added);
    }
  }
  return result;
}

/** Every space with an active scorecard (the job walks them). */
export async function spacesWithScorecards(db: Db, only?: number[]): Promise<number[]> {
  const rows = await db
    .selectDistinct({ spaceId: qaScorecards.spaceId })
    .from(qaScorecards)
    .where(and(eq(qaScorecards.active, true), only ? inArray(qaScorecards.spaceId, only) : undefined));
  return rows.map((r) => r.spaceId);
}
