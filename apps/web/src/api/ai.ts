import {
  type AiAgentDto,
  type AiAgentsListWire,
  type AiStreamLine,
  type AiSuggestBody,
  type AiTagsBody,
  type AiTagsResult,
  translate,
} from '@otklik/shared';
import { useQuery } from '@tanstack/react-query';
import { currentLocale } from '../i18n';
import { ApiError } from './errors';
import { api } from './instance';
import { useInvalidatingAll, useKeptMutation } from './invalidating';
import { queryKeys } from './keys';

// AI assistant (issue 21): Settings → AI agents, and suggestions in the composer.

export const aiKeys = { agents: ['ai-agents'] as const };

export type AiAgentsList = AiAgentsListWire;

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

/**
 * A change to the agents: their list reloads behind it, and so does GET /v1/objects, where the composer
 * learns of them (ai_agents).
 */
const useAgentsChange = <TVariables, TResult>(call: (variables: TVariables) => Promise<TResult>) =>
  useInvalidatingAll([aiKeys.agents, queryKeys.objects], call, { background: true });

export const useCreateAiAgent = () =>
  useAgentsChange((body: AiAgentBody & { space_id: number }) => api.post<AiAgentDto>('/v1/ai/agents', body));
export const useUpdateAiAgent = () =>
  useAgentsChange(({ id, ...body }: AiAgentBody & { id: number }) =>
    api.put<AiAgentDto>(`/v1/ai/agents/${id}`, body),
  );
export const useDeleteAiAgent = () =>
  useAgentsChange((id: number) => api.delete<{ message: string }>(`/v1/ai/agents/${id}`));

/**
 * A suggestion streamed from POST /v1/ai/suggest/stream (JSON lines): `onText` gets the text so far as
 * it grows; resolves with the whole text. Aborting `signal` stops it (the server aborts the provider's
 * request too). A provider failure mid-stream rejects with an ApiError in the user's language.
 */
export async function streamSuggestion(
  body: AiSuggestBody,
  signal: AbortSignal,
  onText: (text: string) => void,
): Promise<string> {
  const stream = await api.post<ReadableStream<Uint8Array>>('/v1/ai/suggest/stream', body, {
    signal,
    responseType: 'stream',
  });
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const line = JSON.parse(buffer.slice(0, newline)) as AiStreamLine;
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
      if ('delta' in line) {
        text += line.delta;
        onText(text);
      } else if ('done' in line) return line.text;
      else throw new ApiError(502, { error: line.error, error_type: line.error_type }, line.error);
    }
  }
  const message = translate(currentLocale(), 'ai.provider.interrupted');
  throw new ApiError(502, { error: message, error_type: 'ai_provider' }, message);
}

/** Tags the agent suggests for one conversation (POST /v1/ai/tags); nothing is tagged by itself. */
export const useAiTags = () =>
  useKeptMutation({ mutationFn: (body: AiTagsBody) => api.post<AiTagsResult>('/v1/ai/tags', body) });
