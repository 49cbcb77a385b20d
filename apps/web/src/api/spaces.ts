import type { SpaceDetailsView, SpaceFlag, TariffView } from '@otklik/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './instance';
import { useKeptMutation } from './invalidating';
import { queryKeys } from './keys';

// Settings → Other: the space itself (name, time zone, feature flags, usage) and the tariffs offered.
// Every change refreshes the config too: menus and screens follow the space's flags.

export function useSpaceDetails(spaceId: number | null) {
  return useQuery({
    queryKey: queryKeys.space(spaceId ?? 0),
    queryFn: ({ signal }) => api.get<SpaceDetailsView>(`/v1/spaces/${spaceId}`, { signal }),
    enabled: spaceId !== null,
  });
}

export function useTariffs() {
  return useQuery({
    queryKey: queryKeys.tariffs,
    queryFn: ({ signal }) => api.get<{ items: TariffView[] }>('/v1/tariffs', { signal }).then((r) => r.items),
  });
}

function useSpaceMutation<TVariables>(call: (variables: TVariables) => Promise<SpaceDetailsView>) {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: call,
    onSuccess: async (details) => {
      queryClient.setQueryData(queryKeys.space(details.id), details);
      await queryClient.invalidateQueries({ queryKey: queryKeys.config });
    },
  });
}

export function useUpdateSpace() {
  return useSpaceMutation(({ id, ...body }: { id: number; name?: string; timezone?: string }) =>
    api.put<SpaceDetailsView>(`/v1/spaces/${id}`, body),
  );
}

export function useSetSpaceFlags() {
  return useSpaceMutation(({ id, flags }: { id: number; flags: Partial<Record<SpaceFlag, boolean>> }) =>
    api.put<SpaceDetailsView>(`/v1/spaces/${id}/features`, { flags }),
  );
}

export function useCreateSpace() {
  return useSpaceMutation((body: { name: string }) => api.post<SpaceDetailsView>('/v1/spaces', body));
}
