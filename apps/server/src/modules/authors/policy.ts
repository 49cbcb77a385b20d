import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authors, chats, items } from '../../db/schema';
import { forbidden, notFound } from '../../lib/errors';
import { type InboxScope, scopeFor } from '../inbox/read/scope';
import { authorize, type ServerActor, spaceIdsWhere } from '../spaces/actor';

// Who may see an author and their content (docs/product/screens-and-routes.md author/{id}, §6). An author belongs to one space;
// their comments are seen through the `items.view` scope and their chats through `messages.view`, both
// narrowed to a user group's accounts when the member has one (modules/inbox/read/scope.ts).

type AuthorRow = typeof authors.$inferSelect;

/** The two content scopes of an actor: comments and personal messages. */
export interface ContentScopes {
  items: InboxScope;
  chats: InboxScope;
}

export async function contentScopes(db: Db, actor: ServerActor): Promise<ContentScopes> {
  const [itemScope, chatScope] = await Promise.all([
    scopeFor(db, actor, 'items.view'),
    scopeFor(db, actor, 'messages.view'),
  ]);
  return { items: itemScope, chats: chatScope };
}

async function hasItemsIn(db: Db, author: AuthorRow, objectIds: number[]) {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(items)
    .where(
      and(
        eq(items.authorId, author.id),
        eq(items.spaceId, author.spaceId),
        eq(items.isOwn, false),
        inArray(items.objectId, objectIds),
      ),
    )
    .limit(1);
  return row !== undefined;
}

async function hasChatsIn(db: Db, author: AuthorRow, objectIds: number[]) {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(chats)
    .where(
      and(
        eq(chats.authorId, author.id),
        eq(chats.spaceId, author.spaceId),
        inArray(chats.objectId, objectIds),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Whether the actor sees the author: a member who sees every account of the author's space sees every
 * author there; a member limited to a user group's accounts sees the authors who wrote on those accounts.
 */
async function canSeeAuthor(db: Db, author: AuthorRow, scopes: ContentScopes): Promise<boolean> {
  const checks: Array<[InboxScope, typeof hasItemsIn]> = [
    [scopes.items, hasItemsIn],
    [scopes.chats, hasChatsIn],
  ];
  for (const [scope, hasContent] of checks) {
    if (!scope.spaces.has(author.spaceId)) continue;
    const objectIds = scope.spaces.get(author.spaceId);
    if (objectIds === null || objectIds === undefined) return true;
    if (objectIds.length > 0 && (await hasContent(db, author, objectIds))) return true;
  }
  return false;
}

/** The author, if the actor may see them; 404 otherwise ("not yours" and "missing" look the same). */
export async function getVisibleAuthor(
  db: Db,
  actor: ServerActor,
  id: number,
): Promise<{ author: AuthorRow; scopes: ContentScopes }> {
  const [author] = await db.select().from(authors).where(eq(authors.id, id)).limit(1);
  if (!author || !spaceIdsWhere(actor, 'authors.view').includes(author.spaceId)) throw notFound();
  const scopes = await contentScopes(db, actor);
  if (!(await canSeeAuthor(db, author, scopes))) throw notFound();
  return { author, scopes };
}

/** Labelling an author takes `authors.label` in their space (moderators, operators, administrators). */
export function authorizeLabelling(actor: ServerActor, author: AuthorRow): void {
  authorize(actor, 'authors.label', author.spaceId);
}

/** 403 unless the scope covers the author's space: the caller sees authors but not this kind of content. */
export function assertContentAccess(scope: InboxScope, author: AuthorRow, kind: 'items' | 'chats'): void {
  if (!scope.spaces.has(author.spaceId)) {
    throw forbidden(kind === 'chats' ? 'error.noMessagesAccess' : 'error.noAccess');
  }
}

/** {items|chats}/authors: 403 unless the actor sees comments (or personal messages) in some space. */
export function authorizeAuthorList(actor: ServerActor, content: 'items' | 'chats' | 'issues'): void {
  const ability = content === 'chats' ? 'messages.view' : content === 'issues' ? 'issues.view' : 'items.view';
  if (spaceIdsWhere(actor, ability).length === 0) {
    throw forbidden(content === 'chats' ? 'error.noMessagesAccess' : 'error.noAccess');
  }
}
