import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

/** A mutation that reloads `queryKey`'s queries once it succeeds (a settings list after a save or delete). */
export function useInvalidating<TVariables, TResult>(
  queryKey: QueryKey,
  call: (variables: TVariables) => Promise<TResult>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey }),
  });
}
