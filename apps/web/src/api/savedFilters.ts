import { useQueryClient } from '@tanstack/react-query';
import { useKeptMutation } from './invalidating';
import { queryKeys } from './keys';
import type { AppConfig, SavedFilter } from './types';

/**
 * A change to the user's saved filters (POST, PUT or DELETE /v1/me/filters, docs/product/api.md): the
 * answer is the whole refreshed list, which replaces the config's.
 */
export function useSavedFiltersChange<TVariables>(
  call: (variables: TVariables) => Promise<{ items: SavedFilter[] }>,
) {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: call,
    onSuccess: (result) =>
      queryClient.setQueryData<AppConfig>(queryKeys.config, (config) =>
        config ? { ...config, filters: result.items } : config,
      ),
  });
}
