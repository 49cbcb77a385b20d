import type { HistoryEntryWire, HistoryWire, InboxViewCountsWire } from '@otklik/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './instance';
import { queryKeys } from './keys';
import { usePush } from './pushes';

// The inbox views' counters and an item's or chat's history (issue 13).

/**
 * GET /v1/counts/views. Under the counts key, so the socket's item and message events refresh it like
 * the top bar's badges (realtime/cache.ts): the counts are live.
 */
export const useViewCounts = () =>
  useQuery({
    queryKey: [...queryKeys.counts, 'views'],
    queryFn: ({ signal }) =>
      api.get<InboxViewCountsWire>('/v1/counts/views', { signal, forbiddenPage: false }),
    staleTime: 5_000,
  });

/** One line of an item's or chat's history (packages/shared inbox-actions-wire.ts). */
export type HistoryEntry = HistoryEntryWire;

export const historyKey = queryKeys.history;

/** GET /v1/items/:id/history or /v1/chats/:id/history; refetched when the socket says the record changed. */
export function useHistory(kind: 'items' | 'chats', id: number) {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: historyKey(kind, id) });
  const mentions = (list: readonly { id: number }[]) => list.some((row) => row.id === id);
  usePush(kind === 'items' ? 'items.updated' : 'chats.updated', (m) => {
    if (mentions('items' in m ? m.items : m.chats)) refresh();
  });
  // Someone started answering it (the typing lock): the history says who.
  const lockKey = `${kind === 'items' ? 'item' : 'chat'}:${id}`;
  usePush('locked', (m) => {
    if (m.key === lockKey) refresh();
  });
  // Our own lock is answered with 'lock' (the colleagues hear 'locked').
  usePush('lock', (m) => {
    if (m.key === lockKey && m.acquired === true) refresh();
  });
  usePush('messages.created', (m) => {
    if (kind === 'chats' && mentions(m.chats)) refresh();
  });
  return useQuery({
    queryKey: historyKey(kind, id),
    queryFn: ({ signal }) => api.get<HistoryWire>(`/v1/${kind}/${id}/history`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });
}
