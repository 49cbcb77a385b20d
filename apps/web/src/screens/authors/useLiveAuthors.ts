import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { authorKeys } from '../../api/authors';
import { mergePresented } from '../../api/inbox';
import type { AuthorStats, InboxAuthor, InboxChat, InboxItem } from '../../api/inboxTypes';
import { queryKeys } from '../../api/keys';
import { tagKeys } from '../../api/tags';
import { rowsOf, useSocketEvent } from '../../realtime/hooks';
import {
  type AuthorContent,
  type AuthorListData,
  type AuthorListFilter,
  applyAuthorChange,
  applyAuthorContent,
  authorListFilterOf,
  authorsChangedTouches,
  type LiveResult,
  mergeAuthorRows,
  type RowPages,
  removeAuthorRows,
} from './liveAuthors';

// The socket messages the inbox gets ('authors.updated' {authors}, 'authors.changed' {ids},
// 'labels.changed', 'items.created' {items}, 'messages.created' {chats}, 'items.updated', 'chats.updated',
// 'items.removed'), applied to the author lists in the cache and, with `authorId`, the author page.

/** Re-reads are gathered: a burst of new comments re-reads a list once. */
const REFETCH_DELAY_MS = 800;
/** How many counted comments and chats are remembered (against repeated pushes). */
const COUNTED_MAX = 5_000;

type AuthorDetails = { author: InboxAuthor & { space_id: number }; stats: AuthorStats };

export function useLiveAuthors(authorId?: number) {
  const queryClient = useQueryClient();
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  /** Comments and chats already counted, per list (a push may repeat; a chat gets many messages). */
  const counted = useRef(new Set<string>());

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const refetchSoon = (queryKey: QueryKey) => {
    const hash = JSON.stringify(queryKey);
    if (timers.current.has(hash)) return;
    timers.current.set(
      hash,
      setTimeout(() => {
        timers.current.delete(hash);
        void queryClient.invalidateQueries({ queryKey, exact: true });
      }, REFETCH_DELAY_MS),
    );
  };

  /** Every author list in the cache, with its filter and when it was read. */
  const eachList = (
    apply: (
      data: AuthorListData,
      filter: AuthorListFilter,
      hash: string,
      readAt: number,
    ) => LiveResult<AuthorListData>,
  ) => {
    for (const query of queryClient.getQueryCache().findAll({ queryKey: authorKeys.all })) {
      const filter = authorListFilterOf(query.queryKey);
      const data = query.state.data as AuthorListData | undefined;
      if (!filter || !data?.pages) continue;
      const result = apply(data, filter, query.queryHash, query.state.dataUpdatedAt);
      if (result.data !== data) queryClient.setQueryData(query.queryKey, result.data);
      if (result.refetch) refetchSoon(query.queryKey);
    }
  };

  const addContent = (contents: Array<AuthorContent & { id: number; createdAt: number }>) => {
    if (contents.length === 0) return;
    eachList((data, filter, hash, readAt) =>
      applyAuthorContent(
        data,
        filter,
        contents.map((content) => {
          // A new comment counts once; a chat counts when it started after the list was read.
          const mark = `${hash}:${content.kind}:${content.id}`;
          const fresh = content.kind === 'items' || content.createdAt * 1000 >= readAt;
          const counts = fresh && !counted.current.has(mark);
          if (counts) {
            // Bounded: a repeated push comes within moments, not after thousands of others.
            if (counted.current.size >= COUNTED_MAX) counted.current.clear();
            counted.current.add(mark);
          }
          return { ...content, counts };
        }),
      ),
    );
  };

  const authorPage = (
    kind: 'items' | 'chats',
    apply: <T extends { id: number }>(data: RowPages<T>) => RowPages<T>,
  ) => {
    if (!authorId) return;
    const key = kind === 'items' ? authorKeys.items(authorId) : authorKeys.chats(authorId);
    queryClient.setQueryData<RowPages<{ id: number }>>(key, (data) => (data?.pages ? apply(data) : data));
  };
  const mergeItems = (items: InboxItem[]) => {
    const mine = items.filter((item) => item.author?.id === authorId && !item.is_own);
    if (mine.length === 0) return;
    authorPage(
      'items',
      (data) =>
        mergeAuthorRows(data as unknown as RowPages<InboxItem>, mine, {
          matches: () => true,
          sortKey: (row) => row.created_at,
          merge: mergePresented,
        }) as unknown as typeof data,
    );
  };
  const mergeChats = (chats: InboxChat[]) => {
    const mine = chats.filter((chat) => chat.author?.id === authorId);
    if (mine.length === 0) return;
    authorPage(
      'chats',
      (data) =>
        mergeAuthorRows(data as unknown as RowPages<InboxChat>, mine, {
          matches: () => true,
          sortKey: (row) => row.last_message_at ?? row.created_at,
          merge: mergePresented,
        }) as unknown as typeof data,
    );
  };

  useSocketEvent('authors.updated', (m) => {
    for (const author of rowsOf<InboxAuthor>(m.authors)) {
      eachList((data, filter) => applyAuthorChange(data, filter, author));
      queryClient.setQueryData<AuthorDetails>(authorKeys.author(author.id), (details) =>
        details
          ? { ...details, author: { ...details.author, ...author, space_id: details.author.space_id } }
          : details,
      );
    }
  });
  useSocketEvent('authors.changed', (m) => {
    const ids = m.ids;
    if (ids.length === 0) return;
    eachList((data, filter) => ({ data, refetch: authorsChangedTouches(data, filter, ids) }));
    for (const id of ids) refetchSoon(authorKeys.author(id));
  });
  useSocketEvent('labels.changed', () => {
    // Names and colours of the labels shown on the rows (the shell's objects carry them).
    void queryClient.invalidateQueries({ queryKey: queryKeys.objects });
    void queryClient.invalidateQueries({ queryKey: tagKeys.labels });
  });
  useSocketEvent('items.created', (m) => {
    const items = rowsOf<InboxItem>(m.items).filter((item) => !item.is_own && item.author);
    addContent(
      items.map((item) => ({
        author: item.author!,
        object_id: item.object_id,
        kind: 'items' as const,
        counts: true,
        id: item.id,
        createdAt: item.created_at,
      })),
    );
    mergeItems(items);
    if (authorId && items.some((item) => item.author?.id === authorId))
      refetchSoon(authorKeys.author(authorId));
  });
  useSocketEvent('items.updated', (m) => mergeItems(rowsOf<InboxItem>(m.items)));
  useSocketEvent('items.removed', (m) => {
    const ids = m.ids;
    if (ids.length > 0) authorPage('items', (data) => removeAuthorRows(data, ids));
  });
  useSocketEvent('messages.created', (m) => {
    const chats = rowsOf<InboxChat>(m.chats).filter((chat) => chat.author);
    addContent(
      chats.map((chat) => ({
        author: chat.author!,
        object_id: chat.object_id,
        kind: 'chats' as const,
        counts: true,
        id: chat.id,
        createdAt: chat.created_at,
      })),
    );
    mergeChats(chats);
  });
  useSocketEvent('chats.updated', (m) => mergeChats(rowsOf<InboxChat>(m.chats)));
}
