import type { RouteQuery } from '@otklik/shared/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from './instance';

// Statistics endpoints (GET /v1/stats/*): one hook, the endpoint and the shared query as the key.

export type StatsEndpoint =
  | 'overview'
  | 'volume'
  | 'hours'
  | 'operators'
  | 'tags'
  | 'posts'
  | 'closed'
  | 'time'
  | 'operator-times'
  | 'my'
  | 'statuses'
  | 'my/statuses'
  | 'workinghours'
  | 'dashboard'
  | `users/${number}`
  | `users/${number}/statuses`
  | `users/${number}/workinghours`;

export function useStats<T>(endpoint: StatsEndpoint, query: RouteQuery | null) {
  return useQuery({
    queryKey: ['stats', endpoint, query],
    queryFn: ({ signal }) => api.get<T>(`/v1/stats/${endpoint}`, { signal, query: query ?? undefined }),
    enabled: query !== null,
    staleTime: 30_000,
  });
}
