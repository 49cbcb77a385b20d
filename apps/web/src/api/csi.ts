import type { CsiAccount, CsiAccountsWire, CsiResponsePage, CsiSettingsBody, CsiStats } from '@otklik/shared';
import type { RouteQuery } from '@otklik/shared/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidating } from './invalidating';

// CSI (issue 21): settings/csi per account, the responses list and the stats/csi figures.

export const csiKeys = { all: ['csi'] as const };

export const useCsiAccounts = (spaceId: number | null) =>
  useQuery({
    queryKey: [...csiKeys.all, 'accounts', spaceId],
    queryFn: ({ signal }) =>
      api.get<CsiAccountsWire>('/v1/csi/accounts', {
        signal,
        query: { space_id: spaceId ?? undefined },
      }),
    enabled: spaceId !== null,
  });

export const useSaveCsiAccount = () =>
  useInvalidating(csiKeys.all, ({ object_id, ...body }: CsiSettingsBody & { object_id: number }) =>
    api.put<CsiAccount>(`/v1/csi/accounts/${object_id}`, body),
  );

export const useCsiResponses = (query: RouteQuery | null) =>
  useQuery({
    queryKey: [...csiKeys.all, 'responses', query],
    queryFn: ({ signal }) =>
      api.get<CsiResponsePage>('/v1/csi/responses', { signal, query: query ?? undefined }),
    enabled: query !== null,
  });

export const useCsiStats = (query: RouteQuery | null) =>
  useQuery({
    queryKey: ['stats', 'csi', query],
    queryFn: ({ signal }) => api.get<CsiStats>('/v1/stats/csi', { signal, query: query ?? undefined }),
    enabled: query !== null,
    staleTime: 30_000,
  });
