import type {
  MonitoringFeedFetchWire,
  MonitoringFeedForm,
  MonitoringFeedsWire,
  PresentedMonitoringFeed,
} from '@otklik/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidatingAll } from './invalidating';
import { queryKeys } from './keys';

// RSS/Atom sources of monitoring (issue 21). A fetch may add mentions: the monitoring lists and the
// counters are read again (the socket `monitoring` message does the same for other tabs).

export const feedKeys = { all: ['monitoring-feeds'] as const };

export const useMonitoringFeeds = (enabled = true) =>
  useQuery({
    queryKey: feedKeys.all,
    queryFn: ({ signal }) => api.get<MonitoringFeedsWire>('/v1/monitoring/feeds', { signal }),
    enabled,
  });

/** A change to a feed: the feeds, monitoring and the counters reload behind it. */
const useChanging = <TVariables, TResult>(call: (variables: TVariables) => Promise<TResult>) =>
  useInvalidatingAll([feedKeys.all, ['monitoring'], queryKeys.counts], call, { background: true });

export const useSaveMonitoringFeed = () =>
  useChanging(({ id, ...body }: Partial<MonitoringFeedForm> & { id?: number; space_id?: number }) =>
    id
      ? api.put<PresentedMonitoringFeed>(`/v1/monitoring/feeds/${id}`, body)
      : api.post<PresentedMonitoringFeed>('/v1/monitoring/feeds', body),
  );
export const useDeleteMonitoringFeed = () =>
  useChanging((id: number) => api.delete<{ ok: true }>(`/v1/monitoring/feeds/${id}`));
export const useFetchMonitoringFeed = () =>
  useChanging((id: number) => api.post<MonitoringFeedFetchWire>(`/v1/monitoring/feeds/${id}/fetch`, {}));
