import { COUNTS_REFRESH_MS, configReloadMs } from '@otklik/shared';
import { useQuery } from '@tanstack/react-query';
import { NetworkError } from './errors';
import { api } from './instance';
import { queryKeys } from './keys';
import { useHasToken } from './me';
import { queryClient } from './queryClient';
import type { AccountError, AppConfig, Counts, ObjectsData } from './types';

// What the app shell loads after login (docs/product/entities.md Config, §7 Data calls).

const nowSeconds = () => Math.floor(Date.now() / 1000);
const NETWORK_RETRY_MS = 15_000;

/**
 * GET /v1/config. Reloaded after 8 hours, or every 10 minutes while every space is expired (docs/product/limits.md) —
 * so a paid space opens again without a page reload. The shell handles its errors (docs/product/errors.md).
 */
export function useConfig() {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: queryKeys.config,
    queryFn: async ({ signal }) => {
      const config = await api.get<AppConfig>('/v1/config', {
        signal,
        query: { ts: Date.now() },
        forbiddenPage: false,
      });
      // Config carries the user: screens reading useMe() need no second request.
      queryClient.setQueryData(queryKeys.me, config.user);
      return config;
    },
    enabled: hasToken,
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: (query) => {
      // After a network error (docs/product/errors.md network-error flag) try again soon, so the flag clears by itself.
      if (query.state.status === 'error' && query.state.error instanceof NetworkError)
        return NETWORK_RETRY_MS;
      return query.state.data ? configReloadMs(query.state.data.spaces, nowSeconds()) : false;
    },
    refetchIntervalInBackground: true,
  });
}

/**
 * GET /v1/counts (badges), every 120 s unless the user has been idle for 20 minutes (docs/product/limits.md); the
 * monitoring counter comes from GET /v1/counts?monitoring=1 when monitoring is shown.
 */
export function useCounts(options: { idle: boolean; monitoring: boolean }) {
  const hasToken = useHasToken();
  const enabled = hasToken && !options.idle;
  const base = useQuery({
    queryKey: [...queryKeys.counts, 'main'],
    queryFn: ({ signal }) => api.get<Counts>('/v1/counts', { signal, forbiddenPage: false }),
    enabled,
    refetchInterval: COUNTS_REFRESH_MS,
    staleTime: COUNTS_REFRESH_MS / 2,
  });
  const monitoring = useQuery({
    queryKey: [...queryKeys.counts, 'monitoring'],
    queryFn: ({ signal }) =>
      api.get<Counts>('/v1/counts', { signal, query: { monitoring: 1 }, forbiddenPage: false }),
    enabled: enabled && options.monitoring,
    refetchInterval: COUNTS_REFRESH_MS,
    staleTime: COUNTS_REFRESH_MS / 2,
  });
  return { ...base.data, ...(options.monitoring ? monitoring.data : {}) } as Counts;
}

/** GET /v1/objects?tags=true: connected accounts, companies, tags, departments (docs/product/api.md). */
export function useObjects(enabled = true) {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: queryKeys.objects,
    queryFn: ({ signal }) =>
      api.get<ObjectsData>('/v1/objects', { signal, query: { tags: 'true' }, forbiddenPage: false }),
    enabled: hasToken && enabled,
    staleTime: 60_000,
  });
}

/** GET /v1/errors: accounts with errors, for administrators (docs/product/screens-and-routes.md errors dropdown, §6). */
export function useAccountErrors(enabled: boolean) {
  const hasToken = useHasToken();
  return useQuery({
    queryKey: queryKeys.accountErrors,
    queryFn: ({ signal }) =>
      api.get<{ items: AccountError[] }>('/v1/errors', { signal, forbiddenPage: false }).then((r) => r.items),
    enabled: hasToken && enabled,
    staleTime: 60_000,
    refetchInterval: COUNTS_REFRESH_MS,
  });
}
