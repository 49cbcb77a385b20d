import type {
  ItemWire,
  MentionIssueWire,
  MentionToInboxWire,
  MonitoringMentionFilter,
  MonitoringMentionsWire,
  MonitoringQueriesWire,
  MonitoringQueryDto,
  MonitoringQueryInput,
  MonitoringSavedFilter,
} from '@otklik/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidatingAll } from './invalidating';
import { queryKeys } from './keys';
import { useSavedFiltersChange } from './savedFilters';
import type { SavedFilter } from './types';

// Monitoring (issue 21): keyword queries and the mentions they caught. The socket `monitoring` message
// invalidates ['monitoring'] and the counters (realtime/cache.ts), so the page and the badge move live.

export const monitoringKeys = {
  all: ['monitoring'] as const,
  queries: ['monitoring', 'queries'] as const,
  mentions: (queryId: number, page: number, filter: MonitoringMentionFilter) =>
    ['monitoring', 'mentions', queryId, page, filter] as const,
};

export const useMonitoringQueries = () =>
  useQuery({
    queryKey: monitoringKeys.queries,
    queryFn: ({ signal }) => api.get<MonitoringQueriesWire>('/v1/monitoring/queries', { signal }),
  });

export const useMonitoringMentions = (
  queryId: number | null,
  page: number,
  filter: MonitoringMentionFilter,
) =>
  useQuery({
    queryKey: monitoringKeys.mentions(queryId ?? 0, page, filter),
    queryFn: ({ signal }) =>
      api.get<MonitoringMentionsWire>(`/v1/monitoring/queries/${queryId}/mentions`, {
        signal,
        query: { page, ...filter },
      }),
    enabled: queryId !== null,
    placeholderData: keepPreviousData,
  });

/** A change to monitoring: its queries and the counters reload behind it. */
const useChanging = <TVariables, TResult>(call: (variables: TVariables) => Promise<TResult>) =>
  useInvalidatingAll([monitoringKeys.all, queryKeys.counts], call, { background: true });

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

// ---------------------------------------------------------------- mention actions (the item's own actions)

export const useMentionToInbox = () =>
  useChanging((mentionId: number) =>
    api.post<MentionToInboxWire>(`/v1/monitoring/mentions/${mentionId}/inbox`, {}),
  );
export const useTagMention = () =>
  useChanging(({ mentionId, tagIds }: { mentionId: number; tagIds: number[] }) =>
    api.put<{ item: ItemWire }>(`/v1/monitoring/mentions/${mentionId}/tags`, { tag_ids: tagIds }),
  );
export const useMentionToIssue = () =>
  useChanging((mentionId: number) =>
    api.post<MentionIssueWire>(`/v1/monitoring/mentions/${mentionId}/issue`, {}),
  );

// ---------------------------------------------------------------- saved filters of monitoring-page (kept in the config)

export const useSaveMonitoringFilter = () =>
  useSavedFiltersChange((body: { name: string; query: MonitoringSavedFilter }) =>
    api.post<{ items: SavedFilter[] }>('/v1/me/filters', { ...body, route: 'monitoring-page' }),
  );
export const useRenameMonitoringFilter = () =>
  useSavedFiltersChange(({ id, name }: { id: number; name: string }) =>
    api.put<{ items: SavedFilter[] }>(`/v1/me/filters/${id}`, { name }),
  );
export const useDeleteMonitoringFilter = () =>
  useSavedFiltersChange((id: number) => api.delete<{ items: SavedFilter[] }>(`/v1/me/filters/${id}`));
