import { randomUUID } from 'node:crypto';
import {
  type QaConditions,
  type QaCriterion,
  type QaCriterionInput,
  type QaLine,
  type QaSampleStatus,
  type QaScore,
  qaTotal,
  qaValueValid,
} from '@otklik/shared';
import { and, asc, count, desc, eq, gte, inArray, lte, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import {
  authors,
  chats,
  items,
  memberships,
  messages,
  objects,
  qaSamples,
  qaScorecards,
  users,
} from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type AuditActor, audit } from '../audit/record';
import { type InboxScope, scopeCondition } from '../inbox/read/scope';
import { weekStart } from './sampling';

// Quality check (issue 21): scorecards, the review queue, reviews, one's own results and the figures.
// Callers have authorized the actor (policy.ts) and pass the inbox scope of the ability they act with.

type CardRow = typeof qaScorecards.$inferSelect;

export interface ScorecardInput {
  name: string;
  criteria: QaCriterionInput[];
  random_percent: number;
  conditions: QaConditions;
  active: boolean;
}

export async function getScorecard(db: Db, id: number): Promise<CardRow | undefined> {
  const [row] = await db.select().from(qaScorecards).where(eq(qaScorecards.id, id)).limit(1);
  return row;
}

export async function listScorecards(db: Db, spaceIds: number[]): Promise<CardRow[]> {
  if (spaceIds.length === 0) return [];
  return db
    .select()
    .from(qaScorecards)
    .where(inArray(qaScorecards.spaceId, spaceIds))
    .orderBy(asc(qaScorecards.name), asc(qaScorecards.id));
}

/** Keeps the ids criteria already have (reviews point at them) and gives new ones their own. */
function withIds(criteria: QaCriterionInput[]): QaCriterion[] {
  const seen = new Set<string>();
  return criteria.map((c) => {
    let id = c.id && !seen.has(c.id) ? c.id : randomUUID().slice(0, 8);
    while (seen.has(id)) id = randomUUID().slice(0, 8);
    seen.add(id);
    return { id, name: c.name, kind: c.kind, weight: c.weight, critical: c.critical ?? false };
  });
}

/** Conditions may name only the space's own accounts and members. */
async function assertConditions(db: Db, spaceId: number, c: QaConditions | undefined) {
  if (!c) return;
  const objectIds = [...new Set(c.object_ids)];
  const userIds = [...new Set(c.user_ids)];
  const [objs] = objectIds.length
    ? await db
        .select({ n: count() })
        .from(objects)
        .where(and(eq(objects.spaceId, spaceId), inArray(objects.id, objectIds)))
    : [{ n: 0 }];
  const [mems] = userIds.length
    ? await db
        .select({ n: count() })
        .from(memberships)
        .where(and(eq(memberships.spaceId, spaceId), inArray(memberships.userId, userIds)))
    : [{ n: 0 }];
  if (objs!.n !== objectIds.length || mems!.n !== userIds.length) {
    throw new AppError(400, 'qa.conditions.unknown', {
      errorType: 'validation',
      fields: { conditions: 'qa.conditions.unknown' },
    });
  }
}

export async function createScorecard(db: Db, spaceId: number, input: ScorecardInput, by: AuditActor) {
  await assertConditions(db, spaceId, input.conditions);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(qaScorecards)
      .values({
        spaceId,
        name: input.name,
        criteria: withIds(input.criteria),
        randomPercent: input.random_percent,
        conditions: input.conditions,
        active: input.active,
      })
      .returning();
    await audit(tx, by, {
      spaceId,
      kind: 'qa_scorecard.created',
      target: { type: 'qa_scorecard', id: row!.id, label: row!.name },
      after: row,
    });
    return row!;
  });
}

export async function updateScorecard(db: Db, row: CardRow, input: Partial<ScorecardInput>, by: AuditActor) {
  await assertConditions(db, row.spaceId, input.conditions);
  return db.transaction(async (tx) => {
    const [next] = await tx
      .update(qaScorecards)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.criteria !== undefined ? { criteria: withIds(input.criteria) } : {}),
        ...(input.random_percent !== undefined ? { randomPercent: input.random_percent } : {}),
        ...(input.conditions !== undefined ? { conditions: input.conditions } : {}),
        ...(input.active !== undefined ? { active: input.active } : {}),
        updatedAt: new Date(),
      })
      .where(eq(qaScorecards.id, row.id))
      .returning();
    await audit(tx, by, {
      spaceId: row.spaceId,
      kind: 'qa_scorecard.updated',
      target: { type: 'qa_scorecard', id: row.id, label: next!.name },
      before: row,
      after: next,
    });
    return next!;
  });
}

export async function deleteScorecard(db: Db, row: CardRow, by: AuditActor) {
  await db.transaction(async (tx) => {
    await tx.delete(qaScorecards).where(eq(qaScorecards.id, row.id));
    await audit(tx, by, {
      spaceId: row.spaceId,
      kind: 'qa_scorecard.deleted',
      target: { type: 'qa_scorecard', id: row.id, label: row.name },
      before: row,
    });
  });
}

// ---- samples

const operator = alias(users, 'qa_operator');
const reviewer = alias(users, 'qa_reviewer');
const replyItem = alias(items, 'qa_reply_item');
const replyMessage = alias(messages, 'qa_reply_message');

const sampleColumns = {
  sample: qaSamples,
  scorecardName: qaScorecards.name,
  objectName: objects.name,
  provider: objects.provider,
  operatorName: operator.name,
  reviewerName: reviewer.name,
  replyText: sql<string>`coalesce(${replyItem.text}, ${replyMessage.text}, '')`,
};

function sampleQuery(db: Db, where: SQL | undefined) {
  return db
    .select(sampleColumns)
    .from(qaSamples)
    .innerJoin(qaScorecards, eq(qaScorecards.id, qaSamples.scorecardId))
    .innerJoin(objects, eq(objects.id, qaSamples.objectId))
    .leftJoin(operator, eq(operator.id, qaSamples.operatorId))
    .leftJoin(reviewer, eq(reviewer.id, qaSamples.reviewerId))
    .leftJoin(replyItem, and(eq(qaSamples.kind, 'item'), eq(replyItem.id, qaSamples.replyId)))
    .leftJoin(replyMessage, and(eq(qaSamples.kind, 'message'), eq(replyMessage.id, qaSamples.replyId)))
    .where(where);
}

export type SampleRow = Awaited<ReturnType<typeof sampleQuery>>[number];

export interface SampleFilter {
  spaceId?: number;
  status?: QaSampleStatus;
  source?: 'random' | 'condition';
  operatorId?: number;
  /** The reviewer's queue leaves out their own replies. */
  notOperatorId?: number;
  limit: number;
}

export async function listSamples(db: Db, scope: InboxScope, f: SampleFilter): Promise<SampleRow[]> {
  const rows = await sampleQuery(
    db,
    and(
      scopeCondition(scope, qaSamples.spaceId, qaSamples.objectId),
      f.spaceId !== undefined ? eq(qaSamples.spaceId, f.spaceId) : undefined,
      f.status ? eq(qaSamples.status, f.status) : undefined,
      f.source ? eq(qaSamples.source, f.source) : undefined,
      f.operatorId !== undefined ? eq(qaSamples.operatorId, f.operatorId) : undefined,
      f.notOperatorId !== undefined ? ne(qaSamples.operatorId, f.notOperatorId) : undefined,
    ),
  )
    .orderBy(
      f.status === 'reviewed' ? desc(qaSamples.reviewedAt) : desc(qaSamples.replyAt),
      desc(qaSamples.id),
    )
    .limit(f.limit);
  return rows;
}

export async function getSample(db: Db, id: number): Promise<SampleRow | undefined> {
  const [row] = await sampleQuery(db, eq(qaSamples.id, id)).limit(1);
  return row;
}

export async function scorecardOf(db: Db, id: number): Promise<CardRow> {
  const card = await getScorecard(db, id);
  if (!card) throw new AppError(404, 'error.notFound');
  return card;
}

const CONTEXT_BEFORE = 30;
const CONTEXT_AFTER = 10;

/** The conversation around the reply: the comment thread, or the chat's messages before and after it. */
export async function conversationOf(db: Db, s: typeof qaSamples.$inferSelect): Promise<QaLine[]> {
  if (s.kind === 'item' && s.itemId !== null) {
    const rows = await db
      .select({
        id: items.id,
        isOwn: items.isOwn,
        text: items.text,
        createdAt: items.createdAt,
        author: authors.name,
        user: users.name,
      })
      .from(items)
      .leftJoin(authors, eq(authors.id, items.authorId))
      .leftJoin(users, eq(users.id, items.userId))
      .where(
        and(
          eq(items.spaceId, s.spaceId),
          sql`(${items.id} = ${s.itemId} OR ${items.parentId} = ${s.itemId})`,
        ),
      )
      .orderBy(asc(items.createdAt), asc(items.id))
      .limit(CONTEXT_BEFORE + CONTEXT_AFTER);
    return rows.map((r) => ({
      id: r.id,
      is_own: r.isOwn,
      is_sample: r.id === s.replyId,
      author: r.isOwn ? r.user : r.author,
      text: r.text,
      created_at: r.createdAt.toISOString(),
    }));
  }
  if (s.chatId === null) return [];
  const [chat] = await db.select().from(chats).where(eq(chats.id, s.chatId)).limit(1);
  if (!chat) return [];
  const base = () =>
    db
      .select({
        id: messages.id,
        isOwn: messages.isOwn,
        text: messages.text,
        createdAt: messages.createdAt,
        user: users.name,
      })
      .from(messages)
      .leftJoin(users, eq(users.id, messages.userId));
  const [author] = chat.authorId
    ? await db.select({ name: authors.name }).from(authors).where(eq(authors.id, chat.authorId))
    : [];
  const before = await base()
    .where(and(eq(messages.chatId, s.chatId), lte(messages.createdAt, s.replyAt)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(CONTEXT_BEFORE);
  const after = await base()
    .where(and(eq(messages.chatId, s.chatId), gte(messages.createdAt, s.replyAt), ne(messages.id, s.replyId)))
    .orderBy(asc(messages.createdAt), asc(messages.id))
    .limit(CONTEXT_AFTER);
  const seen = new Set<number>();
  return [...before.reverse(), ...after]
    .filter((r) => {
      if (seen.has(r.id)) return false;
      seen.add(r.id);
      return true;
    })
    .map((r) => ({
      id: r.id,
      is_own: r.isOwn,
      is_sample: r.id === s.replyId,
      author: r.isOwn ? r.user : (author?.name ?? null),
      text: r.text,
      created_at: r.createdAt.toISOString(),
    }));
}

/** Scores every criterion of the scorecard as it is now; the total by weights, 0 on a critical failure. */
export function scoreReview(criteria: QaCriterion[], given: Record<string, number>): QaScore[] {
  const fields: Record<string, string> = {};
  const scores: QaScore[] = [];
  for (const c of criteria) {
    const value = given[c.id];
    if (value === undefined) fields[`scores.${c.id}`] = 'qa.score.missing';
    else if (!qaValueValid(c.kind, value)) fields[`scores.${c.id}`] = 'qa.score.invalid';
    else scores.push({ ...c, value });
  }
  const keys = Object.values(fields);
  if (keys.length > 0) {
    throw new AppError(400, keys.includes('qa.score.missing') ? 'qa.score.missing' : 'qa.score.invalid', {
      errorType: 'validation',
      fields,
    });
  }
  return scores;
}

export async function reviewSample(
  db: Db,
  sample: typeof qaSamples.$inferSelect,
  criteria: QaCriterion[],
  input: { scores: Record<string, number>; comment: string },
  reviewerId: number,
  now = new Date(),
) {
  const scores = scoreReview(criteria, input.scores);
  const { total, criticalFailed } = qaTotal(scores);
  await db
    .update(qaSamples)
    .set({
      status: 'reviewed',
      reviewerId,
      scores,
      comment: input.comment,
      total,
      criticalFailed,
      reviewedAt: now,
    })
    .where(eq(qaSamples.id, sample.id));
}

// ---- figures

const avg = (column: SQL | typeof qaSamples.total) =>
  sql<number | null>`round(avg(${column})::numeric, 1)::float8`;

export async function qaStats(
  db: Db,
  scope: InboxScope,
  spaceId: number | undefined,
  weeks: number,
  now: Date,
) {
  const from = new Date(weekStart(now).getTime() - (weeks - 1) * 7 * 86_400_000);
  const where = and(
    scopeCondition(scope, qaSamples.spaceId, qaSamples.objectId),
    spaceId !== undefined ? eq(qaSamples.spaceId, spaceId) : undefined,
    eq(qaSamples.status, 'reviewed'),
    gte(qaSamples.replyAt, from),
  );
  const byWeek = await db
    .select({ week: qaSamples.week, reviews: count(), average: avg(qaSamples.total) })
    .from(qaSamples)
    .where(where)
    .groupBy(qaSamples.week)
    .orderBy(asc(qaSamples.week));
  const byOperator = await db
    .select({
      userId: qaSamples.operatorId,
      name: users.name,
      reviews: count(),
      average: avg(qaSamples.total),
    })
    .from(qaSamples)
    .leftJoin(users, eq(users.id, qaSamples.operatorId))
    .where(where)
    .groupBy(qaSamples.operatorId, users.name)
    .orderBy(asc(users.name));
  const scores = sql`jsonb_array_elements(${qaSamples.scores})`;
  const byCriterion = (await db.execute(sql`
    SELECT s->>'id' AS id, max(s->>'name') AS name, count(*)::int AS reviews,
           round(avg(CASE WHEN s->>'kind' = 'yesno' THEN (s->>'value')::numeric * 100
                          ELSE ((s->>'value')::numeric - 1) * 25 END), 1)::float8 AS average
      FROM ${qaSamples}, ${scores} AS s
     WHERE ${where}
     GROUP BY s->>'id'
     ORDER BY max(s->>'name')`)) as unknown as {
    rows: Array<{ id: string; name: string; reviews: number; average: number | null }>;
  };
  // The whole range, every week shown even without reviews.
  const weeksOut: Array<{ week: string; reviews: number; average: number | null }> = [];
  for (let i = 0; i < weeks; i++) {
    const key = new Date(from.getTime() + i * 7 * 86_400_000).toISOString().slice(0, 10);
    const got = byWeek.find((w) => w.week === key);
    weeksOut.push({ week: key, reviews: got?.reviews ?? 0, average: got?.average ?? null });
  }
  return {
    weeks: weeksOut,
    operators: byOperator.map((r) => ({
      user_id: r.userId,
      name: r.name ?? '',
      reviews: r.reviews,
      average: r.average,
    })),
    criteria: byCriterion.rows.map((r) => ({
      id: r.id,
      name: r.name,
      reviews: Number(r.reviews),
      average: r.average === null ? null : Number(r.average),
    })),
  };
}

export async function overviewCounts(
  db: Db,
  reviewScope: InboxScope,
  userId: number,
  ownSpaceIds: number[],
  now: Date,
) {
  const week = weekStart(now);
  const scoped = scopeCondition(reviewScope, qaSamples.spaceId, qaSamples.objectId);
  const [pending] = await db
    .select({ n: count() })
    .from(qaSamples)
    .where(and(scoped, eq(qaSamples.status, 'pending'), ne(qaSamples.operatorId, userId)));
  const [done] = await db
    .select({ n: count(), average: avg(qaSamples.total) })
    .from(qaSamples)
    .where(and(scoped, eq(qaSamples.status, 'reviewed'), gte(qaSamples.reviewedAt, week)));
  const [mine] = ownSpaceIds.length
    ? await db
        .select({ n: count(), average: avg(qaSamples.total) })
        .from(qaSamples)
        .where(
          and(
            inArray(qaSamples.spaceId, ownSpaceIds),
            eq(qaSamples.operatorId, userId),
            eq(qaSamples.status, 'reviewed'),
          ),
        )
    : [{ n: 0, average: null }];
  return {
    pending: pending!.n,
    reviewed_week: done!.n,
    average_week: done!.average,
    my_reviews: mine!.n,
    my_average: mine!.average,
  };
}
