import { pathFor } from '@otklik/shared/routes';
import { useEffect, useMemo, useRef } from 'react';
import { useChatsList, useItemsList } from '../../../api/inbox';
import { useShell } from '../../../shell/ShellContext';
import { filtersToApiQuery, type ListKind, parseFilters } from '../model/filters';
import { neighbours, neighboursAfterLeaving } from '../model/itemKeys';
import { recalledList } from '../model/listMemory';

/**
 * Previous and next record in the list the operator came from, in its order and filters (the same
 * query, so the cached pages answer); the next page is fetched when the record is the last one loaded.
 */
export function useRecordNav(kind: ListKind, id: number) {
  const { user } = useShell();
  const search = useMemo(() => recalledList(kind), [kind]);
  const reversed = user.settings.reversed === true;
  const query = useMemo(
    () => filtersToApiQuery(parseFilters(search, kind), kind, reversed),
    [search, kind, reversed],
  );
  const items = useItemsList(query, kind === 'items');
  const chats = useChatsList(query, kind === 'chats');
  const list = kind === 'items' ? items : chats;
  const ids = useMemo(
    () => (list.data?.pages ?? []).flatMap((page) => (page.items as Array<{ id: number }>).map((r) => r.id)),
    [list.data],
  );
  const near = useKeptNeighbours(ids, id);
  const atLoadedEnd = near.index >= 0 && near.next === null;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    if (atLoadedEnd && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [atLoadedEnd, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const pathOf = (target: number) =>
    kind === 'items' ? pathFor('item', { id: target }) : pathFor('chat-messages', { id: target });
  const listPath = `${pathFor(kind)}${search ? `?${search}` : ''}`;
  return {
    prev: near.prev === null ? null : pathOf(near.prev),
    next: near.next === null ? null : pathOf(near.next),
    index: near.index,
    count: ids.length,
    listPath,
  };
}

/**
 * The record's neighbours in the list. A record can leave its list while it is open — closed here, then the
 * list read again (its status no longer matches) — and j/k must still go on from where it was: its
 * neighbours are then taken from the last list it was in, skipping those that left too.
 */
function useKeptNeighbours(ids: readonly number[], id: number) {
  const lastSeen = useRef<{ id: number; ids: readonly number[] } | null>(null);
  const near = neighbours(ids, id);
  if (near.index >= 0) {
    lastSeen.current = { id, ids };
    return near;
  }
  const last = lastSeen.current;
  return last?.id === id ? neighboursAfterLeaving(last.ids, ids, id) : near;
}
