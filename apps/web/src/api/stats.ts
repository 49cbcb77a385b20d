import type {
  ExportInput,
  ExportsListWire,
  ExportWire,
  ReportInput,
  ReportRunWire,
  ReportsListWire,
  ReportWire,
} from '@otklik/shared';
import type { RouteQuery } from '@otklik/shared/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidating } from './invalidating';

// Statistics endpoints (GET /v1/stats/*): one hook, the endpoint and the shared query as the key.

export type StatsEndpoint =
  | 'overview'
  | 'volume'
  | 'hours'
  | 'operators'
  | 'tags'
  | 'posts'
  | 'closed'
  | 'emotions'
  | 'time'
  | 'operator-times'
  | 'my'
  | 'statuses'
  | 'my/statuses'
  | 'workinghours'
  | 'dashboard'
  | 'explore'
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

// Scheduled reports (stats/reports, /reports): the list with its history, changes, send-now.

const reportsKey = (spaceId: number | null) => ['stats-reports', spaceId] as const;

export const useReports = (spaceId: number | null) =>
  useQuery({
    queryKey: reportsKey(spaceId),
    queryFn: ({ signal }) =>
      api.get<ReportsListWire>('/v1/stats/reports', { signal, query: { space_id: spaceId ?? undefined } }),
    enabled: spaceId !== null,
  });

export const useSaveReport = () =>
  useInvalidating(['stats-reports'], ({ id, ...body }: ReportInput & { id: number | null }) =>
    id === null
      ? api.post<ReportWire>('/v1/stats/reports', body)
      : api.put<ReportWire>(`/v1/stats/reports/${id}`, body),
  );
export const useDeleteReport = () =>
  useInvalidating(['stats-reports'], (id: number) => api.delete<{ ok: true }>(`/v1/stats/reports/${id}`));
export const useSendReport = () =>
  useInvalidating(['stats-reports'], (id: number) =>
    api.post<ReportRunWire>(`/v1/stats/reports/${id}/send`, {}),
  );

// Background exports (stats/export): the caller's exports with progress (pushed over the socket), start,
// download (the file comes with the session's token, as a Blob).

export const exportsKey = (spaceId: number | null) => ['stats-exports', spaceId] as const;

export const useExports = (spaceId: number | null) =>
  useQuery({
    queryKey: exportsKey(spaceId),
    queryFn: ({ signal }) =>
      api.get<ExportsListWire>('/v1/stats/exports', { signal, query: { space_id: spaceId ?? undefined } }),
    enabled: spaceId !== null,
    // Progress comes over the socket; while an export waits or runs the list is also re-read every 10 s,
    // so a push missed while the socket was reconnecting does not leave the bar standing.
    refetchInterval: (query) =>
      query.state.data?.items.some((e) => e.status === 'queued' || e.status === 'running') ? 10_000 : false,
  });

export const useStartExport = () =>
  useInvalidating(['stats-exports'], (body: ExportInput) => api.post<ExportWire>('/v1/stats/exports', body));

export const downloadExportFile = (id: number) =>
  api.get<Blob>(`/v1/stats/exports/${id}/file`, { responseType: 'blob' });
