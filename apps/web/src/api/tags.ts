import { type QueryKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LabelRecord, TagGroupRecord, TagRecord } from './inboxTypes';
import { api } from './instance';
import { queryKeys } from './keys';

// Settings → tags (new, {id}, {id}/children), tag groups and author labels (docs/product/screens-and-routes.md). Every change also
// refreshes GET /v1/objects?tags=true, which the inbox reads tags and labels from.

export const tagKeys = {
  tags: ['tags'] as const,
  tag: (id: number) => ['tags', id] as const,
  groups: ['tag-groups'] as const,
  labels: ['labels'] as const,
  label: (id: number) => ['labels', id] as const,
};

function useInvalidating<TVariables, TResult>(
  call: (variables: TVariables) => Promise<TResult>,
  ...keys: QueryKey[]
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      await Promise.all(
        [queryKeys.objects, ...keys].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
    },
  });
}

/** GET /v1/tags: tags and tag groups of the caller's spaces. */
export const useTags = () =>
  useQuery({
    queryKey: tagKeys.tags,
    queryFn: ({ signal }) =>
      api.get<{ items: TagRecord[]; tag_groups: TagGroupRecord[] }>('/v1/tags', { signal }),
  });

export interface TagBody {
  name: string;
  color: string | null;
  parent_id: number | null;
  group_id: number | null;
}

export const useCreateTag = () =>
  useInvalidating(
    (body: TagBody & { space_id: number }) => api.post<TagRecord>('/v1/tags', body),
    tagKeys.tags,
  );
export const useUpdateTag = () =>
  useInvalidating(
    ({ id, ...body }: Partial<TagBody> & { id: number }) => api.put<TagRecord>(`/v1/tags/${id}`, body),
    tagKeys.tags,
  );
export const useDeleteTag = () =>
  useInvalidating((id: number) => api.delete<{ message: string }>(`/v1/tags/${id}`), tagKeys.tags);

export const useTagGroups = () =>
  useQuery({
    queryKey: tagKeys.groups,
    queryFn: ({ signal }) =>
      api.get<{ items: TagGroupRecord[] }>('/v1/tag_groups', { signal }).then((r) => r.items),
  });

export const useCreateTagGroup = () =>
  useInvalidating(
    (body: { name: string; space_id: number }) => api.post<TagGroupRecord>('/v1/tag_groups', body),
    tagKeys.groups,
    tagKeys.tags,
  );
export const useUpdateTagGroup = () =>
  useInvalidating(
    ({ id, name }: { id: number; name: string }) => api.put<TagGroupRecord>(`/v1/tag_groups/${id}`, { name }),
    tagKeys.groups,
    tagKeys.tags,
  );
export const useDeleteTagGroup = () =>
  useInvalidating(
    (id: number) => api.delete<{ message: string }>(`/v1/tag_groups/${id}`),
    tagKeys.groups,
    tagKeys.tags,
  );

export const useLabels = () =>
  useQuery({
    queryKey: tagKeys.labels,
    queryFn: ({ signal }) => api.get<{ items: LabelRecord[] }>('/v1/labels', { signal }).then((r) => r.items),
  });

export const useCreateLabel = () =>
  useInvalidating(
    (body: { name: string; color: string | null; space_id: number }) =>
      api.post<LabelRecord>('/v1/labels', body),
    tagKeys.labels,
  );
export const useUpdateLabel = () =>
  useInvalidating(
    ({ id, ...body }: { id: number; name?: string; color?: string | null }) =>
      api.put<LabelRecord>(`/v1/labels/${id}`, body),
    tagKeys.labels,
  );
export const useDeleteLabel = () =>
  useInvalidating((id: number) => api.delete<{ message: string }>(`/v1/labels/${id}`), tagKeys.labels, [
    'authors',
  ]);
