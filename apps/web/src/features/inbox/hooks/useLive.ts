import type { RouteQuery } from '@otklik/shared/routes';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  applyAuthor,
  applyChats,
  applyPushedItems,
  applyPushedMessages,
  inboxKeys,
  type ListData,
  mergePresented,
  removeItems,
  removeMessages,
} from '../../../api/inbox';
import type { InboxAuthor, InboxChat, InboxItem } from '../../../api/inboxTypes';
import { rowsOf, useSocketEvent } from '../../../realtime/hooks';
import { type InboxFilters, type ListKind, rowMatches } from '../model/filters';
import { mergeLiveRows } from '../model/liveList';

// Socket pushes (SPEC: open screens update live). Comments and messages come slim (what a list row shows;
// open pages read the rest: api/inboxCache.ts applyPushedItems). 'items.created' {object_id, items}, 'items.updated'
// {items}, 'messages.created' {chats, messages}, 'messages.updated' {messages}, 'chats.updated' {chats},
// 'chats.read' {chat}, 'authors.updated' {authors}, 'items.removed' {ids}, 'messages.removed' {chat_id, ids}. Counters are refreshed by the shell (realtime/cache.ts).

/** Every inbox screen: rows and open pages show colleagues' changes as they happen. */
export function useInboxLive() {
  const queryClient = useQueryClient();
  useSocketEvent('items.created', (m) => applyPushedItems(queryClient, m.items));
  useSocketEvent('items.updated', (m) => applyPushedItems(queryClient, m.items));
  useSocketEvent('messages.created', (m) => {
    applyPushedMessages(queryClient, m.messages);
    applyChats(queryClient, rowsOf<InboxChat>(m.chats));
  });
  useSocketEvent('messages.updated', (m) => applyPushedMessages(queryClient, m.messages));
  useSocketEvent('chats.updated', (m) => applyChats(queryClient, rowsOf<InboxChat>(m.chats)));
  useSocketEvent('items.removed', (m) => removeItems(queryClient, m.ids));
  useSocketEvent('messages.removed', (m) => {
    removeMessages(queryClient, m.chat_id, m.ids);
  });
  useSocketEvent('chats.read', (m) => {
    if (m.chat) applyChats(queryClient, rowsOf<InboxChat>([m.chat]));
  });
  useSocketEvent('authors.updated', (m) => {
    for (const author of rowsOf<InboxAuthor>(m.authors)) applyAuthor(queryClient, author);
  });
}

/**
 * A list screen: new rows that match the filters join the list at their place (new comments on top);
 * a chat with a new message moves up. With a text search the server decides what matches, so new rows
 * are counted and offered with a "Show" button instead.
 */
export function useLiveListInserts(
  kind: ListKind,
  query: RouteQuery,
  filters: InboxFilters,
  reversed: boolean,
) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(0);
  const key = kind === 'items' ? inboxKeys.items(query) : inboxKeys.chats(query);

  const merge = <T extends InboxItem | InboxChat>(rows: T[], countUnknown: boolean) => {
    if (rows.length === 0) return;
    let unknown = 0;
    queryClient.setQueryData<ListData<T>>(key, (data) => {
      if (!data) return data;
      const pages = mergeLiveRows(data.pages, rows, {
        matches: (row) => {
          const verdict = rowMatches(filters, row as InboxItem, kind);
          if (verdict === 'unknown') unknown++;
          return verdict === true;
        },
        sortKey: (row) =>
          kind === 'items'
            ? (row as InboxItem).created_at
            : ((row as InboxChat).last_message_at ?? row.created_at),
        reversed,
        merge: mergePresented,
      });
      return pages === data.pages ? data : { ...data, pages };
    });
    if (countUnknown && unknown > 0) setPending((count) => count + unknown);
  };

  useSocketEvent('items.created', (m) => {
    if (kind === 'items')
      merge(
        rowsOf<InboxItem>(m.items).filter((item) => !item.is_own),
        true,
      );
  });
  useSocketEvent('items.updated', (m) => {
    if (kind === 'items')
      merge(
        rowsOf<InboxItem>(m.items).filter((item) => !item.is_own),
        false,
      );
  });
  useSocketEvent('messages.created', (m) => {
    if (kind === 'chats') merge(rowsOf<InboxChat>(m.chats), true);
  });
  useSocketEvent('chats.updated', (m) => {
    if (kind === 'chats') merge(rowsOf<InboxChat>(m.chats), false);
  });

  return {
    pending,
    showPending: () => {
      setPending(0);
      void queryClient.invalidateQueries({ queryKey: key });
    },
  };
}
