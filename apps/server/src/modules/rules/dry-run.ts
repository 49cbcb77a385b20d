import {
  DEFAULT_LOCALE,
  factsNeeded,
  type Locale,
  matchesRule,
  RULE_DRY_RUN_DETAILS,
  RULE_DRY_RUN_ITEMS,
  type RuleAction,
  type RuleDryRunResult,
  type RuleGroup,
} from '@otklik/shared';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { authorLabels, items, itemTags, objects, posts } from '../../db/schema';
import { previewMacro } from '../macros/runner';
import { spaceBusinessCalendar, withinBusinessHours } from '../workinghours/business-hours';
import type { EngineDeps } from './engine';

// Dry run (issue 17): before a rule is enabled, which of the space's last 1,000 customer items it would
// have matched and, for the first RULE_DRY_RUN_DETAILS of them, what each action would have done (the
// macro runner's plan: network limits, nothing to change…). Changes nothing.

export async function dryRun(
  deps: EngineDeps,
  spaceId: number,
  rule: { id: number | null; conditions: RuleGroup; actions: RuleAction[] },
  locale: Locale = DEFAULT_LOCALE,
): Promise<RuleDryRunResult> {
  const { db } = deps;
  // The newest customer items, on items_space_created_idx.
  const rows = await db
    .select({
      id: items.id,
      objectId: items.objectId,
      kind: items.kind,
      text: items.text,
      rating: items.rating,
      sentiment: items.sentiment,
      emotion: items.emotion,
      createdAt: items.createdAt,
      authorId: items.authorId,
      postId: items.postId,
      provider: objects.provider,
      companyId: objects.companyId,
    })
    .from(items)
    .innerJoin(objects, eq(objects.id, items.objectId))
    .where(and(eq(items.spaceId, spaceId), sql`NOT ${items.isOwn}`))
    .orderBy(desc(items.createdAt), desc(items.id))
    .limit(RULE_DRY_RUN_ITEMS);
  const tagRows =
    rows.length === 0
      ? []
      : await db
          .select({ itemId: itemTags.itemId, tagId: itemTags.tagId })
          .from(itemTags)
          .where(
            inArray(
              itemTags.itemId,
              rows.map((r) => r.id),
            ),
          );
  // The costlier facts for all of them at once, when the rule reads them.
  const need = factsNeeded([rule.conditions]);
  const calendar = need.businessHours ? await spaceBusinessCalendar(db, spaceId) : null;
  const authorIds = [...new Set(rows.flatMap((r) => (r.authorId === null ? [] : [r.authorId])))];
  const postIds = [...new Set(rows.flatMap((r) => (r.postId === null ? [] : [r.postId])))];
  const counts =
    need.authorItems && authorIds.length > 0
      ? await db
          .select({ authorId: items.authorId, n: sql<number>`count(*)::int` })
          .from(items)
          .where(and(inArray(items.authorId, authorIds), eq(items.isOwn, false)))
          .groupBy(items.authorId)
      : [];
  const countOf = new Map(counts.map((c) => [c.authorId, Number(c.n)]));
  const labelRows =
    need.authorLabels && authorIds.length > 0
      ? await db
          .select({ authorId: authorLabels.authorId, labelId: authorLabels.labelId })
          .from(authorLabels)
          .where(inArray(authorLabels.authorId, authorIds))
      : [];
  const postRows =
    need.post && postIds.length > 0
      ? await db.select({ id: posts.id, text: posts.text }).from(posts).where(inArray(posts.id, postIds))
      : [];
  const postText = new Map(postRows.map((p) => [p.id, p.text]));
  const tagsOf = new Map<number, number[]>();
  for (const r of tagRows) tagsOf.set(r.itemId, [...(tagsOf.get(r.itemId) ?? []), r.tagId]);
  const matched = rows.filter((r) =>
    matchesRule(rule.conditions, {
      text: r.text,
      provider: r.provider,
      objectId: r.objectId,
      companyId: r.companyId,
      kind: r.kind,
      rating: r.rating,
      sentiment: r.sentiment,
      emotion: r.emotion,
      tagIds: tagsOf.get(r.id) ?? [],
      authorItems: r.authorId === null ? 0 : (countOf.get(r.authorId) ?? 0),
      authorLabelIds: labelRows.filter((l) => l.authorId === r.authorId).map((l) => l.labelId),
      postText: r.postId === null ? '' : (postText.get(r.postId) ?? ''),
      withinBusinessHours: calendar ? withinBusinessHours(calendar, r.companyId, r.createdAt) : false,
    }),
  );
  const detailed = matched.slice(0, RULE_DRY_RUN_DETAILS);
  const plan =
    detailed.length === 0
      ? null
      : await previewMacro(
          {
            deps,
            actor: null,
            locale,
            performer: { kind: 'rule', id: rule.id ?? 0, spaceId, name: '' },
            delegate: null,
          },
          { id: rule.id ?? 0, spaceId, actions: rule.actions },
          detailed.map((r) => r.id),
        );
  const planOf = new Map(plan?.items.map((i) => [i.item_id, i.actions]) ?? []);
  return {
    rule_id: rule.id,
    looked_at: rows.length,
    matched: matched.length,
    items: matched.map((r) => ({
      item_id: r.id,
      provider: r.provider,
      kind: r.kind,
      excerpt: r.text.slice(0, 160),
      created_at: r.createdAt.toISOString(),
      actions: planOf.get(r.id) ?? null,
    })),
  };
}
