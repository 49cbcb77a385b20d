import type { EmotionSettingsDto, UpdateEmotionSettingsBody } from '@otklik/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './instance';
import { useKeptMutation } from './invalidating';

// Emotions (issue 21): settings/emotions per space.

export const emotionKeys = { settings: (spaceId: number) => ['emotions', 'settings', spaceId] as const };

export const useEmotionSettings = (spaceId: number | null) =>
  useQuery({
    queryKey: emotionKeys.settings(spaceId ?? 0),
    queryFn: ({ signal }) =>
      api.get<EmotionSettingsDto>(`/v1/emotions/settings?space_id=${spaceId}`, { signal }),
    enabled: spaceId !== null,
  });

export function useSaveEmotionSettings() {
  const queryClient = useQueryClient();
  return useKeptMutation({
    mutationFn: (body: UpdateEmotionSettingsBody) =>
      api.put<EmotionSettingsDto>('/v1/emotions/settings', body),
    onSuccess: (saved) => queryClient.setQueryData(emotionKeys.settings(saved.space_id), saved),
  });
}
