import type {
  BotFailureWire,
  BotForm,
  BotStatsAnswer,
  BotsListWire,
  ChatBotSessionWire,
  PresentedBot,
} from '@otklik/shared';
import type { RouteQuery } from '@otklik/shared/routes';
import { useQuery } from '@tanstack/react-query';
import { api } from './instance';
import { useInvalidating } from './invalidating';

// Chat-bots (issue 17): Settings → chat-bots, stats/bots and the bot's conversation on the chat page.

export const botKeys = { all: ['bots'] as const };

/** GET /v1/bots; `enabled` false skips the request (bots not available to the caller). */
export const useBots = (enabled = true) =>
  useQuery({
    queryKey: botKeys.all,
    queryFn: ({ signal }) => api.get<BotsListWire>('/v1/bots', { signal }),
    enabled,
    staleTime: 30_000,
  });

export const useCreateBot = () =>
  useInvalidating(botKeys.all, (body: BotForm & { space_id: number; object_id: number }) =>
    api.post<PresentedBot>('/v1/bots', body),
  );
export const useUpdateBot = () =>
  useInvalidating(botKeys.all, ({ id, ...body }: BotForm & { id: number }) =>
    api.put<PresentedBot>(`/v1/bots/${id}`, body),
  );
export const useDeleteBot = () =>
  useInvalidating(botKeys.all, (id: number) => api.delete<{ message: string }>(`/v1/bots/${id}`));

export const useBotStats = (query: RouteQuery | null) =>
  useQuery({
    queryKey: ['stats', 'bots', query],
    queryFn: ({ signal }) => api.get<BotStatsAnswer>('/v1/stats/bots', { signal, query: query ?? undefined }),
    enabled: query !== null,
  });

/** The chat's bot conversation and what it collected (null: the bot never talked in it). */
export const useChatBot = (chatId: number, version: unknown) =>
  useQuery({
    // `version` (the chat's last message time) reads it again as the conversation moves.
    queryKey: ['chat-bot', chatId, version],
    queryFn: ({ signal }) =>
      api.get<ChatBotSessionWire>(`/v1/chats/${chatId}/bot`, {
        signal,
        forbiddenPage: false,
      }),
    staleTime: 10_000,
  });

/** A failed chat-bot step, for settings/errors (GET /v1/errors/bots): the shared wire shape. */
export type BotFailureDto = BotFailureWire;

export const useBotFailures = () =>
  useQuery({
    queryKey: [...botKeys.all, 'failures'],
    queryFn: ({ signal }) => api.get<{ items: BotFailureDto[] }>('/v1/errors/bots', { signal }),
    staleTime: 10_000,
  });
