import {
  CSI_PAGE_SIZE,
  CSI_SATISFIED_MIN,
  type CsiFigures,
  type CsiResponsePage,
  type CsiResponsesQuery,
  type CsiStats,
  type StatsPeriod,
  type StatsQuery,
} from '@otklik/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { InboxScope } from '../inbox/read/scope';
import { daysOf } from '../stats/period';
import { rows } from '../stats/queries';

// CSI responses and figures (docs/statistics.md "CSI"). Every query is limited to the caller's scope
// of one space (their group's accounts when limited) and the request's account filters.

const list = (values: readonly (string | number)[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

type Filters = Pick<StatsQuery, 'provider' | 'object_id'> & { user_id?: number[]; score?: number[] };

/** `s` (csi_surveys) rows within the scope and the filters. */
function surveyWhere(scope: InboxScope, f: Filters): SQL {
  const parts: SQL[] = [];
  const spaceParts: SQL[] = [];
  for (const [spaceId, ids] of scope.spaces) {
    if (ids === null) spaceParts.push(sql`s.space_id = ${spaceId}`);
    else if (ids.length > 0)
      spaceParts.push(sql`(s.space_id = ${spaceId} AND s.object_id IN (${list(ids)}))`);
  }
  parts.push(spaceParts.length > 0 ? sql`(${sql.join(spaceParts, sql` OR `)})` : sql`false`);
  if (f.object_id) parts.push(sql`s.object_id IN (${list(f.object_id)})`);
  if (f.provider) parts.push(sql`o.provider IN (${list(f.provider)})`);
  if (f.user_id) parts.push(sql`s.user_id IN (${list(f.user_id)})`);
  if (f.score) parts.push(sql`s.score IN (${list(f.score)})`);
  return sql.join(parts, sql` AND `);
}

const at = (seconds: number) => sql`to_timestamp(${seconds})`;

export async function responses(
  db: Db,
  scope: InboxScope,
  q: CsiResponsesQuery,
  period: StatsPeriod | null,
): Promise<CsiResponsePage> {
  const page = q.page ?? 1;
  const where = sql`${surveyWhere(scope, q)} AND s.score IS NOT NULL
    ${period ? sql`AND s.answered_at >= ${at(period.start)} AND s.answered_at < ${at(period.end)}` : sql``}`;
  const [count] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM csi_surveys s JOIN objects o ON o.id = s.object_id WHERE ${where}`,
  );
  const found = await rows<{
    id: number;
    space_id: number;
    object_id: number;
    account_name: string;
    provider: string;
    chat_id: number;
    author_name: string | null;
    user_id: number | null;
    user_name: string | null;
    score: number;
    comment: string | null;
    sent_at: number;
    answered_at: number;
  }>(
    db,
    sql`SELECT s.id::int, s.space_id, s.object_id, o.name AS account_name, o.provider, s.chat_id::int,
        a.name AS author_name, s.user_id, u.name AS user_name, s.score::int, s.comment,
        extract(epoch FROM s.sent_at)::bigint AS sent_at, extract(epoch FROM s.answered_at)::bigint AS answered_at
      FROM csi_surveys s
      JOIN objects o ON o.id = s.object_id
      JOIN chats c ON c.id = s.chat_id
      LEFT JOIN authors a ON a.id = c.author_id
      LEFT JOIN users u ON u.id = s.user_id
      WHERE ${where}
      ORDER BY s.answered_at DESC, s.id DESC
      LIMIT ${CSI_PAGE_SIZE} OFFSET ${(page - 1) * CSI_PAGE_SIZE}`,
  );
  return {
    responses: found.map((r) => ({ ...r, sent_at: Number(r.sent_at), answered_at: Number(r.answered_at) })),
    total: count?.n ?? 0,
    page,
    page_size: CSI_PAGE_SIZE,
  };
}

const FIGURES = sql`count(*)::int AS sent, count(s.score)::int AS answered,
  count(*) FILTER (WHERE s.score >= ${CSI_SATISFIED_MIN})::int AS satisfied, avg(s.score)::float AS average`;

type FigureRow = { sent: number; answered: number; satisfied: number; average: number | null };

/** Shares in percent with one decimal; null when there is nothing to divide by. */
const share = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);

export function toFigures(r: FigureRow | undefined): CsiFigures {
  const sent = Number(r?.sent ?? 0);
  const answered = Number(r?.answered ?? 0);
  const satisfied = Number(r?.satisfied ?? 0);
  return {
    sent,
    answered,
    satisfied,
    csat: share(satisfied, answered),
    average:
      r?.average === null || r?.average === undefined ? null : Math.round(Number(r.average) * 100) / 100,
    response_rate: share(answered, sent),
  };
}

/** Surveys sent in the period (their answers counted with them, whenever they came in the window). */
export async function csiStats(
  db: Db,
  scope: InboxScope,
  q: StatsQuery,
  period: StatsPeriod,
): Promise<CsiStats> {
  const from = sql`FROM csi_surveys s JOIN objects o ON o.id = s.object_id
    WHERE ${surveyWhere(scope, q)} AND s.sent_at >= ${at(period.start)} AND s.sent_at < ${at(period.end)}`;
  const [total] = await rows<FigureRow>(db, sql`SELECT ${FIGURES} ${from}`);
  const scores = await rows<{ score: number; count: number }>(
    db,
    sql`SELECT s.score::int AS score, count(*)::int AS count ${from} AND s.score IS NOT NULL GROUP BY s.score`,
  );
  const days = await rows<FigureRow & { day: string }>(
    db,
    sql`SELECT to_char((s.sent_at AT TIME ZONE ${period.timezone})::date, 'YYYY-MM-DD') AS day, ${FIGURES}
      ${from} GROUP BY 1`,
  );
  const byUser = await rows<FigureRow & { user_id: number | null }>(
    db,
    sql`SELECT s.user_id, ${FIGURES} ${from} GROUP BY s.user_id`,
  );
  const byObject = await rows<FigureRow & { object_id: number; name: string; provider: string }>(
    db,
    sql`SELECT s.object_id, min(o.name) AS name, min(o.provider) AS provider, ${FIGURES} ${from} GROUP BY s.object_id`,
  );
  const byProvider = await rows<FigureRow & { provider: string }>(
    db,
    sql`SELECT o.provider, ${FIGURES} ${from} GROUP BY o.provider`,
  );
  const userNames = await rows<{ id: number; name: string }>(
    db,
    sql`SELECT id, name FROM users WHERE id IN (${list([0, ...byUser.map((r) => r.user_id ?? 0)])})`,
  );
  const byDay = new Map(days.map((d) => [d.day, d]));
  const order = (a: CsiFigures, b: CsiFigures) => b.answered - a.answered || b.sent - a.sent;
  return {
    period,
    total: toFigures(total),
    scores: [1, 2, 3, 4, 5].map((score) => ({
      score,
      count: scores.find((r) => Number(r.score) === score)?.count ?? 0,
    })),
    by_day: (await daysOf(db, period)).map((d) => ({ day: d.day, ...toFigures(byDay.get(d.day)) })),
    by_user: byUser
      .map((r) => ({
        user_id: r.user_id,
        name: userNames.find((u) => u.id === r.user_id)?.name ?? null,
        ...toFigures(r),
      }))
      .sort(order),
    by_object: byObject
      .map((r) => ({ object_id: r.object_id, name: r.name, provider: r.provider, ...toFigures(r) }))
      .sort(order),
    by_provider: byProvider.map((r) => ({ provider: r.provider, ...toFigures(r) })).sort(order),
  };
}
