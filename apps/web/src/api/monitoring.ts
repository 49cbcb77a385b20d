import type { MonitoringMentionDto, MonitoringQueryDto, MonitoringQueryInput } from '@otklik/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './instance';
import { queryKeys } from './keys';

// Monitoring (issue 21): keyword queries and the mentions they caught. The socket `monitoring` message
// invalidates ['monitoring'] and the counters (realtime/cache.ts), so the page and the badge move live.

export const monitoringKeys = {
  all: ['monitoring'] as const,
  queries: ['monitoring', 'queries'] as const,
  mentions: (queryId: number, page: number) => ['monitoring', 'mentions', queryId, page] as const,
};

export const useMonitoringQueries = () =>
  useQuery({
    queryKey: monitoringKeys.queries,
    queryFn: ({ signal }) =>
      api.get<{ items: MonitoringQueryDto[]; spaces: number[] }>('/v1/monitoring/queries', { signal }),
  });

export const useMonitoringMentions = (queryId: number | null, page: number) =>
  useQuery({
    queryKey: monitoringKeys.mentions(queryId ?? 0, page),
    queryFn: ({ signal }) =>
      api.get<{ items: MonitoringMentionDto[]; has_more: boolean }>(
        `/v1/monitoring/queries/${queryId}/mentions?page=${page}`,
        { signal },
      ),
    enabled: queryId !== null,
    placeholderData: keepPreviousData,
  });

function useChanging<TVariables, TResult>(call: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: monitoringKeys.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.counts });
    },
  });
}

export const useSaveMonitoringQuery = () =>
  useChanging(({ id, ...body }: MonitoringQueryInput & { id?: number }) =>
    id
      ? api.put<MonitoringQueryDto>(`/v1/monitoring/queries/${id}`, body)
      : api.post<MonitoringQueryDto>('/v1/monitoring/queries', body),
  );
export const useDeleteMonitoringQuery = () =>
  useChanging((id: number) => api.delete<{ ok: true }>(`/v1/monitoring/queries/${id}`));
export const useMarkMentionsRead = () =>
  useChanging(({ queryId, ids }: { queryId: number; ids?: number[] }) =>
    api.post<{ updated: number }>(`/v1/monitoring/queries/${queryId}/read`, ids ? { ids } : {}),
  );
