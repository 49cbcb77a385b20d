import {
  and,
  asc,
  count,
  desc,
  eq,
  exists,
  inArray,
  lt,
  max,
  min,
  not,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  authorLabels,
  authors,
  chats,
  chatTags,
  issueLinks,
  issues,
  items,
  itemTags,
  messages,
  objects,
} from '../../db/schema';
import { type InboxScope, scopeCondition } from '../inbox/read/scope';
import { type IssueScope, scopeIssues } from '../issues/policy';
import type { ContentScopes } from './policy';

// Reads behind the author page (docs/product/screens-and-routes.md author/{id}), the author lists ({items|chats}/authors) and
// labels/{id}/authors. Every query is limited by the caller's content scopes; our own replies
// (`is_own`) are the account speaking, not the author, and never count.

type AuthorRow = typeof authors.$inferSelect;

export interface Page<T> {
  rows: T[];
  /** Pass as `before` for the next page; null on the last page. */
  nextBefore: number | null;
}

/** Rows were fetched with limit + 1: the extra row only says that another page exists. */
function toPage<T>(rows: T[], limit: number, idOf: (row: T) => number): Page<T> {
  const hasMore = rows.length > limit;
  const kept = hasMore ? rows.slice(0, limit) : rows;
  return { rows: kept, nextBefore: hasMore && kept.length > 0 ? idOf(kept[kept.length - 1]!) : null };
}

/** ILIKE pattern matching `text` anywhere, with the user's %, _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Label ids per author, ascending. */
export async function labelIdsOf(db: Db, authorIds: number[]): Promise<Map<number, number[]>> {
  const byAuthor = new Map<number, number[]>();
  if (authorIds.length === 0) return byAuthor;
  const rows = await db
    .select({ authorId: authorLabels.authorId, labelId: authorLabels.labelId })
    .from(authorLabels)
    .where(inArray(authorLabels.authorId, authorIds))
    .orderBy(asc(authorLabels.labelId));
  for (const r of rows) byAuthor.set(r.authorId, [...(byAuthor.get(r.authorId) ?? []), r.labelId]);
  return byAuthor;
}

const isBlocked = sql`(${authors.blockedForever} OR ${authors.blockedUntil} > now())`;

function customerItemsIn(scope: InboxScope): SQL {
  return and(eq(items.isOwn, false), scopeCondition(scope, items.spaceId, items.objectId))!;
}

// ---------------------------------------------------------------- author lists

export interface AuthorListFilter {
  /**
   * Authors who wrote comments in scope, who wrote in chats in scope, either, or (issues/authors) whom a
   * task the caller sees is about — with `issues`, the caller's task scope.
   */
  content: 'items' | 'chats' | 'any' | 'issues';
  issues?: IssueScope;
  q?: string;
  labelId?: number;
  blocked?: boolean;
  objectId?: number;
  spaceId?: number;
  before?: number;
  limit: number;
}

export interface AuthorListRow {
  author: AuthorRow;
  labelIds: number[];
  itemsCount: number;
  chatsCount: number;
}

/**
 * The authors the caller's visible tasks are about (issues/authors): linked to a task themselves, or the
 * author of a comment or dialog linked to one. Driven from the tasks, which are few next to the authors,
 * so the list does not walk the authors table looking for ones with tasks.
 */
function authorsOfIssues(scope: IssueScope, spaceIds: number[]): SQL {
  const visible = sql`${issueLinks.issueId} IN (SELECT ${issues.id} FROM ${issues} WHERE ${scopeIssues(scope)})`;
  const inSpaces = sql`${issueLinks.spaceId} IN (${sql.join(
    spaceIds.map((id) => sql`${id}`),
    sql`, `,
  )})`;
  return sql`(
    SELECT ${issueLinks.targetId} FROM ${issueLinks}
      WHERE ${issueLinks.kind} = 'author' AND ${inSpaces} AND ${visible}
    UNION
    SELECT ${items.authorId} FROM ${issueLinks} JOIN ${items} ON ${items.id} = ${issueLinks.targetId}
      WHERE ${issueLinks.kind} = 'item' AND ${inSpaces} AND ${visible} AND ${items.authorId} IS NOT NULL
    UNION
    SELECT ${chats.authorId} FROM ${issueLinks} JOIN ${chats} ON ${chats.id} = ${issueLinks.targetId}
      WHERE ${issueLinks.kind} = 'chat' AND ${inSpaces} AND ${visible} AND ${chats.authorId} IS NOT NULL
  )`;
}

/**
 * Authors with content the caller sees, newest first (by id: the order they first wrote in). Keyset on
 * the primary key keeps every page as cheap as the first; each candidate is checked with an EXISTS on
 * items_author_idx, and the counts are computed for the page only.
 */
export async function findAuthors(
  db: Db,
  scopes: ContentScopes,
  filter: AuthorListFilter,
): Promise<Page<AuthorListRow>> {
  const wroteItems = exists(
    db
      .select({ one: sql`1` })
      .from(items)
      .where(
        and(
          eq(items.authorId, authors.id),
          customerItemsIn(scopes.items),
          filter.objectId === undefined ? undefined : eq(items.objectId, filter.objectId),
        ),
      ),
  );
  const wroteChats = exists(
    db
      .select({ one: sql`1` })
      .from(chats)
      .where(
        and(
          eq(chats.authorId, authors.id),
          scopeCondition(scopes.chats, chats.spaceId, chats.objectId),
          filter.objectId === undefined ? undefined : eq(chats.objectId, filter.objectId),
        ),
      ),
  );
  const spaceIds = [
    ...new Set(
      filter.content === 'issues'
        ? [...(filter.issues?.inbox.spaces.keys() ?? [])]
        : [
            ...(filter.content === 'chats' ? [] : scopes.items.spaces.keys()),
            ...(filter.content === 'items' ? [] : scopes.chats.spaces.keys()),
          ],
    ),
  ].filter((id) => filter.spaceId === undefined || id === filter.spaceId);
  if (spaceIds.length === 0) return { rows: [], nextBefore: null };

  const conditions: Array<SQL | undefined> = [
    inArray(authors.spaceId, spaceIds),
    filter.content === 'issues'
      ? inArray(authors.id, authorsOfIssues(filter.issues!, spaceIds))
      : filter.content === 'items'
        ? wroteItems
        : filter.content === 'chats'
          ? wroteChats
          : or(wroteItems, wroteChats),
    filter.before === undefined ? undefined : lt(authors.id, filter.before),
    filter.blocked === undefined ? undefined : filter.blocked ? isBlocked : not(isBlocked),
  ];
  if (filter.q) {
    const pattern = containsPattern(filter.q);
    conditions.push(
      or(
        sql`${authors.name} ILIKE ${pattern} ESCAPE '\\'`,
        sql`${authors.screenName} ILIKE ${pattern} ESCAPE '\\'`,
      ),
    );
  }
  if (filter.labelId !== undefined) {
    conditions.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(authorLabels)
          .where(and(eq(authorLabels.authorId, authors.id), eq(authorLabels.labelId, filter.labelId))),
      ),
    );
  }
  const rows = await db
    .select()
    .from(authors)
    .where(and(...conditions))
    .orderBy(desc(authors.id))
    .limit(filter.limit + 1);
  const page = toPage(rows, filter.limit, (a) => a.id);
  const ids = page.rows.map((a) => a.id);
  if (ids.length === 0) return { rows: [], nextBefore: null };

  const [itemCounts, chatCounts, labels] = await Promise.all([
    db
      .select({ authorId: items.authorId, n: count() })
      .from(items)
      .where(and(inArray(items.authorId, ids), customerItemsIn(scopes.items)))
      .groupBy(items.authorId),
    db
      .select({ authorId: chats.authorId, n: count() })
      .from(chats)
      .where(and(inArray(chats.authorId, ids), scopeCondition(scopes.chats, chats.spaceId, chats.objectId)))
      .groupBy(chats.authorId),
    labelIdsOf(db, ids),
  ]);
  const itemsBy = new Map(itemCounts.map((r) => [r.authorId, r.n]));
  const chatsBy = new Map(chatCounts.map((r) => [r.authorId, r.n]));
  return {
    nextBefore: page.nextBefore,
    rows: page.rows.map((author) => ({
      author,
      labelIds: labels.get(author.id) ?? [],
      itemsCount: itemsBy.get(author.id) ?? 0,
      chatsCount: chatsBy.get(author.id) ?? 0,
    })),
  };
}

// ---------------------------------------------------------------- one author

export interface AuthorStats {
  itemsCount: number;
  chatsCount: number;
  firstSeen: Date | null;
  lastSeen: Date | null;
}

/** Counts and first/last time the author wrote (comments, and their own messages in chats) in scope. */
export async function getAuthorStats(db: Db, author: AuthorRow, scopes: ContentScopes): Promise<AuthorStats> {
  const [[itemStats], [chatStats], [messageStats]] = await Promise.all([
    db
      .select({ n: count(), first: min(items.createdAt), last: max(items.createdAt) })
      .from(items)
      .where(
        and(eq(items.authorId, author.id), eq(items.spaceId, author.spaceId), customerItemsIn(scopes.items)),
      ),
    db
      .select({ n: count() })
      .from(chats)
      .where(
        and(
          eq(chats.authorId, author.id),
          eq(chats.spaceId, author.spaceId),
          scopeCondition(scopes.chats, chats.spaceId, chats.objectId),
        ),
      ),
    db
      .select({ first: min(messages.createdAt), last: max(messages.createdAt) })
      .from(messages)
      .innerJoin(chats, eq(chats.id, messages.chatId))
      .where(
        and(
          eq(chats.authorId, author.id),
          eq(chats.spaceId, author.spaceId),
          eq(messages.isOwn, false),
          scopeCondition(scopes.chats, chats.spaceId, chats.objectId),
        ),
      ),
  ]);
  const times = (pick: 'first' | 'last') =>
    [itemStats?.[pick], messageStats?.[pick]]
      .filter((d): d is Date => d instanceof Date)
      .map((d) => d.getTime());
  const firsts = times('first');
  const lasts = times('last');
  return {
    itemsCount: itemStats?.n ?? 0,
    chatsCount: chatStats?.n ?? 0,
    firstSeen: firsts.length > 0 ? new Date(Math.min(...firsts)) : null,
    lastSeen: lasts.length > 0 ? new Date(Math.max(...lasts)) : null,
  };
}

export interface AuthorItemRow {
  item: typeof items.$inferSelect;
  provider: string;
  tagIds: number[];
}

/** The author's comments, reviews and mentions in scope, newest first. */
export async function findAuthorItems(
  db: Db,
  author: AuthorRow,
  scope: InboxScope,
  opts: { before?: number; limit: number },
): Promise<Page<AuthorItemRow>> {
  const rows = await db
    .select({ item: items, provider: objects.provider })
    .from(items)
    .innerJoin(objects, eq(objects.id, items.objectId))
    .where(
      and(
        eq(items.authorId, author.id),
        eq(items.spaceId, author.spaceId),
        customerItemsIn(scope),
        opts.before === undefined
          ? undefined
          : sql`(${items.createdAt}, ${items.id}) < (SELECT c.created_at, c.id FROM items c WHERE c.id = ${opts.before} AND c.author_id = ${author.id})`,
      ),
    )
    .orderBy(desc(items.createdAt), desc(items.id))
    .limit(opts.limit + 1);
  return withTagIds(
    toPage(rows, opts.limit, (r) => r.item.id),
    (r) => r.item.id,
    (ids) =>
      db
        .select({ ownerId: itemTags.itemId, tagId: itemTags.tagId })
        .from(itemTags)
        .where(inArray(itemTags.itemId, ids))
        .orderBy(asc(itemTags.tagId)),
  );
}

/** A page's rows with the tag ids of each (`tagsOf` answers them for the page's ids, in tag order). */
async function withTagIds<R>(
  page: Page<R>,
  idOf: (row: R) => number,
  tagsOf: (ids: number[]) => Promise<{ ownerId: number; tagId: number }[]>,
): Promise<Page<R & { tagIds: number[] }>> {
  const ids = page.rows.map(idOf);
  const tagRows = ids.length === 0 ? [] : await tagsOf(ids);
  return {
    nextBefore: page.nextBefore,
    rows: page.rows.map((r) => ({
      ...r,
      tagIds: tagRows.filter((t) => t.ownerId === idOf(r)).map((t) => t.tagId),
    })),
  };
}

export interface AuthorChatRow {
  chat: typeof chats.$inferSelect;
  provider: string;
  tagIds: number[];
}

/** The author's chats in scope, most recent message first. */
export async function findAuthorChats(
  db: Db,
  author: AuthorRow,
  scope: InboxScope,
  opts: { before?: number; limit: number },
): Promise<Page<AuthorChatRow>> {
  const rows = await db
    .select({ chat: chats, provider: objects.provider })
    .from(chats)
    .innerJoin(objects, eq(objects.id, chats.objectId))
    .where(
      and(
        eq(chats.authorId, author.id),
        eq(chats.spaceId, author.spaceId),
        scopeCondition(scope, chats.spaceId, chats.objectId),
        opts.before === undefined
          ? undefined
          : sql`(${chats.lastMessageAt}, ${chats.id}) < (SELECT c.last_message_at, c.id FROM chats c WHERE c.id = ${opts.before} AND c.author_id = ${author.id})`,
      ),
    )
    .orderBy(desc(chats.lastMessageAt), desc(chats.id))
    .limit(opts.limit + 1);
  return withTagIds(
    toPage(rows, opts.limit, (r) => r.chat.id),
    (r) => r.chat.id,
    (ids) =>
      db
        .select({ ownerId: chatTags.chatId, tagId: chatTags.tagId })
        .from(chatTags)
        .where(inArray(chatTags.chatId, ids))
        .orderBy(asc(chatTags.tagId)),
  );
}
