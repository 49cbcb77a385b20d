import {
  type ExportInput,
  type ExportsListWire,
  type ExportWire,
  type ReportInput,
  type ReportRunWire,
  type ReportsListWire,
  type ReportWire,
  STATS_READ_AT_HEADER,
} from '@otklik/shared';
import type { RouteQuery } from '@otklik/shared/routes';
import { hashKey, type QueryClient, useQuery } from '@tanstack/react-query';
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

// The server may serve figures read up to STATS_FRESH_S ago (docs/statistics.md "Freshness") and says when
// they were read (STATS_READ_AT_HEADER); the screen shows that time and Refresh asks for a new reading.

/** When each query's figures were last read (epoch ms), by query hash. */
const readAtOf = new Map<string, number>();
/** Queries whose next fetch is a refresh (`Cache-Control: no-cache`), by query hash. */
const refreshing = new Set<string>();

export function useStats<T>(endpoint: StatsEndpoint, query: RouteQuery | null) {
  return useQuery({
    queryKey: ['stats', endpoint, query],
    queryFn: async ({ signal, queryKey }) => {
      const hash = hashKey(queryKey);
      let readAt = Number.NaN;
      const data = await api.get<T>(`/v1/stats/${endpoint}`, {
        signal,
        query: query ?? undefined,
        headers: refreshing.has(hash) ? { 'Cache-Control': 'no-cache' } : undefined,
        onHeaders: (headers) => {
          readAt = Date.parse(headers.get(STATS_READ_AT_HEADER) ?? '');
        },
      });
      readAtOf.set(hash, Number.isNaN(readAt) ? Date.now() : readAt);
      return data;
    },
    enabled: query !== null,
    staleTime: 30_000,
  });
}

/** The oldest reading among the statistics on screen (epoch ms), or null before any has come. */
export function statsReadAt(client: QueryClient): number | null {
  let oldest: number | null = null;
  for (const query of client.getQueryCache().findAll({ queryKey: ['stats'], type: 'active' })) {
    if (query.state.data === undefined) continue;
    const readAt = readAtOf.get(query.queryHash) ?? query.state.dataUpdatedAt;
    if (oldest === null || readAt < oldest) oldest = readAt;
  }
  return oldest;
}

/** Reads every statistic on screen anew, past the server's freshness window. */
export async function refreshStats(client: QueryClient) {
  for (const query of client.getQueryCache().findAll({ queryKey: ['stats'], type: 'active' }))
    refreshing.add(query.queryHash);
  try {
    await client.invalidateQueries({ queryKey: ['stats'], type: 'active' });
  } finally {
    refreshing.clear();
  }
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
