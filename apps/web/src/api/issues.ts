import type {
  CreateIssueBody,
  IssueCommentBody,
  IssueCommentDto,
  IssueDto,
  IssueLinkKindName,
  IssueListDto,
  IssuePageDto,
  IssueStatsDto,
  IssueUploadDto,
  UpdateIssueBody,
} from '@otklik/shared';
import type { RouteQuery } from '@otklik/shared/routes';
import { type QueryClient, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './instance';
import { useKeptMutation } from './invalidating';
import { queryKeys } from './keys';
import { useSavedFiltersChange } from './savedFilters';
import type { SavedFilter } from './types';

// Tasks (issue 16): the list, one task, the tasks of a record, changes and comments, stats/issues.
// Every change refreshes the lists and the top-bar counters; the socket's `issues.changed` does the same
// for colleagues' changes (realtime/cache.ts).

export const issueKeys = { all: ['issues'] as const };

export type IssueQuery = Record<string, string | number | undefined>;

/** The list, a page at a time: each next page starts after the previous one's `next_cursor` (keyset). */
export const useIssues = (query: IssueQuery) =>
  useInfiniteQuery({
    queryKey: [...issueKeys.all, 'list', query],
    queryFn: ({ signal, pageParam }) =>
      api.get<IssueListDto>('/v1/issues', {
        signal,
        query: { ...query, ...(pageParam ? { cursor: pageParam } : {}) } as RouteQuery,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    placeholderData: (previous) => previous,
  });

/** Uploads one file for a comment of task `id`; pass the answer's `file` in the comment's attachments. */
export const uploadIssueFile = (id: number, file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.post<IssueUploadDto>(`/v1/issues/${id}/attachments`, form);
};

export const useIssue = (id: number) =>
  useQuery({
    queryKey: [...issueKeys.all, 'page', id],
    queryFn: ({ signal }) => api.get<IssuePageDto>(`/v1/issues/${id}`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });

export const useLinkedIssues = (kind: IssueLinkKindName, id: number, enabled = true) =>
  useQuery({
    queryKey: [...issueKeys.all, 'linked', kind, id],
    queryFn: ({ signal }) =>
      api.get<{ items: IssueDto[] }>('/v1/issues/linked', { signal, query: { kind, id } }),
    enabled,
  });

function refresh(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: issueKeys.all });
  void queryClient.invalidateQueries({ queryKey: queryKeys.counts });
}

export function useCreateIssue() {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: (body: CreateIssueBody) => api.post<IssueDto>('/v1/issues', body),
    onSuccess: () => refresh(queryClient),
  });
}

export function useUpdateIssue(id: number) {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: (body: UpdateIssueBody) => api.put<IssueDto>(`/v1/issues/${id}`, body),
    onSuccess: () => refresh(queryClient),
  });
}

export function useDeleteIssue() {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: (id: number) => api.delete<{ message: string }>(`/v1/issues/${id}`),
    onSuccess: () => refresh(queryClient),
  });
}

export function useCommentIssue(id: number) {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: (body: IssueCommentBody) => api.post<IssueCommentDto>(`/v1/issues/${id}/comments`, body),
    onSuccess: () => refresh(queryClient),
  });
}

export const useIssueStats = (query: RouteQuery | null) =>
  useQuery({
    queryKey: ['stats', 'issues', query],
    queryFn: ({ signal }) =>
      api.get<IssueStatsDto>('/v1/stats/issues', { signal, query: query ?? undefined }),
    enabled: query !== null,
    staleTime: 30_000,
  });

/** Saved filters of the `issues` route (docs/product/entities.md Config filters), kept in the config. */
export const useSaveIssueFilter = () =>
  useSavedFiltersChange((body: { name: string; query: Record<string, unknown> }) =>
    api.post<{ items: SavedFilter[] }>('/v1/me/filters', { ...body, route: 'issues' }),
  );

export const useDeleteIssueFilter = () =>
  useSavedFiltersChange((id: number) => api.delete<{ items: SavedFilter[] }>(`/v1/me/filters/${id}`));
