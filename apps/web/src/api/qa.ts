import type {
  CreateScorecardBody,
  QaAiScoreDto,
  QaApprovalDto,
  QaApprovalMemberDto,
  QaApprovalStatus,
  QaOverviewDto,
  QaReviewBody,
  QaSampleDetailDto,
  QaSampleDto,
  QaSamplingRunDto,
  QaScorecardDto,
  QaStatsDto,
} from '@otklik/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidating, useKeptMutation } from './invalidating';

// Quality check (issue 21): scorecards (settings/qa), samples and reviews (qa/*), settings/logsrandom.

export const qaKeys = { all: ['qa'] as const };

const query = (params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
};

export const useScorecards = (spaceId: number | null) =>
  useQuery({
    queryKey: [...qaKeys.all, 'scorecards', spaceId],
    queryFn: ({ signal }) =>
      api.get<{ items: QaScorecardDto[] }>(`/v1/qa/scorecards${query({ space_id: spaceId ?? undefined })}`, {
        signal,
      }),
    enabled: spaceId !== null,
  });

export interface SampleListParams {
  space_id?: number;
  status?: 'pending' | 'reviewed';
  source?: 'random' | 'condition';
  view?: 'review' | 'logs';
}

export const useSamples = (params: SampleListParams, enabled = true) =>
  useQuery({
    queryKey: [...qaKeys.all, 'samples', params],
    queryFn: ({ signal }) =>
      api.get<{ items: QaSampleDto[] }>(`/v1/qa/samples${query({ ...params })}`, { signal }),
    enabled,
  });

export const useSample = (id: number) =>
  useQuery({
    queryKey: [...qaKeys.all, 'sample', id],
    queryFn: ({ signal }) => api.get<QaSampleDetailDto>(`/v1/qa/samples/${id}`, { signal }),
  });

export const useMyReviews = () =>
  useQuery({
    queryKey: [...qaKeys.all, 'my'],
    queryFn: ({ signal }) => api.get<{ items: QaSampleDto[] }>('/v1/qa/my', { signal }),
  });

export const useQaStats = (weeks: number) =>
  useQuery({
    queryKey: [...qaKeys.all, 'stats', weeks],
    queryFn: ({ signal }) => api.get<QaStatsDto>(`/v1/qa/stats${query({ weeks })}`, { signal }),
  });

export const useQaOverview = () =>
  useQuery({
    queryKey: [...qaKeys.all, 'overview'],
    queryFn: ({ signal }) => api.get<QaOverviewDto>('/v1/qa/overview', { signal }),
  });

export const useSaveScorecard = () =>
  useInvalidating(qaKeys.all, ({ id, body }: { id: number | null; body: CreateScorecardBody }) => {
    if (id === null) return api.post<QaScorecardDto>('/v1/qa/scorecards', body);
    const { space_id: _space, ...rest } = body;
    return api.put<QaScorecardDto>(`/v1/qa/scorecards/${id}`, rest);
  });

export const useDeleteScorecard = () =>
  useInvalidating(qaKeys.all, (id: number) => api.delete<{ message: string }>(`/v1/qa/scorecards/${id}`));

export const useRunSampling = () =>
  useInvalidating(qaKeys.all, (spaceId: number) =>
    api.post<QaSamplingRunDto>('/v1/qa/sampling/run', { space_id: spaceId }),
  );

/** The space's AI agent proposes a review (POST /v1/qa/samples/:id/ai-score); nothing is saved. */
export const useAiScore = () =>
  useKeptMutation({ mutationFn: (id: number) => api.post<QaAiScoreDto>(`/v1/qa/samples/${id}/ai-score`) });

export const useReview = () =>
  useInvalidating(qaKeys.all, ({ id, body }: { id: number; body: QaReviewBody }) =>
    api.post<QaSampleDto>(`/v1/qa/samples/${id}/review`, body),
  );

// Approval mode (docs/product/qa.md "Approval of replies"): the reviewer queue, decisions, members.

export const useApprovals = (params: {
  space_id?: number;
  status?: QaApprovalStatus;
  view?: 'review' | 'mine';
}) =>
  useQuery({
    queryKey: [...qaKeys.all, 'approvals', params],
    queryFn: ({ signal }) =>
      api.get<{ items: QaApprovalDto[] }>(`/v1/qa/approvals${query({ ...params })}`, { signal }),
  });

export const useApprove = () =>
  useInvalidating(qaKeys.all, ({ id, text }: { id: number; text?: string }) =>
    api.post<QaApprovalDto>(`/v1/qa/approvals/${id}/approve`, text === undefined ? {} : { text }),
  );

export const useReject = () =>
  useInvalidating(qaKeys.all, ({ id, comment }: { id: number; comment: string }) =>
    api.post<QaApprovalDto>(`/v1/qa/approvals/${id}/reject`, { comment }),
  );

export const useApprovalMembers = (spaceId: number | null) =>
  useQuery({
    queryKey: [...qaKeys.all, 'approval-members', spaceId],
    queryFn: ({ signal }) =>
      api.get<{ items: QaApprovalMemberDto[] }>(
        `/v1/qa/approval-members${query({ space_id: spaceId ?? undefined })}`,
        {
          signal,
        },
      ),
    enabled: spaceId !== null,
  });

export const useSetApprovalMember = () =>
  useInvalidating(
    qaKeys.all,
    ({
      spaceId,
      userId,
      required,
      days,
    }: {
      spaceId: number;
      userId: number;
      required: boolean;
      days: number | null;
    }) =>
      api.put<QaApprovalMemberDto>(`/v1/qa/approval-members/${userId}`, {
        space_id: spaceId,
        required,
        days,
      }),
  );
