import type {
  PresentedYouscan,
  YouscanForm,
  YouscanImportWire,
  YouscanListWire,
  YouscanMentionsWire,
} from '@otklik/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidatingAll } from './invalidating';
import { queryKeys } from './keys';

// YouScan (issue 21): connected topics and their imported mentions. The socket `youscan` message
// invalidates ['youscan'], ['monitoring'] and the counters (realtime/cache.ts).

export const youscanKeys = {
  all: ['youscan'] as const,
  list: ['youscan', 'list'] as const,
  one: (id: number) => ['youscan', 'topic', id] as const,
  mentions: (id: number, page: number) => ['youscan', 'mentions', id, page] as const,
};

export const useYouscanTopics = (enabled = true) =>
  useQuery({
    queryKey: youscanKeys.list,
    queryFn: ({ signal }) => api.get<YouscanListWire>('/v1/youscan', { signal }),
    enabled,
  });

export const useYouscanTopic = (id: number | null) =>
  useQuery({
    queryKey: youscanKeys.one(id ?? 0),
    queryFn: ({ signal }) => api.get<PresentedYouscan>(`/v1/youscan/${id}`, { signal }),
    enabled: id !== null,
  });

export const useYouscanMentions = (id: number | null, page: number) =>
  useQuery({
    queryKey: youscanKeys.mentions(id ?? 0, page),
    queryFn: ({ signal }) =>
      api.get<YouscanMentionsWire>(`/v1/youscan/${id}/mentions?page=${page}`, {
        signal,
      }),
    enabled: id !== null,
    placeholderData: keepPreviousData,
  });

/** A change to a YouScan connection: its queries and the counters reload behind it. */
const useChanging = <TVariables, TResult>(call: (variables: TVariables) => Promise<TResult>) =>
  useInvalidatingAll([youscanKeys.all, queryKeys.counts], call, { background: true });

export const useSaveYouscan = () =>
  useChanging(({ id, ...body }: Partial<YouscanForm> & { id?: number; space_id?: number }) =>
    id
      ? api.put<PresentedYouscan>(`/v1/youscan/${id}`, body)
      : api.post<PresentedYouscan>('/v1/youscan', body),
  );
export const useDeleteYouscan = () =>
  useChanging((id: number) => api.delete<{ ok: true }>(`/v1/youscan/${id}`));
export const useImportYouscan = () =>
  useChanging((id: number) => api.post<YouscanImportWire>(`/v1/youscan/${id}/import`, {}));
export const useMarkYouscanRead = () =>
  useChanging(({ id, ids }: { id: number; ids?: number[] }) =>
    api.post<{ updated: number }>(`/v1/youscan/${id}/read`, ids ? { ids } : {}),
  );
