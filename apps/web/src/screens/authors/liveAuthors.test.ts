import { describe, expect, it } from 'vitest';
import type { AuthorListEntry, InboxAuthor, InboxItem } from '../../api/inboxTypes';
import {
  type AuthorListData,
  applyAuthorChange,
  applyAuthorContent,
  authorListFilterOf,
  authorsChangedTouches,
  mergeAuthorRows,
  type RowPages,
  removeAuthorRows,
} from './liveAuthors';

const author = (id: number, patch: Partial<InboxAuthor> = {}): InboxAuthor => ({
  id,
  provider: 'sandbox',
  external_id: `a${id}`,
  name: `Author ${id}`,
  screen_name: null,
  image: null,
  url: null,
  blocked_until: null,
  blocked_forever: false,
  is_blocked: false,
  labels: [],
  ...patch,
});
const entry = (id: number, patch: Partial<AuthorListEntry> = {}): AuthorListEntry => ({
  ...author(id),
  space_id: 1,
  items_count: 1,
  chats_count: 0,
  ...patch,
});
/** Pages of authors, newest (highest id) first; `nextBefore` null when everything is loaded. */
const pages = (ids: number[][], nextBefore: number | null): AuthorListData => ({
  pages: ids.map((page, i) => ({
    items: page.map((id) => entry(id)),
    next_before: i === ids.length - 1 ? nextBefore : page[page.length - 1]!,
  })),
  pageParams: ids.map((_, i) => (i === 0 ? undefined : ids[i - 1]![ids[i - 1]!.length - 1])),
});
const idsOf = (data: AuthorListData) => data.pages.map((p) => p.items.map((r) => r.id));

describe('live author lists', () => {
  // The keys of api/authors authorKeys (that module talks to the server, so it is not loaded here).
  const authorKeys = {
    list: (query: Record<string, unknown>) => ['authors', 'list', query] as const,
    label: (id: number, q: string) => ['authors', 'label', id, q] as const,
    author: (id: number) => ['authors', id] as const,
    items: (id: number) => ['authors', id, 'items'] as const,
  };

  it('reads the filter back from the query keys of api/authors', () => {
    expect(authorListFilterOf(authorKeys.list({ scope: 'items', blocked: '1', object_id: 4 }))).toEqual({
      scope: 'items',
      q: undefined,
      label_id: undefined,
      blocked: '1',
      object_id: 4,
    });
    expect(authorListFilterOf(authorKeys.label(7, ''))).toEqual({ scope: 'any', label_id: 7, q: undefined });
    expect(authorListFilterOf(authorKeys.author(3))).toBeNull();
    expect(authorListFilterOf(authorKeys.items(3))).toBeNull();
  });

  it('a blocked author is updated in place, and leaves a "not blocked" list', () => {
    const data = pages([[9, 8], [5]], null);
    const blocked = author(8, { is_blocked: true, blocked_forever: true, labels: [2] });
    const any = applyAuthorChange(data, { scope: 'items' }, blocked);
    expect(any.refetch).toBe(false);
    expect(any.data.pages[0]!.items[1]).toMatchObject({
      id: 8,
      is_blocked: true,
      labels: [2],
      items_count: 1,
    });
    const notBlocked = applyAuthorChange(data, { scope: 'items', blocked: '0' }, blocked);
    expect(idsOf(notBlocked.data)).toEqual([[9], [5]]);
    // An unrelated author leaves the list as it is.
    expect(applyAuthorChange(data, { scope: 'items' }, author(3)).data).toBe(data);
  });

  it('a newly blocked author not shown is fetched only when its place is among the loaded rows', () => {
    const blocked = author(7, { is_blocked: true });
    const partial = pages([[9, 8]], 8);
    expect(applyAuthorChange(partial, { scope: 'items', blocked: '1' }, blocked).refetch).toBe(false);
    const complete = pages([[9, 8]], null);
    expect(applyAuthorChange(complete, { scope: 'items', blocked: '1' }, blocked).refetch).toBe(true);
    expect(applyAuthorChange(complete, { scope: 'items', blocked: '0' }, blocked).refetch).toBe(false);
    expect(applyAuthorChange(complete, { scope: 'items' }, blocked).refetch).toBe(false);
  });

  it('labels set elsewhere ("authors.changed", ids only) re-read lists showing them and label lists', () => {
    const data = pages([[9, 8]], 8);
    expect(authorsChangedTouches(data, { scope: 'items' }, [8])).toBe(true);
    expect(authorsChangedTouches(data, { scope: 'items' }, [12])).toBe(false);
    expect(authorsChangedTouches(data, { scope: 'any', label_id: 3 }, [12])).toBe(true);
    expect(authorsChangedTouches(data, { scope: 'any', label_id: 3 }, [2])).toBe(false);
  });

  it("new content raises a shown author's counts and fetches a new author", () => {
    const data = pages([[9, 8]], null);
    const comment = { author: author(8), object_id: 1, kind: 'items' as const, counts: true };
    const counted = applyAuthorContent(data, { scope: 'items' }, [comment]);
    expect(counted.refetch).toBe(false);
    expect(counted.data.pages[0]!.items[1]).toMatchObject({ id: 8, items_count: 2, chats_count: 0 });
    // Already counted (a repeated push): nothing changes.
    expect(applyAuthorContent(data, { scope: 'items' }, [{ ...comment, counts: false }]).data).toBe(data);
    // A chat is not a commenter's business; a chat list counts it.
    const chat = { ...comment, kind: 'chats' as const };
    expect(applyAuthorContent(data, { scope: 'items' }, [chat]).data).toBe(data);
    expect(applyAuthorContent(data, { scope: 'chats' }, [chat]).data.pages[0]!.items[1]!.chats_count).toBe(1);
    // Another account's list, or a label the author lacks: not theirs.
    expect(applyAuthorContent(data, { scope: 'items', object_id: 2 }, [comment]).data).toBe(data);
    // A new author (the highest id goes on top): the list is read again.
    const newcomer = { ...comment, author: author(10) };
    expect(applyAuthorContent(data, { scope: 'items' }, [newcomer]).refetch).toBe(true);
    expect(applyAuthorContent(data, { scope: 'any', label_id: 4 }, [newcomer]).refetch).toBe(false);
    expect(applyAuthorContent(data, { scope: 'issues' }, [newcomer]).refetch).toBe(false);
    // Beyond the loaded pages: paging brings it.
    expect(
      applyAuthorContent(pages([[9, 8]], 8), { scope: 'items' }, [{ ...comment, author: author(3) }]).refetch,
    ).toBe(false);
  });

  it("the author page's comments take pushed rows at their place and drop removed ones", () => {
    const item = (id: number, created_at: number) => ({ id, created_at }) as InboxItem;
    const data: RowPages<InboxItem> = {
      pages: [{ items: [item(5, 500), item(3, 300)], next_before: null }],
      pageParams: [undefined],
    };
    const merged = mergeAuthorRows(data, [item(7, 700)], {
      matches: () => true,
      sortKey: (row) => row.created_at,
    });
    expect(merged.pages[0]!.items.map((r) => r.id)).toEqual([7, 5, 3]);
    expect(merged.pages[0]!.next_before).toBeNull();
    expect(removeAuthorRows(merged, [5]).pages[0]!.items.map((r) => r.id)).toEqual([7, 3]);
    expect(removeAuthorRows(merged, [99])).toBe(merged);
  });
});
