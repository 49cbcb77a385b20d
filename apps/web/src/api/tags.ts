import { useQuery } from '@tanstack/react-query';
import type { LabelRecord, TagGroupRecord, TagRecord } from './inboxTypes';
import { api } from './instance';
import { useInvalidatingAll } from './invalidating';
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

// What a change reloads: GET /v1/objects and the lists it touches.
const tagQueries = [queryKeys.objects, tagKeys.tags];
const groupQueries = [queryKeys.objects, tagKeys.groups, tagKeys.tags];
const labelQueries = [queryKeys.objects, tagKeys.labels];

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
  useInvalidatingAll(tagQueries, (body: TagBody & { space_id: number }) =>
    api.post<TagRecord>('/v1/tags', body),
  );
export const useUpdateTag = () =>
  useInvalidatingAll(tagQueries, ({ id, ...body }: Partial<TagBody> & { id: number }) =>
    api.put<TagRecord>(`/v1/tags/${id}`, body),
  );
export const useDeleteTag = () =>
  useInvalidatingAll(tagQueries, (id: number) => api.delete<{ message: string }>(`/v1/tags/${id}`));

export const useTagGroups = () =>
  useQuery({
    queryKey: tagKeys.groups,
    queryFn: ({ signal }) =>
      api.get<{ items: TagGroupRecord[] }>('/v1/tag_groups', { signal }).then((r) => r.items),
  });

export const useCreateTagGroup = () =>
  useInvalidatingAll(groupQueries, (body: { name: string; space_id: number }) =>
    api.post<TagGroupRecord>('/v1/tag_groups', body),
  );
export const useUpdateTagGroup = () =>
  useInvalidatingAll(groupQueries, ({ id, name }: { id: number; name: string }) =>
    api.put<TagGroupRecord>(`/v1/tag_groups/${id}`, { name }),
  );
export const useDeleteTagGroup = () =>
  useInvalidatingAll(groupQueries, (id: number) => api.delete<{ message: string }>(`/v1/tag_groups/${id}`));

export const useLabels = () =>
  useQuery({
    queryKey: tagKeys.labels,
    queryFn: ({ signal }) => api.get<{ items: LabelRecord[] }>('/v1/labels', { signal }).then((r) => r.items),
  });

export const useCreateLabel = () =>
  useInvalidatingAll(labelQueries, (body: { name: string; color: string | null; space_id: number }) =>
    api.post<LabelRecord>('/v1/labels', body),
  );
export const useUpdateLabel = () =>
  useInvalidatingAll(labelQueries, ({ id, ...body }: { id: number; name?: string; color?: string | null }) =>
    api.put<LabelRecord>(`/v1/labels/${id}`, body),
  );
export const useDeleteLabel = () =>
  useInvalidatingAll([...labelQueries, ['authors']], (id: number) =>
    api.delete<{ message: string }>(`/v1/labels/${id}`),
  );
