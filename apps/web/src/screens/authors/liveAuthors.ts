import type { InfiniteData } from '@tanstack/react-query';
import type { AuthorListQuery } from '../../api/authors';
import type { AuthorListEntry, AuthorPage, InboxAuthor } from '../../api/inboxTypes';
import { type ListPage, type MergeOptions, mergeLiveRows } from '../../features/inbox/model/liveList';

// Author lists ({items|chats}/authors, settings labels/{id}/authors) and the author page's lists, kept
// live from the socket messages the inbox already gets. Pure, so the rules are unit-tested:
// - a shown author that changed (blocked, labelled) is updated where it is, and leaves a list whose
//   blocked/label filter it no longer passes;
// - new content of a shown author raises its counts;
// - an author not shown who may now belong (a new author, a block or label that now matches) makes the
//   list re-read — but only when its place (lists are newest first by id) is among the loaded rows;
//   otherwise paging will bring it.

export type AuthorListData = InfiniteData<AuthorPage<AuthorListEntry>, number | undefined>;

/** What an author list is filtered by, read back from its query key (api/authors authorKeys). */
export interface AuthorListFilter {
  /** Whose content: commenters, chat authors, or either (a label's authors). */
  scope: 'items' | 'chats' | 'issues' | 'any';
  q?: string;
  label_id?: number;
  blocked?: '0' | '1';
  object_id?: number;
}

export function authorListFilterOf(key: readonly unknown[]): AuthorListFilter | null {
  if (key[0] !== 'authors') return null;
  if (key[1] === 'list' && key[2] && typeof key[2] === 'object') {
    const query = key[2] as AuthorListQuery;
    return {
      scope: query.scope,
      q: query.q,
      label_id: query.label_id,
      blocked: query.blocked,
      object_id: query.object_id,
    };
  }
  if (key[1] === 'label' && typeof key[2] === 'number')
    return { scope: 'any', label_id: key[2], q: typeof key[3] === 'string' && key[3] ? key[3] : undefined };
  return null;
}

export interface LiveResult<T> {
  data: T;
  /** Something may have joined the loaded rows: re-read the list. */
  refetch: boolean;
}

/** Would an author with this id, not among the loaded rows, be shown if the list were read again? */
function inLoadedRange(data: AuthorListData, id: number): boolean {
  const last = data.pages[data.pages.length - 1];
  return !last || last.next_before === null || id > last.next_before;
}

function findRow(data: AuthorListData, id: number): AuthorListEntry | undefined {
  for (const page of data.pages) {
    const row = page.items.find((r) => r.id === id);
    if (row) return row;
  }
  return undefined;
}

function mapRows(
  data: AuthorListData,
  map: (row: AuthorListEntry) => AuthorListEntry | null,
): AuthorListData {
  let changed = false;
  const pages = data.pages.map((page) => {
    const items: AuthorListEntry[] = [];
    for (const row of page.items) {
      const next = map(row);
      if (next !== row) changed = true;
      if (next) items.push(next);
    }
    return items.length === page.items.length && items.every((r, i) => r === page.items[i])
      ? page
      : { ...page, items };
  });
  return changed ? { ...data, pages } : data;
}

/** The blocked and label filters are the ones a pushed author can be checked against here. */
function passesAuthorFilters(filter: AuthorListFilter, author: InboxAuthor): boolean {
  if (filter.blocked === '1' && !author.is_blocked) return false;
  if (filter.blocked === '0' && author.is_blocked) return false;
  if (filter.label_id !== undefined && !author.labels.includes(filter.label_id)) return false;
  return true;
}

/** The fields of a pushed author a list row takes (its space and counts stay the list's). */
function withAuthor(row: AuthorListEntry, author: InboxAuthor): AuthorListEntry {
  return {
    ...row,
    provider: author.provider,
    external_id: author.external_id,
    name: author.name,
    screen_name: author.screen_name,
    image: author.image,
    url: author.url,
    blocked_until: author.blocked_until,
    blocked_forever: author.blocked_forever,
    is_blocked: author.is_blocked,
    labels: author.labels,
  };
}

/** 'authors.updated' (blocked, unblocked): the row follows or leaves; a newly matching one is fetched. */
export function applyAuthorChange(
  data: AuthorListData,
  filter: AuthorListFilter,
  author: InboxAuthor,
): LiveResult<AuthorListData> {
  const passes = passesAuthorFilters(filter, author);
  if (findRow(data, author.id)) {
    return {
      data: mapRows(data, (row) => (row.id !== author.id ? row : passes ? withAuthor(row, author) : null)),
      refetch: false,
    };
  }
  const filtersByAuthor = filter.blocked !== undefined || filter.label_id !== undefined;
  return { data, refetch: filtersByAuthor && passes && inLoadedRange(data, author.id) };
}

/** 'authors.changed' (labels set, a label deleted): only ids — shown rows and label lists re-read. */
export function authorsChangedTouches(
  data: AuthorListData,
  filter: AuthorListFilter,
  ids: number[],
): boolean {
  if (ids.some((id) => findRow(data, id))) return true;
  return filter.label_id !== undefined && ids.some((id) => inLoadedRange(data, id));
}

/** A new comment or chat of an author, from 'items.created' / 'messages.created'. */
export interface AuthorContent {
  author: InboxAuthor;
  object_id: number;
  kind: 'items' | 'chats';
  /** It adds one to the author's count (a new comment; a chat the list has not counted yet). */
  counts: boolean;
}

function contentBelongs(filter: AuthorListFilter, content: AuthorContent): boolean {
  if (filter.scope === 'issues') return false;
  if (filter.scope !== 'any' && filter.scope !== content.kind) return false;
  if (filter.object_id !== undefined && filter.object_id !== content.object_id) return false;
  return passesAuthorFilters(filter, content.author);
}

/** New content: shown authors' counts go up; an author not shown whose place is loaded is fetched. */
export function applyAuthorContent(
  data: AuthorListData,
  filter: AuthorListFilter,
  contents: readonly AuthorContent[],
): LiveResult<AuthorListData> {
  let next = data;
  let refetch = false;
  for (const content of contents) {
    if (!contentBelongs(filter, content)) continue;
    if (findRow(next, content.author.id)) {
      if (!content.counts) continue;
      next = mapRows(next, (row) =>
        row.id !== content.author.id
          ? row
          : content.kind === 'items'
            ? { ...row, items_count: row.items_count + 1 }
            : { ...row, chats_count: row.chats_count + 1 },
      );
    } else if (inLoadedRange(next, content.author.id)) {
      refetch = true;
    }
  }
  return { data: next, refetch };
}

// ---------------------------------------------------------------- the author page's comments and chats

export type RowPages<T> = InfiniteData<AuthorPage<T>, number | undefined>;

/** Pushed comments or chats of the author, merged into its keyset pages (order by the list's sort key). */
export function mergeAuthorRows<T extends { id: number }>(
  data: RowPages<T>,
  rows: readonly T[],
  options: MergeOptions<T>,
): RowPages<T> {
  const pages: ListPage<T>[] = data.pages.map((page) => ({
    items: page.items,
    next: page.next_before === null ? null : String(page.next_before),
  }));
  const merged = mergeLiveRows(pages, rows, options);
  if (merged === pages) return data;
  return {
    ...data,
    pages: data.pages.map((page, i) => ({ ...page, items: merged[i]!.items })),
  };
}

/** Rows removed ('items.removed'). */
export function removeAuthorRows<T extends { id: number }>(
  data: RowPages<T>,
  ids: readonly number[],
): RowPages<T> {
  if (!data.pages.some((page) => page.items.some((row) => ids.includes(row.id)))) return data;
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, items: page.items.filter((row) => !ids.includes(row.id)) })),
  };
}
