import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

/** A mutation that reloads `queryKey`'s queries once it succeeds (a settings list after a save or delete). */
export function useInvalidating<TVariables, TResult>(
  queryKey: QueryKey,
  call: (variables: TVariables) => Promise<TResult>,
) {
  return useInvalidatingAll([queryKey], call);
}

/**
 * The same for a change several lists show (a tag in the tag list and in GET /v1/objects): every one of
 * `queryKeys` reloads, and the mutation settles once they all have. `background`: it settles at once and
 * the lists reload behind it (a change made in passing, where the screen need not wait for them).
 */
export function useInvalidatingAll<TVariables, TResult>(
  queryKeys: readonly QueryKey[],
  call: (variables: TVariables) => Promise<TResult>,
  { background = false } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      const reloaded = Promise.all(queryKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      if (!background) await reloaded;
    },
  });
}
