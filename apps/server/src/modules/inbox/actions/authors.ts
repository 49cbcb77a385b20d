import {
  BLOCK_DURATION_SECONDS,
  type BlockDuration,
  canPerform,
  isProviderId,
  unavailableReason,
} from '@otklik/shared';
import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { activity, authors, chats, items } from '../../../db/schema';
import { AppError } from '../../../lib/errors';
import { getConnector } from '../../../providers/registry';
import { audit } from '../../audit/record';
import { getVisibleAuthor } from '../../authors/policy';
import { enqueueOutbox, kickOutbox } from '../../outbox/queue';
import { authorize } from '../../spaces/actor';
import { presentAuthor } from '../read/presenter';
import { scopeFor } from '../read/scope';
import { activityCause, auditActorOf, causeOf, type Performer, userIdOf } from './policy';
import { type ActionDeps, transaction } from './send';

// Blocking an author (docs/product/roles.md moderators "block users"; §9 durations). The block is always ours
// (authors.blocked_until / blocked_forever); where the network can ban too, the ban is queued on the
// account the author last wrote to among the accounts the performer may act on (a member limited to a
// user group bans only on their group's accounts).

type AuthorRow = typeof authors.$inferSelect;

/**
 * The author, if the performer sees them — the same scope as the author pages (authors/policy.ts:
 * 404 for an author outside the member's user group) — and may block in their space (403 otherwise);
 * with the accounts the performer may act on there (null: all of the space's accounts).
 */
async function getAuthorFor(
  deps: ActionDeps,
  performer: Performer,
  authorId: number,
): Promise<{ author: AuthorRow; objectIds: number[] | null }> {
  if (performer.kind === 'user') {
    const { author } = await getVisibleAuthor(deps.db, performer.actor, authorId);
    authorize(performer.actor, 'authors.block', author.spaceId);
    const scope = await scopeFor(deps.db, performer.actor, 'authors.block');
    const objectIds = scope.spaces.get(author.spaceId);
    return { author, objectIds: objectIds === undefined ? [] : objectIds };
  }
  const [author] = await deps.db.select().from(authors).where(eq(authors.id, authorId)).limit(1);
  if (!author || performer.spaceId !== author.spaceId) throw new AppError(404, 'error.notFound');
  return { author, objectIds: null };
}

/**
 * The account the author last wrote to, among `objectIds` (null: any account of the space): that is
 * where a network ban applies. Null when the author wrote to none of them.
 */
async function lastObjectOf(deps: ActionDeps, author: AuthorRow, objectIds: number[] | null) {
  if (objectIds !== null && objectIds.length === 0) return null;
  const within = (column: typeof items.objectId | typeof chats.objectId): SQL[] =>
    objectIds === null ? [] : [inArray(column, objectIds)];
  const [item] = await deps.db
    .select({ objectId: items.objectId, at: items.createdAt })
    .from(items)
    .where(and(eq(items.spaceId, author.spaceId), eq(items.authorId, author.id), ...within(items.objectId)))
    .orderBy(desc(items.createdAt))
    .limit(1);
  const [chat] = await deps.db
    .select({ objectId: chats.objectId, at: chats.lastMessageAt })
    .from(chats)
    .where(and(eq(chats.spaceId, author.spaceId), eq(chats.authorId, author.id), ...within(chats.objectId)))
    .orderBy(desc(chats.lastMessageAt))
    .limit(1);
  if (item && chat) return item.at >= chat.at ? item.objectId : chat.objectId;
  return item?.objectId ?? chat?.objectId ?? null;
}

const networkCanBlock = (provider: string) =>
  isProviderId(provider) &&
  canPerform(provider, 'block') &&
  typeof getConnector(provider)?.blockAuthor === 'function';

async function setBlock(
  deps: ActionDeps,
  performer: Performer,
  authorId: number,
  block: { blocked: boolean; duration?: BlockDuration },
) {
  const { author, objectIds } = await getAuthorFor(deps, performer, authorId);
  // Blocking is offered only where the network's API bans (issue 13 #15); an old block can still be lifted.
  const unavailable = isProviderId(author.provider) ? unavailableReason(author.provider, 'block') : null;
  if (block.blocked && unavailable)
    throw new AppError(400, unavailable.key, { errorType: 'not_supported', params: unavailable.params });
  const now = new Date();
  const seconds = block.duration ? BLOCK_DURATION_SECONDS[block.duration] : null;
  const until = block.blocked && seconds !== null ? new Date(now.getTime() + seconds * 1000) : null;
  const forever = block.blocked && seconds === null;
  const objectId = await lastObjectOf(deps, author, objectIds);
  const networkAllows = objectId !== null && networkCanBlock(author.provider);
  const updated = await transaction(deps.db, async (tx) => {
    const [row] = await tx
      .update(authors)
      .set({ blockedUntil: until, blockedForever: forever, updatedAt: now })
      .where(eq(authors.id, author.id))
      .returning();
    await tx.insert(activity).values({
      spaceId: author.spaceId,
      objectId,
      type: 'author.blocked',
      ...activityCause(performer),
      data: {
        author_id: author.id,
        blocked: block.blocked,
        duration: block.duration ?? null,
        network: networkAllows,
      },
      at: now,
    });
    if (networkAllows) {
      await enqueueOutbox(tx, {
        spaceId: author.spaceId,
        objectId: objectId!,
        action: block.blocked ? 'block' : 'unblock',
        payload: { authorExternalId: author.externalId, until: until?.toISOString() ?? null },
        userId: userIdOf(performer),
      });
    }
    await audit(tx, auditActorOf(performer), {
      spaceId: author.spaceId,
      kind: block.blocked ? 'author.blocked' : 'author.unblocked',
      target: { type: 'author', id: author.id, label: author.name },
      before: { blocked_until: author.blockedUntil, blocked_forever: author.blockedForever },
      after: {
        blocked_until: until,
        blocked_forever: forever,
        duration: block.duration ?? null,
        network: networkAllows,
      },
      at: now,
    });
    return row!;
  });
  const presented = presentAuthor(updated);
  await deps.bus.publish({
    type: 'authors.updated',
    spaceId: author.spaceId,
    // The account the customer last wrote to (in the caller's reach): members limited to a user group
    // that sees it hear the change (realtime/access.ts); without one, only whole-space members do.
    payload: { ...(objectId === null ? {} : { object_id: objectId }), authors: [presented] },
    cause: causeOf(performer),
  });
  if (networkAllows) await kickOutbox(deps.bus);
  return { author: presented, network: networkAllows ? ('queued' as const) : ('not_supported' as const) };
}

export const blockAuthor = (
  deps: ActionDeps,
  performer: Performer,
  authorId: number,
  duration: BlockDuration,
) => setBlock(deps, performer, authorId, { blocked: true, duration });

export const unblockAuthor = (deps: ActionDeps, performer: Performer, authorId: number) =>
  setBlock(deps, performer, authorId, { blocked: false });
