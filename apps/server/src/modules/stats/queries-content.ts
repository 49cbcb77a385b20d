import {
  type EmotionCounts,
  STATS_TOP_POSTS,
  type StatsEmotions,
  type StatsPeriod,
  type StatsPostRow,
  type StatsTags,
} from '@otklik/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { InboxScope } from '../inbox/read/scope';
import {
  assignedWhere,
  at,
  chatsIncluded,
  customerMessagesFrom,
  itemKinds,
  itemWhere,
  list,
  localDay,
  rows,
  type StatsFilters,
  tagWhere,
  unitsCte,
} from './queries';

// Content figures (tags over time, top posts, emotions) under the definitions of docs/statistics.md;
// the shared conditions are in queries.ts.

/**
 * Tags over time: the incoming items and new dialogs of the period (the units above) carrying each tag
 * now, per local day of their arrival. A unit with two tags counts once under each.
 */
export async function tagsOverTime(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
): Promise<Pick<StatsTags, 'tags' | 'rows'>> {
  const result = await rows<{ day: string; tag_id: number; name: string; n: number }>(
    db,
    sql`SELECT ${localDay(p, sql`u.arrived`)} AS day, t.id AS tag_id, t.name, count(*)::int AS n
      FROM (${unitsCte(scope, f, p)}) u
      JOIN (SELECT 'item' AS unit, item_id AS id, tag_id FROM item_tags
            UNION ALL SELECT 'chat', chat_id, tag_id FROM chat_tags) x ON x.unit = u.unit AND x.id = u.id
      JOIN tags t ON t.id = x.tag_id
      GROUP BY 1, 2, 3 ORDER BY 1, 2`,
  );
  const totals = new Map<number, { tag_id: number; name: string; count: number }>();
  for (const r of result) {
    const entry = totals.get(Number(r.tag_id)) ?? { tag_id: Number(r.tag_id), name: r.name, count: 0 };
    entry.count += Number(r.n);
    totals.set(entry.tag_id, entry);
  }
  return {
    tags: [...totals.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
    rows: result.map((r) => ({ day: r.day, tag_id: Number(r.tag_id), count: Number(r.n) })),
  };
}

/**
 * Per post: customer items under it that arrived in the period, how many of them got a reply (ever), and
 * our own replies written under it in the period (a tag filter narrows the customer items only: our
 * replies carry no tags). The top STATS_TOP_POSTS by items.
 */
export async function postsOf(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
): Promise<StatsPostRow[]> {
  const result = await rows<{
    post_id: number;
    object_id: number;
    provider: string;
    text: string;
    url: string | null;
    items: number;
    replied: number;
    replies: number;
  }>(
    db,
    sql`SELECT po.id AS post_id, po.object_id, o.provider, left(po.text, 200) AS text, po.url,
        count(*) FILTER (WHERE NOT i.is_own)::int AS items,
        count(*) FILTER (WHERE NOT i.is_own AND i.first_reply_at IS NOT NULL)::int AS replied,
        count(*) FILTER (WHERE i.is_own)::int AS replies
      FROM items i JOIN posts po ON po.id = i.post_id JOIN objects o ON o.id = po.object_id
      WHERE ${itemWhere(scope, 'i', { ...f, tag_id: undefined, operator_id: undefined })}
        AND (i.is_own OR ${tagWhere('item', 'i.id', f)} AND ${assignedWhere('i', f)})
        AND (NOT i.is_own OR ${f.operator_id ? sql`i.user_id IN (${list(f.operator_id)})` : sql`true`})
        AND i.created_at >= ${at(p.start)} AND i.created_at < ${at(p.end)}
      GROUP BY po.id, o.provider
      HAVING count(*) FILTER (WHERE NOT i.is_own) > 0
      ORDER BY items DESC, po.id
      LIMIT ${STATS_TOP_POSTS}`,
  );
  return result.map((r) => ({
    post_id: Number(r.post_id),
    object_id: Number(r.object_id),
    provider: r.provider,
    text: r.text,
    url: r.url,
    items: Number(r.items),
    replied: Number(r.replied),
    replies: Number(r.replies),
  }));
}

/**
 * Emotions (docs/statistics.md "Emotions"): the customer's texts of the period — items by created_at,
 * dialog messages by created_at — with the classifier's sentiment, counted by day, account, network and
 * post. Texts without a sentiment (switched off, empty, from before the classifier) count as unrated.
 */
export async function emotions(
  db: Db,
  scope: InboxScope,
  f: StatsFilters,
  p: StatsPeriod,
): Promise<Omit<StatsEmotions, 'period'>> {
  const kinds = itemKinds(f);
  const itemsPart =
    kinds.length > 0
      ? sql`SELECT i.created_at AS at, i.sentiment, i.emotion, i.object_id, i.post_id
          FROM items i
          WHERE NOT i.is_own AND ${itemWhere(scope, 'i', f)}
            AND i.created_at >= ${at(p.start)} AND i.created_at < ${at(p.end)}`
      : null;
  const messagesPart = chatsIncluded(f)
    ? sql`SELECT m.created_at, m.sentiment, m.emotion, c.object_id, NULL::bigint ${customerMessagesFrom(scope, f, p)}`
    : null;
  const parts = [itemsPart, messagesPart].filter((x): x is SQL => x !== null);
  const empty = { negative: 0, neutral: 0, positive: 0, anger: 0 };
  if (parts.length === 0)
    return { totals: { ...empty, unrated: 0 }, days: [], by_object: [], by_provider: [], by_post: [] };
  const texts = sql`(${sql.join(parts, sql` UNION ALL `)}) t`;
  const counts = sql`count(*) FILTER (WHERE t.sentiment = 'negative')::int AS negative,
    count(*) FILTER (WHERE t.sentiment = 'neutral')::int AS neutral,
    count(*) FILTER (WHERE t.sentiment = 'positive')::int AS positive,
    count(*) FILTER (WHERE t.emotion = 'anger')::int AS anger`;
  type Counted = { negative: number; neutral: number; positive: number; anger: number };
  const num = (r: Counted): EmotionCounts => ({
    negative: Number(r.negative),
    neutral: Number(r.neutral),
    positive: Number(r.positive),
    anger: Number(r.anger),
  });
  const [total] = await rows<Counted & { unrated: number }>(
    db,
    sql`SELECT ${counts}, count(*) FILTER (WHERE t.sentiment IS NULL)::int AS unrated FROM ${texts}`,
  );
  const days = await rows<Counted & { day: string }>(
    db,
    sql`SELECT ${localDay(p, sql`t.at`)} AS day, ${counts} FROM ${texts}
      WHERE t.sentiment IS NOT NULL GROUP BY 1 ORDER BY 1`,
  );
  const byObject = await rows<Counted & { object_id: number; provider: string }>(
    db,
    sql`SELECT t.object_id, o.provider, ${counts} FROM ${texts} JOIN objects o ON o.id = t.object_id
      WHERE t.sentiment IS NOT NULL GROUP BY t.object_id, o.provider ORDER BY count(*) DESC, t.object_id`,
  );
  const byPost = await rows<
    Counted & { post_id: number; object_id: number; provider: string; text: string; url: string | null }
  >(
    db,
    sql`SELECT po.id AS post_id, po.object_id, o.provider, left(po.text, 200) AS text, po.url, ${counts}
      FROM ${texts} JOIN posts po ON po.id = t.post_id JOIN objects o ON o.id = po.object_id
      WHERE t.sentiment IS NOT NULL
      GROUP BY po.id, o.provider ORDER BY count(*) DESC, po.id LIMIT ${STATS_TOP_POSTS}`,
  );
  const providers = new Map<string, EmotionCounts & { provider: string }>();
  for (const r of byObject) {
    const entry = providers.get(r.provider) ?? { provider: r.provider, ...empty };
    const n = num(r);
    entry.negative += n.negative;
    entry.neutral += n.neutral;
    entry.positive += n.positive;
    entry.anger += n.anger;
    providers.set(r.provider, entry);
  }
  const size = (c: EmotionCounts) => c.negative + c.neutral + c.positive;
  return {
    totals: { ...num(total!), unrated: Number(total!.unrated) },
    days: days.map((r) => ({ day: r.day, ...num(r) })),
    by_object: byObject.map((r) => ({ object_id: Number(r.object_id), provider: r.provider, ...num(r) })),
    by_provider: [...providers.values()].sort(
      (a, b) => size(b) - size(a) || a.provider.localeCompare(b.provider),
    ),
    by_post: byPost.map((r) => ({
      post_id: Number(r.post_id),
      object_id: Number(r.object_id),
      provider: r.provider,
      text: r.text,
      url: r.url,
      ...num(r),
    })),
  };
}
