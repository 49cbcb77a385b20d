import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { applyAuthor } from './inbox';
import type {
  AuthorListEntry,
  AuthorPage,
  AuthorStats,
  InboxAuthor,
  InboxChat,
  InboxItem,
} from './inboxTypes';
import { api } from './instance';
import { useKeptMutation } from './invalidating';

// Authors (docs/product/screens-and-routes.md author/{id}, {items|chats|issues}/authors) and the authors of a label.

export type AuthorScope = 'items' | 'chats' | 'issues';

export const authorKeys = {
  all: ['authors'] as const,
  author: (id: number) => ['authors', id] as const,
  items: (id: number) => ['authors', id, 'items'] as const,
  chats: (id: number) => ['authors', id, 'chats'] as const,
  list: (query: Record<string, unknown>) => ['authors', 'list', query] as const,
  label: (id: number, q: string) => ['authors', 'label', id, q] as const,
};

export const useAuthor = (id: number) =>
  useQuery({
    queryKey: authorKeys.author(id),
    queryFn: ({ signal }) =>
      api.get<{ author: InboxAuthor & { space_id: number }; stats: AuthorStats }>(`/v1/authors/${id}`, {
        signal,
      }),
    enabled: Number.isInteger(id) && id > 0,
  });

function usePaged<T>(
  key: readonly unknown[],
  path: string,
  query: Record<string, string | number | undefined>,
  enabled = true,
) {
  return useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam, signal }) =>
      api.get<AuthorPage<T>>(path, { signal, query: { ...query, before: pageParam } }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next_before ?? undefined,
    enabled,
  });
}

export const useAuthorItems = (id: number, enabled: boolean) =>
  usePaged<InboxItem>(authorKeys.items(id), `/v1/authors/${id}/items`, {}, enabled);

export const useAuthorChats = (id: number, enabled: boolean) =>
  usePaged<InboxChat>(authorKeys.chats(id), `/v1/authors/${id}/chats`, {}, enabled);

export interface AuthorListQuery {
  scope: AuthorScope;
  q?: string;
  label_id?: number;
  blocked?: '0' | '1';
  object_id?: number;
}

export const useAuthorsList = (query: AuthorListQuery) =>
  usePaged<AuthorListEntry>(authorKeys.list({ ...query }), '/v1/authors', { ...query });

export const useLabelAuthors = (labelId: number, q: string) =>
  usePaged<AuthorListEntry>(authorKeys.label(labelId, q), `/v1/labels/${labelId}/authors`, {
    q: q || undefined,
  });

export function useSetAuthorLabels() {
  const queryClient = useQueryClient();
  // Taking a label off an author in that label's list removes the row that asked: its callbacks still run.
  return useKeptMutation({
    mutationFn: ({ id, label_ids }: { id: number; label_ids: number[] }) =>
      api.put<{ author: InboxAuthor }>(`/v1/authors/${id}/labels`, { label_ids }),
    onSuccess: async (result) => {
      applyAuthor(queryClient, result.author);
      await queryClient.invalidateQueries({ queryKey: authorKeys.all });
    },
  });
}
