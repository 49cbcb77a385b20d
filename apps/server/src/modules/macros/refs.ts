import type { MacroAction } from '@otklik/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { memberships, replyTemplates, tags } from '../../db/schema';
import { notFound } from '../../lib/errors';

// A macro's actions name rows of its own space only: a reply template, tags, an assignee. An id of
// another space's row (or of none) is refused like any id the caller cannot see (404), so a macro never
// holds a reference into another space (issue 22, found by the tenant isolation matrix; running one already
// skipped such ids, macros/planner.ts).

/** The template, tag and person ids the actions name. */
function refsOf(actions: readonly MacroAction[]) {
  const refs = { templateIds: new Set<number>(), tagIds: new Set<number>(), userIds: new Set<number>() };
  for (const action of actions) {
    if (action.type === 'reply_template') refs.templateIds.add(action.template_id);
    if (action.type === 'tag' || action.type === 'untag')
      for (const id of action.tag_ids) refs.tagIds.add(id);
    if (action.type === 'assign' && action.user_id !== null) refs.userIds.add(action.user_id);
  }
  return refs;
}

/**
 * Throws 404 when an action names a template, tag or person outside `spaceId`. Ids the macro already held
 * (`previous`) are not checked again: an editor saving every action still saves when one of them was
 * deleted since.
 */
export async function assertActionRefs(
  db: Db,
  spaceId: number,
  actions: readonly MacroAction[],
  previous: readonly MacroAction[] = [],
) {
  const held = refsOf(previous);
  const wanted = refsOf(actions);
  const fresh = (ids: Set<number>, old: Set<number>) => new Set([...ids].filter((id) => !old.has(id)));
  const templateIds = fresh(wanted.templateIds, held.templateIds);
  const tagIds = fresh(wanted.tagIds, held.tagIds);
  const userIds = fresh(wanted.userIds, held.userIds);
  const count = async (found: Promise<unknown[]>, wanted: Set<number>) => {
    if (wanted.size > 0 && (await found).length !== wanted.size) throw notFound();
  };
  await count(
    db
      .select({ id: replyTemplates.id })
      .from(replyTemplates)
      .where(and(eq(replyTemplates.spaceId, spaceId), inArray(replyTemplates.id, [...templateIds]))),
    templateIds,
  );
  await count(
    db
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.spaceId, spaceId), inArray(tags.id, [...tagIds]))),
    tagIds,
  );
  await count(
    db
      .select({ id: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.spaceId, spaceId), inArray(memberships.userId, [...userIds]))),
    userIds,
  );
}
