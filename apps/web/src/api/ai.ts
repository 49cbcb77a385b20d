import type { AiAgentDto, AiSuggestBody, AiSuggestResult } from '@otklik/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './instance';
import { queryKeys } from './keys';

// AI assistant (issue 21): Settings → AI agents, and suggestions in the composer.

export const aiKeys = { agents: ['ai-agents'] as const };

export interface AiAgentsList {
  items: AiAgentDto[];
  can_manage: number[];
}

export const useAiAgents = (enabled = true) =>
  useQuery({
    queryKey: aiKeys.agents,
    queryFn: ({ signal }) => api.get<AiAgentsList>('/v1/ai/agents', { signal }),
    enabled,
  });

export interface AiAgentBody {
  name: string;
  base_url: string;
  model: string;
  instructions: string;
  knowledge: string[];
  /** Absent: keep the stored key; empty: remove it. */
  api_key?: string;
}

function useInvalidating<TVariables, TResult>(call: (variables: TVariables) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: aiKeys.agents });
      // The composer learns about agents from GET /v1/objects (ai_agents).
      void queryClient.invalidateQueries({ queryKey: queryKeys.objects });
    },
  });
}

export const useCreateAiAgent = () =>
  useInvalidating((body: AiAgentBody & { space_id: number }) => api.post<AiAgentDto>('/v1/ai/agents', body));
export const useUpdateAiAgent = () =>
  useInvalidating(({ id, ...body }: AiAgentBody & { id: number }) =>
    api.put<AiAgentDto>(`/v1/ai/agents/${id}`, body),
  );
export const useDeleteAiAgent = () =>
  useInvalidating((id: number) => api.delete<{ message: string }>(`/v1/ai/agents/${id}`));

export const useAiSuggest = () =>
  useMutation({ mutationFn: (body: AiSuggestBody) => api.post<AiSuggestResult>('/v1/ai/suggest', body) });
