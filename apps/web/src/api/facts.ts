import type { AuthorFact, FactDefinition, FactKind } from '@otklik/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './instance';
import { useKeptMutation } from './invalidating';

// Custom fields of authors: definitions (Settings → Custom fields) and an author's values.

const factsKey = ['facts'] as const;
const authorFactsKey = (authorId: number) => ['authors', authorId, 'facts'] as const;

export function useFacts() {
  return useQuery({
    queryKey: factsKey,
    queryFn: ({ signal }) =>
      api.get<{ items: FactDefinition[] }>('/v1/facts', { signal }).then((r) => r.items),
  });
}

function useFactsMutation<TVariables>(call: (variables: TVariables) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: call,
    // Values of every author may change with a definition (a list's options, a deleted field).
    onSuccess: () => queryClient.invalidateQueries({ predicate: (q) => q.queryKey.includes('facts') }),
  });
}

export function useCreateFact() {
  return useFactsMutation((body: { space_id: number; name: string; kind: FactKind; options?: string[] }) =>
    api.post<FactDefinition>('/v1/facts', body),
  );
}

export function useUpdateFact() {
  return useFactsMutation(({ id, ...body }: { id: number; name?: string; options?: string[] }) =>
    api.put<FactDefinition>(`/v1/facts/${id}`, body),
  );
}

export function useDeleteFact() {
  return useFactsMutation((id: number) => api.delete<unknown>(`/v1/facts/${id}`));
}

export function useAuthorFacts(authorId: number) {
  return useQuery({
    queryKey: authorFactsKey(authorId),
    queryFn: ({ signal }) =>
      api.get<{ items: AuthorFact[] }>(`/v1/authors/${authorId}/facts`, { signal }).then((r) => r.items),
  });
}

export function useSetAuthorFacts(authorId: number) {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: (values: Record<string, string | null>) =>
      api.put<{ items: AuthorFact[] }>(`/v1/authors/${authorId}/facts`, { values }).then((r) => r.items),
    onSuccess: (items) => queryClient.setQueryData(authorFactsKey(authorId), items),
  });
}
