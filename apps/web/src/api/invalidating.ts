import {
  type QueryKey,
  type UseMutationOptions,
  type UseMutationResult,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { useCallback } from 'react';

/** What a caller may run when one call of a mutation settles (the toast after a save, closing a form). */
export interface CallCallbacks<TResult, TVariables> {
  onSuccess?: (data: TResult, variables: TVariables) => void;
  onError?: (error: Error, variables: TVariables) => void;
  onSettled?: (data: TResult | undefined, error: Error | null, variables: TVariables) => void;
}

/**
 * `mutate(variables, callbacks)` whose callbacks run even when the caller is gone by then. TanStack's own
 * mutate() skips them once the component that called it has unmounted — and a change that removes its own
 * row (approving a held reply, deleting a list entry) unmounts that row when the list reloads, which these
 * mutations wait for before they settle: the "approved" toast was lost whenever the reload won the race.
 * The callbacks run from the call's own promise instead; without onError a failure stays in the
 * mutation's `error`, as with TanStack's mutate().
 */
export function keepingCallbacks<TResult, TVariables>(
  mutateAsync: (variables: TVariables) => Promise<TResult>,
) {
  return (variables: TVariables, callbacks?: CallCallbacks<TResult, TVariables>): void => {
    mutateAsync(variables).then(
      (data) => {
        callbacks?.onSuccess?.(data, variables);
        callbacks?.onSettled?.(data, null, variables);
      },
      (error: Error) => {
        callbacks?.onError?.(error, variables);
        callbacks?.onSettled?.(undefined, error, variables);
      },
    );
  };
}

/** The mutation with a `mutate` that keeps each call's callbacks (keepingCallbacks). */
export function useKeptCallbacks<TResult, TVariables>(
  mutation: UseMutationResult<TResult, Error, TVariables>,
) {
  // TanStack types mutateAsync's arguments as a rest tuple (variables optional when void); one argument here.
  const mutateAsync = mutation.mutateAsync as (variables: TVariables) => Promise<TResult>;
  const mutate = useCallback(
    (variables: TVariables, callbacks?: CallCallbacks<TResult, TVariables>) =>
      keepingCallbacks(mutateAsync)(variables, callbacks),
    [mutateAsync],
  );
  return { ...mutation, mutate };
}

/**
 * useMutation whose `mutate` keeps each call's callbacks: every mutation of the web app is made with it
 * (or with useInvalidating, which is), since any change can remove the row that made it — by the list's
 * reload or by a socket push that beats the response.
 */
export function useKeptMutation<TResult, TVariables = void>(
  options: UseMutationOptions<TResult, Error, TVariables>,
) {
  return useKeptCallbacks(useMutation(options));
}

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
  return useKeptCallbacks(
    useMutation({
      mutationFn: call,
      onSuccess: async () => {
        const reloaded = Promise.all(
          queryKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
        );
        if (!background) await reloaded;
      },
    }),
  );
}
