import {
  COUNTS_REFRESH_MS,
  type FailedActionKind,
  type FailedActionsWire,
  type FailedActionWire,
  type FailureCountWire,
  type ItemFailureWire,
  type NetworkBanWire,
} from '@otklik/shared';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidating } from './invalidating';
import { queryKeys } from './keys';
import { usePush } from './pushes';

// Outgoing actions the networks refused for good (server: modules/inbox/failures/failures.ts): settings/errors,
// the per-account counts of the errors dropdown, the failed action of an item, an author's network ban.

/** What was tried: a send (reply, direct, message), a moderation, a reaction, a ban. */
export type { FailedActionKind };

/** One row of settings/errors (GET /v1/errors/actions). */
export type FailedAction = FailedActionWire;

/** Per account: how many recent failed actions still stand (GET /v1/errors/actions/counts). */
export type FailureCount = FailureCountWire;

export type ItemFailure = ItemFailureWire;
export type NetworkBan = NetworkBanWire;

/** The socket event of a failed action (server: jobs/outbox-effects.ts OUTBOX_FAILED). */
export const FAILED_EVENT = 'objects.failed';
/** Someone acknowledged a failure (server: OUTBOX_DISMISSED). */
export const DISMISSED_EVENT = 'objects.failure_dismissed';

// Under the account-errors key: whatever refreshes the dropdown (objects.* events) refreshes these too.
export const failureKeys = {
  all: [...queryKeys.accountErrors, 'actions'] as const,
  list: [...queryKeys.accountErrors, 'actions', 'list'] as const,
  counts: [...queryKeys.accountErrors, 'actions', 'counts'] as const,
  item: (id: number, error: string | null) => ['items', id, 'failure', error] as const,
  networkBan: (authorId: number) => ['authors', authorId, 'network-ban'] as const,
};

/** A failure anywhere refreshes the errors lists and counts (the dropdown and settings/errors). */
function useRefreshOnFailure(enabled: boolean) {
  const queryClient = useQueryClient();
  const refresh = () => {
    if (enabled) void queryClient.invalidateQueries({ queryKey: failureKeys.all });
  };
  usePush(FAILED_EVENT, refresh);
  usePush(DISMISSED_EVENT, refresh);
}

/** POST /v1/errors/actions/:id/dismiss: the failure leaves settings/errors and the dropdown counts. */
export const useDismissFailure = () =>
  useInvalidating(failureKeys.all, (id: number) =>
    api.post<{ ok: true }>(`/v1/errors/actions/${id}/dismiss`),
  );

/** GET /v1/errors/actions, 50 a page, newest first (settings/errors). */
export function useFailedActions(enabled: boolean) {
  useRefreshOnFailure(enabled);
  return useInfiniteQuery({
    queryKey: failureKeys.list,
    queryFn: ({ pageParam, signal }) =>
      api.get<FailedActionsWire>('/v1/errors/actions', {
        signal,
        query: { before: pageParam },
      }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next_before ?? undefined,
    enabled,
  });
}

/** GET /v1/errors/actions/counts: per account, the failures that still stand (errors dropdown). */
export function useFailureCounts(enabled: boolean) {
  useRefreshOnFailure(enabled);
  return useQuery({
    queryKey: failureKeys.counts,
    queryFn: ({ signal }) =>
      api
        .get<{ items: FailureCount[] }>('/v1/errors/actions/counts', { signal, forbiddenPage: false })
        .then((r) => r.items),
    enabled,
    staleTime: 60_000,
    refetchInterval: COUNTS_REFRESH_MS,
  });
}

/** GET /v1/items/:id/failure — only while the item shows an error; keyed by it, so a new error reloads. */
export function useItemFailure(id: number, error: string | null) {
  return useQuery({
    queryKey: failureKeys.item(id, error),
    queryFn: ({ signal }) =>
      api.get<{ failure: ItemFailure | null }>(`/v1/items/${id}/failure`, { signal }).then((r) => r.failure),
    enabled: error !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** GET /v1/authors/:id/network_ban; polls while the network has not answered yet. */
export function useNetworkBan(authorId: number, enabled: boolean) {
  const queryClient = useQueryClient();
  usePush(FAILED_EVENT, (message) => {
    if (message.author_id === authorId)
      void queryClient.invalidateQueries({ queryKey: failureKeys.networkBan(authorId) });
  });
  return useQuery({
    queryKey: failureKeys.networkBan(authorId),
    queryFn: ({ signal }) =>
      api
        .get<{ network_ban: NetworkBan | null }>(`/v1/authors/${authorId}/network_ban`, { signal })
        .then((r) => r.network_ban),
    enabled,
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? 5_000 : false),
  });
}
