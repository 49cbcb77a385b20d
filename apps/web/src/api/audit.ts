import type { AuditPageDto, AuditRetentionWire, AuditSettingsDto } from '@otklik/shared';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidating } from './invalidating';

// The action log (issue 16, settings/logs): keyset pages, the CSV export and the retention setting.

export interface AuditFilters {
  space_id: number;
  user_id?: number;
  /** Kinds or groups. */
  kind?: string[];
  /** Unix seconds. */
  from?: number;
  to?: number;
}

const auditKeys = {
  all: ['audit'] as const,
  page: (f: AuditFilters) => ['audit', 'entries', f] as const,
  settings: (spaceId: number) => ['audit', 'settings', spaceId] as const,
};

function queryOf(f: AuditFilters) {
  return {
    space_id: f.space_id,
    user_id: f.user_id,
    kind: f.kind && f.kind.length > 0 ? f.kind.join(',') : undefined,
    from: f.from,
    to: f.to,
  };
}

/** GET /v1/audit, older pages on demand (next_cursor). */
export const useAuditEntries = (filters: AuditFilters | null) =>
  useInfiniteQuery({
    queryKey: auditKeys.page(filters ?? { space_id: 0 }),
    enabled: filters !== null,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ signal, pageParam }) =>
      api.get<AuditPageDto>('/v1/audit', {
        signal,
        query: { ...queryOf(filters!), cursor: pageParam },
      }),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });

export const useAuditSettings = (spaceId: number | null) =>
  useQuery({
    queryKey: auditKeys.settings(spaceId ?? 0),
    enabled: spaceId !== null,
    queryFn: ({ signal }) =>
      api.get<AuditSettingsDto>('/v1/audit/settings', { signal, query: { space_id: spaceId! } }),
  });

export const useSetAuditRetention = () =>
  useInvalidating(auditKeys.all, (body: { space_id: number; days: number }) =>
    api.put<AuditRetentionWire>('/v1/audit/settings', body),
  );

export const exportAudit = (filters: AuditFilters) =>
  api.get<Blob>('/v1/audit/export.csv', { query: queryOf(filters), responseType: 'blob' });
