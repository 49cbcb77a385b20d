import { ISSUE_TEXT_MAX, ISSUE_TITLE_MAX } from '@otklik/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authors, items, monitoringMentions, monitoringQueries } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { audit } from '../audit/record';
import type { Performer } from '../inbox/actions/policy';
import type { ActionDeps } from '../inbox/actions/send';
import { setItemsStatus, setItemTags } from '../inbox/actions/workflow';
import { scopeCondition } from '../inbox/read/scope';
import { createIssue, initialStatus } from '../issues/service';
import type { ServerActor } from '../spaces/actor';
import { authorize } from '../spaces/actor';
import { MONITORING_EVENT } from './matcher';
import { mentionScope } from './service';

// What an operator does with a mention (issue 21, docs/product/monitoring.md "Mention actions"): send it to
// the inbox, tag it, turn it into a task. A mention points at an item of one of our accounts, so each action
// is the existing action on that item (inbox/actions/workflow.ts, issues/service.ts) with its own ability
// checks, scope and records; the mention itself is only looked up inside the caller's monitoring scope
// (another space or an account outside the user's group: 404) and marked read once acted upon.

/** Statuses in which an item is already waiting in the operator inbox's queue. */
const IN_QUEUE = new Set(['new', 'inprogress', 'open']);

export async function getMention(db: Db, actor: ServerActor, id: number) {
  const scope = await mentionScope(db, actor);
  if (scope.spaces.size === 0) throw notFound();
  const [row] = await db
    .select({
      id: monitoringMentions.id,
      spaceId: monitoringMentions.spaceId,
      queryId: monitoringMentions.queryId,
      queryName: monitoringQueries.name,
      itemId: monitoringMentions.itemId,
      status: items.status,
      text: items.text,
      authorName: authors.name,
    })
    .from(monitoringMentions)
    .innerJoin(monitoringQueries, eq(monitoringQueries.id, monitoringMentions.queryId))
    .innerJoin(items, eq(items.id, monitoringMentions.itemId))
    .leftJoin(authors, eq(authors.id, items.authorId))
    .where(
      and(
        eq(monitoringMentions.id, id),
        scopeCondition(scope, monitoringMentions.spaceId, monitoringMentions.objectId),
      ),
    )
    .limit(1);
  if (!row) throw notFound();
  return row;
}

type Mention = Awaited<ReturnType<typeof getMention>>;

async function markActed(deps: ActionDeps, mention: Mention) {
  const updated = await deps.db
    .update(monitoringMentions)
    .set({ readAt: new Date() })
    .where(and(eq(monitoringMentions.id, mention.id), eq(monitoringMentions.spaceId, mention.spaceId)))
    .returning({ id: monitoringMentions.id });
  if (updated.length > 0)
    await deps.bus.publish({
      type: MONITORING_EVENT,
      spaceId: mention.spaceId,
      payload: { query_ids: [mention.queryId] },
    });
}

const userPerformer = (actor: ServerActor): Performer => ({ kind: 'user', actor });

/**
 * "Send to inbox": the item is put back in the operator queue. Matched items already sit in their
 * account's comment list; an item that waits there (new, in progress, open) stays as it is, a closed,
 * snoozed or waiting one is reopened as `new` through the status action (recorded in the item's history).
 * Either way it needs `items.close` (who may change an item's status), the action log records the sending
 * and the mention is marked read.
 */
export async function sendToInbox(deps: ActionDeps, actor: ServerActor, mentionId: number) {
  const mention = await getMention(deps.db, actor, mentionId);
  const reopened = !IN_QUEUE.has(mention.status);
  if (reopened) await setItemsStatus(deps, userPerformer(actor), [mention.itemId], { status: 'new' });
  else authorize(actor, 'items.close', mention.spaceId);
  await audit(deps.db, actor, {
    spaceId: mention.spaceId,
    kind: 'monitoring_query.to_inbox',
    target: { type: 'item', id: mention.itemId, label: mention.queryName },
    before: { status: mention.status },
    after: { status: reopened ? 'new' : mention.status },
  });
  await markActed(deps, mention);
  return { item_id: mention.itemId, status: reopened ? 'new' : mention.status, reopened };
}

/** Tags: the item's tags become `tagIds` (the space's tags only; `items.tag`; item history). */
export async function tagMention(deps: ActionDeps, actor: ServerActor, mentionId: number, tagIds: number[]) {
  const mention = await getMention(deps.db, actor, mentionId);
  const item = await setItemTags(deps, userPerformer(actor), mention.itemId, tagIds);
  await markActed(deps, mention);
  return item;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * A task from a mention: linked to the item, the mention's text as its description, the title given or
 * "<query>: <author>" (`issues.edit`; the space's default assignee; the action log records it).
 */
export async function mentionToIssue(
  deps: ActionDeps,
  actor: ServerActor,
  mentionId: number,
  title: string | undefined,
) {
  const mention = await getMention(deps.db, actor, mentionId);
  authorize(actor, 'issues.edit', mention.spaceId);
  const fallback = mention.authorName ? `${mention.queryName}: ${mention.authorName}` : mention.queryName;
  const row = await createIssue(deps, actor, {
    space_id: mention.spaceId,
    title: clip(title?.trim() || fallback, ISSUE_TITLE_MAX),
    description: clip(mention.text, ISSUE_TEXT_MAX),
    status: await initialStatus(deps.db, mention.spaceId),
    priority: 'normal',
    department_id: null,
    due_at: null,
    links: [{ kind: 'item', id: mention.itemId }],
  });
  await markActed(deps, mention);
  return row;
}
